#!/usr/bin/env bash
# Seed 004 in numbers (docs/timing.md): scenarios/ublk-bio256-timed.trace
# under the timed schedule, with the cost table as it is and with each
# entry at 0.5x and 2x. Fails unless, for every table,
#   v6.19 > v7.0+fix1+fix2 > v7.0-rc1 in throughput (Ming Lei: 36M, 22M,
#   13M IOPS).
# With the table as it is, it also fails unless Ming Lei's ratios hold:
#   rc1/v6.19 in [0.25, 0.5] (13/36 = 0.36), fix1+fix2/v6.19 in
#   [0.45, 0.8] (22/36 = 0.61), rc2+fix1 within 15% of rc1 (fix 1 alone
#   "doesn't make a difference on IOPS"),
# and unless rc1's top kernel line is the list_lock spin under
# get_from_partial_node() (his profile: 38.8% of the machine there).
# For the scaled tables the ratios are printed, marked when off: only the
# order has to survive them. Release build only (CMakeLists.txt): 68 runs
# of a 400k-op trace.
set -u
cli=$1; src=$2
trace="$src/scenarios/ublk-bio256-timed.trace"
presets="v6.19 v7.0-rc1 v7.0-rc2+fix1 v7.0+fix1+fix2"
tables=("")
while read -r key cycles _; do
	case "$key" in '#'*|cpu_mhz) continue ;; esac
	tables+=("$key=$((cycles / 2))" "$key=$((cycles * 2))")
done < <("$cli" costs)
fail=0
printf '%-18s %9s %9s %9s %9s %8s %8s %8s\n' table v6.19 rc1 rc2+fix1 fix1+fix2 rc1/6.19 fix/6.19 rc2/rc1
for t in "${tables[@]}"; do
	declare -A mops=()
	for p in $presets; do
		out=$("$cli" run "$trace" --preset "$p" --schedule timed --profile ${t:+--cost "$t"}) || {
			echo "FAIL: run under $p ${t:+--cost $t} stopped"; fail=1; continue; }
		mops[$p]=$(sed -n 's/^throughput mops=//p' <<< "$out")
		if [ -z "$t" ] && [ "$p" = v7.0-rc1 ]; then
			top=$(sed -n '/^# Overhead/{n;p;q}' <<< "$out")
			case "$top" in
			*"get_from_partial_node: spin on list_lock") ;;
			*) echo "FAIL: rc1's top profile line is '$top', not get_from_partial_node's list_lock spin"; fail=1 ;;
			esac
		fi
	done
	read -r ok line < <(awk -v a="${mops[v6.19]}" -v r="${mops[v7.0-rc1]}" -v f1="${mops[v7.0-rc2+fix1]}" \
		-v f="${mops[v7.0+fix1+fix2]}" -v t="${t:-as is}" 'BEGIN {
		ok = a > f && f > r
		ratios = (r / a >= 0.25 && r / a <= 0.5 ? "" : " rc1/6.19-off") \
			 (f / a >= 0.45 && f / a <= 0.8 ? "" : " fix/6.19-off") \
			 (f1 / r >= 0.85 && f1 / r <= 1.15 ? "" : " rc2/rc1-off")
		printf "%d %-18s %9.3f %9.3f %9.3f %9.3f %8.3f %8.3f %8.3f%s\n", ok, t, a, r, f1, f, r / a, f / a, f1 / r, ratios }')
	echo "$line"
	[ "$ok" = 1 ] || { echo "FAIL: v6.19 > fix1+fix2 > rc1 does not hold with ${t:-the table as is}"; fail=1; }
	if [ -z "$t" ] && [[ "$line" == *-off* ]]; then
		echo "FAIL: with the table as it is, a ratio leaves its target"; fail=1
	fi
	unset mops
done
[ "$fail" -eq 0 ] && echo "every table keeps v6.19 > v7.0+fix1+fix2 > v7.0-rc1; the table as is meets the ratios"
exit $fail
