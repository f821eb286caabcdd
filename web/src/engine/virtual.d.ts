// Provided by vite.offline.config.ts: the engine's, the course's and the tools module's .wasm as
// base64 strings.
declare module 'virtual:pipesim-wasm-base64' {
  const base64: string;
  export default base64;
}
declare module 'virtual:pipesim-course-wasm-base64' {
  const base64: string;
  export default base64;
}
declare module 'virtual:pipesim-tools-wasm-base64' {
  const base64: string;
  export default base64;
}
