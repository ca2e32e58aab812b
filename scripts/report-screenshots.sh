#!/usr/bin/env bash
# Regenerates the report screenshots in docs/images/ (shown in the README and
# docs/report-format.md): a check, a fuzz and a survey report of the reference server with
# faults, rendered by headless Chromium at 1400×900, the size the browser test measures.
#
# Usage: scripts/report-screenshots.sh [BUILD_DIR]   (default build/ci, already built)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/ci}
mcpfuzz="$build/cli/mcpfuzz"
refserver="$PWD/$build/refserver/mcpfuzz-refserver"
out=docs/images
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"

"$mcpfuzz" check --builtin --fault unknown-tool-is-error --fault unknown-method-200 \
  --report "html=$scratch/check.html" >/dev/null || true
"$mcpfuzz" fuzz --builtin --fault unknown-tool-is-error --fault unknown-method-200 --seed 1 \
  --cases 2000 --report "html=$scratch/fuzz.html" >/dev/null || true
{
  echo "stdio: $refserver --stdio"
  echo "stdio: $refserver --stdio --fault unknown-tool-is-error"
  echo "stdio: $refserver --stdio --fault unknown-tool-plain-success"
  echo "stdio: $refserver --stdio --fault unknown-tool-wrong-code"
  echo "stdio: $refserver --stdio --fault notification-answered"
  echo "stdio: $refserver --stdio --fault logs-on-stdout"
} >"$scratch/targets.txt"
"$mcpfuzz" check --targets "$scratch/targets.txt" --report "html=$scratch/survey.html" \
  >/dev/null 2>&1 || true
# Servers and reproducers are named by the build tree's path; the pictures should not be.
sed -i -e "s|$PWD/$build/refserver/||g" -e "s|$PWD/$build/cli/||g" "$scratch"/*.html

for name in check fuzz survey; do
  timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --disable-background-networking --host-resolver-rules='MAP * ~NOTFOUND' \
    --user-data-dir="$scratch/profile" --window-size=1400,900 \
    --screenshot="$out/report-$name.png" "file://$scratch/$name.html" 2>/dev/null
  echo "wrote $out/report-$name.png ($(du -k "$out/report-$name.png" | cut -f1) KiB)"
done
