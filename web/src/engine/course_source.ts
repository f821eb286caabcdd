// Where the course module's .wasm comes from: a file next to the bundle, fetched by the module itself
// when the course first needs it. The offline single-file build swaps this module for
// course_source_inline.ts (see vite.offline.config.ts). Only course.ts, a lazily loaded chunk, imports
// it: the page's first load does not even name the file.
import wasmUrl from './generated/pipesim_course.wasm?url';

export function courseWasmOptions(): { locateFile?: () => string; wasmBinary?: Uint8Array } {
  return { locateFile: () => wasmUrl };
}
