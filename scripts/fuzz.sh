#!/usr/bin/env bash
# libFuzzer runs of the harnesses in core/tests/fuzz/ (README.md there).
#
#   scripts/fuzz.sh [options]          fuzz every harness in turn (default 300 s each)
#     --seconds N                      time per harness
#     --jobs N                         parallel libFuzzer workers per harness (default 1)
#     --harness NAME                   only this harness (repeatable): v1 import sched
#                                      restore v1parse importparse
#     --keep-going                     fork mode: crashes, timeouts and OOMs are saved
#                                      and the run goes on (finds more than the first bug)
#     --smoke                          npm test's short run: fixed seed, <= 9 s per harness,
#                                      over the committed corpus; exit 1 on any crash
#   scripts/fuzz.sh build              only build build-fuzz/
#   scripts/fuzz.sh cmin               minimize build-fuzz/corpus/ + the committed corpus
#                                      into core/tests/fuzz/corpus/ (libFuzzer -merge)
#   scripts/fuzz.sh repro NAME FILE... run inputs through harness NAME (with sanitizers)
#
# build-fuzz/: clang, ASan + UBSan, -fsanitize=fuzzer, and (when the option
# exists) SVZ_ARENA_ALWAYS_MOVE=ON, which makes a stale arena pointer a
# use-after-free that ASan reports. Working corpora grow in
# build-fuzz/corpus/<harness>/, crashes land in build-fuzz/artifacts/<harness>/.
# Seeds: scenarios/*.trace and core/tests/data/** (made into each harness's
# input form in build-fuzz/seeds/), plus the dictionaries in dict/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
B=build-fuzz
FZ=core/tests/fuzz
ALL=(v1 import sched restore v1parse importparse)

SECONDS_PER=300 JOBS=1 KEEP=0 SMOKE=0 CMD=run
HARNESSES=()
while [ $# -gt 0 ]; do
  case "$1" in
    build|cmin|run) CMD="$1" ;;
    repro) CMD=repro; shift; break ;;
    --seconds) SECONDS_PER="$2"; shift ;;
    --jobs) JOBS="$2"; shift ;;
    --harness) HARNESSES+=("$2"); shift ;;
    --keep-going) KEEP=1 ;;
    --smoke) SMOKE=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=("${ALL[@]}")

