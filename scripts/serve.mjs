#!/usr/bin/env node
// A dependency-free static server for the built page, with the strict Content-Security-Policy the
// page is built for. `npm start` runs it; the browser tests import startServer().
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/** The policy a page states for itself (the offline file: hashes of its inline code, as strict as the
 *  page's own), which is sent in place of the server's: both at once would block its inline code. */
function ownPolicy(body) {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(body.subarray(0, 4096).toString('utf8'));
  return m ? m[1] : null;
}

/** Serves `root` on `port` (0 = any free port). Resolves to { server, url }. */
export function startServer({ root, port = 0, host = '127.0.0.1', csp = STRICT_CSP } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside root'), { code: 'ENOENT' });
      let info = await stat(file);
      if (info.isDirectory()) info = await stat((file = join(file, 'index.html')));
      // no-cache: the browser asks again each time, and the tag (size and time of the file) lets it
      // keep what it has when the file is unchanged, with the code it compiled from it.
      const tag = `"${info.size.toString(36)}-${Math.trunc(info.mtimeMs).toString(36)}"`;
      const headers = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', ETag: tag };
      if (req.headers['if-none-match'] === tag && extname(file) !== '.html') {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      const body = await readFile(file);
      if (csp && extname(file) === '.html') headers['Content-Security-Policy'] = ownPolicy(body) ?? csp;
      res.writeHead(200, headers);
      res.end(body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'ENOTDIR' ? 404 : 500, { 'Content-Type': 'text/plain' });
      res.end(e.code === 'ENOENT' || e.code === 'ENOTDIR' ? 'not found\n' : 'server error\n');
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolvePromise({ server, url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${address.port}/` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 5173);
  const root = process.argv[2] ?? fileURLToPath(new URL('../web/dist', import.meta.url));
  startServer({ root, port, host: process.env.HOST ?? '127.0.0.1' })
    .then(({ url }) => {
      console.log(`pipesim is served at ${url}`);
      console.log('(strict Content-Security-Policy on; Ctrl+C stops the server)');
    })
    .catch((e) => {
      console.error(`pipesim: cannot serve on port ${port}: ${e.message}`);
      process.exit(1);
    });
}
