#!/usr/bin/env bash
# Builds the WebAssembly modules with Debian's Emscripten, the engine, the course and the tools (both
# loaded on first need), and copies them (with their hand-written types) to web/src/engine/generated/, where the page
# imports them.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emscripten runs its JS optimizer with the system's node modules.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-wasm -j"$(nproc)"
out=web/src/engine/generated
mkdir -p "$out"
for module in pipesim_engine pipesim_course pipesim_tools; do
  cp "build-wasm/wasm/$module.mjs" "build-wasm/wasm/$module.wasm" "$out/"
  cp "wasm/$module.d.mts" "$out/$module.d.mts"
done
# The Node build (CommonJS) is used by tests/wasm; it loads its own .wasm through wasmBinary (the
# engine's Node build also has the calls the page leaves to the course module: wasm/bindings_later.cpp).
# Core's presets as data the page bundles (its default state is the first one), from that Node build.
node scripts/write-presets.mjs
