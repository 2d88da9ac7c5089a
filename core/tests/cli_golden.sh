#!/usr/bin/env bash
# Golden event logs: `slubviz run SCENARIO --events --stats` must reproduce
# scenarios/expected/<name>.events byte for byte (regenerate deliberately
# with the same command after reviewing a behaviour change).
set -u
cli=$1; src=$2
# the C tests validate after every op; here spot checks suffice
export SLUBVIZ_VALIDATE_EVERY=997
pass=0; fail=0
# NAME.events is scenarios/NAME.trace under its own preset; NAME-PRESET.events
# the same trace under --preset PRESET.
for golden in "$src"/scenarios/expected/*.events; do
	name=$(basename "$golden" .events)
	preset=()
	if [ ! -f "$src/scenarios/$name.trace" ]; then
		preset=(--preset "${name#*-v}"); preset[1]="v${preset[1]}"
		name=${name%%-v*}
	fi
	if "$cli" run "$src/scenarios/$name.trace" "${preset[@]}" --events --stats | diff -u "$golden" - > /tmp/golden-$name.diff; then
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
