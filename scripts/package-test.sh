#!/usr/bin/env bash
# The package, tested as a user gets it: builds the Debian package from a configured build
# tree (default build/ci), checks its runtime dependencies, runs lintian (failing on errors),
# unpacks it into a scratch root (dpkg-deb -x: the machine's own dpkg database is not touched)
# and runs the installed programs: `mcpfuzz --version`, the installed bash completion, and the
# installed `mcpfuzz check` against the installed `mcpfuzz-refserver`, over stdio and over
# HTTP, conformant (exit 0) and with a fault switched on (exit 1).
#
# Usage: scripts/package-test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}

fail() {
  echo "package-test: $*" >&2
  exit 1
}

cmake --build "$build" --target mcpfuzz mcpfuzz-refserver mcpfuzz-completion mcpfuzz-changelog
scratch=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT

(cd "$build" && cpack -G DEB -B "$scratch/packages" >/dev/null)
debs=("$scratch"/packages/mcpfuzz_*.deb)
[[ -f ${debs[0]} ]] || fail "cpack wrote no mcpfuzz_*.deb"
deb=${debs[0]}
echo "package-test: built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

depends=$(dpkg-deb -f "$deb" Depends)
echo "package-test: Depends: $depends"
for library in libcurl4 libboost-json1.81.0 libstdc++6 libc6; do
  [[ $depends == *"$library"* ]] || fail "Depends lacks $library"
done
[[ $depends != *-dev* ]] || fail "Depends names a -dev package"

if command -v lintian >/dev/null; then
  # Errors fail the test; warnings are printed for people to read.
  lintian_output=$(lintian --tag-display-limit 0 "$deb" 2>&1 || true)
  [[ -n $lintian_output ]] && echo "$lintian_output"
  if grep -q '^E:' <<<"$lintian_output"; then fail "lintian reports errors"; fi
  echo "package-test: lintian: no errors"
else
  fail "lintian is not installed (scripts/bootstrap.sh installs it)"
fi

root="$scratch/root"
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin"
for path in usr/bin/mcpfuzz usr/bin/mcpfuzz-refserver usr/share/doc/mcpfuzz/README.md \
  usr/share/doc/mcpfuzz/copyright usr/share/doc/mcpfuzz/changelog.gz \
  usr/share/mcpfuzz/schemas/mcpfuzz-report.schema.json \
  usr/share/bash-completion/completions/mcpfuzz; do
  [[ -e $root/$path ]] || fail "the package lacks /$path"
done

version=$("$bin/mcpfuzz" --version)
echo "package-test: $version"
[[ $version =~ ^mcpfuzz\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{7,}|unknown)\)$ ]] ||
  fail "unexpected --version output: $version"

# The installed completion offers the flags of the command being typed.
completed=$(bash -c 'source "$1"; COMP_WORDS=(mcpfuzz fuzz --see); COMP_CWORD=2; _mcpfuzz
  echo "${COMPREPLY[*]}"' _ "$root/usr/share/bash-completion/completions/mcpfuzz")
[[ $completed == "--seed" ]] || fail "completion of 'mcpfuzz fuzz --see' gave '$completed'"

expect_exit() {
  local want=$1
  shift
  local got=0
  "$@" >"$scratch/out.txt" 2>&1 || got=$?
  if [[ $got -ne $want ]]; then
    cat "$scratch/out.txt" >&2
    fail "exit $got, not $want: $*"
  fi
}
expect_exit 0 "$bin/mcpfuzz" check -- "$bin/mcpfuzz-refserver" --stdio
expect_exit 1 "$bin/mcpfuzz" check -- "$bin/mcpfuzz-refserver" --stdio --fault unknown-tool-is-error
grep -q 'FAIL  tools.unknown-name' "$scratch/out.txt" || fail "no tools.unknown-name FAIL shown"

"$bin/mcpfuzz-refserver" --http --fault unknown-tool-is-error >"$scratch/server.txt" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
  grep -q '^listening on ' "$scratch/server.txt" && break
  sleep 0.1
done
url=$(sed -n 's/^listening on //p' "$scratch/server.txt")
[[ -n $url ]] || fail "the installed mcpfuzz-refserver printed no URL"
expect_exit 1 "$bin/mcpfuzz" check "$url" --only tools --report "json=$scratch/check.json"
[[ -s $scratch/check.json ]] || fail "no JSON report written"
python3 tests/support/validate_reports.py "$root/usr/share/mcpfuzz/schemas/mcpfuzz-report.schema.json" \
  "$scratch/check.json" >/dev/null || fail "the report does not validate against the installed schema"
echo "package-test: installed mcpfuzz check: conformant exit 0, fault exit 1 (stdio and HTTP)"
