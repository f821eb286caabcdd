#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, runs every test:
# the native Catch2 suite (plain, then under ASan and UBSan), a bounded fuzzing run of every input
# surface, the WebAssembly module in Node, and the page in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
scripts/build-native.sh
echo "== native suite (Catch2 via CTest)"
(cd build && ctest --output-on-failure -j"$(nproc)")
echo "== native suite under AddressSanitizer and UndefinedBehaviorSanitizer (clang-14, build-sanitized/)"
scripts/test-sanitized.sh
echo "== fuzzing every input surface for ${PIPESIM_FUZZ_SECONDS:-30} s (libFuzzer), summary in artifacts/fuzz/"
scripts/fuzz.sh "${PIPESIM_FUZZ_SECONDS:-30}"
echo "== the page's plain logic in Node (node:test; state, engine client, formatting, timeline arithmetic)"
node --test tests/web/
scripts/build-wasm.sh
echo "== WebAssembly module in Node (results equal the native CLI's)"
node --test tests/wasm/
scripts/build-web.sh
echo "== page in headless Chromium (playwright-core), screenshots in artifacts/"
node --test --test-concurrency=1 tests/browser/
