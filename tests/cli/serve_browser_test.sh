#!/usr/bin/env bash
# `umpire serve` driven in Debian's chromium through playwright-core (tests/cli/serve_browser_test.js
# says what is checked). playwright-core and js-yaml are installed by `scripts/setup.sh test` (npm,
# into .tools/node; nothing is downloaded at build time). Without them or chromium the test is
# skipped (exit 77), unless UMPIRE_REQUIRE_TOOLS=1 (CI). Screenshots: BUILD_DIR/artifacts/serve*.png.
# Usage: serve_browser_test.sh UMPIRE SOURCE_DIR BUILD_DIR
set -euo pipefail
umpire="$1"; src="$2"; build="$3"
modules="${UMPIRE_TOOLS:-$src/.tools}/node/node_modules"
browser=$(command -v chromium || command -v chromium-browser || true)
if ! command -v node >/dev/null || [ ! -d "$modules/playwright-core" ] || [ ! -d "$modules/js-yaml" ] || [ -z "$browser" ]; then
  msg="needs node, chromium and playwright-core + js-yaml in $modules (scripts/setup.sh test installs them)"
  [ "${UMPIRE_REQUIRE_TOOLS:-0}" = 1 ] && { echo "FAIL: $msg" >&2; exit 1; }
  echo "skipped: $msg"; exit 77
fi
work=$(mktemp -d)
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cd "$src"
# A copy of the asl ruleset, so the test can edit its data and break its modules.
cp -r rulesets/asl "$work/asl"

# start LOG ARGS...: runs `umpire serve ARGS --port 0` and sets $address to the address it announces.
# Not called as $(start ...): a command substitution is a subshell, so the server's pid would not
# reach $servers and the cleanup would leave the server running.
start() {
  local log="$1"; shift
  "$umpire" serve "$@" --port 0 > "$log" 2>&1 &
  servers+=($!)
  for _ in $(seq 100); do grep -q 'http://127.0.0.1:' "$log" && break; sleep 0.1; done
  address=$(sed -n 's|.*\(http://127.0.0.1:[0-9]*/\).*|\1|p' "$log" | head -1)
  [ -n "$address" ] || { cat "$log" >&2; echo "FAIL: no address" >&2; exit 1; }
}
start "$work/serve.log" --ruleset "$work/asl" scripts/tour/a9_222_first_fire_odds.lua; url=$address
start "$work/compare.log" --ruleset bolt-action scripts/bolt-action/compare_mg42.lua --compare bolt-action-mg42; compare_url=$address
UMPIRE_CHROMIUM="$browser" node "$src/tests/cli/serve_browser_test.js" "$modules" "$umpire" "$work" "$url" \
  "$compare_url" "$build/artifacts" "$src" || { echo "--- serve log:"; cat "$work/serve.log"; exit 1; }
