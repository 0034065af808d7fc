#!/usr/bin/env bash
# `umpire sweep`: a grid (range x cover x two rulesets) of a shipped odds script run whole, and in
# 4 shards through GNU parallel then merged: the merge's JSON Lines, CSV and heat map are byte for
# byte those of the whole run (cmp), and chromium renders the heat map as drawn. Each cell's report is `umpire odds --set ... --json` of that
# cell (the same engine). Bad grids and shards exit 2; missing or doubled shards are refused.
# Without GNU parallel the test is skipped (exit 77) with a message, unless UMPIRE_REQUIRE_TOOLS=1.
# Usage: sweep_shards_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$src"
grid=(scripts/asl/sweep_mmg.lua --grid range=2..8:3 --grid cover=0,2 --grid ruleset=asl,asl-house-mg)
heat=(--heat kill=true --x range --y cover)

"$umpire" sweep "${grid[@]}" --jsonl "$work/all.jsonl" --csv "$work/all.csv" --svg "$work/all.svg" "${heat[@]}"
[ "$(wc -l < "$work/all.jsonl")" = 12 ] || fail "expected 12 cells (3 ranges x 2 covers x 2 rulesets)"
[ "$(grep -c '<rect class="cell"' "$work/all.svg")" = 18 ] || fail "expected 3 panels of 6 cells (asl, house, difference)"

# Headless chromium draws every cell of the heat map where the SVG puts it, in its colour.
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
  size=$(sed -n 's/^<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$work/all.svg")
  "$src/tests/cli/chromium_screenshot.sh" "$browser" "$work/all.svg" "$work/all.png" "$size" || exit 1
  python3 "$src/tests/cli/svg_pixels.py" "$work/all.svg" "$work/all.png" cells || fail "the heat map does not render as drawn"
elif [ "${UMPIRE_REQUIRE_TOOLS:-0}" = 1 ]; then
  fail "chromium is not installed (apt-get install chromium)"
else
  echo "note: chromium is not installed; the heat map's pixels were not checked"
fi

# One cell against `umpire odds` with the same parameters: cell 7 is range=5 cover=2 ruleset=asl-house-mg.
sed -n 8p "$work/all.jsonl" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["report"]["outcomes"], sort_keys=True))' > "$work/cell.json"
"$umpire" odds --json --ruleset asl-house-mg scripts/asl/sweep_mmg.lua --set range=5 --set cover=2 \
  | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["outcomes"], sort_keys=True))' > "$work/odds.json"
cmp -s "$work/cell.json" "$work/odds.json" || fail "cell 7 differs from umpire odds --set range=5 --set cover=2"

# Bad usage: exit 2.
for bad in "--grid range=3..1" "--grid range" "--grid =1" "--shard 5/4" "--shard 0/4" "--shard x"; do
  set +e; "$umpire" sweep scripts/asl/sweep_mmg.lua --grid cover=0 $bad > /dev/null 2>&1; rc=$?; set -e
  [ "$rc" = 2 ] || fail "sweep $bad exited $rc, expected 2"
done

if ! command -v parallel > /dev/null; then
  msg="GNU parallel is not installed (apt-get install parallel; scripts/setup.sh installs it)"
  [ "${UMPIRE_REQUIRE_TOOLS:-0}" = 1 ] && fail "$msg"
  echo "SKIP: $msg; the whole run passed"; exit 77
fi
parallel --will-cite --halt now,fail=1 -j 4 \
  "$umpire" sweep "${grid[@]}" --shard {}/4 --jsonl "$work/shard{}.jsonl" ::: 1 2 3 4
"$umpire" sweep merge "$work"/shard{1,2,3,4}.jsonl --jsonl "$work/merged.jsonl" --csv "$work/merged.csv" \
  --svg "$work/merged.svg" "${heat[@]}"
cmp "$work/all.jsonl" "$work/merged.jsonl" || fail "merged JSON Lines differ from the whole run"
cmp "$work/all.csv" "$work/merged.csv" || fail "merged CSV differs from the whole run"
cmp "$work/all.svg" "$work/merged.svg" || fail "merged heat map differs from the whole run"
# The merge in another order is the same; a missing or doubled shard is an error.
"$umpire" sweep merge "$work"/shard{4,2,3,1}.jsonl --jsonl "$work/again.jsonl"
cmp "$work/all.jsonl" "$work/again.jsonl" || fail "the merge depends on the order of its files"
if "$umpire" sweep merge "$work"/shard{1,2,3}.jsonl --jsonl "$work/x.jsonl" 2> "$work/err"; then fail "a missing shard was merged"; fi
grep -q "missing" "$work/err" || fail "no 'missing' in: $(cat "$work/err")"
if "$umpire" sweep merge "$work"/shard{1,1,2,3,4}.jsonl --jsonl "$work/x.jsonl" 2> "$work/err"; then fail "a doubled shard was merged"; fi
echo "ok: 4 shards through GNU parallel merge byte for byte into the whole sweep"
