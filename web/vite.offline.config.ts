import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

// The page as one self-contained HTML file that works when opened from disk: the .wasm travels
// inside the bundle as base64 (wasm_source_inline.ts), and so do the course module's
// (course_source_inline.ts) and the tools module's (tools_source_inline.ts), there is no worker (worker_start_offline.ts),
// dynamic imports are folded in, and
// scripts/inline-offline.mjs then puts the JS and CSS into the HTML.
const generated = (file: string) => fileURLToPath(new URL(`./src/engine/generated/${file}`, import.meta.url));

/** The virtual module `id`, whose default export is `wasmFile` as base64. */
function embeddedWasm(id: string, wasmFile: string): Plugin {
  return {
    name: `pipesim-embedded-wasm:${id}`,
    resolveId: (source) => (source === id ? '\0' + id : null),
    load: (resolved) =>
      resolved === '\0' + id ? `export default ${JSON.stringify(readFileSync(wasmFile).toString('base64'))};` : null,
  };
}

export default defineConfig({
  base: './',
  publicDir: false,
  plugins: [
    embeddedWasm('virtual:pipesim-wasm-base64', generated('pipesim_engine.wasm')),
    embeddedWasm('virtual:pipesim-course-wasm-base64', generated('pipesim_course.wasm')),
    embeddedWasm('virtual:pipesim-tools-wasm-base64', generated('pipesim_tools.wasm')),
  ],
  resolve: {
    alias: [
      {
        find: /^\.\/wasm_source$/,
        replacement: fileURLToPath(new URL('./src/engine/wasm_source_inline.ts', import.meta.url)),
      },
      {
        find: /^\.\/course_source$/,
        replacement: fileURLToPath(new URL('./src/engine/course_source_inline.ts', import.meta.url)),
      },
      {
        find: /^\.\/tools_source$/,
        replacement: fileURLToPath(new URL('./src/engine/tools_source_inline.ts', import.meta.url)),
      },
      // No worker from a file:// page: see worker_start_offline.ts.
      {
        find: /^\.\/worker_start$/,
        replacement: fileURLToPath(new URL('./src/engine/worker_start_offline.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist-offline',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    chunkSizeWarningLimit: 3500, // one file on purpose: the three modules' .wasm are inside it
    rollupOptions: { output: { codeSplitting: false } },
  },
});
