#!/usr/bin/env bash
# `npm start`: install what is missing, build native + wasm, run the default
# scenario with the native CLI, build the web app and serve it on localhost
# (vite preview), printing the URL. Ctrl-C stops the server.
#
#   SVZ_PORT=N        port (default 5173; the next free one is taken if busy)
#   SVZ_HOST=ADDR     address to listen on (default 127.0.0.1)
#   SVZ_NO_SERVE=1    build everything, print the summary, do not serve
#   SVZ_SCENARIO=F    the trace the CLI runs (default scenarios/basics.trace)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SCENARIO="${SVZ_SCENARIO:-scenarios/basics.trace}"
PORT="${SVZ_PORT:-5173}"
HOST="${SVZ_HOST:-127.0.0.1}"

bash scripts/ensure-deps.sh
bash scripts/build.sh native wasm

printf '\n==> build/slubviz run %s --stats --slabinfo\n' "$SCENARIO"
status=0
build/slubviz run "$SCENARIO" --stats --slabinfo >build/start-run.txt || status=$?
head -n 5 build/start-run.txt
echo "   ... (full output in build/start-run.txt)"

printf '\n==> web app: vite build (web/dist)\n'
node_modules/.bin/vite build --config web/vite.config.ts

size() { if [ -f "$1" ]; then printf '%s (%d bytes)' "$1" "$(wc -c <"$1")"; else printf '%s (missing)' "$1"; fi; }
cat <<EOF2

slubviz state
  native CLI     $(size build/slubviz)
  wasm CLI       $(size build-wasm/slubviz_node.js)  run: node build-wasm/slubviz_node.js run TRACE ...
  wasm module    $(size build-wasm/slubviz_core.mjs) + $(size build-wasm/slubviz_core.wasm)
                 + $(size build-wasm/slubviz_core.deferred.wasm), fetched after the first screen
  scenarios      $(ls scenarios/*.trace 2>/dev/null | wc -l) in scenarios/
  web app        web/dist ($(du -sh web/dist | cut -f1))
  default run    $SCENARIO exited with status $status
EOF2

if [ "${SVZ_NO_SERVE:-0}" = 1 ]; then exit "$status"; fi

# the first free port from $PORT on
free_port() {
  local p="$1"
  while ! node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(1));s.listen(+process.argv[1],process.argv[2],()=>s.close(()=>process.exit(0)))' "$p" "$HOST"; do
    p=$((p + 1))
  done
  echo "$p"
}
PORT="$(free_port "$PORT")"
URL="http://$HOST:$PORT/"
printf '\n==> serving the web app (default scenario: basics)\n\n    slubviz: %s\n\n    (Ctrl-C to stop)\n\n' "$URL"
exec node_modules/.bin/vite preview --config web/vite.config.ts --host "$HOST" --port "$PORT" --strictPort
