#!/usr/bin/env bash
# `umpire odds --json` has one shape, plain or --compare (docs/odds-report.md): real output of a
# dice expression, a table-returning script, a conditioned run, a Monte Carlo run and a
# comparison validates against docs/odds-report.schema.json with ajv 8; and a document with the
# old comparison shape ("rows", "first"/"second") fails, so the validator is really looking.
# ajv is installed by `scripts/setup.sh test` into .tools/node; without it the test is skipped
# (exit 77), unless UMPIRE_REQUIRE_TOOLS=1 (CI).
# Usage: odds_report_schema_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
modules="${UMPIRE_TOOLS:-$src/.tools}/node/node_modules"
if ! command -v node >/dev/null || [ ! -d "$modules/ajv" ]; then
  msg="ajv not installed in $modules (scripts/setup.sh test installs it)"
  [ "${UMPIRE_REQUIRE_TOOLS:-0}" = 1 ] && { echo "FAIL: $msg" >&2; exit 1; }
  echo "skipped: $msg"; exit 77
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$src"
schema=docs/odds-report.schema.json
"$umpire" odds --json 2d6+1 > "$work/dice.json"
"$umpire" odds --json 'd6!' > "$work/explode.json"
"$umpire" odds --json --ruleset rulesets/asl scripts/asl/odds_mmg_fire_group.lua > "$work/fields.json"
"$umpire" odds --json --ruleset rulesets/asl scripts/asl/odds_mmg_fire_group.lua --given ift=1KIA > "$work/given.json"
"$umpire" odds --json --monte-carlo --samples 2000 --threads 1 2d6 > "$work/monte_carlo.json"
"$umpire" odds --json --ruleset rulesets/bolt-action scripts/bolt-action/compare_mg42.lua \
  --compare rulesets/bolt-action-mg42 > "$work/compare.json"
node "$src/tests/schemas/ajv_json.js" "$modules" "$schema" "$work"/*.json > "$work/out" \
  || { grep -v '^ok' "$work/out"; fail "odds --json against $schema (ajv)"; }
# Both shapes are the same: a plain run has one side, a comparison two, and a difference.
grep -q '"difference"' "$work/compare.json" || fail "the comparison has no difference"
if grep -q '"difference"' "$work/dice.json"; then fail "a plain run has a difference"; fi
# The control: the old comparison shape must fail.
printf '{"first": {"label": "a", "method": "exact"}, "rows": []}\n' > "$work/old_shape.json"
if node "$src/tests/schemas/ajv_json.js" "$modules" "$schema" "$work/old_shape.json" > "$work/out"; then
  fail "ajv accepted the old comparison shape"
fi
echo "ok: plain, conditioned, Monte Carlo and --compare reports match $schema (ajv)"
