#!/usr/bin/env bash
# Install what building and testing slubviz needs, and nothing on a machine
# that already has it. Idempotent; safe with CI=true and no stdin.
#
#   scripts/ensure-deps.sh            toolchain (apt) + Chromium + node_modules (npm ci)
#   scripts/ensure-deps.sh --no-browser  without Chromium
#   SVZ_WITH_BROWSER=0                same as --no-browser
# Chromium is Debian's (/usr/bin/chromium): the e2e tests (Playwright) use
# the system browser; `playwright install` is never run.
#
# apt: cmake, ninja-build, build-essential, emscripten (binaryen), nodejs, npm, clang and
# libclang-rt-dev (libFuzzer + sanitizer runtimes for the fuzz harnesses,
# the profile runtime for the wasm build's profile: Debian's clang only
# recommends them) (only the missing ones, one
# `apt-get update` first). npm: `npm ci` (`npm install`
# without a lock file) when node_modules is missing or was installed from
# another package.json / package-lock.json.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

WITH_BROWSER="${SVZ_WITH_BROWSER:-1}"
for arg in "$@"; do
  case "$arg" in
    --browser) WITH_BROWSER=1 ;;
    --no-browser) WITH_BROWSER=0 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "ensure-deps.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

log() { printf 'ensure-deps: %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# ---- 1. system packages ----------------------------------------------------
missing=()
want() { # package, then the commands that prove it is there
  local pkg="$1"; shift
  local c
  for c in "$@"; do
    if ! have "$c"; then missing+=("$pkg"); return; fi
  done
}
want cmake cmake
want ninja-build ninja
want build-essential cc make
want emscripten emcc emcmake
# wasm-split (binaryen, a dependency of emscripten) splits the browser module
# (core/wasm/split.mjs)
want binaryen wasm-split
want clang clang
# slabtop (procps) and unshare (util-linux) read the model's /proc/slabinfo in
# a private mount namespace (core/tests/cli_kernel_tools.sh).
want procps slabtop
want util-linux unshare
# A node from elsewhere (NodeSource, nvm) is fine; only install Debian's when
# there is none. npm comes with NodeSource's nodejs, not with Debian's.
want nodejs node
want npm npm
# Debian's emscripten runs its JS optimizer with acorn from /usr/share/nodejs
# (package node-acorn, a dependency of emscripten; checked in case node was
# replaced after emscripten was installed).
if have emcc && [ ! -d /usr/share/nodejs/acorn ]; then missing+=(node-acorn); fi
# libFuzzer's runtime (-fsanitize=fuzzer) is in libclang-rt-*-dev, with the
# profile runtime (-fprofile-instr-generate, scripts/build.sh profile).
if ! have clang || [ ! -f "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] &&
   [ ! -f "$(clang -print-file-name=libclang_rt.fuzzer-aarch64.a 2>/dev/null)" ]; then
  pkg_installed libclang-rt-dev || missing+=(libclang-rt-dev)
fi
if [ "$WITH_BROWSER" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi

if [ ${#missing[@]} -gt 0 ]; then
  if ! have apt-get; then
    log "missing ${missing[*]} and no apt-get: install them by hand" >&2
    exit 1
  fi
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    have sudo || { log "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    if [ -t 0 ]; then SUDO=(sudo); else SUDO=(sudo -n); fi
  fi
  log "installing with apt: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -q </dev/null
  "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
else
  log "system packages: all present (cmake, ninja, cc, emcc, clang + libFuzzer, node, npm$([ "$WITH_BROWSER" = 1 ] && echo ', chromium'))"
fi

# Node >= 18 is needed by vitest 3 / vite 6.
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 18 ]; then
  log "node $(node --version) is too old: need >= 18" >&2
  exit 1
fi

# ---- 2. node_modules -------------------------------------------------------
# node_modules/.svz-deps holds a hash of package.json + package-lock.json as
# of the last successful install; anything else means stale.
stamp=node_modules/.svz-deps
want_hash="$(cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_hash" ]; then
  log "node_modules: up to date"
else
  if [ -d node_modules ]; then why="stale"; else why="missing"; fi
  if [ -f package-lock.json ]; then
    log "node_modules $why: npm ci"
    npm ci --no-audit --no-fund </dev/null
  else
    log "node_modules $why and no package-lock.json: npm install"
    npm install --no-audit --no-fund </dev/null
    want_hash="$(cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1)"
  fi
  echo "$want_hash" >"$stamp"
fi
