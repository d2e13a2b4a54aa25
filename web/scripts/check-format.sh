#!/usr/bin/env bash
# The style check of `npm test`: Prettier for the TypeScript and JS (.prettierrc.json), clang-format for the C
# (.clang-format). `bash web/scripts/check-format.sh --write` formats instead of checking.
set -euo pipefail
cd "$(dirname "$0")/../.."
mapfile -t c_files < <(git ls-files 'c/*.c' 'c/*.h' 'tests/*.c' 'tests/*.h')
js=("web/**/*.{ts,mjs,css}" "tests/**/*.{ts,mjs,cjs}")
if [[ "${1:-}" == "--write" ]]; then
  node_modules/.bin/prettier --log-level warn --write "${js[@]}"
  clang-format -i "${c_files[@]}"
  exit 0
fi
if ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format: clang-format is missing; install it: apt-get install -y clang-format" >&2
  exit 1
fi
node_modules/.bin/prettier --log-level warn --check "${js[@]}" ||
  { echo "check-format: run 'npm run format' to format the TypeScript and JS" >&2; exit 1; }
clang-format --dry-run --Werror "${c_files[@]}" ||
  { echo "check-format: run 'npm run format' to format the C" >&2; exit 1; }
echo "check-format: TypeScript, JS and C formatted"
