#!/bin/bash -eu
# Builds every in-process fuzz target of fuzz-targets/ in the ClusterFuzzLite (OSS-Fuzz)
# environment: $CC, $CXX, $CFLAGS, $CXXFLAGS (sanitizers and coverage instrumentation),
# $LIB_FUZZING_ENGINE (the engine's link flags), $SRC (sources), $OUT (binaries, dictionaries,
# options and seed corpora). The live harness is left out: it needs a running MCP server.
#
# Run by hand outside the container, e.g.:
#   CC=clang CXX=clang++ CFLAGS='-fsanitize=address,fuzzer-no-link' CXXFLAGS="$CFLAGS" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer SRC=$PWD/.. OUT=/tmp/out .clusterfuzzlite/build.sh

source_dir="$(cd "$(dirname "$0")/.." && pwd)"
build_dir="${WORK:-$OUT/../work}/mcpfuzz-build"

# The distribution's C++ libraries (httplib, rapidcheck) are built against libstdc++, which
# OSS-Fuzz's default -stdlib=libc++ could not link with.
CXXFLAGS="${CXXFLAGS//-stdlib=libc++/}"
export CXXFLAGS

# No CMAKE_BUILD_TYPE: the optimisation and debug flags are the environment's.
cmake -S "$source_dir" -B "$build_dir" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE= \
  -DMCPFUZZ_BUILD_TESTS=OFF -DMCPFUZZ_FUZZING=ON -DMCPFUZZ_FUZZING_INSTRUMENT=OFF \
  -DMCPFUZZ_FUZZING_ENGINE="$LIB_FUZZING_ENGINE"
cmake --build "$build_dir" --target fuzzers -j"$(nproc)"

mkdir -p "$OUT"
for source in "$source_dir"/fuzz-targets/targets/*.cc; do
  target="$(basename "$source" .cc)"
  [[ "$target" == live_* ]] && continue
  cp "$build_dir/fuzz-targets/$target" "$OUT/"
  if [[ -f "$source_dir/fuzz-targets/options/$target.options" ]]; then
    cp "$source_dir/fuzz-targets/options/$target.options" "$OUT/"
  fi
  if [[ "$target" == refserver_handler ]]; then
    cp "$source_dir/fuzz-targets/mcp.dict" "$OUT/$target.dict"
  fi
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$source_dir/fuzz-targets/corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done
