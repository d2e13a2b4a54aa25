#!/usr/bin/env bash
# The threaded module, build/wasm-threads/sweep_prune_threads.wasm: the engine's sources compiled with atomics and
# linked over an imported shared memory. Emscripten 3.1.6 cannot link this (no -sSHARED_MEMORY; -pthread brings its
# own JS runtime), so clang-14 and wasm-ld-14 (installed with Debian's emscripten) do, with Emscripten's libc and
# malloc from its sysroot. Why that libc is safe here: docs/threads.md. Rebuilds only when a source is newer.
#   bash c/wasm/build-threads.sh [out.wasm]
set -euo pipefail
cd "$(dirname "$0")/../.."

out=${1:-build/wasm-threads/sweep_prune_threads.wasm}
objdir=build/wasm-threads/obj
sysroot=${SP_EMSCRIPTEN_SYSROOT:-$(dirname "$(readlink -f "$(command -v emcc)")")/cache/sysroot}
[[ -d $sysroot ]] || sysroot=/usr/share/emscripten/cache/sysroot
lib=$sysroot/lib/wasm32-emscripten
# the engine and the shim, from the one list CMakeLists.txt reads too, and this module's own part
mapfile -t sources < <(grep -E '^c/(src|wasm)/' c/sources.txt)
sources+=(c/wasm/threads.c)
inputs=("${sources[@]}" c/sources.txt c/include/sweep_prune/*.h c/src/*.h c/wasm/exported_functions.json "$0")

if [[ -f $out ]] && [[ -z $(find "${inputs[@]}" -newer "$out" 2>/dev/null) ]]; then
  exit 0
fi
for tool in clang-14 wasm-ld-14; do
  command -v $tool >/dev/null || { echo "build-threads: $tool not found (apt-get install clang-14 lld-14)" >&2; exit 1; }
done
for a in libc.a libdlmalloc.a libcompiler_rt.a; do
  [[ -f $lib/$a ]] || { echo "build-threads: $lib/$a not found (Emscripten's sysroot)" >&2; exit 1; }
done
mkdir -p "$objdir" "$(dirname "$out")"
rm -f "$objdir"/*.o

# The shipped module's flags (CMakeLists.txt: -O3 -msimd128 -mbulk-memory, no fused multiply-adds), plus atomics;
# SP_THREADS puts the engine's allocations behind a lock (c/src/core.c)
printf '%s\n' "${sources[@]}" | xargs -P 2 -I{} sh -c '
  clang-14 --target=wasm32-unknown-emscripten --sysroot="$1" -std=c11 -O3 -msimd128 -matomics -mbulk-memory \
    -DNDEBUG -DSP_THREADS -ffp-contract=off -fvisibility=hidden -Wall -Wextra -Ic/include \
    -c "$2" -o "$3/$(echo "$2" | tr / _).o"' _ "$sysroot" {} "$objdir"

exports=$(node -e "
  const names = require('./c/wasm/exported_functions.json').map((s) => s.slice(1));
  names.push('_initialize', 'sp_memory_growths', 'sp_pool_running', '__stack_pointer');
  console.log(names.map((n) => '--export=' + n).join(' '));")
# --shared-memory: data segments become passive, initialised once (atomic flag) by the first instance.
# --no-check-features: libc.a and libdlmalloc.a are compiled without atomics; every malloc call goes through the
# engine's locked allocator (or the JS side, between engine calls), so they never run on two threads at once.
# shellcheck disable=SC2086
wasm-ld-14 --no-entry --import-memory --shared-memory --no-check-features \
  --initial-memory=16777216 --max-memory=2147483648 -z stack-size=65536 --strip-debug \
  $exports "$objdir"/*.o "$lib/libc.a" "$lib/libdlmalloc.a" "$lib/libcompiler_rt.a" -o "$out.tmp"
if command -v wasm-opt >/dev/null; then
  wasm-opt -O3 --enable-threads --enable-simd --enable-bulk-memory --enable-mutable-globals \
    --enable-sign-ext --enable-nontrapping-float-to-int "$out.tmp" -o "$out.tmp"
fi
mv "$out.tmp" "$out"
echo "build-threads: $(stat -c %s "$out") bytes -> $out"
