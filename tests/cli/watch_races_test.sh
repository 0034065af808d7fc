#!/usr/bin/env bash
# Reload races in `umpire watch` (issue 16): the files of the ruleset edited as a reload reads
# them. Each edit must give a clear error and keep the last good rules running (the script still
# runs), the watch must go on, and the next good edit must load: a manifest made invalid then
# fixed, a module renamed away and back, a data file swapped for a symlink out of the folder, the
# data folder replaced by a file and made again (edits in the new folder are seen), a data file
# truncated, a burst of edits. No file outside the folder is ever read as the rules' own. Waits
# poll for the output (lib.sh, wait_for), never sleep for it.
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d)
watcher=""
trap '[ -n "$watcher" ] && kill "$watcher" 2>/dev/null; rm -rf "$work"' EXIT
cp -r "$src/tests/support/fixtures/base" "$work/rules"
cp "$work/rules/data/weapons.yaml" "$work/weapons.good"
cp "$work/rules/ruleset.yaml" "$work/manifest.good"
mkdir "$work/outside"
printf 'mmg: {B: 666}\nhmg: {B: 666}\n' > "$work/outside/weapons.yaml"
printf 'print("mmg B " .. umpire.data.weapons.mmg.B)\n' > "$work/try.lua"

. "$(dirname "$0")/lib.sh"  # watch_start, wait_for
watch_start --ruleset "$work/rules" "$work/try.lua"

# set_b N: the data file with B: N, written beside the folder and renamed into place (as editors
# save), so a reload never reads it half written.
set_b() {
  sed "s/  B: 11/  B: $1/" "$work/weapons.good" > "$work/weapons.tmp"
  mv -f "$work/weapons.tmp" "$work/rules/data/weapons.yaml"
}
kept=0  # how many times the watch has said the previous rules stay loaded
refused() {  # PATTERN WHAT: the reload's error, and the last good rules kept
  kept=$((kept + 1))
  wait_for "$work/err" "$1" 1 "$2"
  wait_for "$work/err" "(the previous rules stay loaded)" "$kept" "the last good rules kept ($2)"
}

wait_for "$work/out" "^mmg B 11$" 1 "the first run"

# The manifest made invalid, the data changed meanwhile (not loaded: the manifest is broken), then
# the manifest fixed: the new data loads.
printf 'name: [\n' > "$work/rules/ruleset.yaml"
refused "ruleset.yaml:" "the broken manifest"
set_b 21
wait_for "$work/out" "^mmg B 11$" 3 "the runs with the last good rules"
cp "$work/manifest.good" "$work/rules/ruleset.yaml"
wait_for "$work/out" "^mmg B 21$" 1 "the fixed manifest"

# A module renamed away, then back.
mv "$work/rules/rules/machine_guns.lua" "$work/machine_guns.away"
refused "file not found: machine_guns" "the module renamed away"
set_b 22
mv "$work/machine_guns.away" "$work/rules/rules/machine_guns.lua"
wait_for "$work/out" "^mmg B 22$" 1 "the module back"

# The data file swapped for a symlink to a file outside the folder: refused, never read.
ln -s "$work/outside/weapons.yaml" "$work/link.tmp"
mv -fT "$work/link.tmp" "$work/rules/data/weapons.yaml"
refused "resolves outside the ruleset folder" "the data file swapped for a link out"
set_b 23
wait_for "$work/out" "^mmg B 23$" 1 "the data file back"

# The data folder replaced by a file, then made again; an edit inside the new folder is seen too
# (before, the new folder was not watched, and that edit ran nothing).
mv "$work/rules/data" "$work/data.away"
printf 'not a folder\n' > "$work/rules/data"
refused "file not found: weapons" "the data folder replaced by a file"
rm "$work/rules/data"
mkdir "$work/rules/data"
set_b 24
wait_for "$work/out" "^mmg B 24$" 1 "the data folder made again"
set_b 25
wait_for "$work/out" "^mmg B 25$" 1 "an edit in the new data folder"

# The data file truncated: it loads (an empty file is an empty table), the script's own error says
# why it cannot run, and the watch goes on.
: > "$work/rules/data/weapons.yaml"
wait_for "$work/err" "try.lua:1: attempt to index" 1 "the run on the truncated file"
set_b 26
wait_for "$work/out" "^mmg B 26$" 1 "the data file written again"

# A burst of edits, broken and good ones, each saved as editors do; the last one is loaded.
for i in $(seq 100); do
  case $((i % 4)) in
    0) printf 'mmg: [\n' > "$work/weapons.tmp"; mv -f "$work/weapons.tmp" "$work/rules/data/weapons.yaml" ;;
    1) : > "$work/rules/data/weapons.yaml" ;;
    *) set_b $((100 + i)) ;;
  esac
done
set_b 300
wait_for "$work/out" "^mmg B 300$" 1 "the last edit of the burst"

kill -0 "$watcher" || { echo "FAIL: the watch ended"; exit 1; }
if grep -q "666" "$work/out"; then echo "FAIL: a file outside the ruleset folder was read as its data"; exit 1; fi
echo "ok: watch keeps the last good rules through edits made while it reloads, and goes on"
