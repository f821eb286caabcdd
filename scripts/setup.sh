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
  # Chromium's headless shell runs the browser tests and the screenshots (tests/browser/chromium.mjs);
  # a CJK font, so that zh-CN pages (and their screenshots) show text rather than boxes.
  web|all) packages+=(emscripten chromium-headless-shell fonts-wqy-microhei) ;;
  hardening) packages+=("${hardening[@]}") ;;
  test) packages+=(emscripten chromium-headless-shell fonts-wqy-microhei "${hardening[@]}") ;;
  *) echo "setup.sh: unknown target '$need' (native, wasm, web, all, hardening or test)" >&2; exit 2 ;;
esac

missing=()
# Node.js >= 20 (Vite 8 and rolldown need it). Debian 12 offers only Node 18, so it is installed from
# Debian only where the Debian sources offer 20 or later; otherwise setup stops and says what to install.
node_needed=20
major_of() { sed -n 's/^v\{0,1\}\([0-9][0-9]*\).*/\1/p' | head -n 1; }
if command -v node >/dev/null; then
  node_major=$(node --version | major_of)
  if ((${node_major:-0} < node_needed)); then
    echo "pipesim setup: Node.js $(node --version) is too old: Vite 8 and rolldown need Node.js >= $node_needed." >&2
    echo "Install Node.js $node_needed or later (for example NodeSource's nodejs package, which bundles npm), then run again." >&2
    exit 1
  fi
  command -v npm >/dev/null || missing+=(npm)
else
  offered=$(apt-cache policy nodejs 2>/dev/null | sed -n 's/^ *Candidate: *//p' | sed 's/^[0-9]*://' | major_of)
  if ((${offered:-0} < node_needed)); then
    echo "pipesim setup: Node.js is missing, and the Debian sources offer ${offered:+Node.js $offered}${offered:-no nodejs package}, too old: Vite 8 and rolldown need Node.js >= $node_needed." >&2
    echo "Install Node.js $node_needed or later (for example NodeSource's nodejs package, which bundles npm), then run again." >&2
    exit 1
  fi
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
  # npm ci when node_modules is absent or older than the lock file; never through a node_modules that
  # is a link to an install shared with other checkouts (npm ci would empty the shared folder).
  if [[ -L node_modules ]]; then
    [[ -f node_modules/.package-lock.json ]] || {
      echo "pipesim setup: node_modules links to $(readlink node_modules), which has no installed packages; install them there" >&2
      exit 1
    }
  elif [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "pipesim setup: installing npm packages"
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi
