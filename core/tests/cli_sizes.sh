#!/usr/bin/env bash
# `slubviz sizes` against figures of the seeds (validation.md V1-V3) and
# slub-behavior.md section 10, plus its handling of bad input.
# Usage: bash cli_sizes.sh <path-to-slubviz> <source-dir>
set -u

BIN=${1:?usage: cli_sizes.sh <path-to-slubviz> <source-dir>}
SRC=${2:?usage: cli_sizes.sh <path-to-slubviz> <source-dir>}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_out "<expected stdout>" args...: exit 0, exact stdout, empty stderr.
expect_out() {
	local want=$1
	shift
	"$BIN" sizes "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [[ $rc -eq 0 && "$(cat "$tmp/out")" == "$want" && ! -s "$tmp/err" ]]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: slubviz sizes $* (exit $rc)"
		echo "  want: $want" | sed '2,$s/^/        /'
		echo "  got:  $(cat "$tmp/out")" | sed '2,$s/^/        /'
		[[ -s "$tmp/err" ]] && echo "  stderr: $(cat "$tmp/err")"
	fi
}

# expect_bad "<stderr substring>" args...: exit 2, nothing on stdout, one
# line on stderr that contains the substring (the bad argument's name).
expect_bad() {
	local what=$1
	shift
	"$BIN" sizes "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	local lines
	lines=$(wc -l <"$tmp/err")
	if [[ $rc -eq 2 && ! -s "$tmp/out" && $lines -eq 1 ]] && grep -qF -- "$what" "$tmp/err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: slubviz sizes $* (exit $rc, want 2; stderr lines $lines; want '$what')"
		sed 's/^/  stderr: /' "$tmp/err"
		sed 's/^/  stdout: /' "$tmp/out"
	fi
}

# V2: bio-256 of seed 004 (x86_64, 4 KiB pages, 64 CPUs).
V2='size=320 order=2 objects=51 pagesperslab=4 min_partial=5 cpu_partial=52 sheaf_capacity=28'
expect_out "$V2" --page-size 4096 --cpus 64 --object-size 256 --align 64 \
	--flags HWCACHE_ALIGN,TYPESAFE_BY_RCU
expect_out "$V2" --page-size 4096 --cpus 64 --object-size 256 --align 64 \
	--flags 'SLAB_HWCACHE_ALIGN|SLAB_TYPESAFE_BY_RCU' --form loop --era classic
expect_out "$V2" --page-size=4096 --cpus=64 --object-size=256 --align=64 \
	--flags=HWCACHE_ALIGN,TYPESAFE_BY_RCU
# ... with 8-31 CPUs the order would be 1 (25 objects)
expect_out 'size=320 order=1 objects=25 pagesperslab=2 min_partial=5 cpu_partial=52 sheaf_capacity=28' \
	--page-size 4096 --cpus 31 --object-size 256 --align 64 --flags HWCACHE_ALIGN,TYPESAFE_BY_RCU

# V3: kmalloc-512 on 4 KiB pages (seed 001), both forms.
K0='size=512 order=0 objects=8 pagesperslab=1 min_partial=5 cpu_partial=52 sheaf_capacity=28'
K1='size=512 order=1 objects=16 pagesperslab=2 min_partial=5 cpu_partial=52 sheaf_capacity=28'
K2='size=512 order=2 objects=32 pagesperslab=4 min_partial=5 cpu_partial=52 sheaf_capacity=28'
K3='size=512 order=3 objects=64 pagesperslab=8 min_partial=5 cpu_partial=52 sheaf_capacity=28'
for form in fraction loop; do
	expect_out "$K0" --page-size 4096 --cpus 1 --form "$form" 512
	expect_out "$K1" --page-size 4096 --cpus 2 --form "$form" 512
	expect_out "$K1" --page-size 4096 --cpus 7 --form "$form" 512
	expect_out "$K2" --page-size 4096 --cpus 8 --form "$form" 512
	expect_out "$K2" --page-size 4096 --cpus 127 --form "$form" 512
	expect_out "$K3" --page-size 4096 --cpus 128 --form "$form" 512
	expect_out "$K3" --page-size 4096 --cpus 224 --form "$form" 512
	# The same 64-CPU machine through the three CPU sources: v5.11 saw one
	# CPU online while creating kmalloc-512 ("order-0 (vanilla)"), v5.12+
	# and <= v5.10 see 64 ("order-2 with the revert").
	expect_out "$K0" --page-size 4096 --cpus 64 --cpu-source online --form "$form" 512
	expect_out "$K2" --page-size 4096 --cpus 64 --cpu-source present --form "$form" 512
	expect_out "$K2" --page-size 4096 --cpus 64 --cpu-source possible --form "$form" 512
	# kmalloc-512 is its own object size: --object-size gives the same line
	expect_out "$K2" --page-size 4096 --cpus 64 --form "$form" --object-size 512
