#!/usr/bin/env bash
# slubviz diff: seed 004's pattern between presets on the ublk scenario and
# seed 001's on hackbench, text and JSON, and bad input.
set -u
cli=$1; src=$2
# the C tests validate after every op; here spot checks suffice
export SLUBVIZ_VALIDATE_EVERY=997
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
check() { if eval "$1"; then ok; else bad "$1"; fi; }

out=$("$cli" diff "$src/scenarios/ublk-bio256.trace" --a v7.0-rc1 --b v7.0+fix1+fix2)
check '[ $? -eq 0 ]'
# alloc_slowpath: large under rc1, 0 with both fixes (-100%)
check 'grep -Eq "^alloc_slowpath +[0-9]{5,} +0 +-[0-9]+ +-100.0%$" <<<"$out"'
check 'grep -Eq "^slow-path share +[0-9.]+% +0.00%$" <<<"$out"'
rc1_locks=$(awk '/^list_lock per 1000 ops/ {print int($5)}' <<<"$out")
fix_locks=$(awk '/^list_lock per 1000 ops/ {print int($6)}' <<<"$out")
check '[ "$rc1_locks" -gt $((5 * fix_locks)) ]'
json=$("$cli" diff "$src/scenarios/ublk-bio256.trace" --a v6.19 --b v7.0-rc1 --json)
check 'node -e "const j=JSON.parse(process.argv[1]); if (j.stats.cpu_partial_free[1] !== 0 || !(j.stats.cpu_partial_free[0] > 0) || !(j.slowpath_share[1] > j.slowpath_share[0])) process.exit(1)" "$json"'
out=$("$cli" diff "$src/scenarios/hackbench.trace" --a v5.11-rc4 --b v5.11 --cache kmalloc-512)
check 'grep -Eq "^alloc_slowpath +6400 +1600 +-4800 +-75.0%$" <<<"$out"'
"$cli" diff "$src/scenarios/basics.trace" --a v6.19 >/dev/null 2>/tmp/diff.err; rc=$?
check '[ $rc -eq 2 ] && grep -q "usage: slubviz diff" /tmp/diff.err'
"$cli" diff "$src/scenarios/basics.trace" --a v6.19 --b nosuch >/dev/null 2>/tmp/diff.err; rc=$?
check '[ $rc -eq 2 ] && grep -q "unknown preset" /tmp/diff.err'
"$cli" diff "$src/scenarios/basics.trace" --a v6.19 --b v7.0-rc1 --cache nosuch >/dev/null 2>/tmp/diff.err; rc=$?
check '[ $rc -eq 2 ] && grep -q "no cache" /tmp/diff.err'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
