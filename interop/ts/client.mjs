// Drives one server with the official MCP TypeScript SDK client (npm
// `@modelcontextprotocol/client` 2.x) and checks what it answers against a spec file
// (interop/servers/*.json).
//
//   node client.mjs --modules DIR --spec FILE --mode legacy|auto|2026-07-28 [--transport NAME] [-v]
//                   (--url URL | -- COMMAND ARGS...)
//
// DIR is the node_modules folder the SDK is installed in (scripts/interop.sh's cache).
// `--mode` is the SDK's `versionNegotiation.mode`: `legacy` (the default: `initialize`,
// 2025-11-25), `auto` (probes `server/discover`, on stdio on a separate server process, then
// falls back to the handshake), or a version, `{ pin: version }`. Prints one line per failed
// check on stderr, `ok` lines too with -v, known failures (the spec's `known` entries for this
// client, transport and mode) as `KNOWN`, and `N passed, M failed, K known` on stdout; exits 1
// when a check failed or the client could not run.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Checks, expand, parseArgs, runToken, subset } from './checks.mjs';

const opts = parseArgs('client.mjs', '--modules DIR --spec FILE --mode MODE (--url URL | -- COMMAND...)');

const require = createRequire(join(opts.modules, 'package.json'));
const { Client, StreamableHTTPClientTransport, ProtocolError } = require('@modelcontextprotocol/client');
const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');

const spec = JSON.parse(readFileSync(opts.spec, 'utf8'));
opts.transport ??= opts.url ? 'http' : 'stdio';
const c = new Checks(spec, { client: 'ts', transport: opts.transport, mode: opts.mode, verbose: opts.verbose });
const check = (name, ok, detail) => c.check(name, ok, detail);
// The entries for this run: those without `modes`/`transports`, or that list this one.
const selected = entries =>
    (entries ?? []).filter(e => (e.modes ?? [opts.mode]).includes(opts.mode) && (e.transports ?? [opts.transport]).includes(opts.transport));
const equal = (name, got, want) => c.equal(name, got, want);
// `${run}` and what calls saved (`"save": NAME`), for expand (checks.mjs).
const vars = { run: runToken('ts', opts.mode) };
const texts = content => (content ?? []).filter(c => c.type === 'text').map(c => c.text);
const describe = e => (e instanceof ProtocolError ? `JSON-RPC error ${e.code} ${e.message}` : `${e?.name}: ${e?.message}`);
// A JSON-RPC error the client raised: its code and message (v2 keeps the server's message).
const rpcError = (name, e, want) => {
    if (!(e instanceof ProtocolError)) return check(name, false, `raised ${describe(e)}`);
    return equal(`${name}: error`, [e.code, e.message], [want.code, want.message]);
};

