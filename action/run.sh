#!/usr/bin/env bash
# The mcpfuzz GitHub Action's run step: everything the action does that is not GitHub's own
# (action.yml only installs mcpfuzz, calls this, and uploads what it leaves in the report
# folder). Tested outside GitHub by tests/action_test.sh with the same environment.
#
# Reads the action's inputs from INPUT_* variables (set in action.yml):
#   INPUT_COMMAND   check (default), fuzz, replay or diff
#   INPUT_TARGET    an http(s):// URL, or the command line of a stdio server (split on spaces);
#                   diff: one target word per line
#   INPUT_ARGS      more mcpfuzz options (split on spaces)
#   INPUT_BASELINE  check, fuzz, replay: a baseline file (--baseline)
#   INPUT_SEED      fuzz, diff: the seed; empty draws a new one, printed and set as `seed`
#   INPUT_CASES, INPUT_TIME   fuzz, diff: --cases, --time
#   INPUT_CORPUS    a folder of case files committed in the repository: replayed on every run
#   INPUT_FAIL_ON   fail (default), warn or never (none is never too), passed to every run as
#                   mcpfuzz's --fail-on: the step exits as the worst run did (0, 1, or 2 for a
#                   run that could not judge a target, whatever fail-on says).
#   INPUT_SARIF_ROOT  the repository file SARIF places results at that have no case file in the
#                   repository (--sarif-root); default the workflow file that ran the action.
# and GitHub's RUNNER_TEMP, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, GITHUB_WORKFLOW_REF. MCPFUZZ
# names the binary (default: mcpfuzz on PATH).
#
# Leaves in $RUNNER_TEMP/mcpfuzz: report.{json,html,md}, sarif/*.sarif, junit/*.xml,
# findings/ (fuzz: new case files), and replay-* reports of the corpus.
# Outputs: fails, warns, findings, report-dir, seed.
set -uo pipefail

mcpfuzz=${MCPFUZZ:-mcpfuzz}
command=${INPUT_COMMAND:-check}
target=${INPUT_TARGET:-}
fail_on=${INPUT_FAIL_ON:-fail}
dir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/mcpfuzz"
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
outputs=${GITHUB_OUTPUT:-/dev/null}

die() {
  echo "::error title=mcpfuzz::$*"
  exit 2
}

case $command in check | fuzz | replay | diff) ;; *) die "command must be check, fuzz, replay or diff, not '$command'" ;; esac
case $fail_on in
  fail | warn | never) ;;
  none) fail_on=never ;; # the input's first spelling
  *) die "fail-on must be fail, warn or never, not '$fail_on'" ;;
esac
[[ -n $target ]] || die "target is empty: give a URL or a stdio server's command line"

# The target: a URL is one word; anything else is a stdio command line, which comes last.
# For diff, one target word per line (http://…, stdio:COMMAND ARGS, builtin:FAULT).
read -ra target_words <<<"$target"
if [[ $command == diff ]]; then
  mapfile -t target_args < <(grep -v '^[[:space:]]*$' <<<"$target")
