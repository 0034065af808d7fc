#!/usr/bin/env bash
# docs/authoring.md, followed to the letter (tests/cli/doc_steps.py): its files are written into a
# scratch checkout-like folder (build/cli/umpire, scripts/ and rulesets/asl linked from the real
# one) and its commands run in order; its spec tests must pass, all of them, and its comparison
# must show the house rule's change.
# Usage: authoring_doc_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work/build/cli" "$work/rulesets"
ln -s "$(realpath "$umpire")" "$work/build/cli/umpire"
ln -s "$src/scripts" "$work/scripts"
ln -s "$src/rulesets/asl" "$work/rulesets/asl"
python3 "$src/tests/cli/doc_steps.py" "$src/docs/authoring.md" > "$work/steps.sh"
(cd "$work" && bash steps.sh) > "$work/log" 2>&1 || { tail -30 "$work/log"; fail "a step of authoring.md failed"; }
grep -qE '^2 passed, 0 failed$' "$work/log" || { cat "$work/log"; fail "authoring.md's spec tests did not all pass"; }
# B12 instead of B11 under Sustained Fire (B10/X12 instead of B9/X11): the MMG fires on 30/36
# Original DRs instead of 26/36 (scripts/asl/compare_house_mg.lua's header counts them).
grep -qE '^fires on +13/18 +[0-9.]+% +5/6 ' "$work/log" || { cat "$work/log"; fail "the comparison is not 13/18 -> 5/6"; }
[ -s "$work/compare.svg" ] || fail "no compare.svg"
echo "ok: authoring.md's steps run and its tests pass"
