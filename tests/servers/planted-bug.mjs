#!/usr/bin/env node
// A small MCP server on the TypeScript SDK v1 (@modelcontextprotocol/sdk, the low-level Server)
// with one planted crash, for mcpfuzz's coverage steering (issue #28):
//   node planted-bug.mjs --stdio
// The crash sits behind four steps, each its own branch, each on what a read-only client may
// send to tools/list:
//   1. the cursor the server handed out on the first page (the second page);
//   2. in _meta, the trace value that second page handed out, under its key;
//   3. beside it, the note key the second page handed out, as a string;
//   4. a note of 64 bytes or more: the process dies (an exception nothing catches).
// A black-box client never sends back what the server handed out in _meta; a client steered by
// the server's coverage learns each step from the branch the one before it opened.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { parseArgs, die, exitOnSignals } from './common.mjs';

const SECOND_PAGE = 'cGFnZS0y';
const TRACE_KEY = 'planted.example/trace';
const NOTE_KEY = 'planted.example/note';
const TRACE = 'trace-7f3a91c2';

const echo = { name: 'echo', description: 'Echo the message back', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } };
const add = { name: 'add', description: 'Add two numbers', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } };

function buildServer() {
    const server = new Server({ name: 'mcpfuzz-planted-bug', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async request => {
        const params = request.params ?? {};
        if (params.cursor === undefined) return { tools: [echo], nextCursor: SECOND_PAGE };
        if (params.cursor !== SECOND_PAGE) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
        const meta = params._meta ?? {};
        if (meta[TRACE_KEY] === TRACE) {
            const note = meta[NOTE_KEY];
            if (typeof note === 'string') {
                if (note.length >= 64) {
                    setImmediate(() => {
                        throw new Error('planted bug: a traced note of 64 bytes');
                    });
                }
            }
        }
        return { tools: [add], _meta: { [TRACE_KEY]: TRACE, [NOTE_KEY]: 'none' } };
    });
    server.setRequestHandler(CallToolRequestSchema, async request => {
        const { name, arguments: args = {} } = request.params;
        if (name === 'echo') return { content: [{ type: 'text', text: `Echo: ${args.message}` }] };
        if (name === 'add') return { content: [{ type: 'text', text: String(args.a + args.b) }] };
        throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    });
    return server;
}

const { flags } = parseArgs();
if (!flags.has('stdio')) die('usage: planted-bug.mjs --stdio');
exitOnSignals();
await buildServer().connect(new StdioServerTransport());
