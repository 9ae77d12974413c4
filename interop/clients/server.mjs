// examples/weather on the official TypeScript SDK's server package (npm
// `@modelcontextprotocol/server` 2.x, its low-level `Server`), for the typed clients' interop
// run (scripts/interop.sh, docs/interop.md "Typed clients").
//
//   node server.mjs --modules DIR --listing FILE [--http HOST:PORT]
//
// DIR is the node_modules folder the SDK is installed in. FILE is the listing `toolidl schema`
// prints for weather.tool and manual.tool, published as it is. The behaviour is
// examples/weather/src/lib.rs's, in the wire shapes of docs/runtime.md's result table (a string
// one text block, a list or an integer one text block of JSON, a record `structuredContent`
// plus the same JSON as text, a tool error `isError` with its text). Serves stdio with
// `serveStdio`, or Streamable HTTP at http://HOST:PORT/mcp with `createMcpHandler` (2026-07-28,
// and the handshake revisions served statelessly: the SDK's entry keeps no session) behind
// node:http. `--http` is the example servers' flag, so interop.sh starts all of them alike.

import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
    options: { modules: { type: 'string' }, listing: { type: 'string' }, http: { type: 'string' } },
});
if (!opts.modules || !opts.listing) {
    console.error('usage: server.mjs --modules DIR --listing FILE [--http HOST:PORT]');
    process.exit(2);
}
const require = createRequire(join(opts.modules, 'package.json'));
const { Server, ProtocolError, ResourceNotFoundError, createMcpHandler } = require('@modelcontextprotocol/server');
const listing = JSON.parse(readFileSync(opts.listing, 'utf8'));

// name, latitude, longitude, temperature in °C
const CITIES = [['Brussels', 50.85, 4.35, 11.5], ['Lisbon', 38.72, -9.14, 19.0], ['Oslo', 59.91, 10.75, 3.0]];
const INVALID_PARAMS = -32602;
const city = name => CITIES.find(c => c[0].toLowerCase() === String(name).toLowerCase());

const text = s => ({ content: [{ type: 'text', text: s }] });
const json = v => text(JSON.stringify(v));
const structured = v => ({ ...json(v), structuredContent: v });
const toolError = s => ({ ...text(s), isError: true });

const TOOLS = {
    get_weather({ city: name, units = 'celsius' }) {
        const c = city(name);
        if (!c) return toolError(`No weather known for ${name}.`);
        return units === 'fahrenheit' ? text(`${c[0]}: ${((c[3] * 9) / 5 + 32).toFixed(1)}°F`) : text(`${c[0]}: ${c[3].toFixed(1)}°C`);
    },
    daily_forecast({ city: name, days = 3 }) {
        if (!Number.isInteger(days) || days < 1 || days > 14) {
            return toolError("Argument 'days' is not valid. Expected a value from 1 to 14.");
        }
        const c = city(name);
        if (!c) return toolError(`No forecast for ${name}.`);
        return json(
            Array.from({ length: days }, (_, d) => ({
                city: c[0],
                tempC: c[3] + d / 2,
                humidity: d % 2 === 0 ? 60 + d : null,
                when: `2026-12-${String(1 + d).padStart(2, '0')}`,
            }))
        );
    },
    locate({ city: name }) {
        const c = city(name);
        return c ? structured({ latitude: c[1], longitude: c[2] }) : toolError(`No city named ${name}.`);
    },
    greet: ({ name }) => text(`Hello, ${name}!`),
    add: ({ a, b }) => json(a + b),
    stats: ({ values }) =>
        structured({
            count: values.length,
            min: Math.min(...values),
            max: Math.max(...values),
            mean: values.reduce((s, v) => s + v, 0) / values.length,
        }),
};

function readCity(uri) {
    const prefix = 'weather://cities/';
    const name = uri.startsWith(prefix) ? decodeURIComponent(uri.slice(prefix.length)) : '';
    const c = city(name);
    // The SDK sends -32602 with data.uri, on every revision (-32002 is what it accepts).
    if (!c) throw new ResourceNotFoundError(uri, `No city named ${name}.`);
    return { contents: [{ uri, mimeType: 'text/markdown', text: `# ${c[0]}\n\nAt ${c[1]}° N, ${c[2]}° E.\n` }] };
}

// One instance per connection (stdio) or per request (HTTP): the SDK's serving entries ask.
function makeServer() {
    const server = new Server(
        { name: 'weather-typescript-sdk', version: '0.1.0' },
        { capabilities: { tools: {}, resources: {}, prompts: {} } }
    );
    server.setRequestHandler('tools/list', () => ({ tools: listing.tools }));
    server.setRequestHandler('tools/call', ({ params }) => {
        const tool = TOOLS[params.name];
        if (!tool) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: ${params.name}`);
        return tool(params.arguments ?? {});
    });
    server.setRequestHandler('resources/list', () => ({ resources: [] }));
    server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: listing.resourceTemplates ?? [] }));
    server.setRequestHandler('resources/read', ({ params }) => readCity(params.uri));
    server.setRequestHandler('prompts/list', () => ({ prompts: listing.prompts ?? [] }));
    server.setRequestHandler('prompts/get', ({ params }) => {
        if (params.name !== 'summarize') throw new ProtocolError(INVALID_PARAMS, `Unknown prompt: ${params.name}`);
        const { city: name, days = '3', units = 'celsius' } = params.arguments ?? {};
        const message = `Summarize the weather in ${name} for the next ${days} days, in ${units}.`;
        return { messages: [{ role: 'user', content: { type: 'text', text: message } }] };
    });
    return server;
}

// node:http to the handler's web-standard fetch and back (what @modelcontextprotocol/node's
// toNodeHandler does; not installed here).
async function serveHttp(addr) {
    const [, host, port] = addr.match(/^(.*):(\d+)$/) ?? [];
    const handler = createMcpHandler(makeServer);
    const http = createServer(async (req, res) => {
        try {
            const chunks = [];
            for await (const chunk of req) chunks.push(chunk);
            const body = ['GET', 'HEAD'].includes(req.method) ? undefined : Buffer.concat(chunks);
            const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers: req.headers, body });
            const response = await handler.fetch(request);
            res.writeHead(response.status, Object.fromEntries(response.headers));
            if (response.body) for await (const chunk of response.body) res.write(chunk);
            res.end();
        } catch (e) {
            console.error(e);
            if (!res.headersSent) res.writeHead(500);
            res.end();
        }
    });
    http.listen(Number(port), host, () => console.error(`serving MCP at http://${addr}/mcp`));
}

if (opts.http) {
    await serveHttp(opts.http);
} else {
    const { serveStdio } = require('@modelcontextprotocol/server/stdio');
    serveStdio(makeServer);
}
