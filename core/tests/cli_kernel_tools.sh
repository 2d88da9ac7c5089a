#!/usr/bin/env bash
# The kernel's own tools read the model's output unchanged (issue 10 item 6):
#   - `slubviz run T --slabinfo` prints /proc/slabinfo alone: procps slabtop
#     reads it bind-mounted on /proc/slabinfo in a private mount namespace;
#   - `slubviz run T --sysfs-tree DIR` writes /sys/kernel/slab: one folder per
#     cache, one file per attribute, each holding what --sysfs shows for it;
#     the kernel's tools/mm/slabinfo (GPL, not part of this project; point
#     SVZ_SLABINFO_TOOL at a build of it) runs on it in every mode.
# Steps that need `unshare -m` (root, a kernel that allows it) or the tools
# say "skip" with the reason instead.
# usage: cli_kernel_tools.sh SLUBVIZ_CLI SOURCE_DIR
set -uo pipefail
cli="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
skip() { echo "skip: $*"; }

# Two caches on two nodes (v6.19, 2 CPUs: min_objects = 4 * (fls(2) + 1) =
# 12, calculate_order() starts at get_order(12 * size)): t-192 at order 0
# (12 * 192 = 2304 fits a page: 4096 / 192 = 21 objects, waste 64 <= 1/16)
# gets 30 objects, one full slab and 9 of a second; u-512 at order 1 (12 *
# 512 = 6144: 8192 / 512 = 16 objects) gets 3. The free of a[21] goes to
# c0's cpu slab. 5 ops: alloc_bulk is one.
cat > "$tmp/t.trace" <<'T'
slubviz-trace 1
page_size 4096
node 0 mem=64M
node 1 mem=64M
cpus 0 node=0
cpus 1 node=1
preset v6.19
cache t-192 size=192
cache u-512 size=512
c0 alloc_bulk t-192 30 a
c1 alloc u-512 x
c1 alloc u-512 y
c1 alloc u-512 z
c0 free t-192 a[21]
T

"$cli" run "$tmp/t.trace" --slabinfo > "$tmp/slabinfo" 2> "$tmp/err"
rc=$?
# /proc/slabinfo alone: the header, then one row per cache; the summary line
# went to stderr
if [[ $rc -eq 0 && "$(head -1 "$tmp/slabinfo")" == "slabinfo - version: 2.1" ]] &&
	! grep -q '^ops ' "$tmp/slabinfo" && grep -q '^ops 5/5 ' "$tmp/err" &&
	[[ "$(grep -vc '^[s#]' "$tmp/slabinfo")" -eq 2 ]]; then
	ok
else
	bad "run --slabinfo: want /proc/slabinfo alone on stdout (rc=$rc)"; cat "$tmp/slabinfo" "$tmp/err"
fi

ns_ok=0
if unshare -m true 2>/dev/null; then ns_ok=1; else skip "unshare -m is not allowed here (needs root and a kernel that permits mount namespaces)"; fi

# slabtop -o: OBJS and ACTIVE per cache as slabinfo gives them. t-192: two
# slabs of 21 = 42 objects; active = 42 minus the free objects counted on
# partial slabs (the second slab is c0's cpu slab, on no node list: 0), so
# 42; u-512: one slab of 16, c1's cpu slab, so all 16 counted active.
if [[ $ns_ok -eq 1 ]] && command -v slabtop >/dev/null; then
	unshare -m sh -c "mount --bind '$tmp/slabinfo' /proc/slabinfo && slabtop -o -s c" > "$tmp/slabtop" 2>&1
	if grep -Eq '^ +42 +42 .* t-192 *$' "$tmp/slabtop" && grep -Eq '^ +16 +16 .* u-512 *$' "$tmp/slabtop" &&
		grep -q 'Active / Total Caches (% used) *: 2 / 2' "$tmp/slabtop"; then
		ok
	else
		bad "slabtop on the model's /proc/slabinfo"; cat "$tmp/slabtop"
	fi
elif [[ $ns_ok -eq 1 ]]; then
	skip "slabtop not installed (apt: procps)"
fi

# The sysfs tree: the same files and values as --sysfs, empty files for the
# show()s that print nothing (validate, shrink, ctor without one).
"$cli" run "$tmp/t.trace" --sysfs-tree "$tmp/slab" > /dev/null 2>&1 || bad "run --sysfs-tree failed"
for c in t-192 u-512; do
	"$cli" run "$tmp/t.trace" --sysfs "$c" > "$tmp/grep.$c" 2>/dev/null
	(cd "$tmp/slab/$c" && find . -type f -exec grep -aH . {} + | sort) > "$tmp/tree.$c"
	if [[ -d "$tmp/slab/$c" ]] && diff <(sort "$tmp/grep.$c") "$tmp/tree.$c" > /dev/null &&
		[[ -f "$tmp/slab/$c/validate" && ! -s "$tmp/slab/$c/validate" ]] &&
		[[ "$(cat "$tmp/slab/$c/slab_size")" == "$([[ $c == t-192 ]] && echo 192 || echo 512)" ]]; then
		ok
	else
		bad "sysfs tree of $c differs from --sysfs $c"; diff <(sort "$tmp/grep.$c") "$tmp/tree.$c" | head
	fi
done
# a second run into the same (now full) directory is refused, not mixed in
if "$cli" run "$tmp/t.trace" --sysfs-tree "$tmp/slab" > /dev/null 2> "$tmp/err"; then
	bad "--sysfs-tree into a non-empty directory should fail"
elif grep -q "is not empty" "$tmp/err"; then ok; else bad "--sysfs-tree error: $(cat "$tmp/err")"; fi

# tools/mm/slabinfo in every mode on the tree
if [[ -z "${SVZ_SLABINFO_TOOL:-}" ]]; then
	skip "SVZ_SLABINFO_TOOL is not set (a build of the kernel's tools/mm/slabinfo)"
elif [[ $ns_ok -eq 1 ]]; then
	for mode in "" -l -T -X -r -n -A -a; do
		unshare -m sh -c "mount --bind '$tmp/slab' /sys/kernel/slab && '$SVZ_SLABINFO_TOOL' $mode" > "$tmp/si.out" 2>&1
		rc=$?
		if [[ $rc -ne 0 ]]; then bad "slabinfo $mode exited $rc"; cat "$tmp/si.out"; else ok; fi
	done
	# -r of t-192: object 192, slab 4096 bytes (order 0) of 21 objects
	unshare -m sh -c "mount --bind '$tmp/slab' /sys/kernel/slab && '$SVZ_SLABINFO_TOOL' -r t-192" > "$tmp/si.out" 2>&1
	if grep -Eq 'Object : +192 ' "$tmp/si.out" && grep -Eq 'SlabSiz: +4096 ' "$tmp/si.out" &&
		grep -Eq 'Objects: +21 ' "$tmp/si.out"; then ok; else bad "slabinfo -r t-192"; cat "$tmp/si.out"; fi
	# -T: two caches, no aliases
	unshare -m sh -c "mount --bind '$tmp/slab' /sys/kernel/slab && '$SVZ_SLABINFO_TOOL' -T" > "$tmp/si.out" 2>&1
	if grep -Eq 'Slabcaches : +2 ' "$tmp/si.out"; then ok; else bad "slabinfo -T"; cat "$tmp/si.out"; fi
fi

echo "cli_kernel_tools: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
