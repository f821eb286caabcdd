#!/usr/bin/env bash
# Type-checks and builds everything the browser gets, into web/dist (static files any server hosts):
# the page, the <pipesim-timeline> element and the course widget (dist/embed/), the offline single
# file (dist/pipesim-offline.html) and the example pages (dist/examples/).
set -euo pipefail
cd "$(dirname "$0")/../web"
vite=../node_modules/.bin/vite
../node_modules/.bin/tsc -p tsconfig.json
"$vite" build --logLevel warn
"$vite" build --config vite.embed.config.ts --logLevel warn
cp src/embed/figures-pipesim.js dist/embed/figures-pipesim.js
"$vite" build --config vite.offline.config.ts --logLevel warn
node ../scripts/inline-offline.mjs
