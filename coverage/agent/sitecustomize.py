# mcpfuzz's coverage agent for Python servers. Python imports `sitecustomize` as it starts,
# before the server's own code: mcpfuzz puts the folder holding this file first on PYTHONPATH.
# It answers mcpfuzz on the socket mcpfuzz passed as MCPFUZZ_COVERAGE_FD, never on stdout,
# which is the server's MCP channel, and speaks the Node agent's protocol
# (mcpfuzz-coverage-agent.cjs beside it), one line each way:
#   agent first:  {"agent":"mcpfuzz-coverage","version":1}
#   mcpfuzz:      take         (or: take all)
#   agent:        {"scripts":[[id,url],...],"blocks":[[id,line,line],...],"unrun":[]}
# A block is a line (start = end = its 1-based number) and a script's url is file:///path.
# `take` names the lines that ran for the first time in this process since the agent started;
# `take all` every line that ran since the last take, new or not. The standard library and
# this file are left out; site-packages and dist-packages are kept (they are Python's
# node_modules) unless MCPFUZZ_COVERAGE_SKIP_NODE_MODULES=1. `unrun` stays empty: a code
# object is known only once it runs. As the interpreter exits (sys.exit, an uncaught exception,
# the end of the main module), one more reply is written unasked, as for `take` and beginning
# {"last":true,: the last take of a server that crashes is what ran up to the crash, which no
# later question could learn.
#
# Lines are heard through sys.monitoring where there is one (3.12 on): each line reports once
# and is then disabled, and every take re-enables them all, so a line costs one callback per
# take it runs in. Before 3.12, through sys.settrace and threading.settrace: every line costs
# a call of a Python function, for the life of the process.
# The agent answers on a thread of its own, so a server thread still running after it wrote
# its reply (tidying up) may have its last lines named in the next take instead of this one.
#
# Whatever sitecustomize the environment had (Debian's, a virtualenv's) is run after the agent
# starts, under the same name, so the server's own setup is kept.


