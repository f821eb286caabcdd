// The offline single file carries the course module's .wasm inside itself (base64), as it does the
// engine's (wasm_source_inline.ts): a page opened from disk cannot fetch the files next to it.
// vite.offline.config.ts provides the virtual module.
import wasmBase64 from 'virtual:pipesim-course-wasm-base64';

export function courseWasmOptions(): { locateFile?: () => string; wasmBinary?: Uint8Array } {
  return { wasmBinary: Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)) };
}
