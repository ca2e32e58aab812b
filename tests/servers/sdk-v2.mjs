#!/usr/bin/env node
// Real MCP server built on the TypeScript SDK v2
// (@modelcontextprotocol/server + @modelcontextprotocol/node).
//   node sdk-v2.mjs --stdio [--legacy serve|reject]
//   node sdk-v2.mjs --http  [--port N] [--legacy sessions|stateless|reject] [--response-mode auto|sse|json]
//                           [--keepalive-ms N]
// HTTP serves one endpoint, /mcp. 2026-07-28 (per-request _meta envelope) traffic always goes to
// the SDK's createMcpHandler. 2025-era traffic (initialize handshake, no envelope) is served by:
//   sessions  (default) sessionful WebStandardStreamableHTTPServerTransport, routed in front of a
//             `legacy: 'reject'` handler with isLegacyRequest() -- the SDK's documented pattern
//   stateless createMcpHandler's built-in stateless fallback (GET/DELETE -> 405, no Mcp-Session-Id)
//   reject    modern-only: legacy requests get the unsupported-protocol-version error
// --response-mode applies to 2026-07-28 exchanges only (SDK default: auto).
// --keepalive-ms N: SSE keep-alive interval (SDK default 15000). Note the Node adapter sends
//   no response headers for a 2025 GET stream until its first frame, i.e. the first keep-alive.
// --exit-on-stdin-close: HTTP mode also exits when stdin reaches EOF.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
    McpServer,
    createMcpHandler,
    isLegacyRequest,
    WebStandardStreamableHTTPServerTransport
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler, localhostHostValidation, localhostOriginValidation } from '@modelcontextprotocol/node';
import * as z from 'zod/v4';
import { parseArgs, die, log, listenLoopback, exitOnSignals } from './common.mjs';

// One factory backs every era (the SDK calls it per request / per stdio connection).
function buildServer() {
    const server = new McpServer({ name: 'mcpfuzz-sdk-v2', version: '2.4.0' });
    server.registerTool(
        'echo',
        { description: 'Echo the message back', inputSchema: z.object({ message: z.string() }) },
        async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] })
    );
    server.registerTool(
        'add',
        { description: 'Add two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] })
    );
    server.registerTool('fail', { description: 'Always throws (tool execution error)' }, async () => {
        throw new Error('fail tool failed on purpose');
    });
    server.registerPrompt(
        'greeting',
        { description: 'Greet someone', argsSchema: z.object({ name: z.string() }) },
        async ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please greet ${name}.` } }] })
    );
    server.registerResource('hello', 'test://static/hello', { mimeType: 'text/plain' }, async uri => ({
        contents: [{ uri: uri.href, text: 'Hello from sdk-v2' }]
    }));
    return server;
}

const jsonRpcError = (status, code, message) =>
    new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
        status,
        headers: { 'Content-Type': 'application/json' }
    });

// 2025-era sessionful leg: one transport + server per Mcp-Session-Id.
function sessionfulLegacy(keepAliveMs) {
    const sessions = new Map();
    const fetch = async request => {
        const sid = request.headers.get('mcp-session-id');
        const known = sid ? sessions.get(sid) : undefined;
        if (known) return known.transport.handleRequest(request);
        if (sid) return jsonRpcError(404, -32001, 'Session not found');
        // GET/DELETE without a session: 405, which both eras allow (2026-07-28 says SHOULD).
        if (request.method !== 'POST') {
            const r = jsonRpcError(405, -32000, 'Method not allowed.');
            r.headers.set('Allow', 'POST');
            return r;
        }
        // No session yet: a fresh transport answers (initialize opens a session; anything else
        // gets the SDK transport's own rejection, after which the instance is dropped).
        const server = buildServer();
        const transport = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            ...(keepAliveMs !== undefined && { keepAliveMs }),
            onsessioninitialized: id => sessions.set(id, { transport, server }),
            onsessionclosed: id => sessions.delete(id)
        });
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
        await server.connect(transport);
        const response = await transport.handleRequest(request);
        if (!transport.sessionId) setImmediate(() => server.close().catch(() => {}));
        return response;
    };
    const close = async () => {
        for (const { server } of sessions.values()) await server.close().catch(() => {});
    };
    return { fetch, close };
}

const { flags, opts, port } = parseArgs(process.argv.slice(2), ['port', 'legacy', 'response-mode', 'keepalive-ms']);

if (flags.has('stdio')) {
    const legacy = opts.legacy ?? 'serve';
    if (!['serve', 'reject'].includes(legacy)) die('--stdio --legacy must be serve|reject');
    const handle = serveStdio(buildServer, { legacy, onerror: e => log('stdio error:', e) });
    exitOnSignals(() => handle.close());
    log(`sdk-v2: serving stdio (legacy: ${legacy})`);
} else if (flags.has('http')) {
    const legacy = opts.legacy ?? 'sessions';
    if (!['sessions', 'stateless', 'reject'].includes(legacy)) die('--legacy must be sessions|stateless|reject');
    const responseMode = opts['response-mode'] ?? 'auto';
    if (!['auto', 'sse', 'json'].includes(responseMode)) die('--response-mode must be auto|sse|json');

    const keepAliveMs = opts['keepalive-ms'] === undefined ? undefined : Number(opts['keepalive-ms']);
    if (keepAliveMs !== undefined && !(keepAliveMs >= 0)) die('bad --keepalive-ms');
    const modern = createMcpHandler(buildServer, {
        legacy: legacy === 'stateless' ? 'stateless' : 'reject',
        responseMode,
        ...(keepAliveMs !== undefined && { keepAliveMs }),
        onerror: e => log('handler:', e.message)
    });
    let handler = modern;
    let legacyLeg;
    if (legacy === 'sessions') {
        legacyLeg = sessionfulLegacy(keepAliveMs);
        handler = { fetch: async req => ((await isLegacyRequest(req)) ? legacyLeg.fetch(req) : modern.fetch(req)) };
    }
    const nodeHandler = toNodeHandler(handler, { onerror: e => log('adapter:', e) });
    // Plain node:http, guarded as the @modelcontextprotocol/node README shows.
    const validateHost = localhostHostValidation();
    const validateOrigin = localhostOriginValidation();
    const srv = createServer((req, res) => {
        if (!validateHost(req, res) || !validateOrigin(req, res)) return;
        if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
            res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
            return;
        }
        nodeHandler(req, res).catch(e => log('request error:', e));
    });
    exitOnSignals(
        async () => {
            await modern.close();
            await legacyLeg?.close();
            srv.close();
        },
        { stdinClose: flags.has('exit-on-stdin-close') }
    );
    await listenLoopback(srv, port);
    log(`sdk-v2: streamable HTTP (2026-07-28 + legacy: ${legacy}, responseMode: ${responseMode})`);
} else {
    die('usage: sdk-v2.mjs --stdio [--legacy serve|reject] | --http [--port N] [--legacy sessions|stateless|reject] [--response-mode auto|sse|json] [--keepalive-ms N]');
}
