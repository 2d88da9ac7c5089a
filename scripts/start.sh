#!/usr/bin/env bash
# `npm start`: install what is missing, build native + wasm, run the default
# scenario with the native CLI and say where everything is.
# (Until the web app exists; then this serves it.)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SCENARIO="${SVZ_SCENARIO:-scenarios/basics.trace}"

bash scripts/ensure-deps.sh
bash scripts/build.sh native wasm

printf '\n==> build/slubviz run %s --stats --slabinfo\n' "$SCENARIO"
status=0
build/slubviz run "$SCENARIO" --stats --slabinfo || status=$?

size() { if [ -f "$1" ]; then printf '%s (%d bytes)' "$1" "$(wc -c <"$1")"; else printf '%s (missing)' "$1"; fi; }
cat <<EOF

slubviz state
  native CLI     $(size build/slubviz)
  wasm CLI       $(size build-wasm/slubviz_node.js)  run: node build-wasm/slubviz_node.js run TRACE ...
  wasm module    $(size build-wasm/slubviz_core.mjs) + $(size build-wasm/slubviz_core.wasm)
  scenarios      $(ls scenarios/*.trace 2>/dev/null | wc -l) in scenarios/
  web app        not yet (web/)
  default run    $SCENARIO exited with status $status
EOF
exit "$status"
