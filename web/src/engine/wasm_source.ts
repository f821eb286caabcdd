// Where the engine's .wasm comes from: a file next to the bundle (the page, the element). The offline
// single-file build swaps this module for wasm_source_inline.ts (see vite.offline.config.ts).
import wasmUrl from './generated/pipesim_engine.wasm?url';

export function wasmOptions(): { locateFile?: () => string; wasmBinary?: Uint8Array } {
  return { locateFile: () => wasmUrl };
}

/** Compiles the .wasm while it downloads; a server that sends it without the application/wasm type
 *  defeats streaming compilation, so that case compiles the downloaded bytes instead. */
export async function compileWasm(): Promise<WebAssembly.Module> {
  const response = fetch(wasmUrl, { credentials: 'same-origin' });
  try {
    return await WebAssembly.compileStreaming(response);
  } catch {
    const bytes = await (await fetch(wasmUrl, { credentials: 'same-origin' })).arrayBuffer();
    return WebAssembly.compile(bytes);
  }
}
