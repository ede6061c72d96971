#!/usr/bin/env bash
# Regenerates the code from proto/ (and the lite_api.tl types: scripts/gen-lite-api.ts; the contract code hashes: scripts/gen-contract-hashes.ts) and fails when it differs from what is committed:
# generated code is reproducible, and nobody edits it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent generate
GEN=(packages/proto/src/gen packages/tl/src/gen packages/contracts/src/*/code-hashes.ts)
if ! git diff --quiet -- "${GEN[@]}" || [ -n "$(git ls-files --others --exclude-standard "${GEN[@]}")" ]; then
  echo "generated code is out of date: run 'npm run generate' and commit ${GEN[*]}" >&2
  git status --short "${GEN[@]}" >&2
  exit 1
fi
echo "generated code is up to date"
