#!/usr/bin/env bash
# Builds the core library, the `pipesim` CLI and the Catch2 suite into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPIPESIM_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