build() {
  command -v clang >/dev/null || { echo "fuzz.sh: clang not found: run scripts/ensure-deps.sh" >&2; exit 1; }
  local move=()
  grep -q 'SVZ_ARENA_ALWAYS_MOVE' CMakeLists.txt && move=(-DSVZ_ARENA_ALWAYS_MOVE=ON)
  if [ -f "$B/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$B/CMakeCache.txt"; then
    rm -rf "$B"
  fi
  # -O1: fast enough, and sanitizer reports keep their frames
  CC=clang cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
    -DSVZ_SANITIZE=ON -DSVZ_FUZZ=ON "${move[@]}" >/dev/null
  local t
  for t in "${HARNESSES[@]}"; do cmake --build "$B" --target "fuzz_$t" -j "${SVZ_JOBS:-2}"; done
}

# Seeds in each harness's input form (fuzz.h): v1 and sched/restore take a
# trace (+ NUL + schedule/action bytes), import a format byte and a chunk byte.
seeds() {
  local s="$B/seeds" f i
  rm -rf "$s"; mkdir -p "$s"/{v1,import,sched,restore}
  # scenarios with their repeat counts cut to 16: small seeds run fast
  local traces=(scenarios/*.trace)
  for f in "${traces[@]}"; do
    i="$(basename "$f" .trace)"
    sed -E 's/repeat [0-9]{3,}/repeat 16/' "$f" >"$s/v1/$i"
    { cat "$s/v1/$i"; printf '\0\x00\x01\x02\x03\x01\x00\xf9\x02\xf4\x05\x03\xf6\x00\xfb'; } >"$s/sched/$i"
    { cat "$s/v1/$i"; printf '\0\x41\x05\x42\x03\x60\x10\x40\x61\x08\x80\xa0\x61\x08\x60\x20\xe0\x60\x04'; } >"$s/restore/$i"
    { printf '\x01\x00'; cat "$s/v1/$i"; } >"$s/import/v1-$i"
  done
  # format byte: 0 auto 1 v1 2 ftrace 3 trace-cmd 4 perf 5 bpftrace 6 malloc-lab
  for f in "$ROOT"/core/tests/data/ftrace/* "$ROOT"/core/tests/data/*.txt; do
    [ -f "$f" ] || continue
    i="$(basename "$f")"; [ "$i" = README.md ] && continue
    local own=0
    case "$i" in
      ftrace*) own=2 ;; trace-cmd*) own=3 ;; perf*) own=4 ;; bpftrace*) own=5 ;; *.rep) own=6 ;;
    esac
    { printf '\x00\x00'; cat "$f"; } >"$s/import/auto-$i"
    { printf '\x00\x07'; cat "$f"; } >"$s/import/auto-chunk7-$i"
    [ "$own" = 0 ] || { printf "\\x0$own\\x00"; cat "$f"; } >"$s/import/own-$i"
  done
  # the parse-only harnesses take the same inputs
  cp -r "$s/v1" "$s/v1parse"
  cp -r "$s/import" "$s/importparse"
}

dict() { # harness -> dictionary file
  mkdir -p "$B/dict"
  cat "$FZ/dict/v1.dict" >"$B/dict/v1.dict"
  cat "$FZ/dict/v1.dict" "$FZ/dict/ftrace.dict" >"$B/dict/import.dict"
  case "$1" in import*) echo "$B/dict/import.dict" ;; *) echo "$B/dict/v1.dict" ;; esac
}

# Bounds for every run: inputs up to 16 KiB, 20 s per input, 2 GiB RSS.
COMMON=(-max_len=16384 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1)

run() {
  local t rc=0 failed=()
  mkdir -p "$B/logs"
  for t in "${HARNESSES[@]}"; do
    local art="$B/artifacts/$t/" work="$B/corpus/$t" log="$B/logs/$t.log" d
    d="$(dict "$t")"
    mkdir -p "$art"
    local args=("${COMMON[@]}" -dict="$d" -artifact_prefix="$art")
    if [ "$SMOKE" = 1 ]; then
      # fixed seed and run count: the same inputs every time, about 6 s
      # each on a loaded 2-core machine (the time cap guards a slower one)
      local runs=600
      case "$t" in sched) runs=3000 ;; import|restore) runs=300 ;; *parse) runs=20000 ;; esac
      work="$B/smoke/$t"; rm -rf "$work"; mkdir -p "$work"
      args+=(-seed=1 -runs="$runs" -max_total_time=9)
    else
      mkdir -p "$work"
      args+=(-max_total_time="$SECONDS_PER")
      if [ "$KEEP" = 1 ]; then
        args+=(-fork="$JOBS" -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
      elif [ "$JOBS" -gt 1 ]; then
        args+=(-jobs="$JOBS" -workers="$JOBS")
      fi
    fi
    local dirs=("$work")
    [ -d "$FZ/corpus/$t" ] && dirs+=("$FZ/corpus/$t")
    [ "$SMOKE" = 1 ] || dirs+=("$B/seeds/$t")
    echo "fuzz $t: ${args[*]} ${dirs[*]}"
    set +e
    "$B/fuzz_$t" "${args[@]}" "${dirs[@]}" >"$log" 2>&1
    local st=$?
    set -e
    local execs
    # final stats; fork mode prints none: its last "#N" progress line
    execs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')" || true
    [ "$execs" != 0 ] || execs="$(grep -oE '^#[0-9]+' "$log" | tr -d '#' | sort -n | tail -1)" || true
    if [ "$st" -ne 0 ]; then
      rc=1; failed+=("$t")
      echo "fuzz $t: FAILED (exit $st, $execs executions); log: $log"
      grep -E 'ERROR: |SUMMARY: |svz-fuzz |runtime error' "$log" | head -5 || true
    else
      echo "fuzz $t: ok, $execs executions"
    fi
  done
  [ "$rc" = 0 ] || echo "fuzz: failed: ${failed[*]}"
  return "$rc"
}

# The committed corpus stays small: only inputs up to CMIN_MAX bytes are
# merged (the working corpus keeps everything).
CMIN_MAX="${SVZ_FUZZ_CMIN_MAX:-512}"
cmin() {
  local t
  for t in "${HARNESSES[@]}"; do
    local out="$FZ/corpus/$t" tmp="$B/cmin/$t"
    rm -rf "$tmp"; mkdir -p "$tmp/in" "$tmp/out" "$out"
    find "$out" "$B/corpus/$t" "$B/seeds/$t" -type f -size -"$((CMIN_MAX + 1))"c \
      -exec cp -t "$tmp/in" {} + 2>/dev/null || true
    "$B/fuzz_$t" -merge=1 "${COMMON[@]}" "$tmp/out" "$tmp/in" >"$B/logs/cmin-$t.log" 2>&1 ||
      { echo "fuzz.sh cmin $t: merge failed, see $B/logs/cmin-$t.log" >&2; exit 1; }
    rm -f "$out"/*
    cp "$tmp"/out/* "$out"/
    echo "cmin $t: $(ls "$out" | wc -l) files, $(cat "$out"/* | wc -c) bytes"
  done
}

case "$CMD" in
  build) build ;;
  run) build; [ "$SMOKE" = 1 ] || seeds; run ;;
  cmin) build; seeds; mkdir -p "$B/logs"; cmin ;;
  repro)
    [ $# -ge 2 ] || { echo "usage: fuzz.sh repro HARNESS FILE..." >&2; exit 2; }
    HARNESSES=("$1"); shift; build
    "$B/fuzz_${HARNESSES[0]}" "$@" ;;
esac
