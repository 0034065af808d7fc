#!/usr/bin/env bash
# Every shipped YAML file, and every file `umpire new` writes, validates against the schema its
# modeline names with ajv 8 (a real JSON Schema validator, as an editor runs it), not Umpire's own
# validator; and a known-bad file fails, so the validator is really looking.
# ajv is installed by `scripts/setup.sh test` (npm, into .tools/node; nothing is downloaded at
# build time). Without it the test is skipped (exit 77), unless UMPIRE_REQUIRE_TOOLS=1 (CI).
# Usage: yaml_schemas_ajv_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
modules="${UMPIRE_TOOLS:-$src/.tools}/node/node_modules"
if ! command -v node >/dev/null || [ ! -d "$modules/ajv" ] || [ ! -d "$modules/js-yaml" ]; then
  msg="ajv not installed in $modules (scripts/setup.sh test installs it)"
  [ "${UMPIRE_REQUIRE_TOOLS:-0}" = 1 ] && { echo "FAIL: $msg" >&2; exit 1; }
  echo "skipped: $msg"; exit 77
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
validate() { node "$src/tests/schemas/ajv_validate.js" "$modules" "$@"; }
cd "$src"

mapfile -t shipped < <(find rulesets -name '*.yaml' | sort)
[ "${#shipped[@]}" -ge 40 ] || { echo "FAIL: only ${#shipped[@]} shipped YAML files found"; exit 1; }
validate "${shipped[@]}" > "$work/out" || { grep -v '^ok' "$work/out"; echo "FAIL: shipped YAML against its schema (ajv)"; exit 1; }

# The control: a B# of 13 (and missing keys) must fail.
if validate tests/schemas/asl/sw_mg.b13.invalid.yaml > "$work/out"; then
  echo "FAIL: ajv accepted tests/schemas/asl/sw_mg.b13.invalid.yaml"; exit 1
fi
grep -q 'B must be <= 12' "$work/out" || { cat "$work/out"; echo "FAIL: ajv's complaint is not the B#"; exit 1; }

# What `umpire new` writes.
for parent in asl bolt-action skirmish; do
  "$umpire" new house-rule "hr-$parent" --extends "$parent" --dir "$work" >/dev/null
done
"$umpire" new ruleset fresh --dir "$work" >/dev/null
"$umpire" new house-rule fresh-house --extends fresh --ruleset "$work" --dir "$work" >/dev/null
mapfile -t made < <(find "$work" -name '*.yaml' | sort)
validate "${made[@]}" > "$work/out" || { grep -v '^ok' "$work/out"; echo "FAIL: umpire new's YAML (ajv)"; exit 1; }
echo "ok: ${#shipped[@]} shipped and ${#made[@]} new YAML files match their schemas (ajv)"
