// The offline single file carries the tools module's .wasm inside itself (base64), as it does the
// engine's and the course's: a page opened from disk cannot fetch the files next to it.
// vite.offline.config.ts provides the virtual module.
import wasmBase64 from 'virtual:pipesim-tools-wasm-base64';

export function toolsWasmOptions(): { locateFile?: () => string; wasmBinary?: Uint8Array } {
  return { wasmBinary: Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0)) };
}
