#!/usr/bin/env bash
# The tests whose verdicts a busy machine used to change (issue #24), run beside a CPU hog that
# keeps the load average at or above 8 on 2 cores: slow process starts and late replies must
# be judged by events, not by the clock, so these tests have to pass on a loaded machine too.
#
#   scripts/test-under-load.sh [LABEL...]    CTest labels; default: stdio real hostile checks
#                                            campaign load (tests/CMakeLists.txt)
#   scripts/test-under-load.sh --print-regex  the CTest label regex of the default labels, which
#                                            scripts/test.sh leaves out of its plain pass
#
# Environment: MCPFUZZ_LOAD_PRESET (the CTest preset, default ci), MCPFUZZ_LOAD_TARGET (the
# load average to reach before the tests start, default 4 per core), MCPFUZZ_LOAD_WORKERS
# (stress-ng CPU workers, default 5 per core); the tests' own variables pass through
# (MCPFUZZ_DETERMINISM_RUNS for the `load` label). The exit code is ctest's, or 130/143 when
# interrupted; the hog and the tests are stopped on every way out.
set -euo pipefail
cd "$(dirname "$0")/.."

print_only=""
if [[ ${1:-} == --print-regex ]]; then
  print_only=1
  shift
fi
labels=("$@")
((${#labels[@]} > 0)) || labels=(stdio real hostile checks campaign load)
regex="^($(IFS='|'; echo "${labels[*]}"))\$"
if [[ -n $print_only ]]; then
  echo "$regex"
  exit 0
fi
preset=${MCPFUZZ_LOAD_PRESET:-ci}
cores=$(nproc)
target=${MCPFUZZ_LOAD_TARGET:-$((4 * cores))}
workers=${MCPFUZZ_LOAD_WORKERS:-$((5 * cores))}

if ! command -v stress-ng >/dev/null; then
  echo "test-under-load: stress-ng is missing (scripts/bootstrap.sh installs it)" >&2
  exit 2
fi

load() { cut -d' ' -f1 /proc/loadavg; }
# Whether load average $1 is at least $2 (both decimals).
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# The hog, the load sampler and ctest each run in a session of their own (setsid), so that
# each is stopped with everything it started, whatever signal ended this script: the session,
# not the process group, since tests put the servers they start in groups of their own. And a
# signal reaches this script while ctest runs (`wait`, unlike a foreground command, is
# interrupted by a trapped signal).
hog=""
sampler=""
tests=""
samples=$(mktemp)
stop_session() {
  pkill -TERM -s "$1" 2>/dev/null || return 0
  for _ in $(seq 50); do pgrep -s "$1" >/dev/null || break; sleep 0.1; done
  pkill -KILL -s "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
stop() {
  for session in "$tests" "$sampler" "$hog"; do
    [[ -z $session ]] || stop_session "$session"
  done
  rm -f "$samples"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "test-under-load: load average $(load) on $cores cores; starting $workers CPU workers"
# --timeout: should this script be SIGKILLed (no trap runs), the hog still ends by itself.
setsid stress-ng --cpu "$workers" --cpu-load 100 --timeout 2h --quiet &
hog=$!

# The load average is a one-minute mean: wait (two minutes at most) until it shows the hog.
for _ in $(seq 120); do
  at_least "$(load)" "$target" && break
  sleep 1
done
before=$(load)
echo "test-under-load: load average before the tests: $before (target $target)"
setsid bash -c 'while sleep 10; do cut -d" " -f1 /proc/loadavg; done' >"$samples" &
sampler=$!

echo "test-under-load: ctest --preset $preset -L '$regex'"
start=$SECONDS
setsid ctest --preset "$preset" -L "$regex" &
tests=$!
status=0
wait "$tests" || status=$?
tests=""

after=$(load)
lowest=$(sort -g "$samples" | head -n1)
highest=$(sort -g "$samples" | tail -n1)
echo "test-under-load: load average after the tests: $after; during them, every 10 s:" \
  "lowest ${lowest:-n/a}, highest ${highest:-n/a}"
echo "test-under-load: labels ${labels[*]} took $((SECONDS - start)) s; ctest exit $status"
if ! at_least "${lowest:-$after}" "$target"; then
  echo "test-under-load: note: the load average fell below $target during the run" >&2
fi
exit "$status"