elif [[ ${target,,} == http://* || ${target,,} == https://* ]]; then
  # A scheme in any case (HTTP://), as mcpfuzz reads it.
  target_args=("$target")
else
  target_args=(-- "${target_words[@]}")
fi
read -ra extra_args <<<"${INPUT_ARGS:-}"

rm -rf "$dir"
mkdir -p "$dir/sarif" "$dir/junit" "$dir/findings"
echo "report-dir=$dir" >>"$outputs"

# Where code scanning shows a result that has no case file in the repository: a file of the
# repository, so that GitHub has one to show it at. GITHUB_WORKFLOW_REF is
# "owner/repo/.github/workflows/mcpfuzz.yml@refs/heads/main".
sarif_root=${INPUT_SARIF_ROOT:-}
if [[ -z $sarif_root && -n ${GITHUB_WORKFLOW_REF:-} ]]; then
  sarif_root=${GITHUB_WORKFLOW_REF%%@*}
  sarif_root=${sarif_root#*/*/}
fi
sarif_args=()
[[ -n $sarif_root ]] && sarif_args=(--sarif-root "$sarif_root")

# --report options for one run named `name`, in the array `reports`.
reports_of() {
  local name=$1
  reports=(--report "json=$dir/$name.json" --report "html=$dir/$name.html"
    --report "markdown=$dir/$name.md" --report "sarif=$dir/sarif/$name.sarif"
    --report "junit=$dir/junit/$name.xml" "${sarif_args[@]}")
}

worst=0
record() { # the exit code of one mcpfuzz run
  local code=$1
  if ((code >= 2)); then
    worst=$code
  elif ((code == 1 && worst == 0)); then
    worst=1
  fi
}

# One mcpfuzz run: its name, the command, then the arguments (a stdio target last: everything
# after its `--` is the server's).
run() {
  local name=$1 command_word=$2
  shift 2
  local -a reports
  reports_of "$name"
  echo "+ mcpfuzz $command_word --fail-on $fail_on ${reports[*]} $*"
  "$mcpfuzz" "$command_word" --fail-on "$fail_on" "${reports[@]}" "$@"
  local code=$?
  record "$code"
  [[ -f $dir/$name.md ]] && cat "$dir/$name.md" >>"$summary"
  return 0
}

seed=""
corpus=${INPUT_CORPUS:-}
if [[ -n $corpus && $command != replay && $command != diff ]]; then
  if compgen -G "$corpus/*.json" >/dev/null; then
    # Without `args`: they are the main command's options, which replay may not take.
    run corpus-replay replay "$corpus" "${target_args[@]}"
  else
    echo "::warning title=mcpfuzz::corpus '$corpus' holds no *.json case file; nothing replayed"
  fi
fi

baseline=()
[[ -n ${INPUT_BASELINE:-} && $command != diff ]] && baseline=(--baseline "$INPUT_BASELINE")
case $command in
  check)
    run report check "${baseline[@]}" "${extra_args[@]}" "${target_args[@]}"
    ;;
  fuzz | diff)
    seed=${INPUT_SEED:-}
    # A fresh seed per run unless one is given, so nightly runs explore; it is printed and set
    # as an output, and the replay command below names it.
    [[ -n $seed ]] || seed=$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')
    echo "mcpfuzz seed: $seed"
    limits=()
    [[ -n ${INPUT_CASES:-} ]] && limits+=(--cases "$INPUT_CASES")
    [[ -n ${INPUT_TIME:-} ]] && limits+=(--time "$INPUT_TIME")
    if [[ $command == diff ]]; then
      run report diff --seed "$seed" "${limits[@]}" "${extra_args[@]}" "${target_args[@]}"
    else
      run report fuzz --seed "$seed" "${limits[@]}" --corpus "$dir/findings" "${baseline[@]}" \
        "${extra_args[@]}" "${target_args[@]}"
    fi
    {
      echo
      echo "Seed \`$seed\`; to run the same cases again:"
      echo
      echo "\`\`\`sh"
      echo "mcpfuzz $command --seed $seed ${limits[*]} ${extra_args[*]} ${target_args[*]}"
      echo "\`\`\`"
    } >>"$summary"
    ;;
  replay)
    [[ -n $corpus ]] || die "replay needs the corpus input: the folder of case files"
    run report replay "$corpus" "${baseline[@]}" "${extra_args[@]}" "${target_args[@]}"
    ;;
esac

# Counts over every JSON report this run wrote: FAILs (and fuzz findings that are FAILs), WARNs.
read -r fails warns findings < <(python3 - "$dir" <<'PY'
import glob, json, sys
fails = warns = 0
for path in glob.glob(sys.argv[1] + "/*.json"):
    with open(path, encoding="utf-8") as handle:
        report = json.load(handle)
    # A fuzz report's "cases" is a count; a replay report's, a list.
    items = [item for key in ("checks", "cases", "findings")
             if isinstance(report.get(key), list) for item in report[key]]
    for target in report.get("targets", []):
        items += target.get("checks", [])
    for item in items:
        fails += item.get("verdict") == "FAIL"
        warns += item.get("verdict") == "WARN"
print(fails, warns, fails + warns)
PY
)
new_findings=$(find "$dir/findings" -name '*.json' | wc -l)
{
  echo "fails=${fails:-0}"
  echo "warns=${warns:-0}"
  echo "findings=${findings:-0}"
  echo "new-findings=$new_findings"
  echo "seed=$seed"
} >>"$outputs"
echo "mcpfuzz: ${fails:-0} FAIL, ${warns:-0} WARN, $new_findings new finding file(s); reports in $dir"

# mcpfuzz's own exit codes decide, under the --fail-on given to each run: one policy.
if ((worst >= 2)); then
  echo "::error title=mcpfuzz::mcpfuzz could not judge a target (exit $worst); see the log above"
fi
exit "$worst"
