// Stages the npm package in dist/ from the builds (scripts/build-wasm.sh, then scripts/build-web.sh);
// `npm pack` runs it first (prepack). The package's exports (package.json) point here:
//   dist/embed/   the <pipesim-timeline> element (one ES module, its .wasm and worker) and its types,
//                 and the course widget figures-pipesim.js
//   dist/wasm/    the WebAssembly API: the engine, the course and the tools modules for browsers and
//                 bundlers (ES modules next to their .wasm), the same for Node (engine.node.mjs,
//                 course.node.mjs, tools.node.mjs, which hand Node 20 the .wasm bytes itself), their types
//   dist/data/    the course module's texts (quiz bank, lesson, planner), which course.node.mjs provides
//   dist/pipesim-offline.html   the whole page in one file
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => `${root}${path}`;
const need = (path, build) => {
  if (!existsSync(at(path))) {
    console.error(`pipesim package: ${path} is missing; run ${build} first`);
    process.exit(1);
  }
};
need('web/dist/embed/pipesim-timeline.js', 'scripts/build-web.sh');
need('web/dist/pipesim-offline.html', 'scripts/build-web.sh');
need('build-wasm/wasm/pipesim_engine_node.cjs', 'scripts/build-wasm.sh');

rmSync(at('dist'), { recursive: true, force: true });
mkdirSync(at('dist/wasm'), { recursive: true });
mkdirSync(at('dist/data'), { recursive: true });
cpSync(at('web/dist/embed'), at('dist/embed'), { recursive: true });
cpSync(at('web/src/embed/pipesim-timeline.d.ts'), at('dist/embed/pipesim-timeline.d.ts'));
cpSync(at('web/dist/pipesim-offline.html'), at('dist/pipesim-offline.html'));
for (const module of ['pipesim_engine', 'pipesim_course', 'pipesim_tools']) {
  for (const file of [`${module}.mjs`, `${module}.wasm`, `${module}_node.cjs`, `${module}_node.wasm`]) cpSync(at(`build-wasm/wasm/${file}`), at(`dist/wasm/${file}`));
  cpSync(at(`wasm/${module}.d.mts`), at(`dist/wasm/${module}.d.mts`));
}
for (const name of ['quiz_bank', 'lesson_text', 'planner_text']) cpSync(at(`core/data/${name}.json`), at(`dist/data/${name}.json`));

// Node 20's fetch cannot read file: URLs, so the Node entries read the .wasm bytes themselves.
const nodeEntry = (module, extra) => `// ${module} for Node: the Emscripten factory with the .wasm bytes handed over (written by scripts/package.mjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const factory = require('./${module}_node.cjs');

export default async function create(options = {}) {
  const module = await factory({ wasmBinary: readFileSync(new URL('./${module}_node.wasm', import.meta.url)), ...options });
${extra}  return module;
}
`;
writeFileSync(at('dist/wasm/engine.node.mjs'), nodeEntry('pipesim_engine', ''));
writeFileSync(at('dist/wasm/tools.node.mjs'), nodeEntry('pipesim_tools', ''));
writeFileSync(
  at('dist/wasm/course.node.mjs'),
  nodeEntry(
    'pipesim_course',
    `  // The course module does not carry its texts: provide the package's copies.
  for (const name of ['quiz_bank', 'lesson_text', 'planner_text'])
    module.provideCourseData(name, readFileSync(new URL(\`../data/\${name}.json\`, import.meta.url), 'utf8'));
`,
  ),
);
// stdout stays clean for npm pack --json: the note goes to standard error.
console.error('pipesim package: staged in dist/');
