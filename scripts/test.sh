#!/usr/bin/env bash
# The whole test suite: set up, check formatting, build with warnings as errors, run every test
# under CTest (unit tests, the reference server, and the real SDK servers from npm).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cmake --preset ci >/dev/null
cmake --build --preset ci --target format-check
cmake --build --preset ci
ctest --preset ci
