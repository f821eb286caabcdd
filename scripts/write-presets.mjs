#!/usr/bin/env node
// Writes core's presets (core/engine/src/presets.cpp, as the module's presets() returns them) into
// web/src/engine/generated/presets.json, which the page bundles: its default state is the first preset
// (web/src/state/page_state.ts), known before the engine has loaded, and written once, in core.
// Run by scripts/build-wasm.sh after the build, with the Node build of the same module.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const module = fileURLToPath(new URL('../build-wasm/wasm/pipesim_engine_node', import.meta.url));
// Node 20's fetch cannot read file paths: the .wasm bytes are handed over (as tests/wasm/engine.mjs does).
const engine = await createRequire(import.meta.url)(`${module}.cjs`)({ wasmBinary: readFileSync(`${module}.wasm`) });
const out = new URL('../web/src/engine/generated/presets.json', import.meta.url);
writeFileSync(out, JSON.stringify(engine.presets(), null, 1) + '\n');
