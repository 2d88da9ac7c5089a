#!/usr/bin/env bash
# Golden event logs: `slubviz run SCENARIO --events --stats` must reproduce
# scenarios/expected/<name>.events byte for byte (regenerate deliberately
# with the same command after reviewing a behaviour change).
set -u
cli=$1; src=$2
pass=0; fail=0
for golden in "$src"/scenarios/expected/*.events; do
	name=$(basename "$golden" .events)
	if "$cli" run "$src/scenarios/$name.trace" --events --stats | diff -u "$golden" - > /tmp/golden-$name.diff; then
		pass=$((pass+1))
	else
		fail=$((fail+1)); echo "golden mismatch for $name:"; head -20 /tmp/golden-$name.diff
	fi
done
# Determinism: two runs of the ublk scenario give identical output.
a=$("$cli" run "$src/scenarios/ublk-bio256.trace" --stats | md5sum)
b=$("$cli" run "$src/scenarios/ublk-bio256.trace" --stats | md5sum)
if [ "$a" = "$b" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "ublk run is not deterministic"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
