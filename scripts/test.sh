#!/usr/bin/env bash
# The whole test suite: set up, check formatting, build with warnings as errors, run every test
# under CTest (unit tests, the reference server, the real SDK servers from npm), then the same
# tests again in an ASan+UBSan build (no benchmarks there: timing under ASan tells nothing), and
# a clang build of the code with the libFuzzer targets.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# Compiler-cache keys relative to this checkout, so another clone on this machine hits the same
# entries (paths inside debug info are relative to it too).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

step() { printf '\n== %s\n' "$*"; }

step "format check"
cmake --preset ci >/dev/null
cmake --build --preset ci --target format-check

step "g++ build (-Werror) and tests"
cmake --build --preset ci
ctest --preset ci

step "Debian package: built, linted, installed into a scratch root and run"
scripts/package-test.sh build/ci

step "ASan+UBSan build and tests"
cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan

# clang compiles every library, both binaries and the libFuzzer targets; not the tests and
# benchmarks, which g++ has compiled twice above and which would double this stage's time.
step "clang build (-Werror) of the code and the libFuzzer targets, and the planted-bug tests"
cmake --preset fuzz -DMCPFUZZ_WERROR=ON >/dev/null
cmake --build --preset fuzz-ci
ctest --preset fuzz
