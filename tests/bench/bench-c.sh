#!/usr/bin/env bash
# The C benchmark, native (gcc -O3) and wasm (emcc -O3 -msimd128 -mbulk-memory, run in Node), on the same scenes:
#   bash tests/bench/bench-c.sh [filter] [maxN]      e.g. bash tests/bench/bench-c.sh one-shot 1000000
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build/bench-native -DCMAKE_BUILD_TYPE=Release -DSP_BUILD_TESTS=OFF >/dev/null
cmake --build build/bench-native --target sp_bench -j2 >/dev/null
if [[ ! -f build/wasm/CMakeCache.txt ]]; then bash web/scripts/setup.sh; fi
cmake -S . -B build/wasm >/dev/null
cmake --build build/wasm --target sp_bench -j2 >/dev/null
echo "== native: $(gcc --version | head -1)"
build/bench-native/sp_bench "$@"
echo "== wasm: emcc, node $(node --version)"
node --no-experimental-fetch build/wasm/sp_bench.js "$@"
