#!/usr/bin/env python3
"""Re-runs every reproducer of an `mcpfuzz diff` JSON report against fresh servers and checks
that each target still gives the answer the report recorded (channel and JSON-RPC code).

    scripts/rerun-diff-reproducers.py REPORT.json [--cwd DIR]

Each reproducer is a shell command that starts nothing of mcpfuzz: for a stdio target it
pipes the request (after initialize, when the case is sent in a session) into a freshly started
server process; for HTTP it is curl against the URL. The answer to the case's request id is
classified as mcpfuzz does at its coarsest: protocol_error CODE, execution_error, success,
not_json_rpc (an HTTP body that is no JSON-RPC answer) or no_reply. Exit 1 when any answer
differs from the report's.
"""
import argparse
import json
import re
import subprocess
import sys


def messages(output):
    found = []
    for line in output.splitlines():
        line = line.strip()
        if line.startswith("data:"):
            line = line[5:].strip()
        if not line.startswith("{") and not line.startswith("["):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        found.extend(value if isinstance(value, list) else [value])
    return [m for m in found if isinstance(m, dict)]


def classify(output, request_id):
    answers = [m for m in messages(output) if "result" in m or "error" in m]
    # The answer to the case's id; else one with id null (an id the server could not read:
    # a float, a boolean, an object, or a body that is no JSON at all).
    mine = [m for m in answers if request_id is not None and m.get("id") == request_id]
    if not mine:
        mine = [m for m in answers if m.get("id") is None]
    if not mine and request_id is None:
        mine = [m for m in answers
                if m.get("id") != 0 and not str(m.get("id")).startswith("mcpfuzz-")]
    for message in mine:
        if "error" in message and isinstance(message["error"], dict):
            return "protocol_error %s" % message["error"].get("code")
        result = message.get("result")
        if isinstance(result, dict) and result.get("isError") is True:
            return "execution_error"
        return "success"
    # Over HTTP (`curl -i`): a body after the last status line that carried no JSON-RPC answer,
    # such as a framework's HTML error page.
    head, status, rest = output.rpartition("HTTP/")
    if status and rest.replace("\r", "").partition("\n\n")[2].strip():
        return "not_json_rpc"
    return "no_reply"


def recorded(answer):
    # "protocol_error -32602 (HTTP 200)" → "protocol_error -32602"
    return re.sub(r"\s*\(.*$", "", answer).strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("--cwd", default=".")
    args = parser.parse_args()
    report = json.load(open(args.report))
    mismatches = 0
    for row in report["disagreements"]:
        body = row.get("minimal_request", {}).get("body")
        request_id = body.get("id") if isinstance(body, dict) else None
        for answer in row["answers"]:
            run = subprocess.run(["bash", "-c", answer["reproducer"]], cwd=args.cwd,
                                 capture_output=True, text=True, timeout=120)
            now = classify(run.stdout, request_id)
            want = recorded(answer["answer"])
            same = now == want
            mismatches += 0 if same else 1
            print("%-40s %-30s %-24s %s" % (row["check_id"], answer["target"][:30], want,
                                            "same" if same else "NOW " + now))
    print("%d answer(s) differ from the report" % mismatches)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
