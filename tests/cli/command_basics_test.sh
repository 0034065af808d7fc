#!/usr/bin/env bash
# Small promises of the command, each checked from outside: --version; `run -e 'return x'` prints
# x (and --json carries it); a failing `check` does not claim its files match their schemas; a
# data file without a schema is noted without -v; umpire.dice.pool rolls are journaled; and
# `--ruleset .` / `--ruleset ./` load a house rule whose `extends` is found beside it.
# Usage: command_basics_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"   # not the checkout: the binary must find its rulesets by itself

# --version
out=$("$umpire" --version) || fail "--version exited $?"
grep -qE '^umpire [0-9]+\.[0-9]+\.[0-9]+$' <<<"$out" || fail "--version printed: $out"

# run -e 'return x'
[ "$("$umpire" run -e 'return 6 * 7')" = 42 ] || fail "run -e 'return 6 * 7' did not print 42"
[ "$("$umpire" run -e 'return "a", {1, 2}')" = "$(printf 'a\t[1,2]')" ] || fail "run -e: several values"
"$umpire" run -e 'return {hits = 3}' --json > "$work/run.json"
grep -q '"returned": \[' "$work/run.json" || fail "--json has no \"returned\": $(cat "$work/run.json")"
tr -d ' \n' < "$work/run.json" | grep -q '"returned":\[{"hits":3}\]' || fail "--json returned: $(cat "$work/run.json")"

# umpire.dice.pool is journaled like every die
"$umpire" run -e 'umpire.dice.pool(4, 6)' --explain > "$work/pool.txt"
grep -q '4d6 pool: 4d6 → ' "$work/pool.txt" || fail "pool not in the rule log: $(cat "$work/pool.txt")"
grep -q '"kind": "roll"' <<<"$("$umpire" run -e 'umpire.dice.pool(4, 6)' --json)" || fail "pool not in the --json journal"

# A house rule in the current folder: --ruleset . and ./ find its parent beside it.
mkdir -p "$work/rules/parent" "$work/rules/child/data"
printf 'name: parent\ndata: [data/stats]\n' > "$work/rules/parent/ruleset.yaml"
mkdir -p "$work/rules/parent/data"
printf 'stats: {a: 1, b: 2}\n' > "$work/rules/parent/data/stats.yaml"
printf 'name: child\nextends: parent\ndata: [data/stats]\n' > "$work/rules/child/ruleset.yaml"
printf 'stats: {b: 5}\n' > "$work/rules/child/data/stats.yaml"
for dot in . ./; do
  got=$(cd "$work/rules/child" && "$umpire" run --ruleset "$dot" -e 'local s = umpire.data.stats.stats; return s.a + s.b') \
    || fail "--ruleset $dot did not load"
  [ "$got" = 6 ] || fail "--ruleset $dot: expected 6 (a from the parent, b from the child), got $got"
done

# check: a file without a schema is noted (no -v), and a failing check does not say "match".
out=$(cd "$work/rules/child" && "$umpire" check --ruleset .) || fail "check of a good ruleset failed: $out"
grep -q '^note: .*stats.yaml: no schema' <<<"$out" || fail "no note for a data file without a schema: $out"
printf 'name: child\nextends: parent\ndata: [data/stats]\nbogus: 1\n' > "$work/rules/child/ruleset.yaml"
if out=$(cd "$work/rules/child" && "$umpire" check --ruleset .); then fail "check passed a manifest with an unknown key"; fi
grep -q '^FAIL ' <<<"$out" || fail "no FAIL line: $out"
if grep -q 'match their schemas' <<<"$out"; then fail "a failing check says its files match: $out"; fi
echo "ok: --version, run -e return, pool journaled, --ruleset ., check output"
