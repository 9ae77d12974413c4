// Runs the MCP Inspector's CLI (npm `@modelcontextprotocol/inspector`, `--cli`) against one
// server and checks its answers against a spec file (interop/servers/*.json):
//
//   - `--method tools/list --strict`: exit status 0, no error-severity finding of its schema
//     portability lint (`--strict` exits 6 on one and lists them), the listed names;
//   - `--method tools/call` of the spec's first good call: exit status 0, its text (or its
//     `structuredSubset`);
//   - `--method tools/call` of the spec's first tool error: exit status 5 (the CLI's
//     TOOL_ERROR for an `isError` result) and its text.
//
//   node inspector.mjs --modules DIR --spec FILE --mode legacy|auto|modern [--transport NAME] [-v]
//                      (--url URL | -- COMMAND ARGS...)
//
// `--mode` is the CLI's `--protocol-era`. Prints `N passed, M failed, K known` on stdout.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { Checks, expand, parseArgs, runToken, subset } from './checks.mjs';

const opts = parseArgs('inspector.mjs', '--modules DIR --spec FILE --mode ERA (--url URL | -- COMMAND...)');
opts.transport ??= opts.url ? 'http' : 'stdio';

const spec = JSON.parse(readFileSync(opts.spec, 'utf8'));
const c = new Checks(spec, { client: 'inspector', transport: opts.transport, mode: opts.mode, verbose: opts.verbose });

// The package's `bin` (the launcher; `--cli` runs the CLI client).
const require = createRequire(join(opts.modules, 'package.json'));
const pkgFile = require.resolve('@modelcontextprotocol/inspector/package.json');
const launcher = join(dirname(pkgFile), JSON.parse(readFileSync(pkgFile, 'utf8')).bin['mcp-inspector']);

// One CLI run: its exit status and parsed JSON output (`--format json`: one object).
function inspector(args) {
    const target = opts.url ? [opts.url, '--transport', 'http'] : opts.command;
    const r = spawnSync(
        process.execPath,
        [launcher, '--cli', ...target, '--protocol-era', opts.mode, '--format', 'json', ...args],
        { encoding: 'utf8', timeout: 60_000 }
    );
    let json;
    try {
        json = JSON.parse(r.stdout.trim().split('\n').pop());
    } catch {
        json = undefined;
    }
    return { status: r.status, json, stderr: r.stderr, stdout: r.stdout };
}
const show = r => `exit ${r.status}, stdout ${r.stdout.slice(0, 300)}, stderr ${r.stderr.slice(0, 300)}`;
const texts = result => (result?.content ?? []).filter(x => x.type === 'text').map(x => x.text);

const list = inspector(['--method', 'tools/list', '--strict']);
if (c.check('tools/list --strict: exit status 0', list.status === 0, show(list))) {
    const findings = list.json?.schemaFindings ?? [];
    const errors = findings.flatMap(t => t.findings.filter(f => f.severity === 'error').map(f => `${t.toolName} ${f.schema}${f.path}: ${f.issue}`));
    c.equal('tools/list --strict: portability errors', errors, []);
    const warnings = findings.flatMap(t => t.findings.filter(f => f.severity !== 'error').map(f => `${t.toolName} ${f.schema}${f.path}: ${f.rule ?? f.issue}`));
    if (warnings.length && opts.verbose) console.error(`  note portability warnings: ${warnings.join('; ')}`);
    const names = (list.json?.result?.tools ?? []).map(t => t.name);
    if (spec.tools) c.equal('tools/list names', names, spec.tools);
    for (const name of spec.toolsInclude ?? []) c.check(`tools/list has ${name}`, names.includes(name), `listed: ${names}`);
}

const plain = entries => (entries ?? []).find(e => !e.modes && !e.transports); // for every run
// `${run}` in the spec's strings (checks.mjs); nothing is saved, as only one call is made.
const vars = { run: runToken('inspector', opts.mode) };
const goodEntry = plain(spec.calls);
if (goodEntry) {
    const label = `tools/call ${goodEntry.name} ${JSON.stringify(goodEntry.arguments)}`;
    const good = expand(goodEntry, vars);
    const r = inspector(['--method', 'tools/call', '--tool-name', good.name, '--tool-args-json', JSON.stringify(good.arguments)]);
    if (c.check(`${label}: exit status 0`, r.status === 0, show(r))) {
        if ('text' in good) c.equal(`${label}: text`, texts(r.json?.result), [good.text]);
        if ('structuredSubset' in good) {
            const structured = r.json?.result?.structuredContent;
            c.check(`${label}: structuredContent`, subset(structured, good.structuredSubset),
                `got ${JSON.stringify(structured)}, want at least ${JSON.stringify(good.structuredSubset)}`);
        }
    }
}

const badEntry = plain(spec.toolErrors);
if (badEntry) {
    const label = `tools/call ${badEntry.name} ${JSON.stringify(badEntry.arguments)}`;
    const bad = expand(badEntry, vars);
    const r = inspector(['--method', 'tools/call', '--tool-name', bad.name, '--tool-args-json', JSON.stringify(bad.arguments)]);
    if (c.check(`${label}: exit status 5 (isError)`, r.status === 5, show(r)))
        c.equal(`${label}: error text`, texts(r.json?.result), [bad.text]);
}

c.finish();
process.exit(c.report());
