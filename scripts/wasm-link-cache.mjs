#!/usr/bin/env node
// The WebAssembly links' cache: what ccache is to the compiles, for the links (wasm/CMakeLists.txt sets
// it as the link launcher). An Emscripten link at -O3 (wasm-ld, then Binaryen's wasm-opt over the whole
// module) costs 10-30 CPU seconds per module, and six modules are linked; every object comes from ccache
// in a fresh clone, so the links were most of a warm build's CPU. A link whose inputs are byte for
// byte those of a link done before (in any checkout of this machine) copies that link's outputs instead.
//
// The key is everything the outputs depend on: the link command (the checkout's and the build folder's
// paths replaced by placeholders, so that another clone hits), the content of every file it names (the
// objects, the response files and the objects they list, the libraries, --pre-js), the Emscripten
// settings of the environment, and the toolchain's files (emcc, clang, wasm-ld, wasm-opt, the
// Emscripten version and its system libraries' cache), by size and modification time, as ccache checks a
// compiler. Anything else changed, and the link runs as it would without the cache.
// Usage (as CMake calls it): node wasm-link-cache.mjs SOURCE_DIR BUILD_DIR -- LINK COMMAND...
// PIPESIM_WASM_LINK_CACHE=0 turns it off; PIPESIM_WASM_LINK_CACHE_DIR moves it (default
// ~/.cache/pipesim/wasm-links); it keeps the newest $maxEntries links.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

const maxEntries = 48;
const [sourceDir, buildDir, separator, ...command] = process.argv.slice(2);
if (separator !== '--' || command.length === 0) {
  console.error('wasm-link-cache: usage: wasm-link-cache.mjs SOURCE_DIR BUILD_DIR -- LINK COMMAND...');
  process.exit(2);
}

const link = () => spawnSync(command[0], command.slice(1), { stdio: 'inherit' }).status ?? 1;
if (process.env.PIPESIM_WASM_LINK_CACHE === '0') process.exit(link());

const outputIndex = command.indexOf('-o');
const output = outputIndex >= 0 ? command[outputIndex + 1] : undefined;
if (!output) process.exit(link()); // not a link this cache knows how to store
// Emscripten writes the loader (OUTPUT) and the module beside it (OUTPUT with .wasm).
const outputs = [output, output.replace(/\.[^./]+$/, '') + '.wasm'];

const hash = createHash('sha256');
const placeholder = (text) => text.split(buildDir).join('<build>').split(sourceDir).join('<source>');
const hashed = new Set();
/** Hashes an argument: its text, and the content of the file it names (a response file's too). */
function hashArgument(arg) {
  hash.update(`arg ${placeholder(arg)}\n`);
  const path = arg.startsWith('@') ? arg.slice(1) : arg.replace(/^--?[A-Za-z-]+=/, '');
  if (path === output || hashed.has(path) || !isFile(path)) return;
  hashed.add(path);
  const content = readFileSync(path);
  hash.update(`file ${content.length}\n`).update(content);
  if (arg.startsWith('@')) for (const listed of content.toString('utf8').split(/\s+/).filter(Boolean)) hashArgument(listed);
}
function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

for (const arg of command) hashArgument(arg);
for (const [name, value] of Object.entries(process.env).sort())
  if (/^(EMCC_|EM_|EMSCRIPTEN)/.test(name)) hash.update(`env ${name}=${value}\n`);
for (const file of toolchainFiles()) {
  const s = statSync(file);
  hash.update(`tool ${file} ${s.size} ${s.mtimeMs}\n`);
}
const key = hash.digest('hex');

const cacheDir = process.env.PIPESIM_WASM_LINK_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'pipesim', 'wasm-links');
const entry = join(cacheDir, key);
if (outputs.every((name) => existsSync(join(entry, basename(name)))) && reuse()) process.exit(0);

const status = link();
if (status === 0 && outputs.every(isFile)) store();
process.exit(status);

/** Copies a stored link's outputs into place; false (and the link runs) if the entry went away meanwhile
 *  (another build's prune). The loader CMake tracks is written last, each file through a rename, so
 *  that a failure never leaves a new loader beside an old module that make would take as up to date. */
function reuse() {
  try {
    for (const name of [...outputs].reverse()) {
      const scratch = `${name}.${process.pid}.tmp`;
      copyFileSync(join(entry, basename(name)), scratch);
      renameSync(scratch, name);
    }
    const now = new Date();
    utimesSync(entry, now, now); // recently used: kept longest
    console.log(`wasm-link-cache: ${basename(output)} reused (inputs unchanged since a link of ${entry})`);
    return true;
  } catch (e) {
    console.warn(`wasm-link-cache: could not reuse ${entry} (${e.message}); linking`);
    return false;
  }
}

/** Stores the outputs under the key: written aside, then renamed, so that a reader never sees half. */
function store() {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const scratch = `${entry}.${process.pid}.tmp`;
    mkdirSync(scratch, { recursive: true });
    for (const name of outputs) copyFileSync(name, join(scratch, basename(name)));
    writeFileSync(join(scratch, 'command'), `${command.map(placeholder).join(' ')}\n`);
    rmSync(entry, { recursive: true, force: true });
    renameSync(scratch, entry);
    prune();
  } catch (e) {
    console.warn(`wasm-link-cache: could not store the link (${e.message}); the build is unaffected`);
  }
}

/** Keeps the newest maxEntries links. */
function prune() {
  const entries = readdirSync(cacheDir)
    .map((name) => ({ name, time: statSync(join(cacheDir, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { name } of entries.slice(maxEntries)) rmSync(join(cacheDir, name), { recursive: true, force: true });
}

/** The toolchain's files whose change changes a link: the driver, the compiler and linker it runs,
 *  Binaryen, the Emscripten version and the system libraries it links (its cache's sysroot). */
function toolchainFiles() {
  const driver = realpathSync(which(command[0]) ?? command[0]);
  const emscripten = dirname(driver);
  const files = [driver, join(emscripten, 'emcc.py'), join(emscripten, 'emscripten-version.txt'),
                 join(emscripten, 'tools', 'settings.py'), join(emscripten, 'src', 'settings.js')];
  for (const tool of ['clang++-14', 'clang', 'wasm-ld', 'wasm-ld-14', 'wasm-opt', 'node']) {
    const found = which(tool);
    if (found) files.push(realpathSync(found));
  }
  // Its configuration names the tools it runs (LLVM_ROOT, BINARYEN_ROOT, NODE_JS): where they are not on
  // PATH (emsdk), a change of where they are still changes the key.
  for (const config of [process.env.EM_CONFIG, join(homedir(), '.emscripten'), join(emscripten, '.emscripten')])
    if (config && isFile(config)) {
      files.push(config);
      break;
    }
  const libraries = join(emscripten, 'cache', 'sysroot', 'lib', 'wasm32-emscripten');
  if (existsSync(libraries)) for (const name of readdirSync(libraries).sort()) files.push(join(libraries, name));
  return files.filter(isFile);
}

function which(name) {
  if (name.includes('/')) return existsSync(name) ? resolve(name) : undefined;
  for (const folder of (process.env.PATH ?? '').split(':')) {
    const candidate = join(folder, name);
    if (isFile(candidate)) return candidate;
  }
  return undefined;
}
