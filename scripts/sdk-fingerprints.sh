#!/usr/bin/env bash
# Measures the fingerprint table of the SDK servers mcpfuzz knows (reports/sdk_fingerprints.h):
# runs a survey over each real npm server of tests/servers, over stdio and over HTTP, all on
# 127.0.0.1, and keeps the fingerprint of every FAIL and WARN with the SDKs that showed it. A
# survey report's JSON carries each deviation's fingerprint, computed by mcpfuzz itself, so this
# script only gathers them. Which SDK a server is comes from the command that started it, never
# from the serverInfo it announces.
#
#   scripts/sdk-fingerprints.sh [MCPFUZZ]    default: build/ci/cli/mcpfuzz
#
# Writes reports/data/sdk_fingerprints.json; review its diff and rebuild. Needs node with
# tests/servers installed (npm ci there) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
mcpfuzz=$(realpath "${1:-build/ci/cli/mcpfuzz}")
servers=$PWD/tests/servers
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Starts an HTTP server in the background and prints its URL once it listens.
http_url() {
  local log=$work/http-$RANDOM.log
  : >"$log"
  node "$@" --port 0 >"$log" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 300); do
    if url=$(sed -n 's/^listening on //p' "$log") && [[ -n $url ]]; then
      echo "$url"
      return
    fi
    sleep 0.1
  done
  echo "sdk-fingerprints: $* did not start listening" >&2
  exit 2
}

# One targets file per SDK, in layer order: the bare SDKs first.
cat >"$work/sdk-v1.txt" <<EOF
stdio: node $servers/sdk-v1.mjs --stdio
$(http_url "$servers/sdk-v1.mjs" --http --stateful)
$(http_url "$servers/sdk-v1.mjs" --http --stateless)
EOF
cat >"$work/sdk-v2.txt" <<EOF
stdio: node $servers/sdk-v2.mjs --stdio
$(http_url "$servers/sdk-v2.mjs" --http)
EOF
cat >"$work/fastmcp.txt" <<EOF
stdio: node $servers/fastmcp.mjs --stdio
$(http_url "$servers/fastmcp.mjs" --http)
EOF
cat >"$work/everything.txt" <<EOF
stdio: node $servers/everything.mjs --stdio
$(http_url "$servers/everything.mjs" --http)
EOF

for sdk in sdk-v1 sdk-v2 fastmcp everything; do
  echo "sdk-fingerprints: $sdk" >&2
  # Exit 1 (some FAIL) is what these servers are measured for; 2 means a server was not judged.
  status=0
  "$mcpfuzz" check --targets "$work/$sdk.txt" --parallel 1 --progress never \
    --report "json=$work/$sdk.json" >/dev/null || status=$?
  if ((status > 1)); then
    echo "sdk-fingerprints: the survey of $sdk exited $status: some server was not judged" >&2
    exit 2
  fi
done

python3 - "$work" "$(node -p "require('$servers/package.json').dependencies['@modelcontextprotocol/sdk']")" \
  "$(node -p "require('$servers/package.json').dependencies['@modelcontextprotocol/server']")" \
  "$(node -p "require('$servers/package.json').dependencies['fastmcp']")" \
  "$(node -p "require('$servers/package.json').dependencies['@modelcontextprotocol/server-everything']")" \
  >reports/data/sdk_fingerprints.json <<'EOF'
import json
import sys

work, v1, v2, fastmcp, everything = sys.argv[1:]
sdks = [
    {"id": "sdk-v1", "name": "TypeScript SDK v1", "package": f"@modelcontextprotocol/sdk@{v1}"},
    {"id": "sdk-v2", "name": "TypeScript SDK v2", "package": f"@modelcontextprotocol/server@{v2}"},
    {"id": "fastmcp", "name": "fastmcp", "package": f"fastmcp@{fastmcp}"},
    {"id": "everything", "name": "server-everything",
     "package": f"@modelcontextprotocol/server-everything@{everything}"},
]
seen = {}
for sdk in sdks:
    with open(f"{work}/{sdk['id']}.json") as report:
        for target in json.load(report)["targets"]:
            for check in target.get("checks", []):
                print_ = check.get("fingerprint")
                if print_:
                    ids = seen.setdefault(print_, [])
                    if sdk["id"] not in ids:
                        ids.append(sdk["id"])
table = {
    "about": "Fingerprints of the FAILs and WARNs of the SDK servers in tests/servers, "
             "measured by scripts/sdk-fingerprints.sh: check|VERDICT|channel|code|words "
             "(reports/sdk_fingerprints.h). Regenerate it, do not edit it by hand.",
    "sdks": sdks,
    "fingerprints": [{"fingerprint": key, "sdks": seen[key]} for key in sorted(seen)],
}
json.dump(table, sys.stdout, indent=1, ensure_ascii=False)
sys.stdout.write("\n")
EOF
echo "sdk-fingerprints: wrote reports/data/sdk_fingerprints.json" >&2
