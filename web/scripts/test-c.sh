#!/usr/bin/env bash
# The C tests: native (ctest), and the same tests compiled to wasm and run in Node.
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=$(nproc 2>/dev/null || echo 2)

echo "== C tests, native (gcc, warnings as errors)"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSP_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build build/native -j"$jobs" >/dev/null
ctest --test-dir build/native -j"$jobs" --output-on-failure

echo "== C tests, wasm (emcc, run in node)"
cmake --build build/wasm -j"$jobs" >/dev/null
ctest --test-dir build/wasm -j"$jobs" --output-on-failure
