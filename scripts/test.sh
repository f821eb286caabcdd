#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, runs every test:
# the native Catch2 suite (plain, then under ASan and UBSan), a bounded fuzzing run of every input
# surface, the WebAssembly module in Node, the web's plain logic in Node, and the page in headless
# Chromium.
#
# Two lanes run side by side, since the 2 cores are rarely both busy in one of them:
#   native: g++ build, its suite; clang build (sanitizers + fuzzing, one configuration), its suite, fuzzing
#   web:    WebAssembly build, its tests; web unit tests; page build; the page in Chromium
# Each phase writes artifacts/test-logs/<phase>.log; a failed phase prints the end of its log, and the
# run ends with the time of every phase. Builds are incremental and go through ccache; the page build
# is skipped when none of its inputs changed (scripts/build-web.sh).
#
# Test results are reused when nothing changed: a phase that passed is not run again while every file
# of the checkout (tracked or not ignored) and the tools are byte for byte what they were. Any change
# runs every test again. PIPESIM_TEST_RERUN=1 runs everything regardless.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test

logs=artifacts/test-logs
passed=artifacts/test-passed
rm -rf "$logs"
mkdir -p "$logs" "$passed"
[[ "${PIPESIM_TEST_RERUN:-0}" == 1 ]] && rm -f "$passed"/*
# The key below is the checkout's files as git lists them: without git (an exported tree) it would not
# change with the code, so nothing is reused then.
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "== not a git checkout: every phase runs (no reuse of passed results)"
  rm -f "$passed"/*
  PIPESIM_NO_REUSE=1
fi

# What the results depend on: the checkout's content and the tools' versions (compilers, the build
# tools, the runtimes that run the tests). Computed at the start, and again before a pass is recorded:
# a pass is recorded only if the key is still the same.
tool_versions() {
  echo "CC=${CC:-} CXX=${CXX:-} PIPESIM_CHROMIUM=${PIPESIM_CHROMIUM:-}"
  local tool
  for tool in "${CC:-cc}" "${CXX:-c++}" g++ clang++-14 cmake ccache node emcc "${PIPESIM_CHROMIUM:-chromium}"; do
    if command -v "$tool" >/dev/null; then echo "$tool: $("$tool" --version 2>/dev/null | head -n 1)"; else echo "$tool: absent"; fi
  done
  dpkg-query -W g++ clang-14 cmake ccache emscripten chromium catch2 nlohmann-json3-dev nodejs 2>&1 || true
}
# Each file's modification time is part of it, so that a file edited and edited back during the run
# (same content, new time) changes the key too: tests may have run on the edit.
checkout_key() {
  {
    local files
    mapfile -d '' files < <(git ls-files -z --cached --others --exclude-standard | sort -zu)
    sha1sum -- "${files[@]}" 2>&1 || true
    stat -c '%y %n' -- "${files[@]}" 2>&1 || true
    tool_versions
    echo "fuzz seconds: ${PIPESIM_FUZZ_SECONDS:-bounded}"
  } | sha1sum | cut -d' ' -f1
}
key=$(checkout_key)

# phase NAME COMMAND...: runs COMMAND with its output in $logs/NAME.log and its time in $logs/NAME.time.
# A test phase (name ending in -tests) that passed with the same key is reused.
phase() {
  local name=$1; shift
  local log="$logs/$name.log" started=$SECONDS
  if [[ "${PIPESIM_NO_REUSE:-0}" != 1 && "$name" == *-tests && -f "$passed/$name" && "$(cat "$passed/$name")" == "$key" ]]; then
    echo "reused: passed with this checkout (artifacts/test-passed/$name)" >"$log"
    echo "reused" >"$logs/$name.time"
    echo "== $name: reused (unchanged since it passed)"
    return 0
  fi
  echo "== $name"
  if "$@" >"$log" 2>&1; then
    echo "$((SECONDS - started))" >"$logs/$name.time"
    echo "== $name: ok, $((SECONDS - started)) s"
    if [[ "$name" == *-tests && "${PIPESIM_NO_REUSE:-0}" != 1 ]]; then
      if [[ "$(checkout_key)" == "$key" ]]; then echo "$key" >"$passed/$name"
      else rm -f "$passed/$name"; echo "== $name: not recorded as passed (files or tools changed during the run)"; fi
    fi
  else
    echo "$((SECONDS - started)) FAILED" >"$logs/$name.time"
    rm -f "$passed/$name"
    echo "== $name: FAILED after $((SECONDS - started)) s; the end of $log:" >&2
    tail -n 60 "$log" >&2
    return 1
  fi
}

fuzz_run() {
  if [[ -n "${PIPESIM_FUZZ_SECONDS:-}" ]]; then scripts/fuzz.sh "$PIPESIM_FUZZ_SECONDS"; else scripts/fuzz.sh; fi
}

# The WebAssembly and page suites compare with the native CLI (build/pipesim): the web lane waits for
# the native lane's build to be over (a condition, not a duration) before its first test.
native_lane() {
  if phase native-build scripts/build-native.sh; then touch "$logs/native-build.ok"; else touch "$logs/native-build.over"; return 1; fi
  phase native-tests bash -c 'cd build && ctest --output-on-failure -j"$(nproc)"' &&
    phase sanitized-build scripts/build-sanitized.sh pipesim pipesim_tests pipesim_fuzzers &&
    phase sanitized-tests scripts/test-sanitized.sh &&
    phase fuzz-tests fuzz_run
}

cli_built() {
  # ... or for the native lane to have ended without saying (killed): then this lane stops too.
  until [[ -e "$logs/native-build.ok" || -e "$logs/native-build.over" ]] || ! kill -0 "$native" 2>/dev/null; do sleep 1; done
  [[ -e "$logs/native-build.ok" ]] || { echo "== web lane: the native CLI did not build; its suites need it" >&2; return 1; }
}

web_lane() {
  phase wasm-build scripts/build-wasm.sh &&
    cli_built &&
    phase wasm-tests node --test tests/wasm/ &&
    # The web's plain-logic modules, in Node (no browser), when the suite exists.
    { [[ ! -d tests/web ]] || phase web-unit-tests node --test tests/web/; } &&
    phase web-build scripts/build-web.sh &&
    # Files run two at a time: each has its own server, Chromium and profile, and each page its own
    # storage (tests/browser/harness.mjs).
    phase browser-tests node --test --test-concurrency=2 tests/browser/
}

started=$SECONDS
native_lane & native=$!
web_lane & web=$!
status=0
wait "$native" || status=1
wait "$web" || status=1

echo "== phases (seconds; the two lanes run side by side), logs in $logs/"
for name in native-build native-tests sanitized-build sanitized-tests fuzz-tests \
            wasm-build wasm-tests web-unit-tests web-build browser-tests; do
  [[ -f "$logs/$name.time" ]] && printf '   %-16s %s\n' "$name" "$(cat "$logs/$name.time")"
done
printf '   %-16s %s\n' total "$((SECONDS - started))"
((status == 0)) || { echo "npm test: FAILED" >&2; exit 1; }
echo "npm test: all passed"
