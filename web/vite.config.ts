import { defineConfig } from 'vite';

// Run from web/. Relative asset paths: web/dist can be hosted from any folder of any static server.
export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0, // keep the .wasm a separate file (the offline build inlines it on purpose)
  },
  // The background worker (src/engine/worker.ts) is an ES module, as the engine's loader is.
  worker: { format: 'es' },
});
