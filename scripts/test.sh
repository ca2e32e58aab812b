#!/usr/bin/env bash
# The test suite CI runs (.ci/run), within about 40 minutes on 2 cores from a clean clone: set
# up, check formatting, build with g++ and warnings as errors, run every test label once but the
# determinism check (unit tests, the reference server, the stdio fixtures, the real SDK servers
# from npm, the hostile servers, the fault sweep), test the Debian package, then build
# everything that is not a test with clang (warnings as errors, ASan+UBSan, the libFuzzer
# targets) and run the in-process tests and the planted-bug tests in that build.
#
# Left to the nightly workflow (.github/workflows/tests-nightly.yml), each too long for this
# budget: every label under ASan+UBSan, and every label beside a CPU hog at load >= 8
# (scripts/test-under-load.sh), the determinism check at its ten runs per server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# Compiler-cache keys relative to this checkout, so another clone on this machine hits the same
# entries.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

step() { printf '\n== %s (%s)\n' "$1" "$(date -u +%T)"; }

step "format check"
cmake --preset ci >/dev/null
cmake --build --preset ci --target format-check

step "g++ build (-Werror, -O1) and every test label but the determinism check"
cmake --build --preset ci
# Four at a time on 2 cores: most tests wait on servers and timeouts, and no verdict depends on
# the machine's load (scripts/test-under-load.sh runs the tests that could be swayed at >= 8).
ctest --preset ci -j 4 -LE '^load$'

step "Debian package: built, linted, installed into a scratch root and run"
scripts/package-test.sh build/ci

# ASan+UBSan for the code that reads what servers and users send (oracles, parsers, reports,
# generators, the reference server) in every run; the tests that start servers run under ASan
# nightly. The build preset compiles every library and program but not those tests.
step "clang build (-Werror, ASan+UBSan) of the code, the libFuzzer targets and the in-process tests"
cmake --preset fuzz -DMCPFUZZ_WERROR=ON -DMCPFUZZ_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build --preset fuzz-ci
ctest --preset fuzz-tests -L '^(inprocess|fuzz)$'

step "done"
