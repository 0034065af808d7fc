#!/usr/bin/env bash
# `umpire watch` end to end: the script runs at once; a saved data change re-runs it with the new
# value; a module saved with a syntax error is reported with its file and line while the last
# good rules stay loaded (the script still runs); fixing it brings the new rules in; a change to
# the script alone re-runs it.
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d)
watcher=""
trap '[ -n "$watcher" ] && kill "$watcher" 2>/dev/null; rm -rf "$work"' EXIT
cp -r "$src/tests/support/fixtures/base" "$work/rules"
printf 'print("mmg B " .. umpire.data.weapons.mmg.B)\n' > "$work/try.lua"

. "$(dirname "$0")/lib.sh"  # watch_start, wait_for
watch_start --ruleset "$work/rules" "$work/try.lua"

wait_for "$work/out" "^mmg B 11$" 1 "the first run"
wait_for "$work/err" "^-- watching" 1 "the watch prompt"

sed -i 's/  B: 11/  B: 12/' "$work/rules/data/weapons.yaml"   # the first B: is the mmg's
wait_for "$work/out" "^mmg B 12$" 1 "the re-run after a data change"

cp "$work/rules/rules/machine_guns.lua" "$work/good.lua"
printf 'local M = {\nreturn M\n' > "$work/rules/rules/machine_guns.lua"
wait_for "$work/err" "machine_guns.lua:2" 1 "the syntax error with its file and line"
wait_for "$work/err" "previous rules stay loaded" 1 "the old rules kept"
wait_for "$work/out" "^mmg B 12$" 2 "the run with the last good rules"

cp "$work/good.lua" "$work/rules/rules/machine_guns.lua"
sed -i 's/  B: 12/  B: 10/' "$work/rules/data/weapons.yaml"
wait_for "$work/out" "^mmg B 10$" 1 "the run after the fix"

printf 'print("script changed, B " .. umpire.data.weapons.mmg.B)\n' > "$work/try.lua"
wait_for "$work/out" "^script changed, B 10$" 1 "the re-run after a script change"

# A game state that cannot be handed on at the end of a run (past the memory cap as JSON: --memory
# 256 gives a cap of 32 MiB) is that run's error, naming the limit, and the watch goes on with the
# state as it stands: the next run counts on from it. Before, the error came after the run's own
# error handling and ended the worker, and with it the watch; so too with --no-isolate.
printf 'umpire.state.n = (umpire.state.n or 0) + 1\nprint("run " .. umpire.state.n)\nif umpire.state.n == 1 then local big = {} for i = 1, 1e6 do big[i] = 1 / 3 end umpire.state.big = big else umpire.state.big = nil end\n' > "$work/grow.lua"
for mode in "" --no-isolate; do
  kill "$watcher"; wait "$watcher" 2>/dev/null || true
  watch_start $mode --memory 256 "$work/grow.lua"
  wait_for "$work/err" "memory limit: umpire.state written as JSON would take more than" 1 "the state too big to hand on ($mode)"
  wait_for "$work/err" "the watch goes on with it as it stands" 1 "the watch going on ($mode)"
  wait_for "$work/err" "^-- watching" 1 "the watch prompt after it ($mode)"
  printf -- '-- changed\n' >> "$work/grow.lua"
  wait_for "$work/out" "^run 2$" 1 "the next run, counting on from the state ($mode)"
done
echo "ok: watch re-runs on data, module and script changes and keeps the last good rules; a state too big to hand on is a run's error"
