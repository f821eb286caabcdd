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

/** The PipesimError that `call` throws: the module refuses bad input by throwing, never by returning. */
export function refusal(call) {
  try {
    call();
  } catch (e) {
    if (e?.name === 'PipesimError') return e;
    throw e;
  }
  throw new Error('expected a PipesimError, but the call returned a value');
}

/** The line the native CLI prints for the same refusal. */
export const cliLine = (e) => `pipesim: error[${e.code}]: ${e.message}\n`;
