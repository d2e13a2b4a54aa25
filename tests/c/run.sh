#!/usr/bin/env bash
# The C tests: native (ctest), and the same tests compiled to wasm and run in Node.
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=$(nproc 2>/dev/null || echo 2)

echo "== the map of the C files (docs/design.md): no include or call cycle, callers listed above callees"
node tests/c/check-map.mjs

echo "== C tests, native (gcc, warnings as errors; the differential tests also on the slab-sort and SP_SIMD=0 engines)"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSP_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build build/native -j"$jobs" >/dev/null
ctest --test-dir build/native -j"$jobs" --output-on-failure

echo "== C tests, wasm (emcc, run in node)"
cmake --build build/wasm -j"$jobs" >/dev/null
ctest --test-dir build/wasm -j"$jobs" --output-on-failure

echo "== clang-tidy (c/.clang-tidy; any warning fails): the engine natively, then the engine and the wasm shim with"
echo "   the threaded module's flags (c/wasm/build-threads.sh)"
cmake -S . -B build/tidy -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DSP_BUILD_TESTS=OFF -DSP_BUILD_BENCH=OFF -DSP_INSTALL=OFF >/dev/null
run-clang-tidy -p build/tidy -quiet -j"$jobs" '/c/src/[^/]*[.]c$' >build/tidy/native.log 2>&1 ||
  { grep -E 'warning:|error:|note:' build/tidy/native.log >&2; exit 1; }
sysroot=${SP_EMSCRIPTEN_SYSROOT:-$(dirname "$(readlink -f "$(command -v emcc)")")/cache/sysroot}
[[ -d $sysroot ]] || sysroot=/usr/share/emscripten/cache/sysroot
wasm=(--target=wasm32-unknown-emscripten --sysroot="$sysroot" -std=c11 -Ic/include -msimd128 -matomics -mbulk-memory
  -DSP_THREADS)
{ grep -E '^c/(src|wasm)/' c/sources.txt; echo c/wasm/threads.c; } |
  xargs -P"$jobs" -I{} clang-tidy -quiet {} -- "${wasm[@]}" 2>/dev/null
echo "clang-tidy: clean"

# Native gates: sanitizers, valgrind and the fuzzer. SP_FUZZ_SECONDS sets the fuzzing time (0 skips it).
echo "== C tests under AddressSanitizer + UndefinedBehaviorSanitizer (clang-14; any report fails)"
cmake -S . -B build/asan -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSP_SANITIZE=ON >/dev/null
cmake --build build/asan -j"$jobs" >/dev/null
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build/asan -j"$jobs" --output-on-failure

echo "== the threads' tests under ThreadSanitizer (clang-14; the tests named pool_* and threads_*, also on the"
echo "   slab-sort engine; any report fails)"
cmake -S . -B build/tsan -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSP_TSAN=ON -DSP_BUILD_BENCH=OFF >/dev/null
cmake --build build/tsan -j"$jobs" --target sp_tests sp_tests_slab_sort >/dev/null
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir build/tsan -j"$jobs" -R '^(pool|threads)_' -E '_scalar$' --output-on-failure

echo "== valgrind memcheck (the tests marked SP_MEMCHECK in tests/c/tests.def, and the fuzz corpus)"
cmake -S . -B build/valgrind -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build/valgrind -j"$jobs" >/dev/null
memcheck=(valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite,indirect)
sed -n 's/^SP_TEST( *\([a-z0-9_]*\),.*SP_MEMCHECK.*/\1/p' tests/c/tests.def |
  xargs -P"$jobs" -I{} sh -c '"$@" build/valgrind/sp_tests {} >/dev/null || { echo "valgrind: {} failed" >&2; exit 255; }' \
    _ "${memcheck[@]}"
"${memcheck[@]}" build/valgrind/fuzz_world_replay tests/fuzz/corpus >/dev/null
echo "valgrind: clean"

seconds=${SP_FUZZ_SECONDS:-20}
if (( seconds > 0 )); then
  echo "== libFuzzer, ${seconds} s (tests/fuzz/run.sh; run it longer by hand)"
  log=build/fuzz-ci.log
  mkdir -p build
  if ! bash tests/fuzz/run.sh "$seconds" >"$log" 2>&1; then
    tail -60 "$log" >&2
    echo "fuzzer found a failure: see $log and build/fuzz/artifacts/" >&2
    exit 1
  fi
  grep -E 'stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$log" || true
fi
