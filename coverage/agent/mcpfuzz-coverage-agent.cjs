// mcpfuzz's coverage agent for Node servers, loaded before the server's own code with
// NODE_OPTIONS="--require <this file>". It starts V8's precise block coverage at once (blocks
// are only counted in code compiled after that), and answers mcpfuzz on the socket mcpfuzz
// passed as MCPFUZZ_COVERAGE_FD, never on stdout, which is the server's MCP channel.
//
// Protocol, one line each way:
//   agent first:  {"agent":"mcpfuzz-coverage","version":1}
//   mcpfuzz:      take         (or: take all)
//   agent:        {"scripts":[[id,url],...],"blocks":[[id,start,end],...],"unrun":[...]}
// A reply names only the scripts not named before, and the blocks (start and end offsets in
// their script) that ran since the last take: with `take`, those that ran for the first time
// since the agent started; with `take all`, every one (to tell a block that runs for an input
// from one that ran once, or on a timer). `unrun` names blocks first known in this take that
// surely never ran in this process (for line reports; a block may run later). Node's own modules and this file are left out; code
// under node_modules is kept unless MCPFUZZ_COVERAGE_SKIP_NODE_MODULES=1.
// As the process exits (process.exit, an uncaught exception, an empty event loop), the agent
// writes one more reply unasked, as for `take` and beginning {"last":true,: the last take of a
// server that crashes is what ran up to the crash, which no later question could learn.
//
// Why blocks are remembered: V8 leaves out of a take each block that ran as often as its
// function did, so a branch taken for the first time in a function that ran before is not
// named in the take that ran it. Each block V8 ever named apart (it names one whenever it ran
// less often than its function, e.g. not at all) is kept per function, and in every take it
// counts as run when the innermost range the take names around it ran. A block never named
// apart always runs with its function, so counting the function counts it.
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
  // Nor the Python agent, offered to every server from this file's folder.
  if (process.env.PYTHONPATH) {
    const path = require('node:path');
    const kept = process.env.PYTHONPATH.split(path.delimiter)
      .filter(entry => path.resolve(entry || '.') !== __dirname);
    if (kept.length > 0) process.env.PYTHONPATH = kept.join(path.delimiter);
    else delete process.env.PYTHONPATH;
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
  // url -> function start offset -> Map("start:end" -> [start, end]): every block V8 named.
  const known = new Map();
  // "url\0start" of each function that ran in this process.
  const ranFunctions = new Set();

  // The function's blocks known so far, after adding those this take names; and which of
  // them this take named for the first time.
  function learn(url, ranges) {
    let functions = known.get(url);
    if (functions === undefined) known.set(url, (functions = new Map()));
    let blocks = functions.get(ranges[0].startOffset);
    if (blocks === undefined) functions.set(ranges[0].startOffset, (blocks = new Map()));
    const fresh = [];
    for (const range of ranges) {
      const key = `${range.startOffset}:${range.endOffset}`;
      if (blocks.has(key)) continue;
      blocks.set(key, [range.startOffset, range.endOffset]);
      fresh.push([range.startOffset, range.endOffset]);
    }
    return { blocks: blocks.values(), fresh };
  }

  // Whether block [start, end) ran in this take: the count of the innermost range around it.
  // V8 lists a function's ranges outermost first, each before the ranges inside it.
  function ran(ranges, start, end) {
    let count = 0;
    for (const range of ranges) {
      if (range.startOffset > start) break;
      if (range.endOffset >= end) count = range.count;
    }
    return count > 0;
  }

  function reply(result, all, last = false) {
    const scripts = [];
    const blocks = [];
    const unrun = [];
    const idOf = url => {
      let id = scriptIds.get(url);
      if (id === undefined) {
        id = scriptIds.size;
        scriptIds.set(url, id);
        scripts.push([id, url]);
      }
      return id;
    };
    for (const script of result) {
      const url = script.url;
      if (!url || url.startsWith('node:') || url === __filename || url.endsWith('/mcpfuzz-coverage-agent.cjs')) continue;
      if (skipNodeModules && url.includes('/node_modules/')) continue;
      for (const fn of script.functions) {
        if (fn.ranges.length === 0) continue;
        const functionKey = `${url}\u0000${fn.ranges[0].startOffset}`;
        const { blocks: knownBlocks, fresh } = learn(url, fn.ranges);
        // A block is surely unrun when first named in a function that never ran before it
        // (later, it may have run inside its function before V8 named it apart).
        const firstRun = !ranFunctions.has(functionKey);
        if (fn.ranges[0].count === 0) {
          // A function that did not run since the last take ran none of its blocks.
          if (firstRun) for (const [start, end] of fresh) unrun.push([idOf(url), start, end]);
          continue;
        }
        ranFunctions.add(functionKey);
        for (const [start, end] of knownBlocks) {
          if (!ran(fn.ranges, start, end)) continue;
          const key = `${url}\u0000${start}\u0000${end}`;
          if (seen.has(key)) {
            if (!all) continue;
          } else {
            seen.add(key);
          }
          blocks.push([idOf(url), start, end]);
        }
        if (firstRun) {
          for (const [start, end] of fresh) {
            if (!ran(fn.ranges, start, end)) unrun.push([idOf(url), start, end]);
          }
        }
      }
    }
    return JSON.stringify(last ? { last: true, scripts, blocks, unrun } : { scripts, blocks, unrun }) + '\n';
  }

  // Writes `text` on the channel's descriptor before returning. The descriptor is non-blocking
  // (the socket set it so): while mcpfuzz has not read what fills it, the write is retried a
  // millisecond apart, for at most kLastWordsWaitMs in all, so an exit never hangs on a reader
  // that is gone.
  const kLastWordsWaitMs = 2000;
  function writeNow(fd, text) {
    const fs = require('node:fs');
    let bytes = Buffer.from(text, 'utf8');
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let waited = 0; bytes.length > 0 && waited < kLastWordsWaitMs;) {
      try {
        bytes = bytes.subarray(fs.writeSync(fd, bytes));
      } catch (error) {
        if (error.code !== 'EAGAIN') return;
        Atomics.wait(pause, 0, 0, 1);
        ++waited;
      }
    }
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
  process.on('exit', () => {
    // A reply still queued on the socket would be cut off and run into this one.
    if (channel.writableLength > 0) return;
    // No event loop is left to write it later: taken and written at once. A session of this
    // thread answers at once.
    let line;
    session.post('Profiler.takePreciseCoverage', (error, taken) => {
      if (!error) line = reply(taken.result, false, true);
    });
    if (line !== undefined) writeNow(Number(fdText), line);
  });
  let pending = '';
  channel.on('data', (chunk) => {
    pending += chunk.toString('latin1');
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const command = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (command !== 'take' && command !== 'take all') continue;
      session.post('Profiler.takePreciseCoverage', (error, taken) => {
        channel.write(error ? JSON.stringify({ error: String(error) }) + '\n'
                            : reply(taken.result, command === 'take all'));
      });
    }
  });
})();
