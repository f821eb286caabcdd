#!/usr/bin/env bash
# `npm run bench`: installs what is missing, builds the native engine (Release) and the WebAssembly
# module, then runs both benchmarks against scripts/bench-targets.json. Arguments go to both, e.g.
# `npm run bench -- --quick`. Results as JSON in artifacts/bench/. Exits non-zero if a target fails.
# Speed and memory targets are checked here, not by timed tests, which are flaky on shared machines.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh wasm   # cmake, g++, nlohmann-json, emscripten, node: no browser, no npm packages
scripts/build-native.sh
scripts/build-wasm.sh
mkdir -p artifacts/bench
status=0
echo "== native engine (build/pipesim_bench)"
build/pipesim_bench --json-out artifacts/bench/native.json "$@" || status=$?
echo
echo "== WebAssembly engine in Node (scripts/bench-wasm.mjs)"
node scripts/bench-wasm.mjs --json-out artifacts/bench/wasm.json "$@" || status=$?
exit "$status"
