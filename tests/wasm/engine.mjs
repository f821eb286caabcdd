// Loads the Node build of the WebAssembly engine (CommonJS), passing the .wasm bytes directly:
// Node 20's fetch cannot read file paths, which Emscripten's loader would otherwise try.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../build-wasm/wasm/', import.meta.url));

/** The module with core/data's course files given to it, as the page does on first need; pass
 *  { courseData: false } for one without them. */
export async function loadEngine({ courseData = true } = {}) {
  const require = createRequire(import.meta.url);
  const factory = require(`${dir}pipesim_engine_node.cjs`);
  const engine = await factory({ wasmBinary: readFileSync(`${dir}pipesim_engine_node.wasm`) });
  if (courseData) provideCourseData(engine);
  return engine;
}

/** Hands the module core/data's course files, which it does not carry (the page loads them lazily). */
export function provideCourseData(engine) {
  for (const name of ['quiz_bank', 'lesson_text', 'planner_text'])
    engine.provideCourseData(name, readFileSync(new URL(`../../core/data/${name}.json`, import.meta.url), 'utf8'));
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
