#!/usr/bin/env bash
# `npm run bench`: installs what is missing, builds the native engine (Release), the WebAssembly
# module and the page, then runs the native and WebAssembly benchmarks against
# scripts/bench-targets.json and the page's (scripts/bench-page.mjs, targets of its own). Arguments go
# to the first two, e.g. `npm run bench -- --quick` (the page and Python parts take only --quick). Results as
# JSON in artifacts/bench/; the last line printed is the headline JSON (scripts/bench-summary.mjs).
# Exits non-zero if a target fails.
# Speed and memory targets are checked here, not by timed tests, which are flaky on shared machines.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh web    # cmake, g++, nlohmann-json, emscripten, Chromium's headless shell, node and the npm packages
scripts/build-native.sh
scripts/build-wasm.sh
scripts/build-web.sh
mkdir -p artifacts/bench
status=0
echo "== native engine (build/pipesim_bench)"
build/pipesim_bench --json-out artifacts/bench/native.json "$@" || status=$?
echo
echo "== WebAssembly engine in Node (scripts/bench-wasm.mjs)"
node scripts/bench-wasm.mjs --json-out artifacts/bench/wasm.json "$@" || status=$?
echo
echo "== what the page downloads at first load: wasm + JS gzipped, under 250 kB (scripts/bundle-size.mjs)"
node scripts/bundle-size.mjs --json-out artifacts/bench/size.json || status=$?
echo
echo "== the page in headless Chromium (scripts/bench-page.mjs)"
page_args=()
for arg in "$@"; do [[ "$arg" == --quick ]] && page_args+=(--quick); done
node scripts/bench-page.mjs --json-out artifacts/bench/page.json "${page_args[@]}" || status=$?
echo
echo "== pipesim against a Python list-scheduling evaluation of the same schedule (scripts/bench-python.py)"
python3 scripts/bench-python.py --json-out artifacts/bench/python.json "${page_args[@]}" || status=$?
# The table of the issue's targets, then one JSON line: the last thing this command prints.
node scripts/bench-summary.mjs || status=$?
exit "$status"