async function run() {
    const versionNegotiation = { mode: ['legacy', 'auto'].includes(opts.mode) ? opts.mode : { pin: opts.mode } };
    const client = new Client(
        { name: 'toolidl-interop', version: '1.0.0' },
        { versionNegotiation, capabilities: { sampling: {}, elicitation: {}, roots: {} } }
    );
    // What the client answers when the server asks (a request under the handshake revisions,
    // an input_required result under 2026-07-28, which the SDK fulfils with these handlers):
    // the same in every client program.
    client.setRequestHandler('sampling/createMessage', async () => ({
        model: 'interop',
        role: 'assistant',
        content: { type: 'text', text: 'Paris' },
    }));
    client.setRequestHandler('elicitation/create', async request => {
        const answers = { string: 'Ada', boolean: true, number: 1, integer: 1 };
        const properties = request.params.requestedSchema?.properties ?? {};
        const content = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, answers[v.type] ?? 'Ada']));
        return { action: 'accept', content };
    });
    const logged = [];
    client.setNotificationHandler('notifications/message', n => logged.push(n.params));
    const notified = []; // [method, uri] of change notifications
    client.setNotificationHandler('notifications/tools/list_changed', () => notified.push(['notifications/tools/list_changed', null]));
    client.setNotificationHandler('notifications/resources/updated', n => notified.push(['notifications/resources/updated', n.params.uri]));
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///projects/interop', name: 'interop' }] }));
    const transport = opts.url
        ? new StreamableHTTPClientTransport(new URL(opts.url))
        : new StdioClientTransport({ command: opts.command[0], args: opts.command.slice(1), stderr: 'inherit' });
    const timeout = 30_000;
    await client.connect(transport, { timeout });
    try {
        equal('negotiated protocol version', client.getNegotiatedProtocolVersion(), opts.mode === 'legacy' ? '2025-11-25' : '2026-07-28');

        const { tools } = await client.listTools(); // every page
        const names = tools.map(t => t.name);
        if (spec.tools) equal('tools/list names', names, spec.tools);
        for (const name of spec.toolsInclude ?? []) check(`tools/list has ${name}`, names.includes(name), `listed: ${names}`);

        const called = new Set();
        for (const entry of selected(spec.calls)) {
            const label = `tools/call ${entry.name} ${JSON.stringify(entry.arguments)}`;
            const call = expand(entry, vars);
            let r;
            try {
                r = await client.callTool({ name: call.name, arguments: call.arguments }, { timeout });
            } catch (e) {
                check(label, false, `raised ${describe(e)}`);
                continue;
            }
            called.add(call.name);
            if (!check(`${label}: no isError`, !r.isError, `isError with ${JSON.stringify(texts(r.content))}`)) continue;
            if ('text' in call) equal(`${label}: text`, texts(r.content), [call.text]);
            if ('structured' in call) equal(`${label}: structuredContent`, r.structuredContent ?? null, call.structured);
            if ('structuredSubset' in call) {
                check(`${label}: structuredContent`, subset(r.structuredContent, call.structuredSubset),
                    `got ${JSON.stringify(r.structuredContent)}, want at least ${JSON.stringify(call.structuredSubset)}`);
                const got = texts(r.content);
                let same = false;
                try {
                    same = got.length === 1 && JSON.stringify(JSON.parse(got[0])) === JSON.stringify(r.structuredContent);
                } catch {}
                check(`${label}: text is the structuredContent`, same, `text ${JSON.stringify(got)}`);
            }
            if ('save' in call) vars[call.save] = r.structuredContent;
        }
        if (spec.everyToolCalled ?? 'tools' in spec) {
            const missing = names.filter(n => !called.has(n));
            check('every listed tool called with good arguments', missing.length === 0, `not called: ${missing}`);
        }

        for (const entry of selected(spec.toolErrors)) {
            const label = `tools/call ${entry.name} ${JSON.stringify(entry.arguments)}`;
            const call = expand(entry, vars);
            try {
                const r = await client.callTool({ name: call.name, arguments: call.arguments }, { timeout });
                if (check(`${label}: isError`, r.isError === true, `no isError: ${JSON.stringify(texts(r.content))}`))
                    equal(`${label}: error text`, texts(r.content), [call.text]);
            } catch (e) {
                check(label, false, `raised ${describe(e)}`);
            }
        }

        for (const entry of selected(spec.callErrors)) {
            const label = `tools/call ${entry.name}`;
            const call = expand(entry, vars);
            try {
                const r = await client.callTool({ name: call.name, arguments: call.arguments }, { timeout });
                check(`${label}: JSON-RPC error`, false, `answered ${JSON.stringify(r)}`);
            } catch (e) {
                rpcError(label, e, call);
            }
        }

        for (const entry of selected(spec.inputs)) {
            const label = `tools/call ${entry.name} ${JSON.stringify(entry.arguments)} (asks the client)`;
            const call = expand(entry, vars);
            try {
                const r = await client.callTool({ name: call.name, arguments: call.arguments }, { timeout });
                if (check(`${label}: no isError`, !r.isError, `isError with ${JSON.stringify(texts(r.content))}`))
                    equal(`${label}: text`, texts(r.content), [call.text]);
            } catch (e) {
                check(label, false, `raised ${describe(e)}`);
            }
        }

        // Log messages a tool sends while it runs: under the handshake revisions after
        // logging/setLevel, under 2026-07-28 when the request's _meta asks for a level.
        const logging = selected(spec.logging);
        if (logging.length && opts.mode === 'legacy') await client.setLoggingLevel('info');
        for (const entry of logging) {
            const label = `log messages of ${entry.name}`;
            const call = expand(entry, vars);
            logged.length = 0;
            const _meta = opts.mode === 'legacy' ? undefined : { 'io.modelcontextprotocol/logLevel': call.level };
            try {
                const r = await client.callTool({ name: call.name, arguments: call.arguments, _meta }, { timeout });
                check(`${label}: no isError`, !r.isError, `isError with ${JSON.stringify(texts(r.content))}`);
            } catch (e) {
                check(label, false, `raised ${describe(e)}`);
                continue;
            }
            equal(`${label}: data`, logged.map(m => m.data), call.messages);
            equal(`${label}: levels`, [...new Set(logged.map(m => m.level))], [call.level]);
        }

        // Change notifications: a changed tool list and an updated resource the client
        // subscribed to (resources/subscribe and unsolicited notifications under the handshake
        // revisions, on the GET stream over HTTP; subscriptions/listen under 2026-07-28, whose
        // notifications the SDK hands to the same handlers).
        for (const note of selected(spec.notifications ? [spec.notifications] : [])) {
            const uri = note.uri;
            const want = [['notifications/resources/updated', uri], ['notifications/tools/list_changed', null]];
            const has = w => notified.some(n => n[0] === w[0] && n[1] === w[1]);
            notified.length = 0;
            try {
                let sub;
                if (opts.mode === 'legacy') {
                    await client.subscribeResource({ uri });
                    await new Promise(r => setTimeout(r, 200)); // over HTTP the GET stream opens after initialize
                } else {
                    sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: [uri] });
                    equal('notifications: honored subscriptions', sub.honoredFilter.resourceSubscriptions, [uri]);
                }
                // The tool change tool flips a tool in and out: twice leaves the server as it was.
                for (const tool of [note.toolChange, note.resourceUpdate, note.toolChange]) {
                    const r = await client.callTool({ name: tool, arguments: {} }, { timeout });
                    check(`notifications: ${tool}: no isError`, !r.isError, `isError with ${JSON.stringify(texts(r.content))}`);
                }
                for (let waited = 0; waited < 5000 && !want.every(has); waited += 50) await new Promise(r => setTimeout(r, 50));
                if (sub) await sub.close();
                else await client.unsubscribeResource({ uri });
                equal('notifications: received', want.filter(has), want);
            } catch (e) {
                check('notifications', false, `raised ${describe(e)}`);
            }
        }

        // A call the client gives up on: it cancels (notifications/cancelled, or under
        // 2026-07-28 over HTTP by closing the response), and the server goes on serving.
        for (const call of selected(spec.cancel)) {
            const label = `cancelled call of ${call.name}`;
            try {
                const r = await client.callTool({ name: call.name, arguments: call.arguments }, { timeout: call.afterSeconds * 1000 });
                check(`${label}: times out`, false, `answered ${JSON.stringify(texts(r.content))}`);
            } catch (e) {
                check(`${label}: times out`, /timed out/i.test(e?.message ?? ''), `raised ${describe(e)}`);
            }
            for (const next of selected(spec.calls).slice(0, 1)) {
                const r = await client.callTool({ name: next.name, arguments: next.arguments }, { timeout });
                equal(`${label}: the next call is answered`, texts(r.content), [next.text]);
            }
        }

        for (const entry of selected(spec.progress)) {
            const label = `progress of ${entry.name}`;
            const call = expand(entry, vars);
            const seen = [];
            try {
                const r = await client.callTool(
                    { name: call.name, arguments: call.arguments },
                    { timeout, onprogress: p => seen.push(p) }
                );
                check(`${label}: no isError`, !r.isError, `isError with ${JSON.stringify(texts(r.content))}`);
            } catch (e) {
                check(label, false, `raised ${describe(e)}`);
                continue;
            }
            equal(`${label}: values`, seen.map(p => p.progress), call.values);
            if ('total' in call) equal(`${label}: totals`, [...new Set(seen.map(p => p.total))], [call.total]);
        }

        if (spec.resources) equal('resources/list uris', (await client.listResources()).resources.map(r => r.uri), spec.resources);
        if (spec.templates)
            equal('resources/templates/list', (await client.listResourceTemplates()).resourceTemplates.map(t => t.uriTemplate), spec.templates);
        for (const entry of selected(spec.reads)) {
            const label = `resources/read ${entry.uri}`;
            const read = expand(entry, vars);
            try {
                const r = await client.readResource({ uri: read.uri });
                if ('code' in read) check(`${label}: JSON-RPC error`, false, `answered ${JSON.stringify(r)}`);
                else if ('textContains' in read) {
                    equal(`${label}: uri and MIME type`, r.contents.map(x => [x.uri, x.mimeType ?? null]), [[read.uri, read.mimeType ?? null]]);
                    for (const part of read.textContains)
                        check(`${label}: text contains ${JSON.stringify(part)}`, r.contents.some(x => (x.text ?? '').includes(part)),
                            `text ${JSON.stringify(r.contents.map(x => x.text ?? null))}`);
                } else equal(`${label}: contents`, r.contents.map(x => [x.uri, x.mimeType ?? null, x.text ?? null]), [[read.uri, read.mimeType ?? null, read.text]]);
            } catch (e) {
                if ('code' in read) rpcError(label, e, read);
                else check(label, false, `raised ${describe(e)}`);
            }
        }

        if (spec.prompts) equal('prompts/list names', (await client.listPrompts()).prompts.map(p => p.name), spec.prompts);
        for (const entry of selected(spec.gets)) {
            const label = `prompts/get ${entry.name} ${JSON.stringify(entry.arguments)}`;
            const get = expand(entry, vars);
            try {
                const r = await client.getPrompt({ name: get.name, arguments: get.arguments });
                if ('code' in get) check(`${label}: JSON-RPC error`, false, `answered ${JSON.stringify(r)}`);
                else equal(`${label}: messages`, r.messages.map(m => [m.role, m.content?.text ?? null]), [['user', get.text]]);
            } catch (e) {
                if ('code' in get) rpcError(label, e, get);
                else check(label, false, `raised ${describe(e)}`);
            }
        }

        for (const entry of selected(spec.completions)) {
            const label = `completion/complete ${entry.ref.name ?? entry.ref.uri} ${JSON.stringify(entry.argument)}`;
            const comp = expand(entry, vars);
            try {
                const r = await client.complete({ ref: comp.ref, argument: comp.argument });
                equal(`${label}: values`, r.completion.values, comp.values);
            } catch (e) {
                check(label, false, `raised ${describe(e)}`);
            }
        }
    } finally {
        await client.close();
    }
}

try {
    await Promise.race([
        run(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 120 s')), 120_000).unref()),
    ]);
    c.finish();
} catch (e) {
    check('session', false, describe(e));
    if (opts.verbose) console.error(e);
}
process.exit(c.report());
