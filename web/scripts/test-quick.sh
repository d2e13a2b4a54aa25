#!/usr/bin/env bash
# The fast inner loop (npm run test:quick): the C tests natively and in wasm, the type check, the linter, the
# format check and the JS unit tests. No sanitizers, valgrind, fuzzer, browser or package tests: npm test runs those.
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=$(nproc 2>/dev/null || echo 2)

bash web/scripts/setup.sh
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSP_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build build/native -j"$jobs" >/dev/null
ctest --test-dir build/native -j"$jobs" --output-on-failure -E '_(slab_sort|scalar)$' | tail -3
cmake --build build/wasm -j"$jobs" >/dev/null
ctest --test-dir build/wasm -j"$jobs" --output-on-failure | tail -3
npm run typecheck --silent
npm run lint --silent
bash web/scripts/check-format.sh
npx vitest run --config web/vitest.config.ts tests/js
