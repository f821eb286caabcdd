#!/usr/bin/env bash
# Type-checks and builds everything the browser gets, into web/dist (static files any server hosts):
# the page, the <pipesim-timeline> element and the course widget (dist/embed/), the offline single
# file (dist/pipesim-offline.html) and the example pages (dist/examples/).
# Skipped when web/dist was built from the very same inputs (web/, the WebAssembly modules copied into
# web/src/engine/generated/, core/data/, the npm packages, this script): its key is web/dist/.inputs.
# PIPESIM_WEB_REBUILD=1 builds regardless.
set -euo pipefail
cd "$(dirname "$0")/.."

inputs_key() {
  {
    git ls-files -z --cached --others --exclude-standard -- web core/data package.json package-lock.json \
      scripts/build-web.sh scripts/inline-offline.mjs | sort -zu | xargs -0 sha1sum -- 2>&1 || true
    find web/src/engine/generated -type f -print0 2>/dev/null | sort -z | xargs -0 sha1sum -- 2>&1 || true
    sha1sum node_modules/.package-lock.json 2>&1 || true
  } | sha1sum | cut -d' ' -f1
}
key=$(inputs_key)
# Without git the key would not follow the sources: always build then.
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || PIPESIM_WEB_REBUILD=1
if [[ "${PIPESIM_WEB_REBUILD:-0}" != 1 && -f web/dist/.inputs && "$(cat web/dist/.inputs)" == "$key" ]]; then
  echo "build-web: web/dist is up to date (its inputs are unchanged)"
  exit 0
fi
rm -f web/dist/.inputs

cd web
vite=../node_modules/.bin/vite
../node_modules/.bin/tsc -p tsconfig.json
"$vite" build --logLevel warn
"$vite" build --config vite.embed.config.ts --logLevel warn
cp src/embed/figures-pipesim.js dist/embed/figures-pipesim.js
"$vite" build --config vite.offline.config.ts --logLevel warn
node ../scripts/inline-offline.mjs
echo "$key" >dist/.inputs
