#!/usr/bin/env bash
# The native suite (Catch2 via CTest) under AddressSanitizer and UndefinedBehaviorSanitizer. The CLI
# tests start the CLI of the same build, so it runs sanitized too; any report fails its test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh hardening
scripts/build-sanitized.sh pipesim pipesim_tests
source scripts/sanitizer-env.sh
(cd build-sanitized && ctest --output-on-failure -j"$(nproc)")
