#!/usr/bin/env bash
# Builds with clang-14 under AddressSanitizer and UndefinedBehaviorSanitizer into build-sanitized/:
# the library, the CLI and the Catch2 suite (scripts/test-sanitized.sh) and the libFuzzer targets
# (scripts/fuzz.sh). One build serves both so that the library is compiled once: the coverage
# instrumentation libFuzzer needs costs the suite little, and -O1 keeps the compile short.
# Usage: scripts/build-sanitized.sh TARGET...   (e.g. pipesim pipesim_tests, or pipesim_fuzzers)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitized -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++-14 -DPIPESIM_SANITIZE=address,undefined -DPIPESIM_FUZZ=ON -DPIPESIM_WERROR=ON >/dev/null
cmake --build build-sanitized -j"$(nproc)" --target "$@"
