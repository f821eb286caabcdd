#!/usr/bin/env bash
# Installs what pipesim needs on a Debian 12 machine, and only what is missing:
# Debian packages (as root; otherwise prints the command to run) and the npm packages.
# Usage: scripts/setup.sh [native|wasm|web|all|hardening|test]   (default: all)
# hardening: native plus clang-14 and its runtimes (libFuzzer, the sanitizers); test: all of them.
set -euo pipefail
cd "$(dirname "$0")/.."

need="${1:-all}"
packages=(cmake g++ make pkg-config ccache nlohmann-json3-dev catch2)
hardening=(clang-14 libclang-rt-14-dev)
case "$need" in
  native) ;;
  wasm) packages+=(emscripten) ;;
  # A CJK font, so that zh-CN pages (and their screenshots) show text rather than boxes.
  web|all) packages+=(emscripten chromium fonts-wqy-microhei) ;;
  hardening) packages+=("${hardening[@]}") ;;
  test) packages+=(emscripten chromium fonts-wqy-microhei "${hardening[@]}") ;;
  *) echo "setup.sh: unknown target '$need' (native, wasm, web, all, hardening or test)" >&2; exit 2 ;;
esac

missing=()
# Node.js may come from Debian or from NodeSource (which bundles npm): ask for the commands.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "pipesim setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "pipesim setup: missing Debian packages: ${missing[*]}" >&2
    echo "run:  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

if [[ "$need" == web || "$need" == all || "$need" == test ]]; then
  # npm ci when node_modules is absent or older than the lock file.
  if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "pipesim setup: installing npm packages"
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi
