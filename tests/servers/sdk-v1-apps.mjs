#!/usr/bin/env node
// Real MCP servers built on SDK v1 by others, run unchanged over stdio: the official memory,
// filesystem and sequential-thinking servers (the fourth, everything, has its own script).
//   node sdk-v1-apps.mjs --server memory|filesystem|sequential-thinking --stdio
// They only speak stdio. Each gets a scratch directory of its own, so nothing it might write
// lands outside it: memory's knowledge-graph file, filesystem's one allowed directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, die, exitOnSignals } from './common.mjs';

const { flags, opts } = parseArgs(process.argv.slice(2), ['server']);
const packages = {
    memory: '@modelcontextprotocol/server-memory',
    filesystem: '@modelcontextprotocol/server-filesystem',
    'sequential-thinking': '@modelcontextprotocol/server-sequential-thinking',
};
const pkg = packages[opts.server];
if (!pkg || !flags.has('stdio')) {
    die(`usage: sdk-v1-apps.mjs --server ${Object.keys(packages).join('|')} --stdio`);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `mcpfuzz-${opts.server}-`));
const removeScratch = () => fs.rmSync(scratch, { recursive: true, force: true });
process.on('exit', removeScratch);
process.env.MEMORY_FILE_PATH = path.join(scratch, 'memory.jsonl');
// The filesystem server reads its allowed directories from argv.
process.argv = [process.argv[0], process.argv[1], scratch];
exitOnSignals();
// Its stdio transport ends the process when stdin closes (the stdio contract).
process.stdin.on('end', () => process.exit(0));
await import(`${pkg}/dist/index.js`);
