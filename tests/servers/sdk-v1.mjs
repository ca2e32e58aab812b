#!/usr/bin/env node
// Real MCP server built on the TypeScript SDK v1 (@modelcontextprotocol/sdk, McpServer).
//   node sdk-v1.mjs --stdio
//   node sdk-v1.mjs --http --stateful  [--port N] [--json]   (sessions, POST/GET/DELETE /mcp)
//   node sdk-v1.mjs --http --stateless [--port N] [--json]   (fresh server+transport per POST)
// --json: enableJsonResponse (application/json replies instead of SSE).
// --exit-on-stdin-close: HTTP modes also exit when stdin reaches EOF.
// Wiring follows the SDK's own examples (simpleStreamableHttp / simpleStatelessStreamableHttp).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { HOST, parseArgs, die, log, listenLoopback, exitOnSignals } from './common.mjs';

function buildServer() {
    const server = new McpServer({ name: 'mcpfuzz-sdk-v1', version: '1.32.2' });
    server.registerTool(
        'echo',
        { description: 'Echo the message back', inputSchema: { message: z.string() } },
        async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] })
    );
    server.registerTool(
        'add',
        { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] })
    );
    server.registerTool('fail', { description: 'Always throws (tool execution error)' }, async () => {
        throw new Error('fail tool failed on purpose');
    });
    server.registerPrompt(
        'greeting',
        { description: 'Greet someone', argsSchema: { name: z.string() } },
        async ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please greet ${name}.` } }] })
    );
    server.registerResource('hello', 'test://static/hello', { mimeType: 'text/plain' }, async uri => ({
        contents: [{ uri: uri.href, text: 'Hello from sdk-v1' }]
    }));
    return server;
}

const rpcError = (res, status, code, message) => res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });

function statefulRoutes(app, json) {
    const transports = new Map(); // session id -> transport
    app.post('/mcp', async (req, res) => {
        const sid = req.headers['mcp-session-id'];
        try {
            let transport = sid ? transports.get(sid) : undefined;
            if (!transport) {
                if (sid) return rpcError(res, 404, -32001, 'Session not found');
                if (!isInitializeRequest(req.body)) return rpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
                transport = new StreamableHTTPServerTransport({
                    sessionIdGenerator: () => randomUUID(),
                    enableJsonResponse: json,
                    onsessioninitialized: id => transports.set(id, transport)
                });
                transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
                await buildServer().connect(transport);
            }
            await transport.handleRequest(req, res, req.body);
        } catch (e) {
            log('POST /mcp error:', e);
            if (!res.headersSent) rpcError(res, 500, -32603, 'Internal server error');
        }
    });
    const sessionOp = async (req, res) => {
        const sid = req.headers['mcp-session-id'];
        if (!sid) return res.status(400).send('Missing session ID');
        const transport = transports.get(sid);
        if (!transport) return rpcError(res, 404, -32001, 'Session not found');
        try {
            await transport.handleRequest(req, res);
        } catch (e) {
            log(`${req.method} /mcp error:`, e);
            if (!res.headersSent) rpcError(res, 500, -32603, 'Internal server error');
        }
    };
    app.get('/mcp', sessionOp);
    app.delete('/mcp', sessionOp);
    return async () => {
        for (const t of transports.values()) await t.close().catch(() => {});
    };
}

function statelessRoutes(app, json) {
    app.post('/mcp', async (req, res) => {
        const server = buildServer();
        try {
            const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
            res.on('close', () => {
                transport.close();
                server.close();
            });
            await server.connect(transport);
            await transport.handleRequest(req, res, req.body);
        } catch (e) {
            log('POST /mcp error:', e);
            if (!res.headersSent) rpcError(res, 500, -32603, 'Internal server error');
        }
    });
    const notAllowed = (req, res) =>
        res.writeHead(405).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
    app.get('/mcp', notAllowed);
    app.delete('/mcp', notAllowed);
    return async () => {};
}

const { flags, port } = parseArgs();
if (flags.has('stdio')) {
    exitOnSignals();
    await buildServer().connect(new StdioServerTransport());
    log('sdk-v1: serving stdio');
} else if (flags.has('http')) {
    const stateless = flags.has('stateless');
    if (stateless === flags.has('stateful')) die('--http needs exactly one of --stateful / --stateless');
    const app = createMcpExpressApp({ host: HOST }); // Host-header (DNS rebinding) guard + express.json()
    const cleanup = (stateless ? statelessRoutes : statefulRoutes)(app, flags.has('json'));
    const srv = createServer(app);
    exitOnSignals(async () => {
        await cleanup();
        srv.close();
    }, { stdinClose: flags.has('exit-on-stdin-close') });
    await listenLoopback(srv, port);
    log(`sdk-v1: streamable HTTP (${stateless ? 'stateless' : 'stateful'}${flags.has('json') ? ', JSON responses' : ''})`);
} else {
    die('usage: sdk-v1.mjs --stdio | --http (--stateful|--stateless) [--port N] [--json]');
}
