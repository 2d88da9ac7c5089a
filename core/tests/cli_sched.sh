#!/usr/bin/env bash
# The schedule commands end to end: the race scenario's exit status under
# three kernels, slubviz hunt, --schedule and --cost errors, slubviz costs.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cli=$1; src=$2
race="$src/scenarios/race-17c38c88294d.trace"
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
expect() { # status want, command...
	local want=$1; shift
	"$@" > $tmp/cli_sched.out 2> $tmp/cli_sched.err
	local got=$?
	if [ "$got" = "$want" ]; then ok; else bad "exit $got, want $want: $*"; cat $tmp/cli_sched.err | head -5; fi
}
grep_out() { # file pattern
	if grep -q -- "$2" "$1"; then ok; else bad "no '$2' in $1"; head -5 "$1"; fi
}

# the explicit schedule hits the race under 17c38c88294d only
expect 2 "$cli" run "$race"
grep_out $tmp/cli_sched.err "list_del corruption"
expect 2 "$cli" run "$race" --preset v7.0-17c38c88294d
for p in v6.19 v7.0+fix1+fix2; do
	expect 0 "$cli" run "$race" --preset "$p"
	grep_out $tmp/cli_sched.out "ops 465/465"
done
# serial: no interleaving, no race
expect 0 "$cli" run "$race" --schedule serial

# hunt: a seed under 17c38c88294d, none under the fixed kernels
expect 1 "$cli" hunt "$race" --seeds 100
grep_out $tmp/cli_sched.out "^seed=[0-9]* .*list_del corruption"
grep_out $tmp/cli_sched.out "^replay: slubviz run .* --schedule 'random seed=[0-9]*'"
grep_out $tmp/cli_sched.err "^hunt: seed 1 (1 of 100)"
seed=$(sed -n 's/^seed=\([0-9]*\) .*/\1/p' $tmp/cli_sched.out)
expect 2 "$cli" run "$race" --schedule "random seed=$seed"
expect 0 "$cli" hunt "$race" --preset v7.0+fix1+fix2 --seeds 20
grep_out $tmp/cli_sched.out "^none$"

# bad input names the problem
expect 2 "$cli" run "$race" --schedule sometimes
grep_out $tmp/cli_sched.err "expected a schedule (serial, round-robin, random seed=N, timed, explicit), got 'sometimes'"
expect 2 "$cli" run "$race" --cost nosuch=3
grep_out $tmp/cli_sched.err "expected a cost (step, "
expect 2 "$cli" hunt "$race" --seeds many
expect 2 "$cli" hunt

# the cost table and an override
expect 0 "$cli" costs --cost spin=99
grep_out $tmp/cli_sched.out "^spin  *99  .*(overridden)"
grep_out $tmp/cli_sched.out "^page_alloc "
expect 2 "$cli" costs --cost spin=-1

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
