#!/usr/bin/env bash
# The GitHub Action's run script (action/run.sh) outside GitHub: the environment GitHub would
# give it (RUNNER_TEMP, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT as scratch files), against the
# reference server with a fault and without, asserting exit codes, outputs and files.
#
# Usage: action_test.sh MCPFUZZ REFSERVER SOURCE_DIR
set -uo pipefail
mcpfuzz=$1 refserver=$2 source_dir=$3
scratch=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  rm -rf "$scratch"
}
trap cleanup EXIT
failures=0
check() { # description, then a command that must succeed
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else
    echo "NOT OK: $what"
    failures=$((failures + 1))
  fi
}

# A reference server over HTTP; its URL in $url. Not called in $(…): a subshell's pids+=
# would be lost, and the server would outlive the test.
start_server() {
  local log="$scratch/server-$#-$RANDOM.txt"
  "$refserver" --http "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    grep -q '^listening on ' "$log" && break
    sleep 0.1
  done
  url=$(sed -n 's/^listening on //p' "$log")
}
start_server --fault unknown-tool-is-error
faulty=$url
start_server
conformant=$url
start_server --fault error-leaks-internals
warning=$url # its findings are WARNs only
[[ -n $faulty && -n $conformant && -n $warning ]] || {
  echo "the reference servers did not start"
  exit 1
}

