#!/usr/bin/env bash
# `slubviz run`, `presets`, `bench` and `help`: exit codes, error messages,
# the shape of the output.
# Usage: bash cli_run.sh <path-to-slubviz> <source-dir>
set -u

BIN=${1:?usage: cli_run.sh <path-to-slubviz> <source-dir>}
SRC=${2:?usage: cli_run.sh <path-to-slubviz> <source-dir>}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL: $1"
	[[ -s "$tmp/out" ]] && head -5 "$tmp/out" | sed 's/^/  stdout: /'
	[[ -s "$tmp/err" ]] && head -5 "$tmp/err" | sed 's/^/  stderr: /'
}

# run <args...>: runs slubviz, leaves $rc, $tmp/out, $tmp/err.
run() {
	"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# expect_err "<exact stderr line>" args...: exit 2, nothing on stdout,
# stderr is exactly that one line.
expect_err() {
	local want=$1
	shift
	run "$@"
	if [[ $rc -eq 2 && ! -s "$tmp/out" && "$(cat "$tmp/err")" == "$want" ]]; then
		ok
	else
		bad "slubviz $* (exit $rc, want 2 and stderr '$want')"
	fi
}

# expect_err_re "<regex for the one stderr line>" args...
expect_err_re() {
	local re=$1
	shift
	run "$@"
	local lines
	lines=$(wc -l <"$tmp/err")
	if [[ $rc -eq 2 && ! -s "$tmp/out" && $lines -eq 1 ]] && grep -qE -- "$re" "$tmp/err"; then
		ok
	else
		bad "slubviz $* (exit $rc, want 2 and one stderr line matching /$re/)"
	fi
}

# ---- traces ----------------------------------------------------------------
cat >"$tmp/good.trace" <<'EOF'
# Two objects of a small cache, freed again.
slubviz-trace 1
page_size 4096
node 0 mem=64M
cpus 0-1 node=0
seed 7
cache t-64 size=64
c0 alloc t-64 a
c1 alloc t-64 b
c0 free t-64 a
c1 free t-64 b
c0 kmalloc 100 k
c0 kfree k
EOF

cat >"$tmp/version.trace" <<'EOF'
slubviz-trace 2
EOF

cat >"$tmp/undeclared.trace" <<'EOF'
slubviz-trace 1
node 0 mem=64M
cpus 0 node=0
cache t-64 size=64
c0 alloc t-64 a
c0 alloc nosuch b
EOF

cat >"$tmp/double-free.trace" <<'EOF'
slubviz-trace 1
node 0 mem=64M
cpus 0 node=0
cache t-64 size=64
c0 alloc t-64 a
c0 free t-64 a
c0 free t-64 a
c0 alloc t-64 b
EOF

# ---- bad input ---------------------------------------------------------------
expect_err_re "^slubviz run: cannot read '$tmp/missing.trace': " run "$tmp/missing.trace"
expect_err "slubviz run: unknown option '--bogus' (see: slubviz help)" run "$tmp/good.trace" --bogus
expect_err "slubviz run: unknown option '--bogus' (see: slubviz help)" run --bogus "$tmp/good.trace"
expect_err "unknown preset 'v9.9' (try: slubviz presets)" run "$tmp/good.trace" --preset v9.9
expect_err "unknown preset 'v9.9' (try: slubviz presets)" run "$tmp/good.trace" --preset=v9.9
# a v1 parse error names the file, as the other formats' errors do
expect_err "$tmp/version.trace:1:15: error: expected format version 1, got '2'" run "$tmp/version.trace"
expect_err "$tmp/version.trace:1:15: error: expected format version 1, got '2'" run --format v1 "$tmp/version.trace"
expect_err_re "^$tmp/undeclared.trace:6:[0-9]+: error: expected .*'nosuch'" run "$tmp/undeclared.trace"
expect_err_re "^set bogus: expected a setting" run "$tmp/good.trace" --set bogus=1
expect_err_re "^set seed: expected seed=" run "$tmp/good.trace" --set seed=x
expect_err_re "^slubviz run: --set needs KEY=VALUE" run "$tmp/good.trace" --set novalue
expect_err_re "^slubviz run: --preset needs" run "$tmp/good.trace" --preset
expect_err_re "^slubviz run: expected a trace file" run
expect_err_re "^slubviz run: expected one trace file" run "$tmp/good.trace" "$tmp/good.trace"
expect_err "slubviz run: unknown cache 'nosuch' (not declared in the trace)" \
	run "$tmp/good.trace" --sysfs nosuch
expect_err "slubviz run: unknown cache 'kmalloc-8k' (no such cache in this run)" \
	run "$tmp/good.trace" --sysfs kmalloc-8k
run frobnicate
if [[ $rc -eq 2 && ! -s "$tmp/out" && "$(head -1 "$tmp/err")" == "slubviz: unknown command 'frobnicate'" ]] &&
	grep -q '^usage: slubviz' "$tmp/err"; then
	ok
else
	bad "slubviz frobnicate: want the error, the usage and exit 2 (exit $rc)"
fi

for args in "" "help" "--help"; do
	# shellcheck disable=SC2086
	run $args
	if [[ $rc -eq 2 && ! -s "$tmp/out" ]] && grep -q '^usage: slubviz' "$tmp/err"; then
		ok
	else
		bad "slubviz $args: want usage on stderr and exit 2 (exit $rc)"
	fi
done

# ---- a good run ------------------------------------------------------------------
run run "$tmp/good.trace"
if [[ $rc -eq 0 && ! -s "$tmp/err" ]] && grep -qE '^ops 6/6 steps [0-9]+$' "$tmp/out" &&
	[[ $(wc -l <"$tmp/out") -eq 1 ]]; then
	ok
else
	bad "run good.trace: want exit 0 and 'ops 6/6 steps N' only"
fi
steps=$(sed -nE 's/^ops 6\/6 steps ([0-9]+)$/\1/p' "$tmp/out")

# --events: one event per micro-step, then the summary.
run run "$tmp/good.trace" --events
nev=$(grep -c '^#[0-9]* op [0-9]* cpu [0-9]* ' "$tmp/out")
if [[ $rc -eq 0 && -n "$steps" && "$nev" == "$steps" ]] &&
	[[ "$(tail -1 "$tmp/out")" == "ops 6/6 steps $steps" ]] &&
	[[ "$(head -1 "$tmp/out")" == "#0 op 0 cpu 0 "* ]]; then
	ok
else
	bad "run --events: want $steps event lines (got $nev) and the summary last"
fi

# --sysfs: exactly ./attr:value lines after the summary.
run run "$tmp/good.trace" --sysfs t-64
if [[ $rc -eq 0 ]] && [[ $(sed -n '2,$p' "$tmp/out" | grep -cvE '^\./[a-z0-9_]+:') -eq 0 ]] &&
	grep -q '^\./object_size:64$' "$tmp/out"; then
	ok
else
	bad "run --sysfs t-64: want ./attr:value lines including ./object_size:64"
fi

# --slabinfo / --slabinfo-only-raw / --stats-only-raw
run run "$tmp/good.trace" --slabinfo-only-raw
if [[ $rc -eq 0 && "$(head -1 "$tmp/out")" == "slabinfo - version: 2.1" ]] && grep -q '^t-64 ' "$tmp/out"; then
	ok
else
	bad "run --slabinfo-only-raw: want /proc/slabinfo only"
fi
cp "$tmp/out" "$tmp/slabinfo"
# one view alone: stdout is exactly that view, the summary line on stderr
run run "$tmp/good.trace" --slabinfo
if [[ $rc -eq 0 ]] && diff -q "$tmp/out" "$tmp/slabinfo" >/dev/null && grep -q '^ops 6/6 ' "$tmp/err"; then
	ok
else
	bad "run --slabinfo: want the same text as --slabinfo-only-raw, the summary on stderr"
fi
run run "$tmp/good.trace" --slabinfo --stats
if [[ $rc -eq 0 && "$(head -1 "$tmp/out")" == ops\ 6/6* ]]; then
	ok
else
	bad "run --slabinfo --stats: want the summary line first on stdout"
fi
run run "$tmp/good.trace" --stats-only-raw
cp "$tmp/out" "$tmp/stats"
run run "$tmp/good.trace" --stats
if [[ $rc -eq 0 && -s "$tmp/stats" ]] && grep -q 't-64' "$tmp/stats" &&
	diff -q "$tmp/out" "$tmp/stats" >/dev/null; then
	ok
else
	bad "run --stats / --stats-only-raw: want the same stats text"
fi

# --json: one document, schema 1, events only with --events.
run run "$tmp/good.trace" --json
if [[ $rc -eq 0 && $(wc -l <"$tmp/out") -eq 1 ]] &&
	grep -qE '^\{"schema":1,"ops_done":6,"ops_total":6,"steps":[0-9]+,.*"reports":""\}$' "$tmp/out" &&
	! grep -q '"events"' "$tmp/out"; then
	ok
else
	bad "run --json: want one JSON line with schema 1 and no events"
fi
run run "$tmp/good.trace" --json --events --sysfs t-64
if [[ $rc -eq 0 ]] && grep -q '"events":\[{"seq":0,' "$tmp/out" && grep -q '"sysfs":"./' "$tmp/out"; then
	ok
else
	bad "run --json --events --sysfs: want events and sysfs in the document"
fi
if command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["events"]) == d["steps"]' \
		"$tmp/out" 2>/dev/null; then
		ok
	else
		bad "run --json --events: not valid JSON, or events != steps"
	fi