def _mcpfuzz_coverage_agent():
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))

    def chain_earlier_sitecustomize():
        import importlib.machinery
        import importlib.util

        rest = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != here]
        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
        if spec is None or spec.loader is None:
            return
        module = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = module
        spec.loader.exec_module(module)

    fd_text = os.environ.pop("MCPFUZZ_COVERAGE_FD", None)
    if fd_text is None:
        # A child of the server (or a server started without mcpfuzz): no channel, no agent.
        chain_earlier_sitecustomize()
        return

    # The server's children must not load either agent: the folder goes with the run.
    def without_agent(name, keep):
        value = os.environ.get(name)
        if value is None:
            return
        value = keep(value)
        if value:
            os.environ[name] = value
        else:
            del os.environ[name]

    without_agent(
        "PYTHONPATH",
        lambda value: os.pathsep.join(
            entry for entry in value.split(os.pathsep) if os.path.abspath(entry or os.curdir) != here
        ),
    )

    def node_options_without_agent(value):
        import re

        return re.sub(
            r'--require\s+("[^"]*mcpfuzz-coverage-agent\.cjs"|\S*mcpfuzz-coverage-agent\.cjs)',
            "",
            value,
        ).strip()

    without_agent("NODE_OPTIONS", node_options_without_agent)

    import socket
    import threading

    try:
        fd = int(fd_text)
        os.set_inheritable(fd, False)
        channel = socket.socket(fileno=fd)
    except (ValueError, OSError) as error:
        sys.stderr.write(f"mcpfuzz coverage agent: no channel on fd {fd_text}: {error}\n")
        chain_earlier_sitecustomize()
        return
    try:
        channel.sendall(b'{"agent":"mcpfuzz-coverage","version":1}\n')
    except OSError:
        chain_earlier_sitecustomize()
        return

    skip_site_packages = os.environ.get("MCPFUZZ_COVERAGE_SKIP_NODE_MODULES") == "1"
    stdlib = os.path.dirname(os.path.abspath(os.__file__))
    this_file = os.path.abspath(__file__)
    installed = ("site-packages", "dist-packages")

    def measured(filename):
        if not filename or filename.startswith("<"):
            return None
        path = os.path.abspath(filename)
        if path == this_file:
            return None
        parts = path.split(os.sep)
        if skip_site_packages and any(part in installed for part in parts):
            return None
        if path.startswith(stdlib + os.sep):
            inside = path[len(stdlib) + 1 :].split(os.sep)
            if inside[0] not in installed:
                return None
        return path

    # filename (as the code objects name it) -> the set of lines run since the last take, or
    # None for a file left out. Filenames are keys because a str caches its hash, where a code
    # object's is computed anew each time.
    pending = {}
    # filename -> its absolute path; path -> (script id, the lines that ever ran, [whether a
    # reply named it]).
    paths = {}
    scripts = {}

    def lines_of(filename):
        # Made absolute when the file first runs, before the server may change its folder.
        path = measured(filename)
        if path is None:
            return pending.setdefault(filename, None)
        paths.setdefault(filename, path)
        return pending.setdefault(filename, set())

    monitoring = getattr(sys, "monitoring", None)
    if monitoring is not None:
        tool = monitoring.COVERAGE_ID
        try:
            monitoring.use_tool_id(tool, "mcpfuzz-coverage")
        except ValueError:
            monitoring = None  # Another coverage tool holds the id: trace instead.
    if monitoring is not None:
        disable = monitoring.DISABLE

        def on_line(code, line):
            lines = pending.get(code.co_filename, pending)
            if lines is pending:
                lines = lines_of(code.co_filename)
            if lines is not None:
                lines.add(line)
            return disable

        monitoring.register_callback(tool, monitoring.events.LINE, on_line)
        monitoring.set_events(tool, monitoring.events.LINE)
        restart = monitoring.restart_events
    else:
        # One local tracer per file, bound to its set, so a line costs a call and an add.
        tracers = {}

        def tracer_of(filename):
            lines = lines_of(filename)
            if lines is None:
                tracers[filename] = None
                return None
            add = lines.add

            def on_line(frame, event, arg):
                if event == "line":
                    add(frame.f_lineno)
                return on_line

            tracers[filename] = on_line
            return on_line

        def on_call(frame, event, arg):
            filename = frame.f_code.co_filename
            tracer = tracers.get(filename, tracers)
            if tracer is tracers:
                tracer = tracer_of(filename)
            return tracer

        sys.settrace(on_call)
        threading.settrace(on_call)
        restart = None

    def reply(all_lines, last=False):
        from pathlib import Path

        named = []
        blocks = []
        # list() and the set operations below are single steps under the GIL: a line the
        # server runs meanwhile lands in this take or the next, never nowhere.
        for filename, lines in list(pending.items()):
            if not lines:
                continue
            ran = lines.copy()
            lines.difference_update(ran)
            path = paths[filename]
            known = scripts.get(path)
            if known is None:
                known = scripts[path] = (len(scripts), set(), [False])
            script_id, ever, is_named = known
            fresh = ran - ever
            ever.update(fresh)
            chosen = ran if all_lines else fresh
            if not chosen:
                continue
            if not is_named[0]:
                is_named[0] = True
                named.append([script_id, Path(path).as_uri()])
            blocks.extend([script_id, line, line] for line in sorted(chosen))
        if restart is not None:
            restart()
        import json

        taken = {"scripts": named, "blocks": blocks, "unrun": []}
        if last:
            # Begun as the Node agent begins it, without spaces: {"last":true,
            taken = {"last": True, **taken}
        return json.dumps(taken, separators=(",", ":")) + "\n"

    def serve():
        # The agent's own work is not the server's coverage.
        sys.settrace(None)
        pending_bytes = b""
        try:
            while True:
                chunk = channel.recv(4096)
                if not chunk:
                    return
                pending_bytes += chunk
                while b"\n" in pending_bytes:
                    command, pending_bytes = pending_bytes.split(b"\n", 1)
                    if command not in (b"take", b"take all"):
                        continue
                    try:
                        answer = reply(command == b"take all")
                    except Exception as error:  # The server goes on; mcpfuzz is told why.
                        import json

                        answer = json.dumps({"error": repr(error)}) + "\n"
                    with sending:
                        channel.sendall(answer.encode())
        except OSError:
            return

    # One reply at a time on the channel: the last take may come while the thread answers.
    sending = threading.Lock()
    # How long the exit waits for mcpfuzz to read the last take, at most: an exit never hangs
    # on a reader that is gone.
    last_take_wait_seconds = 2.0

    def last_take():
        try:
            answer = reply(False, last=True)
            if not sending.acquire(timeout=last_take_wait_seconds):
                return
            try:
                channel.settimeout(last_take_wait_seconds)
                channel.sendall(answer.encode())
            finally:
                sending.release()
        except Exception:  # The process is ending: nothing is left to tell.
            return

    import atexit

    atexit.register(last_take)

    # A daemon thread: the agent never keeps the server alive, which ends when its stdin does.
    threading.Thread(target=serve, name="mcpfuzz-coverage", daemon=True).start()
    chain_earlier_sitecustomize()


_mcpfuzz_coverage_agent()
del _mcpfuzz_coverage_agent
