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

# The output files exist before the watch starts (lib.sh, wait_for): its redirections run in the
# background job, perhaps after the first wait_for.
: > "$work/out"; : > "$work/err"
"$umpire" watch --ruleset "$work/rules" "$work/try.lua" > "$work/out" 2> "$work/err" &
watcher=$!

watch_out="$work/out"; watch_err="$work/err"
. "$(dirname "$0")/lib.sh"  # wait_for

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
echo "ok: watch re-runs on data, module and script changes and keeps the last good rules"
