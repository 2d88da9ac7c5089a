#!/usr/bin/env bash
# The arena rule (core/src/model/types.h), as far as text can check it: every call
# to a function marked ARENA_MOVES is
#   - in a coroutine (a function taking `struct frame *f`): made through
#     MOVES() / MOVES_TO(), which re-fetch f after the arena may have moved;
#   - elsewhere: in a function itself marked ARENA_MOVES (so its callers see
#     the mark too), or in a public svz_* entry point (which holds handles,
#     not pointers into the arena).
# Whether a function keeps other pointers across such a call is not checked
# here: the arena-moving build (SVZ_ARENA_ALWAYS_MOVE, build-move/) catches
# that under ASan.
# usage: arena_rule.sh SLUBVIZ_CLI SOURCE_DIR (the CLI is not used)
set -euo pipefail
src="${2:-$(cd "$(dirname "$0")/../.." && pwd)}/core/src"

names="$(grep -hoE 'ARENA_MOVES +[a-z_0-9 ]*[ *]([a-z_0-9]+)\(' "$src"/*/*.[ch] |
	sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/' | sort -u)"
[ -n "$names" ] || { echo "arena_rule: no ARENA_MOVES function found in $src"; exit 1; }
re="$(paste -sd'|' <<<"$names")"

bad=0
for f in "$src"/*/*.c; do
	out="$(awk -v re="$re" -v file="$(basename "$f")" '
	# a function header: starts at column 0, has "(", is not a declaration
	/^[A-Za-z].*\(/ && !/;[[:space:]]*$/ && !/^(if|for|while|switch|return)\b/ { hdr = $0; next }
	/^[[:space:]]*(\/\*|\*)/ { next }
	/^[A-Za-z].*;[[:space:]]*$/ { next }   # a declaration
	{
		line = $0
		sub(/\/\*.*$/, "", line)
		if (match(line, "(^|[^a-z_0-9.>])(" re ")\\(")) {
			if (hdr ~ /struct frame \*f/) {
				if (line !~ /MOVES(_TO)?\(/)
					printf "%s:%d: ARENA_MOVES call in a coroutine without MOVES()/MOVES_TO(): %s\n", file, NR, $0
			} else if (hdr !~ /ARENA_MOVES/ && hdr !~ /(^|[ *])svz_[a-z_0-9]+\(/) {
				printf "%s:%d: ARENA_MOVES call in a function not marked ARENA_MOVES: %s\n", file, NR, $0
			}
		}
	}' "$f")"
	if [ -n "$out" ]; then
		echo "$out"
		bad=1
	fi
done
[ "$bad" -eq 0 ] && echo "arena_rule: ok ($(wc -w <<<"$names") ARENA_MOVES functions)"
exit "$bad"
