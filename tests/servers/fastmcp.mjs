#!/usr/bin/env node
// Real MCP server built with the third-party framework fastmcp (punkpeye/fastmcp, on SDK v1).
//   node fastmcp.mjs --stdio
//   node fastmcp.mjs --http [--stateless] [--json] [--port N] [--exit-on-stdin-close]
// --http is fastmcp's "httpStream" transport (mcp-proxy's startHTTPServer: Streamable HTTP on
// /mcp, legacy SSE on /sse), stateful with Mcp-Session-Id unless --stateless.
// --json: enableJsonResponse. Everything else is fastmcp's defaults, as a user would run it
// (including its server-to-client ping every 5 s on HTTP sessions).
// fastmcp reports no bound port, so for --port 0 this script notes the first net.Server that
// starts listening (the framework's own) and reads the port from it.
import net from 'node:net';
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { HOST, parseArgs, die, log, announce, exitOnSignals } from './common.mjs';

const { flags, port } = parseArgs();
const stdio = flags.has('stdio');
if (stdio === flags.has('http')) die('usage: fastmcp.mjs --stdio | --http [--stateless] [--json] [--port N]');

// fastmcp and mcp-proxy log with console.log/info; stdout belongs to the protocol (stdio) or to
// the single "listening on" line (HTTP).
console.log = console.info = console.debug = (...a) => console.error(...a);
const logger = { debug() {}, info: log, log, warn: log, error: log };

const server = new FastMCP({ name: 'mcpfuzz-fastmcp', version: '4.20.16', logger });
server.addTool({
    name: 'echo',
    description: 'Echo the message back',
    parameters: z.object({ message: z.string() }),
    execute: async ({ message }) => `Echo: ${message}`
});
server.addTool({
    name: 'add',
    description: 'Add two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => String(a + b)
});
server.addPrompt({
    name: 'greeting',
    description: 'Greet someone',
    arguments: [{ name: 'name', description: 'Who to greet', required: true }],
    load: async ({ name }) => `Please greet ${name}.`
});
server.addResource({
    uri: 'test://static/hello',
    name: 'hello',
    mimeType: 'text/plain',
    load: async () => ({ text: 'Hello from fastmcp' })
});

if (stdio) {
    exitOnSignals(async () => server.stop());
    await server.start({ transportType: 'stdio' });
    log('fastmcp: serving stdio');
} else {
    let listening;
    const origListen = net.Server.prototype.listen;
    net.Server.prototype.listen = function (...args) {
        net.Server.prototype.listen = origListen; // one-shot: the framework's HTTP server
        listening = this;
        return origListen.apply(this, args);
    };
    exitOnSignals(async () => server.stop(), { stdinClose: flags.has('exit-on-stdin-close') });
    await server.start({
        transportType: 'httpStream',
        httpStream: {
            host: HOST,
            port,
            endpoint: '/mcp',
            stateless: flags.has('stateless'),
            enableJsonResponse: flags.has('json')
        }
    });
    const addr = listening?.address();
    if (!addr || typeof addr === 'string' || addr.address !== HOST) {
        log(`refusing: bound to ${JSON.stringify(addr)}, not ${HOST}`);
        process.exit(1);
    }
    announce(addr.port);
    log(`fastmcp: HTTP stream (${flags.has('stateless') ? 'stateless' : 'stateful'})`);
}
