#!/usr/bin/env node
// Folds the offline build (web/dist-offline) into one HTML file, web/dist/pipesim-offline.html:
// the module script and the stylesheet go inline, so the page works from a file:// URL.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('../web/', import.meta.url));
const from = join(web, 'dist-offline');
let html = readFileSync(join(from, 'index.html'), 'utf8');

html = html.replace(/<script type="module" crossorigin src="\.\/([^"]+)"><\/script>/g, (_, file) => {
  // "</script" inside the code would end the inline element early.
  const code = readFileSync(join(from, file), 'utf8').replace(/<\/script/gi, '<\\/script');
  return `<script type="module">${code}</script>`;
});
html = html.replace(/<link rel="stylesheet" crossorigin href="\.\/([^"]+)">/g, (_, file) => `<style>${readFileSync(join(from, file), 'utf8')}</style>`);
html = html.replace(/<link rel="icon"[^>]*>/, '');
if (/src="\.\/assets|href="\.\/assets/.test(html)) throw new Error('offline page still references assets/');

// Its own strict Content-Security-Policy: inline code runs only if its hash is listed, nothing else is
// loaded (the .wasm is inside). scripts/serve.mjs sends this policy for the file, in place of the one
// of the page, which allows no inline code at all.
const hashes = (tag) =>
  [...html.matchAll(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map(
    (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
  );
const policy = `default-src 'self'; script-src ${hashes('script').join(' ')} 'wasm-unsafe-eval'; style-src ${hashes('style').join(' ')}`;
html = html.replace(/<head>/, `<head>\n<meta http-equiv="Content-Security-Policy" content="${policy}">`);
if (!html.includes('http-equiv="Content-Security-Policy"')) throw new Error('offline page has no <head> for its policy');

writeFileSync(join(web, 'dist', 'pipesim-offline.html'), html);
rmSync(from, { recursive: true, force: true });
console.log(`wrote web/dist/pipesim-offline.html (${(html.length / 1024).toFixed(0)} KiB)`);
