#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the WebAssembly engine and the page, serves it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh all
scripts/build-wasm.sh
scripts/build-web.sh
exec node scripts/serve.mjs
