#!/usr/bin/env node
// Real MCP server: @modelcontextprotocol/server-everything (the reference "everything" server).
//   node everything.mjs --stdio
//   node everything.mjs --http [--port N] [--exit-on-stdin-close]
// --http runs the package's OWN Streamable HTTP module (dist/transports/streamableHttp.js:
// express + cors + SDK v1 sessions + resumability) unchanged. That module has no host option:
// it calls app.listen(process.env.PORT || 3001), i.e. every interface. So, before importing it,
// this script (1) sets PORT, (2) wraps net.Server.prototype.listen once so that first listen
// binds 127.0.0.1 only, and (3) sends its console.log chatter to stderr so stdout carries only
// the "listening on" line.
import net from 'node:net';
import { HOST, parseArgs, die, log, announce, exitOnSignals } from './common.mjs';

const PKG = '@modelcontextprotocol/server-everything/dist/transports';
const { flags, port } = parseArgs();

if (flags.has('stdio')) {
    exitOnSignals(); // the package itself only handles SIGINT
    await import(`${PKG}/stdio.js`);
} else if (flags.has('http')) {
    console.log = console.info = console.debug = (...a) => console.error(...a);
    process.env.PORT = String(port);
    const origListen = net.Server.prototype.listen;
    net.Server.prototype.listen = function (...args) {
        net.Server.prototype.listen = origListen; // one-shot: only the package's app.listen
        const cb = typeof args.at(-1) === 'function' ? args.pop() : undefined;
        this.once('listening', () => {
            const addr = this.address();
            if (!addr || typeof addr === 'string' || addr.address !== HOST) {
                log(`refusing: bound to ${JSON.stringify(addr)}, not ${HOST}`);
                process.exit(1);
            }
            announce(addr.port);
        });
        return cb ? origListen.call(this, port, HOST, cb) : origListen.call(this, port, HOST);
    };
    exitOnSignals(async () => {}, { stdinClose: flags.has('exit-on-stdin-close') });
    await import(`${PKG}/streamableHttp.js`);
} else {
    die('usage: everything.mjs --stdio | --http [--port N]');
}
