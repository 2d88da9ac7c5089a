#!/usr/bin/env bash
# Build slubviz. Usage: scripts/build.sh [native|test|move|profile|wasm|wasm-san|all]...  (default: all)
#
#   native  build/       Release, Ninja: build/slubviz
#   test    build-test/  Debug + SVZ_SANITIZE=ON + SVZ_VALIDATE=ON (ctest runs here)
#   move    build-move/  as test, plus SVZ_ARENA_ALWAYS_MOVE=ON: every arena
#                        allocation moves the arena, so ASan catches pointers
#                        kept across one (its ctest adds move_corpus)
#   profile build-prof/  the wasm build's profile (wasm runs it first): the
#                        native CLI built by the clang that emcc drives,
#                        instrumented (-fprofile-instr-generate), run over the
#                        bench's traces, every scenario and an import;
#                        build-prof/slubviz.profdata (SVZ_PGO=0: none)
#   wasm    build-wasm/  Emscripten (emcmake), Release, optimised with that
#                        profile (-fprofile-instr-use):
#                          build-wasm/slubviz_node.js    the CLI for Node
#                          build-wasm/slubviz_core.mjs   the browser module (+ .wasm,
#                                                        and .deferred.wasm: split.mjs)
#   wasm-san build-wasm-san/  the wasm targets as `test` builds them: Debug,
#                        ASan + UBSan, validator after every op (the vitest
#                        suites take it through SVZ_WASM_DIR)
#   all     native, test and wasm
#
# Each build re-runs the (cheap) CMake configure step, then builds
# incrementally; Ninja prints [done/total] progress. Set SVZ_JOBS to change
# the parallelism (default: number of cores).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

JOBS="${SVZ_JOBS:-$(nproc 2>/dev/null || echo 2)}"

if [ -t 1 ]; then B=$'\033[1m' N=$'\033[0m'; else B='' N=''; fi
say() { printf '\n%s==> %s%s\n' "$B" "$*" "$N"; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

need() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' not found: run scripts/ensure-deps.sh first"
}

# A build directory configured with another generator cannot be reused.
fresh_if_not_ninja() {
  local dir="$1"
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    echo "$dir was configured with another generator: removing it"
    rm -rf "$dir"
  fi
}

# BUILD_TARGET=T: that target alone, not all.
build_dir() { # name dir configure-command...
  local name="$1" dir="$2"; shift 2
  local t0=$SECONDS
  say "$name: configure ($dir)"
  fresh_if_not_ninja "$dir"
  "$@" -S . -B "$dir" -G Ninja
  say "$name: build ($dir, -j$JOBS)"
  cmake --build "$dir" -j "$JOBS" ${BUILD_TARGET:+--target "$BUILD_TARGET"}
  say "$name: done in $((SECONDS - t0))s"
}

build_native() {
  need cmake; need ninja; need cc
  build_dir native build cmake -DCMAKE_BUILD_TYPE=Release
}

build_test() {
  need cmake; need ninja; need cc
  build_dir test build-test cmake -DCMAKE_BUILD_TYPE=Debug -DSVZ_SANITIZE=ON -DSVZ_VALIDATE=ON
}

build_move() {
  need cmake; need ninja; need cc; need node
  build_dir move build-move cmake -DCMAKE_BUILD_TYPE=Debug -DSVZ_SANITIZE=ON -DSVZ_VALIDATE=ON \
    -DSVZ_ARENA_ALWAYS_MOVE=ON
}

