// Loads the Node builds of the WebAssembly modules, the engine, the course and the tools (CommonJS), passing the .wasm bytes directly:
// Node 20's fetch cannot read file paths, which Emscripten's loader would otherwise try.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../build-wasm/wasm/', import.meta.url));

/** The engine module: what the page loads first (simulate, sweep, exports, ...). */
export async function loadEngine() {
  return loadModule('pipesim_engine_node');
}

/** The course module (quiz, lessons, planner), which the page loads on first need, with core/data's
 *  course files given to it as the page does; pass { courseData: false } for one without them. */
export async function loadCourse({ courseData = true } = {}) {
  const course = await loadModule('pipesim_course_node');
  if (courseData) provideCourseData(course);
  return course;
}

/** The tools module (exports, the chunk model, profiler traces), which the page loads on first need. */
export async function loadTools() {
  return loadModule('pipesim_tools_node');
}

async function loadModule(name) {
  const require = createRequire(import.meta.url);
  return require(`${dir}${name}.cjs`)({ wasmBinary: readFileSync(`${dir}${name}.wasm`) });
}

/** Hands the course module core/data's course files, which it does not carry (the page loads them lazily). */
export function provideCourseData(course) {
  for (const name of ['quiz_bank', 'lesson_text', 'planner_text'])
    course.provideCourseData(name, readFileSync(new URL(`../../core/data/${name}.json`, import.meta.url), 'utf8'));
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

/** After a refusal: `engine` did not mark itself broken and still simulates and exports. */
export function assertStillWorks(engine) {
  assert.equal(engine.broken, false, 'the module never marked itself broken');
  assert.equal(engine.simulate({}).summary.makespan, 66, 'the module keeps working');
  assert.ok(engine.exportText({ schedule: '1f1b', ranks: 2, microBatches: 2 }, 'svg', 0).text.startsWith('<?xml'));
}
