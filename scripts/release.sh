#!/usr/bin/env bash
# `npm run release`: builds everything, then writes to artifacts/release/
#   pipesim-X.Y.Z.tgz       the npm package (npm pack: the element, the course widget, the WebAssembly
#                           API with its types, the offline page; see package.json "exports")
#   pipesim-X.Y.Z-web.tar.gz  what a course or docs site hosts without npm: the offline page
#                           (pipesim-offline.html), the embed files (embed/: the element with its
#                           .wasm, the course widget), LICENSE, CHANGELOG.md
# X.Y.Z is package.json's version, the one the CLI, the modules and the page show.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh all
scripts/build-wasm.sh
scripts/build-web.sh
version=$(node -p "require('./package.json').version")
out=artifacts/release
mkdir -p "$out"
npm pack --pack-destination "$out" >/dev/null  # prepack stages dist/ (scripts/package.mjs)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
web="$stage/pipesim-$version-web"
mkdir -p "$web"
cp -r dist/embed "$web/embed"
cp dist/pipesim-offline.html LICENSE CHANGELOG.md "$web/"
tar -czf "$out/pipesim-$version-web.tar.gz" -C "$stage" "pipesim-$version-web"
echo "pipesim release $version:"
ls -l "$out/pipesim-$version.tgz" "$out/pipesim-$version-web.tar.gz"
