#!/usr/bin/env bash
# `umpire new house-rule` end to end: for each supported parent, the new folder's spec tests,
# `umpire check` and its odds comparison script all pass as made; a second `new` refuses to
# overwrite it.
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$src"
for parent in asl bolt-action; do
  name="my-$parent-rule"
  "$umpire" new house-rule "$name" --extends "$parent" --dir "$work" >/dev/null
  "$umpire" test --ruleset "$work/$name" | tail -1 | grep -q " 0 failed" || { "$umpire" test --ruleset "$work/$name"; exit 1; }
  "$umpire" check --ruleset "$work/$name" >/dev/null || { "$umpire" check --ruleset "$work/$name"; exit 1; }
  # Both YAML files start with the modeline of their schema (relative to the file, wherever the
  # folder is), and check finds a schema for every file (-v prints a note for a file without one).
  for f in "$work/$name/ruleset.yaml" "$work/$name/data/"*.yaml; do
    head -1 "$f" | grep -q '^# yaml-language-server: \$schema=\.\./' || { echo "FAIL: no modeline in $f"; head -3 "$f"; exit 1; }
    schema=$(head -1 "$f" | sed 's/^# yaml-language-server: \$schema=//')
    [ -f "$(dirname "$f")/$schema" ] || { echo "FAIL: $f names $schema, which does not exist"; exit 1; }
  done
  if "$umpire" check -v --ruleset "$work/$name" | grep "no schema"; then
    echo "FAIL: umpire check notes a file without a schema in $name"; exit 1
  fi
  "$umpire" odds --ruleset "$parent" "$work/$name/odds/compare.lua" --compare "$work/$name" > "$work/odds.txt" \
    || { cat "$work/odds.txt"; exit 1; }
  if "$umpire" new house-rule "$name" --extends "$parent" --dir "$work" 2>/dev/null; then
    echo "FAIL: new overwrote $name"; exit 1
  fi
done
echo "ok: new house-rule (asl, bolt-action)"
