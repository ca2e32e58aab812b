#!/usr/bin/env bash
# The main job: set up, build, and check the built-in reference server, ending in a report.
# Extra arguments go to `mcpfuzz check` (try --fault unknown-tool-is-error).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cmake --preset default >/dev/null
cmake --build --preset default --target mcpfuzz
exec build/default/cli/mcpfuzz check --builtin "$@"
