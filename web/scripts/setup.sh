#!/usr/bin/env bash
# Set-up shared by `npm start` and `npm test`: install what is missing (Emscripten; for the tests Chromium,
# clang-format and clang-tidy; from apt; npm packages), then build the wasm module and embed it.
#   bash web/scripts/setup.sh [--test]    (--test: also what npm test needs: Chromium, clang-format, clang-tidy)
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v emcc >/dev/null 2>&1 || need+=(emscripten)
# the threaded module (c/wasm/build-threads.sh): clang and wasm-ld 14, which Debian's emscripten depends on
command -v clang-14 >/dev/null 2>&1 || need+=(clang-14)
command -v wasm-ld-14 >/dev/null 2>&1 || need+=(lld-14)
if [[ "${1:-}" == "--test" ]]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v clang-format >/dev/null 2>&1 || need+=(clang-format)
  # the C static check of tests/c/run.sh
  command -v run-clang-tidy >/dev/null 2>&1 || need+=(clang-tidy)
fi
if (( ${#need[@]} )); then
  cmd="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${need[*]}"
  if [[ $(id -u) == 0 ]]; then
    echo "setup: installing ${need[*]} (apt)"
    bash -c "$cmd"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "setup: installing ${need[*]} (sudo apt)"
    sudo bash -c "$cmd"
  else
    echo "setup: missing ${need[*]}. Run as root:" >&2
    echo "  $cmd" >&2
    exit 1
  fi
fi

# npm packages: install when node_modules is missing or older than the lock file
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi

# the wasm module (cmake rebuilds only what changed)
if [[ ! -f build/wasm/CMakeCache.txt ]]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >/dev/null
fi
cmake --build build/wasm --target sweep_prune_wasm -j2 >/dev/null
node web/scripts/embed-wasm.mjs
# the threaded module (sweep-prune/threads), beside the other in web/src/generated/
bash c/wasm/build-threads.sh
cp build/wasm-threads/sweep_prune_threads.wasm web/src/generated/
