// Every construct of every given .tool file is highlighted: tokenizes each file with the
// extension's TextMate grammar (vscode-textmate, as VS Code does) and reports each piece of
// text that gets no scope beyond the file's own `source.toolidl`.
//
//   node coverage.mjs MODULES_DIR GRAMMAR FILE...
//
// MODULES_DIR is a node_modules folder with vscode-textmate and vscode-oniguruma (both come
// with vscode-tmgrammar-test). Exit status 0 when every token is scoped, 1 otherwise.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const [modules, grammarPath, ...files] = process.argv.slice(2);
const require = createRequire(join(modules, "package.json"));
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const wasm = readFileSync(join(modules, "vscode-oniguruma/release/onig.wasm")).buffer;
await oniguruma.loadWASM(wasm);
const registry = new textmate.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }),
  loadGrammar: async () =>
    textmate.parseRawGrammar(readFileSync(grammarPath, "utf8"), grammarPath),
});
const grammar = await registry.loadGrammar("source.toolidl");

let unscoped = 0;
let tokens = 0;
for (const file of files) {
  let state = textmate.INITIAL;
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, n) => {
      const result = grammar.tokenizeLine(line, state);
      for (const token of result.tokens) {
        const text = line.slice(token.startIndex, token.endIndex);
        if (text.trim() === "") continue;
        tokens++;
        if (token.scopes.length === 1) {
          unscoped++;
          console.log(`${file}:${n + 1}:${token.startIndex + 1}: no scope for ${JSON.stringify(text)}`);
        }
      }
      state = result.ruleStack;
    });
}
console.log(`textmate coverage: ${files.length} files, ${tokens} tokens, ${unscoped} without a scope`);
process.exit(unscoped === 0 ? 0 : 1);
