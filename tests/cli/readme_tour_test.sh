#!/usr/bin/env bash
# The README's five-minute tour, run as written (tests/cli/doc_steps.py, its "A five-minute tour"
# section) from a scratch folder laid out like the checkout (build/cli/umpire, rulesets/ and
# scripts/ linked), so the files it writes (mmg.svg, game.json) land there; every command must
# succeed and the outputs it promises must appear.
# Usage: readme_tour_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work/build/cli"
ln -s "$(realpath "$umpire")" "$work/build/cli/umpire"
ln -s "$src/rulesets" "$work/rulesets"
ln -s "$src/scripts" "$work/scripts"
python3 "$src/tests/cli/doc_steps.py" "$src/README.md" "A five-minute tour" > "$work/steps.sh"
(cd "$work" && bash steps.sh) > "$work/log" 2>&1 || { tail -30 "$work/log"; fail "a step of the README tour failed"; }
grep -qx 4 "$work/log" || fail "the hex distance X3-BB5 is not 4"
grep -qE '^[1-9][0-9]* passed, 0 failed$' "$work/log" || fail "the tour's spec tests"
grep -q 'exact: ' "$work/log" || fail "no exact odds in the tour"
[ -s "$work/mmg.svg" ] && [ -s "$work/game.json" ] || fail "the tour's mmg.svg or game.json is missing"
if grep -q 'watch' "$work/steps.sh"; then fail "the tour test would run umpire watch"; fi
echo "ok: the README tour runs"
