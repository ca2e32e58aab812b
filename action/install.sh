#!/usr/bin/env bash
# The mcpfuzz GitHub Action's install step: installs the libraries mcpfuzz runs with and, unless
# the build cache (action.yml, keyed by action/cache_key.sh) restored a working mcpfuzz into the
# bin folder, builds it from the action's own checkout (the commit the workflow pinned) without
# tests or benchmarks; then puts the bin folder on PATH. No prebuilt package is downloaded:
# there is no release to download from yet, and building the pinned source is what the pin
# promises. Needs a Debian 12 / Ubuntu runner with apt-get.
#
# MCPFUZZ_BIN_DIR: the bin folder the cache restores and saves (default $RUNNER_TEMP/mcpfuzz-bin).
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir="${RUNNER_TEMP:-/tmp}/mcpfuzz-build"
bin_dir="${MCPFUZZ_BIN_DIR:-${RUNNER_TEMP:-/tmp}/mcpfuzz-bin}"

sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
# Boost.JSON: libboost-json-dev where the default Boost has it (Ubuntu 24.04: 1.83), the 1.81
# package on Debian 12, whose default Boost (1.74) has no JSON library. A cached build still
# needs the shared libraries these bring.
boost_json=libboost-json-dev
apt-cache show "$boost_json" >/dev/null 2>&1 || boost_json=libboost-json1.81-dev
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
  g++ make cmake pkgconf "$boost_json" libcurl4-openssl-dev libcpp-httplib-dev \
  librapidcheck-dev python3 >/dev/null || {
  echo "::error title=mcpfuzz::installing the build dependencies failed; the action needs" \
    "g++, cmake, Boost.JSON >= 1.81, libcurl, cpp-httplib and RapidCheck"
  exit 2
}
if "$bin_dir/mcpfuzz" --version >/dev/null 2>&1 && [[ -x $bin_dir/mcpfuzz-refserver ]]; then
  echo "mcpfuzz: the build restored from the cache runs; not building it again"
else
  cmake -S "$source_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DMCPFUZZ_BUILD_TESTS=OFF \
    -DMCPFUZZ_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$build_dir" --target mcpfuzz mcpfuzz-refserver -j "$(nproc)"
  mkdir -p "$bin_dir"
  # Copies, not links: the cache saves this folder alone.
  cp "$build_dir/cli/mcpfuzz" "$build_dir/refserver/mcpfuzz-refserver" "$bin_dir/"
fi
echo "$bin_dir" >>"${GITHUB_PATH:-/dev/null}"
"$bin_dir/mcpfuzz" --version
