#!/usr/bin/env bash
# The key of the Action's build cache (action.yml): the runner's OS release and machine, and a
# hash of the action's own files. The commit a workflow pins fixes those files, so every run of
# that commit on that image restores the same build, and another commit builds anew. The files
# are hashed rather than the ref named: inside a composite action GitHub does not always give
# the ref, and a branch name would restore an older build.
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
os=linux
if [[ -r /etc/os-release ]]; then
  os=$(. /etc/os-release && echo "${ID:-linux}-${VERSION_ID:-0}")
fi
# Not the build folders or installed servers a local checkout may hold: no part of the build.
hash=$(cd "$source_dir" && find . -type f -not -path './.git' -not -path './.git/*' \
  -not -path './build/*' -not -path './tests/servers/node_modules/*' -print0 |
  LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-20)
echo "mcpfuzz-build-$os-$(uname -m)-$hash"
