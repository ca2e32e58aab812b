// Shared launch helpers for the real-server scripts in this folder.
// Contract: HTTP servers bind 127.0.0.1 only, print exactly one stdout line
// "listening on http://127.0.0.1:<port>/mcp" once listening; all logs go to stderr.

export const HOST = '127.0.0.1';

// Tiny argv parser: flags (--stdio) and "--key value" / "--key=value" options.
export function parseArgs(argv = process.argv.slice(2), valued = ['port']) {
    const flags = new Set();
    const opts = {};
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (!a.startsWith('--')) die(`unexpected argument: ${a}`);
        const eq = a.indexOf('=');
        const key = eq > 0 ? a.slice(2, eq) : a.slice(2);
        if (valued.includes(key)) {
            const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
            if (v === undefined) die(`--${key} needs a value`);
            opts[key] = v;
        } else {
            flags.add(key);
        }
    }
    const port = opts.port === undefined ? 0 : Number(opts.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) die(`bad --port: ${opts.port}`);
    return { flags, opts, port };
}

export function die(msg) {
    process.stderr.write(`error: ${msg}\n`);
    process.exit(2);
}

export const log = (...a) => console.error(...a);

// Listen an http.Server on 127.0.0.1:port, refuse anything not on loopback,
// then print the single "listening on" line.
export function listenLoopback(httpServer, port) {
    return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, HOST, () => {
            const addr = httpServer.address();
            if (!addr || typeof addr === 'string' || addr.address !== HOST) {
                reject(new Error(`refusing: bound to ${JSON.stringify(addr)}, not ${HOST}`));
                return;
            }
            announce(addr.port);
            resolve(addr.port);
        });
    });
}

export function announce(port) {
    process.stdout.write(`listening on http://${HOST}:${port}/mcp\n`);
}

// Exit 0 on SIGTERM/SIGINT (after an optional async cleanup, bounded to 1 s).
// With --exit-on-stdin-close an HTTP server also exits when its stdin reaches EOF
// (handy for a parent test process that dies without signalling).
export function exitOnSignals(cleanup = async () => {}, { stdinClose = false } = {}) {
    let stopping = false;
    const stop = async sig => {
        if (stopping) return;
        stopping = true;
        log(`${sig}: shutting down`);
        setTimeout(() => process.exit(0), 1000).unref();
        try {
            await cleanup();
        } catch (e) {
            log('cleanup error:', e);
        }
        process.exit(0);
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    if (stdinClose) {
        process.stdin.on('end', () => stop('stdin closed'));
        process.stdin.on('error', () => stop('stdin error'));
        process.stdin.resume();
    }
}
