// Where the tools module's .wasm comes from: a file next to the bundle, fetched by the module itself
// when a download or the Chunk tab first needs it. The offline single-file build swaps this module
// for tools_source_inline.ts (see vite.offline.config.ts). Only tools.ts, a lazily loaded chunk,
// imports it: the page's first load does not even name the file.
import wasmUrl from './generated/pipesim_tools.wasm?url';

export function toolsWasmOptions(): { locateFile?: () => string; wasmBinary?: Uint8Array } {
  return { locateFile: () => wasmUrl };
}