fi

# --preset and --set override the trace.
run run "$tmp/good.trace" --preset v6.19 --set seed=3 --set continue_on_error=1
if [[ $rc -eq 0 ]] && grep -qE '^ops 6/6 steps [0-9]+$' "$tmp/out"; then
	ok
else
	bad "run --preset v6.19 --set ...: want exit 0"
fi

# A run stopped by a kernel-style report: exit 2, the report on stderr,
# the state so far still printed (--stats alone: the summary on stderr).
run run "$tmp/double-free.trace" --stats
if [[ $rc -eq 2 && -s "$tmp/err" ]] && grep -qE '^ops [0-9]+/4 steps [0-9]+$' "$tmp/err" &&
	grep -q 't-64' "$tmp/out" && ! grep -q '^ops ' "$tmp/out"; then
	ok
else
	bad "run double-free.trace: want exit 2, a report on stderr and the summary"
fi
cp "$tmp/err" "$tmp/report"
# Its error line (after the "ops" summary) names the file and the op at
# fault as a parse error does:
# line 7 is the second 'c0 free t-64 a', its op's first token at column 1;
# 'a' was allocated at line 5 and freed at line 6 (ops.c's double free).
want_stop="double free of handle 'a' (allocated at line 5, freed at line 6)"
if [[ "$(grep -m1 ': error: ' "$tmp/report")" == "$tmp/double-free.trace:7:1: error: $want_stop" ]]; then
	ok
