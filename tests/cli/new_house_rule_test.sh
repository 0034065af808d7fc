#!/usr/bin/env bash
# `umpire new` end to end: `new ruleset` makes a game whose check, spec tests and odds script
# pass as made; `new house-rule` over each shipped ruleset and over that new game (a user's own,
# found through --ruleset) passes spec tests and check, the templated ones (asl, bolt-action) their
# odds comparison too; a second `new` refuses to overwrite. Run from another folder than the
# checkout: the binary must find the shipped rulesets itself.
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
passes() { "$umpire" test --ruleset "$1" | tail -1 | grep -qE '^[1-9][0-9]* passed, 0 failed$' || { "$umpire" test --ruleset "$1"; exit 1; }; }

# A new game system.
"$umpire" new ruleset grimdark --dir "$work/games" >/dev/null
for f in ruleset.yaml data/units.yaml schemas/units.schema.json \
         rules/attack.lua tests/attack.lua odds/attack.lua README.md; do
  [ -f "$work/games/grimdark/$f" ] || { echo "FAIL: new ruleset wrote no $f"; exit 1; }
done
passes "$work/games/grimdark"
out=$("$umpire" check --ruleset "$work/games/grimdark") || { echo "$out"; exit 1; }
grep -q '^ok   .*: 2 files match their schemas' <<<"$out" || { echo "FAIL: check: $out"; exit 1; }
if grep -q '^note:' <<<"$out"; then echo "FAIL: a file without a schema: $out"; exit 1; fi
# Its odds script: a trooper (4+) hits half the time, a veteran (4+) fails half its saves.
"$umpire" odds --ruleset "$work/games/grimdark" "$work/games/grimdark/odds/attack.lua" > odds.txt
grep -qE '^hit=true wounded=true +1/4 ' odds.txt || { cat odds.txt; echo "FAIL: grimdark odds"; exit 1; }
if "$umpire" new ruleset grimdark --dir "$work/games" 2>/dev/null; then echo "FAIL: new overwrote grimdark"; exit 1; fi
if "$umpire" new ruleset bad --extends asl --dir "$work/games" 2>/dev/null; then echo "FAIL: new ruleset took --extends"; exit 1; fi

# House rules over a user's own ruleset (through --ruleset) and over skirmish (no template).
"$umpire" new house-rule grimdark-house --extends grimdark --ruleset "$work/games" --dir "$work/games" >/dev/null
passes "$work/games/grimdark-house"
"$umpire" check --ruleset "$work/games/grimdark-house" >/dev/null || { "$umpire" check --ruleset "$work/games/grimdark-house"; exit 1; }
# Its data names an overlay of grimdark's schema, made in its own folder (without `required`).
head -1 "$work/games/grimdark-house/data/units.yaml" | grep -q '\$schema=\.\./schemas/units.overlay.schema.json' \
  || { echo "FAIL: the house rule's data does not name its overlay schema"; exit 1; }
grep -q '"required"' "$work/games/grimdark-house/schemas/units.overlay.schema.json" \
  && { echo "FAIL: the overlay schema still has required keys"; exit 1; }
"$umpire" odds --ruleset "$work/games/grimdark" "$work/games/grimdark/odds/attack.lua" \
  --compare "$work/games/grimdark-house" >/dev/null || { echo "FAIL: odds --compare grimdark-house"; exit 1; }
# --extends as a folder: the manifest names the parent, so it loads from anywhere.
"$umpire" new house-rule by-folder --extends "$work/games/grimdark" --dir "$work/games" >/dev/null
grep -qx 'extends: grimdark' "$work/games/by-folder/ruleset.yaml" || { echo "FAIL: extends is not the name"; exit 1; }
passes "$work/games/by-folder"
"$umpire" new house-rule my-skirmish --extends skirmish --dir "$work" >/dev/null
passes "$work/my-skirmish"
"$umpire" check --ruleset "$work/my-skirmish" >/dev/null || { "$umpire" check --ruleset "$work/my-skirmish"; exit 1; }
if "$umpire" new house-rule orphan --extends no-such-game --dir "$work" 2>err.txt; then echo "FAIL: extends nothing"; exit 1; fi
grep -q "ruleset 'no-such-game' not found" err.txt || { cat err.txt; echo "FAIL: unclear error"; exit 1; }

for parent in asl bolt-action; do
  name="my-$parent-rule"
  "$umpire" new house-rule "$name" --extends "$parent" --dir "$work" >/dev/null
  passes "$work/$name"
  "$umpire" check --ruleset "$work/$name" >/dev/null || { "$umpire" check --ruleset "$work/$name"; exit 1; }
  # Both YAML files start with the modeline of their schema (relative to the file, wherever the
  # folder is), and check finds a schema for every file (-v prints a note for a file without one).
  for f in "$work/$name/ruleset.yaml" "$work/$name/data/"*.yaml; do
    head -1 "$f" | grep -q '^# yaml-language-server: \$schema=\.\./' || { echo "FAIL: no modeline in $f"; head -3 "$f"; exit 1; }
    schema=$(head -1 "$f" | sed 's/^# yaml-language-server: \$schema=//')
    [ -f "$(dirname "$f")/$schema" ] || { echo "FAIL: $f names $schema, which does not exist"; exit 1; }
  done
  if "$umpire" check --ruleset "$work/$name" | grep "no schema"; then
    echo "FAIL: umpire check notes a file without a schema in $name"; exit 1
  fi
  "$umpire" odds --ruleset "$parent" "$work/$name/odds/compare.lua" --compare "$work/$name" > "$work/odds.txt" \
    || { cat "$work/odds.txt"; exit 1; }
  if "$umpire" new house-rule "$name" --extends "$parent" --dir "$work" 2>/dev/null; then
    echo "FAIL: new overwrote $name"; exit 1
  fi
done
echo "ok: new ruleset; new house-rule (asl, bolt-action, skirmish, a user's own)"
