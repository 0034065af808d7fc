#!/usr/bin/env bash
# Quick questions: `umpire odds -e CODE` runs code as the odds script, `--set name=value` gives a
# script umpire.args (read-only; numbers, booleans, strings), on odds and run; `run --journal`
# records the args and `replay` plays them again. A malformed --set is bad usage (exit 2), a
# script writing umpire.args a script error (exit 1). The odds are checked against a count of
# every face sequence done here in Python.
# Usage: quick_questions_test.sh UMPIRE
set -euo pipefail
umpire="$1"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# P(k of n dice show 5+), n and the target given by --set, against brute force.
for n in 1 3 5; do
  for target in 4 6; do
    "$umpire" odds --json -e 'return umpire.dice.count(umpire.args.n, 6, umpire.args.target)' \
      --set n=$n --set target=$target > "$work/odds.json"
    python3 - "$work/odds.json" "$n" "$target" <<'PY' || fail "odds -e --set n=$n target=$target"
import itertools, json, sys
from fractions import Fraction
doc = json.load(open(sys.argv[1])); n, target = int(sys.argv[2]), int(sys.argv[3])
want = {}
for faces in itertools.product(range(1, 7), repeat=n):
    k = sum(f >= target for f in faces)
    want[k] = want.get(k, 0) + Fraction(1, 6 ** n)
got = {o["outcome"]: Fraction(o["sides"][0]["exact"]) for o in doc["outcomes"]}
assert got == want, (got, want)
mean = sum(k * p for k, p in want.items())
assert Fraction(doc["moments"][0]["mean_exact"]) == mean
PY
  done
done

# Types: a number, a boolean, a string (quoted or not).
out=$("$umpire" run -e 'return type(umpire.args.x), umpire.args.flag, umpire.args.name, umpire.args.q' \
  --set x=2.5 --set flag=false --set name=rulesets/asl --set "q='7'")
[ "$out" = $'number\tfalse\trulesets/asl\t7' ] || fail "umpire.args types: $out"
# Read-only: exit 1, a script error.
if "$umpire" run -e 'umpire.args.x = 1' --set x=2 2> "$work/err"; then fail "umpire.args was writable"; else rc=$?; fi
[ "$rc" = 1 ] || fail "writing umpire.args exited $rc, expected 1"
grep -q "read-only" "$work/err" || fail "no read-only error: $(cat "$work/err")"
# Bad --set: exit 2.
for bad in 'x' '=3' '1x=2' 'a-b=1'; do
  if "$umpire" odds -e 'return 1' --set "$bad" 2> "$work/err"; then fail "--set $bad accepted"; else rc=$?; fi
  [ "$rc" = 2 ] || fail "--set $bad exited $rc, expected 2"
done
# Neither or both of EXPR and -e: exit 2.
if "$umpire" odds 2> /dev/null; then fail "odds with nothing accepted"; else [ $? = 2 ] || fail "odds with nothing: not exit 2"; fi
if "$umpire" odds 2d6 -e 'return 1' 2> /dev/null; then fail "odds EXPR -e accepted"; else [ $? = 2 ] || fail "odds EXPR -e: not exit 2"; fi
# A journal keeps the args: replay gives the same journal.
"$umpire" run -e 'return umpire.dice.roll(umpire.args.dice)' --set dice=3d6 --seed 5 --journal "$work/j.json" > "$work/run.txt"
"$umpire" replay "$work/j.json" > "$work/replay.txt" || fail "replay with args: $(cat "$work/replay.txt")"
echo "ok: odds -e and --set give the counted odds; umpire.args is typed, read-only, replayed; bad --set exits 2"
