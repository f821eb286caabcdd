// The offline single file carries the .wasm inside itself (base64), because a page opened from disk
// cannot fetch the files next to it. vite.offline.config.ts provides the virtual module.
import wasmBase64 from 'virtual:pipesim-wasm-base64';

let bytes: Uint8Array<ArrayBuffer> | null = null;

function wasmBytes(): Uint8Array<ArrayBuffer> {
  bytes ??= Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
  return bytes;
}

export function wasmOptions(): { locateFile?: () => string; wasmBinary?: Uint8Array } {
  return { wasmBinary: wasmBytes() };
}

export function compileWasm(): Promise<WebAssembly.Module> {
  return WebAssembly.compile(wasmBytes());
}
