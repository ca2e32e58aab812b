#!/usr/bin/env python3
"""What the coverage agents cost a stdio server (issue #28).

    benchmarks/coverage_overhead.py SERVER.mjs|SERVER.py [REQUESTS] [RUNS]

A bare client sends `tools/list` one after the other (after 50 to warm up) to
`node SERVER.mjs --stdio` or `python3 SERVER.py` in three modes, alternating run by run:
without the agent, with it loaded and never asked, and asking it for coverage after every
request. Prints requests/s per mode and run, and the load average.
"""
import json
import os
import socket
import subprocess
import sys
import time

AGENTS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                       "coverage", "agent"))


def run(server, requests, mode):
    env = dict(os.environ)
    extra = {}
    ours = theirs = channel = None
    if mode != "off":
        ours, theirs = socket.socketpair()
        # As the transport offers them: the Node agent required, the Python one's folder first.
        env["NODE_OPTIONS"] = f'--require "{AGENTS}/mcpfuzz-coverage-agent.cjs"'
        env["PYTHONPATH"] = AGENTS
        env["MCPFUZZ_COVERAGE_FD"] = str(theirs.fileno())
        extra["pass_fds"] = (theirs.fileno(),)
    argv = ["python3", server] if server.endswith(".py") else ["node", server, "--stdio"]
    process = subprocess.Popen(argv, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, **extra)
    if theirs is not None:
        theirs.close()
        channel = ours.makefile("rwb")
        channel.readline()  # the agent's greeting

    def call(message):
        process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()
        if "id" in message:
            process.stdout.readline()

    call({"jsonrpc": "2.0", "id": 0, "method": "initialize",
          "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                     "clientInfo": {"name": "coverage-overhead", "version": "1"}}})
    call({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for i in range(50):
        call({"jsonrpc": "2.0", "id": i + 1, "method": "tools/list"})
    start = time.monotonic()
    for i in range(requests):
        call({"jsonrpc": "2.0", "id": 1000 + i, "method": "tools/list"})
        if mode == "take":
            channel.write(b"take\n")
            channel.flush()
            channel.readline()
    elapsed = time.monotonic() - start
    process.stdin.close()
    process.wait()
    return requests / elapsed


def main():
    server = sys.argv[1]
    requests = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    rates = {"no agent": [], "agent loaded": [], "take after each": []}
    modes = dict(zip(rates, ("off", "on", "take")))
    for _ in range(runs):
        for name in rates:
            rates[name].append(run(server, requests, modes[name]))
    for name, values in rates.items():
        print(f"{name:16} " + " ".join(f"{value:8.0f}" for value in values) + " requests/s")
    print("load average " + " ".join(open("/proc/loadavg").read().split()[:3]))


if __name__ == "__main__":
    main()
