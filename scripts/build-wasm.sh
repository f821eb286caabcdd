#!/usr/bin/env bash
# Builds the WebAssembly engine with Debian's Emscripten and copies it (with its hand-written types)
# to web/src/engine/generated/, where the page imports it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emscripten runs its JS optimizer with the system's node modules.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-wasm -j"$(nproc)"
out=web/src/engine/generated
mkdir -p "$out"
cp build-wasm/wasm/pipesim_engine.mjs build-wasm/wasm/pipesim_engine.wasm "$out/"
cp wasm/pipesim_engine.d.mts "$out/pipesim_engine.d.mts"
# The Node build (CommonJS) is used by tests/wasm; it loads the same .wasm through wasmBinary.
