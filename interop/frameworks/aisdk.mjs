// The Vercel AI SDK (npm `ai` with `@ai-sdk/mcp`) against the example servers, no model called.
//
//   node aisdk.mjs --modules DIR [-v] --run SERVER SPEC TRANSPORT PROFILE TARGET [--run ...]
//
// The same runs and checks as harness.py (the Python frameworks'): one process does every run
// it is given and prints `RUN SERVER TRANSPORT PROFILE SECONDS: N passed, M failed, K known` for each.
// Connects with createMCPClient (StdioMCPTransport, or `{type: 'http', url}`), converts the
// listing with `tools()` (the ToolSet a generateText call is given), and runs each call with
// the tool's own `execute`, as generateText does for the model's tool call. What the model
// sees is the tool's `toModelOutput` of that result.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Checks, expand, subset } from '../ts/checks.mjs';

const argv = process.argv.slice(2);
const opt = { runs: [], verbose: false };
for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--modules') opt.modules = argv[++i];
    else if (argv[i] === '-v') opt.verbose = true;
    else if (argv[i] === '--run') opt.runs.push(argv.slice(i + 1, (i += 5) + 1));
    else throw new Error(`aisdk.mjs: unknown argument ${argv[i]}`);
}
const require = createRequire(join(opt.modules, 'package.json'));
const { createMCPClient } = require('@ai-sdk/mcp');
const { StdioMCPTransport } = require('@ai-sdk/mcp/mcp-stdio');
const { asSchema } = require('ai');

const FRAMEWORK = 'ai-sdk';
const compact = v => JSON.stringify(v);
// The frameworks use the handshake (legacy mode).
const selected = (entries, transport) =>
    (entries ?? []).filter(e => (e.modes ?? ['legacy']).includes('legacy') && (e.transports ?? [transport]).includes(transport));

// What the model is given for a tool result: the tool's toModelOutput, as text.
async function modelSees(tool, name, args) {
    const output = await tool.execute(args, { toolCallId: 'call_1', messages: [] });
    const seen = await tool.toModelOutput({ toolCallId: 'call_1', input: args, output });
    if (seen.type === 'text') return seen.value;
    if (seen.type === 'json') return JSON.stringify(seen.value);
    return seen.value.map(p => p.text ?? '').join('');
}

async function runOne(spec, transport, profile, target, c) {
    // `${run}`: short enough for the notes' tags (at most 32 characters).
    const hex = Math.floor(Math.random() * 0x10000).toString(16).padStart(4, '0');
    const vars = { run: `aisdk-${profile === 'standard' ? 'std' : 'strict'}-${hex}` };
    const [command, ...args] = target.split(' ').filter(Boolean);
    const client = await createMCPClient({
        transport: target.startsWith('http') ? { type: 'http', url: target } : new StdioMCPTransport({ command, args, stderr: 'inherit' }),
    });
    try {
        const { tools: listed } = await client.listTools();
        const tools = await client.tools();
        const names = Object.keys(tools);
        if (spec.tools) c.equal('tools listed and converted', names, spec.tools);
        for (const t of listed) {
            if (!tools[t.name]) continue;
            const want = { ...t.inputSchema, properties: t.inputSchema.properties ?? {}, additionalProperties: false };
            c.equal(`${t.name}: the schema is the listed one`, await asSchema(tools[t.name].inputSchema).jsonSchema, want);
        }

        for (const entry of selected(spec.calls, transport)) {
            const label = `${entry.name} ${compact(entry.arguments)}`;
            const call = expand(entry, vars);
            let seen;
            try {
                seen = await modelSees(tools[call.name], call.name, call.arguments);
            } catch (e) {
                c.check(label, false, `raised ${e?.name}: ${e?.message}`);
                continue;
            }
            if ('text' in call) c.equal(`${label}: the model sees the text`, seen, call.text);
            let value = null;
            try {
                value = JSON.parse(seen);
            } catch {}
            if ('structuredSubset' in call)
                c.check(`${label}: the model sees the result`, subset(value, call.structuredSubset),
                    `saw ${seen}, want at least ${compact(call.structuredSubset)}`);
            if ('save' in call) vars[call.save] = value;
        }

        for (const entry of selected(spec.toolErrors, transport)) {
            const label = `${entry.name} ${compact(entry.arguments)}`;
            const call = expand(entry, vars);
            try {
                const seen = await modelSees(tools[call.name], call.name, call.arguments);
                c.check(`${label}: the model sees the error`, seen.includes(call.text), `saw ${compact(seen)}, want ${compact(call.text)} in it`);
            } catch (e) {
                c.check(label, false, `raised ${e?.name}: ${e?.message}`);
            }
        }

        for (const entry of selected(spec.reads, transport).filter(r => !('code' in r))) {
            const read = expand(entry, vars);
            const r = await client.readResource({ uri: read.uri });
            c.equal(`resource ${entry.uri}: MIME type`, r.contents[0].mimeType, read.mimeType);
            for (const part of read.textContains ?? [read.text])
                c.check(`resource ${entry.uri}: text has ${compact(part)}`, (r.contents[0].text ?? '').includes(part), `text ${compact(r.contents[0].text)}`);
        }

        for (const entry of selected(spec.gets, transport).filter(g => !('code' in g))) {
            const get = expand(entry, vars);
            const r = await client.getPrompt({ name: get.name, arguments: get.arguments });
            c.equal(`prompt ${get.name} ${compact(entry.arguments)}`, r.messages.map(m => m.content.text ?? '').join(''), get.text);
        }
    } finally {
        await client.close();
    }
}

let failed = false;
for (const [server, specFile, transport, profile, target] of opt.runs) {
    const spec = JSON.parse(readFileSync(specFile, 'utf8'));
    // The spec's known failures that name this framework.
    const known = (spec.known ?? []).filter(k => (k.clients ?? []).includes(FRAMEWORK));
    const c = new Checks({ known }, { client: FRAMEWORK, transport, mode: 'legacy', verbose: opt.verbose });
    console.error(`== ${server} ${transport} ${profile}`);
    const start = performance.now();
    try {
        await runOne(spec, transport, profile, target, c);
        c.finish();
    } catch (e) {
        c.check('session', false, `${e?.name}: ${e?.message}`);
    }
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    console.log(`RUN ${server} ${transport} ${profile} ${seconds}: ${c.passed} passed, ${c.failed} failed, ${c.knownFailed} known`);
    failed ||= c.failed > 0;
}
process.exit(failed ? 1 : 0);