else
	bad "run double-free.trace: want its error line to be FILE:7:1: error: $want_stop"
fi
# ... read from stdin, the file is <stdin>; under slubviz diff, the file too.
"$BIN" run - --stats <"$tmp/double-free.trace" >"$tmp/out" 2>"$tmp/err"
if [[ $? -eq 2 && "$(grep -m1 ': error: ' "$tmp/err")" == "<stdin>:7:1: error: $want_stop" ]]; then
	ok
else
	bad "run - <double-free.trace: want its error line to be <stdin>:7:1: error: $want_stop"
fi
run diff "$tmp/double-free.trace" --a v6.19 --b v7.0-rc1
if [[ $rc -eq 2 && "$(head -n1 "$tmp/err")" == "$tmp/double-free.trace:7:1: error: $want_stop" ]]; then
	ok
else
	bad "diff double-free.trace: want exit 2 and FILE:7:1: error: $want_stop first"
fi
run diff "$tmp/version.trace" --a v6.19 --b v7.0-rc1
if [[ $rc -eq 2 && "$(cat "$tmp/err")" == "$tmp/version.trace:1:15: error: expected format version 1, got '2'" ]]; then
	ok
else
	bad "diff version.trace: want exit 2 and the parse error at FILE:1:15"
fi
# ... and with continue_on_error the run ends, reports go to stdout.
run run "$tmp/double-free.trace" --set continue_on_error=1
if [[ $rc -eq 0 && ! -s "$tmp/err" ]] && grep -qE '^ops 4/4 steps [0-9]+$' "$tmp/out" &&
	[[ $(wc -l <"$tmp/out") -gt 1 ]]; then
	ok
