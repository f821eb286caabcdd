// Loads the Node build of the WebAssembly engine (CommonJS), passing the .wasm bytes directly:
// Node 20's fetch cannot read file paths, which Emscripten's loader would otherwise try.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../build-wasm/wasm/', import.meta.url));

export async function loadEngine() {
  const require = createRequire(import.meta.url);
  const factory = require(`${dir}pipesim_engine_node.cjs`);
  return factory({ wasmBinary: readFileSync(`${dir}pipesim_engine_node.wasm`) });
}

export const CLI = fileURLToPath(new URL('../../build/pipesim', import.meta.url));