# Profile-guided optimisation of the wasm build (issue 14): with the branch
# weights and inlining of a profile, fastpath.trace and ublk-bio256 run 6%
# fewer instructions under Node (docs/architecture.md; a native build gains
# nothing measurable, so it stays gcc without one). emcc compiles with the
# system clang, so that clang, natively and instrumented, takes the profile:
# the same sources, the same front end. The model is deterministic, so the
# profile is too. Trained again only when the instrumented CLI was rebuilt.
# Sets PGO_PROFILE to the profile's path, or to nothing (SVZ_PGO=0, no clang
# or no profile runtime): the wasm build then goes without.
PGO_PROFILE=
build_profile() {
  local dir=build-prof prof=build-prof/slubviz.profdata
  PGO_PROFILE=
  [ "${SVZ_PGO:-1}" != 0 ] || return 0
  local clang profdata
  clang="$(command -v clang || true)"
  profdata="$(command -v "$(clang -print-prog-name=llvm-profdata 2>/dev/null)" || true)"
  if [ -z "$clang" ] || [ -z "$profdata" ] ||
     [ ! -f "$(clang -print-file-name=libclang_rt.profile-"$(uname -m)".a 2>/dev/null)" ]; then
    echo "profile: no clang with llvm-profdata and its profile runtime: the wasm build goes without one"
    return 0
  fi
  # SVZ_PGO_TRAINING: the code as the wasm build has it where the two differ
  # in their branches (engine.h CO_BEGIN), or the profile would not match
  BUILD_TARGET=slubviz build_dir profile "$dir" env CC="$clang" cmake -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_C_FLAGS=-fprofile-instr-generate -DSVZ_PGO_TRAINING"
  if [ ! -f "$prof" ] || [ "$dir/slubviz" -nt "$prof" ]; then
    say "profile: training ($dir/slubviz over the bench's traces, every scenario, an import)"
    rm -rf "$dir/raw" && mkdir -p "$dir/raw"
    export LLVM_PROFILE_FILE="$ROOT/$dir/raw/%p.profraw"
    local t f
    for t in fastpath ublk-bio256 hackbench; do
      "$dir/slubviz" bench "scenarios/$t.trace" --repeat 1 --warmup 0
      "$dir/slubviz" bench "scenarios/$t.trace" --events --repeat 1 --warmup 0
    done
    # every scenario and its views, the classic era's included, serially
    # (a scenario that ends on a kernel report exits 1)
    for f in scenarios/*.trace; do "$dir/slubviz" run "$f" --schedule serial --json >/dev/null 2>&1 || true; done
    "$dir/slubviz" import --bench 200000
    unset LLVM_PROFILE_FILE
    "$profdata" merge -o "$prof.tmp" "$dir"/raw/*.profraw
    mv "$prof.tmp" "$prof"
    rm -rf "$dir/raw"
    say "profile: $prof"
  fi
  PGO_PROFILE="$ROOT/$prof"
}

build_wasm() {
  need cmake; need ninja; need emcmake; need emcc; need node; need wasm-split
  # Debian's Emscripten runs its JS optimizer with the system node; acorn &
  # co. live in /usr/share/nodejs.
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
  build_profile
  build_dir wasm build-wasm emcmake cmake -DCMAKE_BUILD_TYPE=Release "-DSVZ_PGO_PROFILE=$PGO_PROFILE"
  local f
  for f in build-wasm/slubviz_node.js build-wasm/slubviz_node.wasm \
           build-wasm/slubviz_core.mjs build-wasm/slubviz_core.wasm \
           build-wasm/slubviz_core.deferred.wasm; do
    [ -f "$f" ] || die "expected output $f is missing"
    printf '  %-38s %8d bytes\n' "$f" "$(wc -c <"$f")"
  done
}

build_wasm_san() {
  need cmake; need ninja; need emcmake; need emcc; need node
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
  build_dir wasm-san build-wasm-san emcmake cmake -DCMAKE_BUILD_TYPE=Debug -DSVZ_SANITIZE=ON -DSVZ_VALIDATE=ON
}

[ $# -gt 0 ] || set -- all
for what in "$@"; do
  case "$what" in
    native) build_native ;;
    profile) build_profile ;;
    test)   build_test ;;
    move)   build_move ;;
    wasm)   build_wasm ;;
    wasm-san) build_wasm_san ;;
    all)    build_native; build_test; build_wasm ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown build '$what' (native|test|move|profile|wasm|wasm-san|all)" ;;
  esac
done