done

# V1 examples from seed 003 (Raspberry Pi 5: 16 KiB pages, 4 CPUs).
expect_out 'size=144 order=0 objects=113 pagesperslab=1 min_partial=5 cpu_partial=120 sheaf_capacity=60
size=3240 order=2 objects=20 pagesperslab=4 min_partial=5 cpu_partial=24 sheaf_capacity=12
size=9680 order=3 objects=13 pagesperslab=8 min_partial=6 cpu_partial=24 sheaf_capacity=12
size=16 order=0 objects=1024 pagesperslab=1 min_partial=5 cpu_partial=120 sheaf_capacity=60' \
	--page-size 16384 --cpus 4 144 3240 9680 16

# Every row of the seed 003 slabinfo: objperslab and pagesperslab, both forms.
data="$SRC/core/tests/data/seed003_slabinfo.txt"
if [[ -r "$data" ]]; then
	mapfile -t sizes < <(grep -v '^#' "$data" | awk '{print $4}')
	want=$(grep -v '^#' "$data" | awk '{print $4, $5, $6}')
	for form in fraction loop; do
		got=$("$BIN" sizes --page-size 16384 --cpus 4 --form "$form" "${sizes[@]}" |
			sed -E 's/^size=([0-9]+) order=[0-9]+ objects=([0-9]+) pagesperslab=([0-9]+).*/\1 \2 \3/')
		if [[ ${#sizes[@]} -eq 49 && "$got" == "$want" ]]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: seed 003 rows ($form form, ${#sizes[@]} rows)"
			diff <(echo "$want") <(echo "$got") | head -20
		fi
	done
else
	fail=$((fail + 1))
	echo "FAIL: cannot read $data"
fi

# The first size where the two forms differ (4 KiB pages, 64 CPUs).
expect_out 'size=10928 order=3 objects=2 pagesperslab=8 min_partial=6 cpu_partial=6 sheaf_capacity=4' \
	--page-size 4096 --cpus 64 --form fraction 10928
expect_out 'size=10928 order=2 objects=1 pagesperslab=4 min_partial=6 cpu_partial=6 sheaf_capacity=4' \
	--page-size 4096 --cpus 64 --form loop 10928

# Debug flags switch off cpu partial slabs and sheaves.
expect_out 'size=320 order=2 objects=51 pagesperslab=4 min_partial=5 cpu_partial=0 sheaf_capacity=0' \
	--page-size 4096 --cpus 64 --flags RED_ZONE 320

# Bad input: exit 2, one line on stderr naming the argument.
expect_bad '--page-size' --page-size 5000 --cpus 4 512
expect_bad '--page-size' --page-size 4k --cpus 4 512
expect_bad '--page-size' --cpus 4 512
expect_bad '--cpus' --page-size 4096 --cpus 0 512
expect_bad '--cpus' --page-size 4096 --cpus -3 512
expect_bad '--cpus' --page-size 4096 --cpus many 512
expect_bad '--cpus' --page-size 4096 512
expect_bad '--cpus' --page-size 4096 --cpus
expect_bad '--cpu-source' --page-size 4096 --cpus 4 --cpu-source boot 512
expect_bad '--form' --page-size 4096 --cpus 4 --form new 512
expect_bad '--era' --page-size 4096 --cpus 4 --era modern 512
expect_bad "unknown slab flag 'FOO'" --page-size 4096 --cpus 4 --flags HWCACHE_ALIGN,FOO 512
expect_bad '--align' --page-size 4096 --cpus 4 --object-size 100 --align 48
expect_bad '--align' --page-size 4096 --cpus 4 --align 64 512
expect_bad '--object-size' --page-size 4096 --cpus 4 --object-size 0
expect_bad 'too large' --page-size 4096 --cpus 4 --object-size 4194305
expect_bad 'too large' --page-size 4096 --cpus 4 8388608
expect_bad "SIZE '100'" --page-size 4096 --cpus 4 100
expect_bad "SIZE 'abc'" --page-size 4096 --cpus 4 abc
expect_bad "unknown option '--bogus'" --page-size 4096 --cpus 4 --bogus 512
expect_bad 'nothing to compute' --page-size 4096 --cpus 4

# --help goes to stdout and succeeds.
if "$BIN" sizes --help 2>/dev/null | grep -q '^usage: slubviz sizes'; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: slubviz sizes --help"
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
