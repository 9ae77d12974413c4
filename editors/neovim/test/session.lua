-- A real editor session against `toolidl lsp`: Neovim's built-in LSP client opens a broken
-- .tool file, waits for its diagnostics, asks for hover, go to definition across an import,
-- and formatting, and checks each answer. Run by scripts/editors.sh:
--
--   TOOLIDL=path/to/toolidl WORKDIR=dir nvim --headless --clean -u NONE -c 'luafile session.lua'
--
-- WORKDIR holds broken.tool (which imports common.tool) and broken.formatted.tool (what
-- `toolidl fmt` makes of it). Prints one line per check; exits 0 when all pass, 1 otherwise.

local toolidl = os.getenv('TOOLIDL')
local workdir = os.getenv('WORKDIR')
local failures = 0

local function check(ok, what, detail)
  if ok then
    print('ok: ' .. what)
  else
    failures = failures + 1
    print('FAILED: ' .. what .. (detail and (': ' .. detail) or ''))
  end
end

local function finish()
  for _, client in ipairs(vim.lsp.get_active_clients()) do
    client.stop(true)
  end
  print(failures == 0 and 'neovim session: all checks passed'
    or ('neovim session: ' .. failures .. ' check(s) failed'))
  io.stdout:flush()
  os.exit(failures == 0 and 0 or 1)
end

local function read(path)
  local file = assert(io.open(path, 'r'))
  local text = file:read('*a')
  file:close()
  return text
end

vim.cmd('edit ' .. vim.fn.fnameescape(workdir .. '/broken.tool'))
local bufnr = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = 'toolidl',
  cmd = { toolidl, 'lsp' },
  root_dir = workdir,
})
check(client_id ~= nil, 'the client starts toolidl lsp')
if not client_id then finish() end
vim.lsp.buf_attach_client(bufnr, client_id)
local client = vim.lsp.get_client_by_id(client_id)

-- 1. Diagnostics, pushed by the server after didOpen.
vim.wait(15000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
local diagnostics = vim.diagnostic.get(bufnr)
local typo
for _, d in ipairs(diagnostics) do
  local lsp = d.user_data and d.user_data.lsp or {}
  if (d.code or lsp.code) == 'E0101' and d.message:find('unknown type `strin`', 1, true) then
    typo = d
  end
end
check(typo ~= nil, 'diagnostics: E0101 unknown type `strin`',
  vim.inspect(diagnostics))
if typo then
  check(typo.message:find('help: did you mean `string`?', 1, true) ~= nil,
    'diagnostics: the help is part of the message', typo.message)
  check(typo.lnum == 6 and typo.col == 9, 'diagnostics: at line 7, column 10',
    typo.lnum .. ':' .. typo.col)
end

-- The position (0-based line and UTF-16 column) of the first `needle` in the buffer.
local function position_of(needle)
  for line, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = text:find(needle, 1, true)
    if col then
      return { line = line - 1, character = col }
    end
  end
  error('no ' .. needle .. ' in the buffer')
end

local function request(method, params)
  local response, err = client.request_sync(method, params, 10000, bufnr)
  if not response then
    return nil, tostring(err)
  end
  if response.err then
    return nil, vim.inspect(response.err)
  end
  return response.result
end

local document = { uri = vim.uri_from_bufnr(bufnr) }

-- 2. Hover on the imported record `Money`: its doc and the schema agents see.
local hover, err = request('textDocument/hover',
  { textDocument = document, position = position_of('Money') })
local value = hover and hover.contents and hover.contents.value or ''
check(value:find('record Money', 1, true) ~= nil, 'hover: names the record', err or value)
check(value:find('An amount of money.', 1, true) ~= nil, 'hover: shows its doc comment', value)
check(value:find('"pattern": "^[A-Z]{3}$"', 1, true) ~= nil,
  'hover: shows its JSON Schema', value)

-- 3. Go to definition across the import.
local definition
definition, err = request('textDocument/definition',
  { textDocument = document, position = position_of('Money') })
if definition and definition[1] then definition = definition[1] end
local target = definition and (definition.uri or definition.targetUri) or ''
check(target:sub(-#'/common.tool') == '/common.tool', 'definition: in common.tool', err or target)
local range = definition and (definition.range or definition.targetSelectionRange)
check(range ~= nil and range.start.line == 4 and range.start.character == 7,
  'definition: at `record Money`', vim.inspect(range))

-- 4. Formatting: the edits make the buffer what `toolidl fmt` makes of the file.
local edits
edits, err = request('textDocument/formatting',
  { textDocument = document, options = { tabSize = 4, insertSpaces = true } })
check(edits ~= nil and #edits > 0, 'formatting: edits', err)
if edits then
  vim.lsp.util.apply_text_edits(edits, bufnr, 'utf-16')
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
  local expected = read(workdir .. '/broken.formatted.tool')
  check(text == expected, 'formatting: the buffer is in toolidl fmt layout', text)
end

finish()