else
	bad "run double-free.trace with continue_on_error=1: want exit 0 and the report on stdout"
fi

# ---- presets ---------------------------------------------------------------------
run presets
names=$(awk '{print $1}' "$tmp/out")
nok=1
for want in v5.10 v5.11-rc4 v5.11 v5.12 v6.6 v6.8 v6.19 v7.0-17c38c88294d v7.0-rc1 v7.0-rc2+fix1 v7.0+fix1+fix2 v7.1 v7.2-candidate; do
	grep -qxF -- "$want" <<<"$names" || { nok=0; echo "  missing preset $want"; }
done
if [[ $rc -eq 0 && $(wc -l <"$tmp/out") -eq 13 && $nok -eq 1 ]] &&
	[[ $(grep -c ' era=' "$tmp/out") -eq 13 ]]; then
	ok
else
	bad "presets: want 13 lines, name first, then settings"
fi
# every listed preset is accepted by --preset
for p in $names; do
	run run "$tmp/good.trace" --preset "$p"
	if [[ $rc -eq 0 ]]; then ok; else bad "run --preset $p"; fi
done

# ---- bench -----------------------------------------------------------------------
run bench "$tmp/good.trace" --repeat 3
if [[ $rc -eq 0 ]] && [[ "$(cat "$tmp/out")" =~ ^ops=6\ steps=$steps\ ns_per_op=[0-9]+\.[0-9][0-9]$ ]]; then
	ok
else
	bad "bench --repeat 3: want 'ops=6 steps=$steps ns_per_op=F'"
fi
run bench "$tmp/good.trace" --repeat 2 --events
if [[ $rc -eq 0 && $(wc -l <"$tmp/out") -eq 1 ]] && grep -qE "^ops=6 steps=$steps ns_per_op=" "$tmp/out"; then
	ok
else
	bad "bench --events: want one line, same steps"
fi
# warm-up runs are untimed and uncounted: the timed run still replays the whole
# trace from its start (6 ops, the same steps), on a restored model
run bench "$tmp/good.trace" --warmup 2 --repeat 1
if [[ $rc -eq 0 && $(wc -l <"$tmp/out") -eq 1 ]] && grep -qE "^ops=6 steps=$steps ns_per_op=" "$tmp/out"; then
	ok
else
	bad "bench --warmup 2: want one line for the timed run, 6 ops, same steps"
fi
expect_err_re "^slubviz bench: --repeat needs" bench "$tmp/good.trace" --repeat 0
expect_err_re "^slubviz bench: --warmup needs a count of 0..1000, got '-1'" bench "$tmp/good.trace" --warmup -1
expect_err_re "^slubviz bench: --warmup needs a count of 0..1000, got ''" bench "$tmp/good.trace" --warmup
expect_err "slubviz run: unknown option '--warmup' (see: slubviz help)" run "$tmp/good.trace" --warmup 1
expect_err "slubviz bench: unknown option '--stats' (see: slubviz help)" bench "$tmp/good.trace" --stats

# ---- scenarios in the tree run to the end ----------------------------------------
if [[ -f "$SRC/scenarios/basics.trace" ]]; then
	run run "$SRC/scenarios/basics.trace"
	if [[ $rc -eq 0 ]] && grep -qE '^ops ([0-9]+)/\1 steps [0-9]+$' "$tmp/out"; then
		ok
	else
		bad "run scenarios/basics.trace"
	fi
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
