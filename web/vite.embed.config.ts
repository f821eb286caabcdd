import { defineConfig } from 'vite';

// <pipesim-timeline> as one ES module (dist/embed/pipesim-timeline.js) plus its .wasm file, for
// course pages and docs. Run from web/ after the page build.
export default defineConfig({
  base: './',
  publicDir: false,
  build: {
    outDir: 'dist/embed',
    emptyOutDir: false,
    target: 'es2022',
    assetsInlineLimit: 0,
    rollupOptions: {
      input: 'src/embed/element.ts',
      preserveEntrySignatures: 'exports-only',
      output: {
        format: 'es',
        entryFileNames: 'pipesim-timeline.js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        codeSplitting: false,
      },
    },
  },
  // The background worker goes next to the element as assets/worker-[hash].js, an ES module. A page
  // that loads the element from another origin cannot start it: the element then runs on its thread.
  worker: { format: 'es' },
});
