#!/usr/bin/env bash
# The C benchmark, native (gcc -O3) and wasm (emcc -O3 -msimd128 -mbulk-memory, run in Node with V8's optimising
# compiler only), on the same scenes,
# then the native build's instructions per update under callgrind (SP_BENCH_CALLGRIND=0 skips them):
#   bash tests/bench/bench-c.sh [workload] [maxN]      e.g. bash tests/bench/bench-c.sh "one-shot uniform 2D" 1000000
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build/bench-native -DCMAKE_BUILD_TYPE=Release -DSP_BUILD_TESTS=OFF >/dev/null
cmake --build build/bench-native --target sp_bench -j2 >/dev/null
if [[ ! -f build/wasm/CMakeCache.txt ]]; then bash web/scripts/setup.sh; fi
cmake -S . -B build/wasm >/dev/null
cmake --build build/wasm --target sp_bench -j2 >/dev/null
# The machine's speed swings over seconds (other tenants), so each workload runs natively and then as wasm before
# the next workload starts: the two runs of a ratio are seconds apart, not minutes.
# The median ms of each size in sp_bench's output: "n median" per line.
medians() { awk '/median/ { for (i = 1; i <= NF; ++i) { if ($i ~ /^n=/) n = substr($i, 3); if ($i == "median") m = $(i + 1) } print n, m }'; }
echo "native: $(gcc --version | head -1); wasm: emcc, node $(node --version)"
# Threads (native only: pthreads): 2 threads over 1 on the same frames, run by run, with the serial fraction per
# phase. `bench-c.sh threads` alone, `bench-c.sh "threads threshold"` with the small scenes that set the threshold.
threads() { echo "== threads (native, 2 threads, load average: $(cut -d' ' -f1-3 /proc/loadavg))"; build/bench-native/sp_bench "$@"; }
if [[ "${1:-}" == threads* ]]; then
  threads "$@"
  exit 0
fi
all=$(( $# == 0 ))
if [[ $# -gt 0 ]]; then
  workloads=("$1"); counted=("$1"); shift
else
  workloads=("one-shot uniform 2D" "motion 2D" "one-shot clustered 2D" "one-shot uniform 3D" "cold start 2D")
  counted=("motion 2D" "one-shot uniform 2D")
fi
for workload in "${workloads[@]}"; do
  native=$(build/bench-native/sp_bench "$workload" "$@")
  # --no-liftoff: every wasm function on V8's optimising compiler from its first call. With the baseline compiler
  # first, a function is swapped to optimised code only after many calls, each function on its own: the reference
  # (one function) still ran its baseline code after 60 cold starts, at half its speed, and the engine's many
  # functions got there at different times.
  wasm=$(node --no-experimental-fetch --no-liftoff build/wasm/sp_bench.js "$workload" "$@")
  echo "== $workload: native"
  echo "$native"
  echo "== $workload: wasm"
  echo "$wasm"
  join <(medians <<<"$native") <(medians <<<"$wasm") |
    awk -v w="$workload" '{ printf "%s n=%s: wasm/native %.2f (%s ms vs %s ms)\n", w, $1, $3 / $2, $3, $2 }'
done

if (( all )); then
  threads threads
fi

# Instructions per update: callgrind counts instructions, not seconds, so the count is the same however busy the
# machine is. Natively, at one size per workload (maxN, at most 100 000: callgrind runs about 50 times slower),
# counting only inside spWorld_Update and dividing by the updates sp_bench made (set-up and timed ones alike).
if [[ "${SP_BENCH_CALLGRIND:-1}" != 0 ]] && command -v valgrind >/dev/null 2>&1; then
  n=${1:-100000}
  (( n > 100000 )) && n=100000
  for workload in "${counted[@]}"; do
    log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=spWorld_Update \
      build/bench-native/sp_bench "$workload" "$n" "$n" 2>&1 >/dev/null)
    ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$log")
    updates=$(sed -n 's/^updates \([0-9]*\)$/\1/p' <<<"$log")
    if [[ -n "$ir" && -n "$updates" && "$updates" -gt 0 ]]; then
      awk -v w="$workload" -v n="$n" -v ir="$ir" -v u="$updates" \
        'BEGIN { printf "%s n=%s: %.1f M instructions per update (%d updates, native, callgrind), %.0f per box\n", w, n, ir / u / 1e6, u, ir / u / n }'
    else
      echo "$workload n=$n: no instruction count (callgrind printed no total)"
    fi
  done
fi
