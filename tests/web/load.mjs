// Loads a module of web/src (TypeScript) into Node for the unit tests: rolldown (Vite's bundler,
// already installed) bundles it with what it imports into one ES module in a temporary folder.
// Only plain-logic modules are loaded this way: nothing here provides a DOM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';

const src = resolve(fileURLToPath(new URL('../../web/src/', import.meta.url)));

/** The module web/src/`path` (without its .ts), compiled and imported. */
export async function loadWebModule(path) {
  const out = mkdtempSync(join(tmpdir(), 'pipesim-web-test-'));
  try {
    const bundle = await rolldown({ input: join(src, `${path}.ts`), platform: 'node', logLevel: 'silent' });
    await bundle.write({ dir: out, format: 'esm', entryFileNames: 'module.mjs', inlineDynamicImports: true });
    await bundle.close();
    return await import(pathToFileURL(join(out, 'module.mjs')).href);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
