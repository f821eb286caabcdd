#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, runs every test:
# the native Catch2 suite, the WebAssembly module in Node, and the page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh all
scripts/build-native.sh
echo "== native suite (Catch2 via CTest)"
(cd build && ctest --output-on-failure -j"$(nproc)")
scripts/build-wasm.sh
echo "== WebAssembly module in Node (results equal the native CLI's)"
node --test tests/wasm/
scripts/build-web.sh
echo "== page in headless Chromium (playwright-core), screenshots in artifacts/"
node --test --test-concurrency=1 tests/browser/
