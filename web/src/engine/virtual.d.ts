// Provided by vite.offline.config.ts: the engine's .wasm as a base64 string.
declare module 'virtual:pipesim-wasm-base64' {
  const base64: string;
  export default base64;
}
