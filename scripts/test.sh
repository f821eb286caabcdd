#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh all
scripts/build-native.sh
echo "== native suite (Catch2 via CTest)"
(cd build && ctest --output-on-failure -j"$(nproc)")
