#!/usr/bin/env bash
# Regenerates the code from proto/ and fails when it differs from what is committed:
# generated code is reproducible, and nobody edits it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent generate
if ! git diff --quiet -- packages/proto/src/gen || [ -n "$(git ls-files --others --exclude-standard packages/proto/src/gen)" ]; then
  echo "generated code is out of date: run 'npm run generate' and commit packages/proto/src/gen" >&2
  git status --short packages/proto/src/gen >&2
  exit 1
fi
echo "generated code is up to date"