# Runs action/run.sh as the step would, in the checkout ($source_dir, as GitHub runs steps in
# the workspace); `name` names its scratch files. Sets $code.
run_action() {
  local name=$1
  shift
  mkdir -p "$scratch/$name"
  : >"$scratch/$name/summary.md"
  : >"$scratch/$name/output.txt"
  (cd "$source_dir" && env -i PATH="$PATH" HOME="$scratch" MCPFUZZ="$mcpfuzz" \
    RUNNER_TEMP="$scratch/$name/tmp" GITHUB_STEP_SUMMARY="$scratch/$name/summary.md" \
    GITHUB_OUTPUT="$scratch/$name/output.txt" \
    GITHUB_WORKFLOW_REF="owner/server/.github/workflows/mcpfuzz.yml@refs/heads/main" \
    "$@" bash "$source_dir/action/run.sh" >"$scratch/$name/log.txt" 2>&1)
  code=$?
}
# What the upload step sends to code scanning: valid SARIF 2.1.0, each result at a repository
# path (tests/support/validate_sarif.py).
sarif_valid() {
  python3 "$source_dir/tests/support/validate_sarif.py" \
    "$source_dir/tests/servers/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json" "$1"/sarif/*.sarif >"$scratch/sarif.txt" ||
    { cat "$scratch/sarif.txt"; return 1; }
}
# The locations of a SARIF log's results, one per line.
sarif_places() {
  python3 -c 'import json, sys
for result in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    print(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])' "$1" | sort -u
}
output() { sed -n "s/^$2=//p" "$scratch/$1/output.txt" | tail -1; }

# check against the faulty server, replaying the committed corpus of that fault (as a workflow
# names it: relative to the checkout).
corpus="corpus/regression/refserver-unknown-tool-is-error"
run_action fail-on-fail INPUT_COMMAND=check INPUT_TARGET="$faulty" INPUT_CORPUS="$corpus" \
  INPUT_FAIL_ON=fail
dir=$(output fail-on-fail report-dir)
check "check with a FAIL and fail-on fail exits 1" test "$code" -eq 1
check "fails counts the FAILs" test "$(output fail-on-fail fails)" -ge 2
check "findings counts FAILs and WARNs" \
  test "$(output fail-on-fail findings)" -ge "$(output fail-on-fail fails)"
check "report-dir is under RUNNER_TEMP" test "$dir" = "$scratch/fail-on-fail/tmp/mcpfuzz"
check "no seed for check" test -z "$(output fail-on-fail seed)"
check "the step summary has the check's findings" grep -q 'tools.unknown-name' \
  "$scratch/fail-on-fail/summary.md"
check "the step summary has the corpus replay" grep -q '^## mcpfuzz replay' "$scratch/fail-on-fail/summary.md"
check "SARIF of the check and of the replay" test -s "$dir/sarif/report.sarif" -a \
  -s "$dir/sarif/corpus-replay.sarif"
check "JUnit with the failure" grep -q '<failure' "$dir/junit/report.xml"
check "the SARIF the upload step sends validates against the 2.1.0 schema" sarif_valid "$dir"
check "check results are placed at the workflow file" \
  test "$(sarif_places "$dir/sarif/report.sarif")" = .github/workflows/mcpfuzz.yml
check "corpus results are placed at their case file in the repository" \
  test "$(sarif_places "$dir/sarif/corpus-replay.sarif")" = \
  "$corpus/fuzz-tools.unknown-name-b547474ffb.json"
check "the target is a result property" grep -q "\"target\": \"$faulty\"" "$dir/sarif/report.sarif"
run_action sarif-root INPUT_COMMAND=check INPUT_TARGET="$faulty" INPUT_SARIF_ROOT=src/server.ts
check "the sarif-root input places results" \
  test "$(sarif_places "$(output sarif-root report-dir)/sarif/report.sarif")" = src/server.ts
check "JSON and HTML reports" test -s "$dir/report.json" -a -s "$dir/report.html"

# action.yml's outputs are the ones the script sets, and its actions are pinned to commits.
for name in $(sed -n 's/.*steps\.run\.outputs\.\([a-z-]*\) }}$/\1/p' "$source_dir/action.yml" | sort -u); do
  check "output $name is set" grep -q "^$name=" "$scratch/fail-on-fail/output.txt"
done
check "every third-party action is pinned to a full commit SHA" \
  bash -c '! grep -E "uses: " "$0" | grep -vE "@[0-9a-f]{40} " ' "$source_dir/action.yml"

run_action fail-on-none INPUT_COMMAND=check INPUT_TARGET="$faulty" INPUT_FAIL_ON=none
check "fail-on none exits 0 with FAILs" test "$code" -eq 0
check "fail-on none still counts them" test "$(output fail-on-none fails)" -ge 1

run_action conformant INPUT_COMMAND=check INPUT_TARGET="$conformant" INPUT_FAIL_ON=warn
check "a conformant server passes even with fail-on warn" test "$code" -eq 0
check "and has no FAIL" test "$(output conformant fails)" -eq 0

# fuzz with a fresh seed: printed, set as the output, named in the replay command.
run_action fuzz INPUT_COMMAND=fuzz INPUT_TARGET="$faulty" INPUT_CASES=300 \
  INPUT_ARGS="--families unknown-names" INPUT_FAIL_ON=fail
seed=$(output fuzz seed)
check "fuzz with a finding exits 1" test "$code" -eq 1
check "a fresh seed is drawn and set as an output" grep -Eq '^[0-9]+$' <<<"$seed"
check "the seed is printed" grep -q "^mcpfuzz seed: $seed\$" "$scratch/fuzz/log.txt"
check "the summary says how to run the same cases" grep -q "mcpfuzz fuzz --seed $seed --cases 300" \
  "$scratch/fuzz/summary.md"
check "new findings are case files in report-dir/findings" \
  test "$(output fuzz new-findings)" -ge 1 -a "$(find "$(output fuzz report-dir)/findings" -name '*.json' | wc -l)" -ge 1
fuzz_dir=$(output fuzz report-dir)
check "the fuzz SARIF validates" sarif_valid "$fuzz_dir"
check "findings written outside the repository are placed at the workflow file" \
  test "$(sarif_places "$fuzz_dir/sarif/report.sarif")" = .github/workflows/mcpfuzz.yml
run_action fuzz-seeded INPUT_COMMAND=fuzz INPUT_TARGET="$conformant" INPUT_CASES=50 INPUT_SEED=42
check "a given seed is used" test "$(output fuzz-seeded seed)" = 42
check "and a clean fuzz run exits 0" test "$code" -eq 0

# fail-on is mcpfuzz's --fail-on: WARN-only findings pass under fail and fail under warn.
run_action warn-under-fail INPUT_COMMAND=fuzz INPUT_TARGET="$warning" INPUT_CASES=60 INPUT_SEED=1
check "WARN-only findings pass with fail-on fail" test "$code" -eq 0
check "and are counted" test "$(output warn-under-fail warns)" -ge 1
check "the run is given --fail-on fail" grep -q '^+ mcpfuzz fuzz --fail-on fail ' \
  "$scratch/warn-under-fail/log.txt"
run_action warn-under-warn INPUT_COMMAND=fuzz INPUT_TARGET="$warning" INPUT_CASES=60 INPUT_SEED=1 \
  INPUT_FAIL_ON=warn
check "WARN-only findings fail with fail-on warn" test "$code" -eq 1
check "the run is given --fail-on warn" grep -q '^+ mcpfuzz fuzz --fail-on warn ' \
  "$scratch/warn-under-warn/log.txt"

# diff: one target word per line; a disagreement where a side FAILs fails the step.
run_action diff INPUT_COMMAND=diff INPUT_TARGET="$faulty
$conformant" INPUT_CASES=200 INPUT_SEED=3 INPUT_ARGS="--families unknown-names"
check "diff with a wrong side exits 1" test "$code" -eq 1
check "and its SARIF validates" sarif_valid "$(output diff report-dir)"
run_action upper-case INPUT_COMMAND=check INPUT_TARGET="HTTP://${conformant#http://}" \
  INPUT_ARGS="--only tools.unknown-name"
check "a URL with its scheme in capitals is checked as a URL" test "$code" -eq 0

# The build cache's key: the same for the same files, another when one changes.
mkdir -p "$scratch/keyed/action"
cp "$source_dir/action/cache_key.sh" "$scratch/keyed/action/"
echo one >"$scratch/keyed/source.cc"
key1=$(bash "$scratch/keyed/action/cache_key.sh")
check "the build cache key is stable" test "$key1" = "$(bash "$scratch/keyed/action/cache_key.sh")"
echo two >"$scratch/keyed/source.cc"
check "and changes with the action's files" test "$key1" != "$(bash "$scratch/keyed/action/cache_key.sh")"
check "the cache saves the folder install.sh installs to" \
  test "$(grep -c 'runner.temp }}/mcpfuzz-bin' "$source_dir/action.yml")" -eq 2

# Could not run: exit 2 whatever fail-on says.
run_action unreachable INPUT_COMMAND=check INPUT_TARGET="http://127.0.0.1:9/mcp" INPUT_FAIL_ON=none
check "an unreachable target is exit 2 even with fail-on none" test "$code" -eq 2
run_action bad-input INPUT_COMMAND=check INPUT_TARGET="$faulty" INPUT_FAIL_ON=sometimes
check "a bad fail-on is exit 2" test "$code" -eq 2
check "with an error annotation" grep -q '^::error' "$scratch/bad-input/log.txt"

if ((failures > 0)); then
  for name in fail-on-fail fuzz; do
    echo "--- $name log"
    cat "$scratch/$name/log.txt"
  done
  exit 1
fi
echo "action_test: all assertions hold"
