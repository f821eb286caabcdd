// Where the engine's .wasm comes from: a file next to the bundle (the page, the element). The offline
// single-file build swaps this module for wasm_source_inline.ts (see vite.offline.config.ts).
import wasmUrl from './generated/pipesim_engine.wasm?url';

export function wasmOptions(): { locateFile?: () => string; wasmBinary?: Uint8Array } {
  return { locateFile: () => wasmUrl };
}
