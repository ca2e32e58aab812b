// mcpfuzz's coverage agent for Node servers, loaded before the server's own code with
// NODE_OPTIONS="--require <this file>". It starts V8's precise block coverage at once (blocks
// are only counted in code compiled after that), and answers mcpfuzz on the socket mcpfuzz
// passed as MCPFUZZ_COVERAGE_FD, never on stdout, which is the server's MCP channel.
//
// Protocol, one line each way:
//   agent first:  {"agent":"mcpfuzz-coverage","version":1}
//   mcpfuzz:      take
//   agent:        {"scripts":[[id,url],...],"blocks":[[id,start,end],...]}
// A reply names only the scripts not named before and the blocks that ran for the first time
// since the agent started: the blocks (start and end offsets in the script) of each function
// whose count is not zero. Node's own modules and this file are left out; code under
// node_modules is kept unless MCPFUZZ_COVERAGE_SKIP_NODE_MODULES=1.
'use strict';

(() => {
  const fdText = process.env.MCPFUZZ_COVERAGE_FD;
  if (fdText === undefined) return;
  // Children of the server (a worker, npm) must not take the channel or load the agent.
  delete process.env.MCPFUZZ_COVERAGE_FD;
  if (process.env.NODE_OPTIONS) {
    process.env.NODE_OPTIONS = process.env.NODE_OPTIONS
      .replace(/--require\s+("[^"]*mcpfuzz-coverage-agent\.cjs"|\S*mcpfuzz-coverage-agent\.cjs)/g, '')
      .trim();
  }
  const skipNodeModules = process.env.MCPFUZZ_COVERAGE_SKIP_NODE_MODULES === '1';

  const inspector = require('node:inspector');
  const net = require('node:net');
  const session = new inspector.Session();
  session.connect();
  // A session of this thread answers at once, so coverage is on before the server's code loads.
  session.post('Profiler.enable');
  session.post('Profiler.startPreciseCoverage', { callCount: false, detailed: true });

  const scriptIds = new Map();
  const seen = new Set();

  function reply(result) {
    const scripts = [];
    const blocks = [];
    for (const script of result) {
      const url = script.url;
      if (!url || url.startsWith('node:') || url === __filename || url.endsWith('/mcpfuzz-coverage-agent.cjs')) continue;
      if (skipNodeModules && url.includes('/node_modules/')) continue;
      for (const fn of script.functions) {
        for (const range of fn.ranges) {
          if (range.count === 0) continue;
          const key = `${url}\u0000${range.startOffset}\u0000${range.endOffset}`;
          if (seen.has(key)) continue;
          seen.add(key);
          let id = scriptIds.get(url);
          if (id === undefined) {
            id = scriptIds.size;
            scriptIds.set(url, id);
            scripts.push([id, url]);
          }
          blocks.push([id, range.startOffset, range.endOffset]);
        }
      }
    }
    return JSON.stringify({ scripts, blocks }) + '\n';
  }

  let channel;
  try {
    channel = new net.Socket({ fd: Number(fdText), readable: true, writable: true });
  } catch (error) {
    process.stderr.write(`mcpfuzz coverage agent: no channel on fd ${fdText}: ${error.message}\n`);
    return;
  }
  // The channel never keeps the server alive: it ends when its stdin does, as without the agent.
  channel.unref();
  channel.on('error', () => {});
  channel.write(JSON.stringify({ agent: 'mcpfuzz-coverage', version: 1 }) + '\n');
  let pending = '';
  channel.on('data', (chunk) => {
    pending += chunk.toString('latin1');
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const command = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (command !== 'take') continue;
      session.post('Profiler.takePreciseCoverage', (error, taken) => {
        channel.write(error ? JSON.stringify({ error: String(error) }) + '\n' : reply(taken.result));
      });
    }
  });
})();
