#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, runs every test:
# the native Catch2 suite (plain, then under ASan and UBSan), a bounded fuzzing run of every input
# surface, the WebAssembly module in Node, the web's plain logic in Node, and the page in headless
# Chromium.
#
# Three lanes run side by side, since the 2 cores are rarely both busy in one of them:
#   native: g++ build; clang build (sanitizers + fuzzing, one configuration), its suite, fuzzing
#   web:    WebAssembly build, page build, the page in Chromium (started first)
#   module: once the g++ build is there, its suite; once the WebAssembly build is there, its tests in
#           Node; the web unit tests
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
  for tool in "${CC:-cc}" "${CXX:-c++}" g++ clang++-14 cmake ccache node emcc "${PIPESIM_CHROMIUM:-chromium-headless-shell}"; do
    if command -v "$tool" >/dev/null; then echo "$tool: $("$tool" --version 2>/dev/null | head -n 1)"; else echo "$tool: absent"; fi
  done
  dpkg-query -W g++ clang-14 cmake ccache emscripten chromium-headless-shell catch2 nlohmann-json3-dev nodejs 2>&1 || true
}
# Each file's modification time is part of it, so that a file edited and edited back during the run
# (same content, new time) changes the key too: tests may have run on the edit.
# The tools are asked once (emcc and Chromium take seconds to answer); the files each time.
tools=$(tool_versions)
checkout_key() {
  {
    local files
    mapfile -d '' files < <(git ls-files -z --cached --others --exclude-standard | sort -zu)
    sha1sum -- "${files[@]}" 2>&1 || true
    stat -c '%y %n' -- "${files[@]}" 2>&1 || true
    echo "$tools"
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
  # The phase runs in a subshell whose `times` gives the CPU its commands took (the machine may be
  # shared: CPU seconds compare across runs where wall seconds do not).
  # (`times` itself must not be in a pipeline: that runs it in a fork of its own, which has no children.)
  if ( "$@" >"$log" 2>&1; status=$?; times >"$logs/$name.times"; tail -n 1 "$logs/$name.times" >"$logs/$name.cpu"; exit "$status" ); then
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

# The WebAssembly and page suites compare with the native CLI (build/pipesim), and the module lane
# needs the WebAssembly build: a lane waits for a phase of another to be over (a condition, not a
# duration). A phase NAME that other lanes wait for leaves $logs/NAME.ok, or $logs/NAME.over if it
# failed.
announced() {
  local name=$1; shift
  if phase "$name" "$@"; then touch "$logs/$name.ok"; else touch "$logs/$name.over"; return 1; fi
}
# awaited NAME PID: until NAME is over, or the lane PID that runs it ended without saying (killed).
awaited() {
  local name=$1 lane=$2
  until [[ -e "$logs/$name.ok" || -e "$logs/$name.over" ]] || ! kill -0 "$lane" 2>/dev/null; do sleep 1; done
  [[ -e "$logs/$name.ok" ]] || { echo "== $name did not succeed; the suites that need it do not run" >&2; return 1; }
}

# Lanes, so that both cores stay busy to the end. The page's Chromium suite is the longest chain, so
# its lane builds only what it needs (the module, the page) and starts it first; the module's tests
# and the web unit tests run in a lane of their own beside it, once the module is built.
# The native lane is the longest whenever the sanitized build misses ccache (a fresh machine, a changed
# core header): it goes from the g++ build straight to the clang build, and the g++ suite runs in the
# module lane, which would otherwise only wait for the WebAssembly build.
native_lane() {
  announced native-build scripts/build-native.sh || return 1
  phase sanitized-build scripts/build-sanitized.sh pipesim pipesim_tests pipesim_fuzzers &&
    phase sanitized-tests scripts/test-sanitized.sh &&
    phase fuzz-tests fuzz_run
}

web_lane() {
  announced wasm-build scripts/build-wasm.sh &&
    phase web-build scripts/build-web.sh &&
    awaited native-build "$native" &&
    # One Chromium and one server for every file, files several at a time, the longest first (by
    # their times in the last run), each page in a browser context of its own (scripts/test-browser.mjs).
    phase browser-tests node scripts/test-browser.mjs
}

module_lane() {
  local status=0
  # The g++ suite first (it needs only the g++ build); a failure there still lets the module's tests run.
  # They compare with the g++ CLI, so without the g++ build nothing here runs.
  awaited native-build "$native" || return 1
  phase native-tests bash -c 'cd build && ctest --output-on-failure -j"$(nproc)"' || status=1
  awaited wasm-build "$web" &&
    # Files side by side, one per core: node --test runs cores - 1 files at a time by default, which
    # is one here, and its files are independent (each loads its own module).
    phase wasm-tests node --test --test-concurrency="$(nproc)" tests/wasm/ &&
    # The web's plain-logic modules, in Node (no browser), when the suite exists.
    { [[ ! -d tests/web ]] || phase web-unit-tests node --test --test-concurrency="$(nproc)" tests/web/; } || status=1
  return "$status"
}

started=$SECONDS
native_lane & native=$!
web_lane & web=$!
module_lane & module=$!
status=0
wait "$native" || status=1
wait "$web" || status=1
wait "$module" || status=1

# `times` writes "1m2.500s 0m0.250s" (user, system): their sum in seconds.
cpu_seconds() { awk '{ s = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%.0f", s }' "$1"; }
echo "== phases (wall and CPU seconds; the lanes run side by side), logs in $logs/"
for name in native-build native-tests sanitized-build sanitized-tests fuzz-tests \
            wasm-build web-build browser-tests wasm-tests web-unit-tests; do
  [[ -f "$logs/$name.time" ]] || continue
  cpu=""; [[ -f "$logs/$name.cpu" ]] && cpu="  cpu $(cpu_seconds "$logs/$name.cpu")"
  printf '   %-16s %s%s\n' "$name" "$(cat "$logs/$name.time")" "$cpu"
done
printf '   %-16s %s\n' total "$((SECONDS - started))"
((status == 0)) || { echo "npm test: FAILED" >&2; exit 1; }
echo "npm test: all passed"
