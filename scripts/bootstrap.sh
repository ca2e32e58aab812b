#!/usr/bin/env bash
# Installs everything mcpfuzz needs on Debian 12, idempotently: the Debian packages of the
# toolchain and libraries, then the real MCP servers the tests start (from npm, into
# tests/servers/node_modules, which git ignores). Safe to run again: it installs only what is
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ make cmake pkgconf git ca-certificates curl python3 ccache
  clang-14 llvm-14 libclang-rt-14-dev clang-format
  googletest libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
  # Boost.JSON exists only as the 1.81 package in bookworm; it conflicts with the 1.74 -dev
  # packages, so any other Boost library added later must be a 1.81 package too.
  libboost-json1.81-dev
  libcurl4-openssl-dev libcpp-httplib-dev
  nodejs npm
  # The generator tests validate generated requests against the official schemas with it.
  python3-jsonschema
  # The HTML report test renders the report in headless Chromium.
  chromium chromium-driver
  # The hostile-server suite measures each run's peak RSS with /usr/bin/time.
  time
  # scripts/package-test.sh: the .deb's dependencies (dpkg-shlibdeps) and lintian.
  dpkg-dev lintian
  # scripts/test-under-load.sh: the CPU hog the timing-sensitive tests run beside.
  stress-ng
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
# node may come from elsewhere than Debian's nodejs package; then it is not missing.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs/}")
  missing=("${missing[@]/npm/}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))

if ((${#missing[@]} > 0)); then
  echo "bootstrap: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
else
  echo "bootstrap: Debian packages already installed"
fi

servers=tests/servers
stamp="$servers/node_modules/.mcpfuzz-lock"
if [[ ! -f "$stamp" ]] || ! cmp -s "$servers/package-lock.json" "$stamp"; then
  echo "bootstrap: installing the real MCP servers from npm into $servers/node_modules"
  (cd "$servers" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$servers/package-lock.json" "$stamp"
else
  echo "bootstrap: npm servers already installed"
fi
