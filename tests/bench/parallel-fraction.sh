#!/usr/bin/env bash
# The parallel fraction of an update, the cost of a job, and a model of 2 to 16 cores (tests/bench/parallel_fraction.c),
# natively (gcc -O3, the engine's flags):  bash tests/bench/parallel-fraction.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p build/bench-native
# the engine's sources (c/sources.txt) but the pool, which parallel_fraction.c includes with a timed spPoolRun
sources=$(grep -E '^c/src/' c/sources.txt | grep -v '^c/src/pool.c$')
# shellcheck disable=SC2086
gcc -std=gnu11 -O3 -DNDEBUG -ffp-contract=off -Ic/include -Ic/src -Itests/c tests/bench/parallel_fraction.c \
  tests/c/pool_threads.c $sources \
  -o build/bench-native/parallel_fraction -lm -lpthread
build/bench-native/parallel_fraction
