#!/usr/bin/env bash
# umpire roll / odds with the dice language: a bad expression is bad usage (exit 2, README) with a
# caret under the offending column; the new forms roll and give exact odds; --help names the D66
# rule and docs/dice.md.
# Usage: dice_cli_test.sh UMPIRE
set -euo pipefail
umpire="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }

# The caret must sit under column `col` (1-based) of the echoed input line.
check_bad() {
    local cmd="$1" expr="$2" col="$3" out rc
    if out=$("$umpire" "$cmd" "$expr" 2>&1); then fail "$cmd '$expr' succeeded: $out"; else rc=$?; fi
    [ "$rc" = 2 ] || fail "$cmd '$expr': exit code $rc, expected 2 (bad usage): $out"
    grep -q "column $col" <<<"$out" || fail "$cmd '$expr': no 'column $col' in: $out"
    local input_line caret_line
    input_line=$(grep -n -F -x -- "  $expr" <<<"$out" | head -1 | cut -d: -f1) || true
    [ -n "$input_line" ] || fail "$cmd '$expr': the input is not echoed: $out"
    caret_line=$(sed -n "$((input_line + 1))p" <<<"$out")
    [ "$caret_line" = "$(printf '%*s^' $((2 + col - 1)) '')" ] || fail "$cmd '$expr': caret not under column $col: $out"
}
check_bad roll '2d6+x' 5
check_bad odds '2d6+x' 5
check_bad roll 'd6r<7' 3
check_bad odds '4d6dl4' 6
check_bad roll 'd6!{0}' 5

# Every new form rolls and has exact odds.
for expr in 'd6!' 'd6!>=5{3}' 'd6r1' '2d6ro1' '4d6dl1' '10d6>=5+1' 'd[1,1,2,3,5,8]' '4dF' 'd6*2' 'd66'; do
    "$umpire" roll --seed 7 "$expr" >/dev/null || fail "roll '$expr' failed"
    "$umpire" odds "$expr" >/dev/null || fail "odds '$expr' failed"
done
# A re-roll is shown: with this seed some die of 20d6r1 is a 1 that was re-rolled, in parentheses.
out=$("$umpire" roll --seed 7 '20d6r1')
grep -q '(1)' <<<"$out" || fail "no re-rolled 1 shown in: $out"
# d66 is tens and units: 36 outcomes from 11 to 66, none ending in 0 or 7-9.
out=$("$umpire" odds --json d66)
faces=$(python3 -c 'import json, sys; print(" ".join(str(o["outcome"]) for o in json.load(sys.stdin)["outcomes"]))' <<<"$out")
expected=$(for t in 1 2 3 4 5 6; do for u in 1 2 3 4 5 6; do printf '%s ' "$t$u"; done; done)
[ "$faces " = "$expected" ] || fail "d66 is not tens and units: $faces"

# The explosion depth left implicit is stated in the output.
out=$("$umpire" odds 'd6!')
grep -qF 'd6!{10}' <<<"$out" || fail "odds 'd6!' does not state the depth 10"

help=$("$umpire" roll --help)
grep -q 'docs/dice.md' <<<"$help" || fail "roll --help does not link docs/dice.md"
grep -q 'tens and units' <<<"$help" || fail "roll --help does not say what d66 means"
# Captured first: with pipefail, `umpire ... | grep -q` fails when grep stops reading early.
help=$("$umpire" odds --help)
grep -q 'docs/dice.md' <<<"$help" || fail "odds --help does not link docs/dice.md"
echo "dice_cli: exit codes, carets, forms and help agree"
