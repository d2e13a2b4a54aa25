#!/usr/bin/env bash
# Build the libFuzzer harness (tests/fuzz/fuzz_world.c, clang-14 -O2 with ASan, UBSan and the engine's asserts) and run it.
#   bash tests/fuzz/run.sh [seconds] [more libFuzzer flags]     default 60 s; CI runs it for ~20 s
# New inputs go to build/fuzz/corpus (the checked-in seeds in tests/fuzz/corpus are only read); a crash is written
# to build/fuzz/artifacts/ and replayed with: build/fuzz/fuzz_world build/fuzz/artifacts/crash-<sha1>
# To refresh the seeds by hand: build/fuzz/fuzz_world -merge=1 tests/fuzz/corpus build/fuzz/corpus
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=Debug -DSP_FUZZ=ON \
  -DSP_BUILD_TESTS=OFF >/dev/null
cmake --build build/fuzz --target fuzz_world -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
mkdir -p build/fuzz/corpus build/fuzz/artifacts
build/fuzz/fuzz_world -max_total_time="$seconds" -max_len=1024 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/ "$@" build/fuzz/corpus tests/fuzz/corpus
