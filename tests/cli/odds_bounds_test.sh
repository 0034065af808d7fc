#!/usr/bin/env bash
# umpire odds: --timeout bounds the whole run (an exploding die written as a plain loop has no end
# of paths), and the same die written as umpire.odds.chain is exact, with its truncated mass.
# Usage: odds_bounds_test.sh UMPIRE
set -euo pipefail
umpire="$1"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

printf 'local t = 0\nrepeat local f = umpire.dice.d(6); t = t + f until f ~= 6\nreturn t\n' > "$scratch/loop.lua"
start=$(date +%s)
if out=$("$umpire" odds --timeout 2 "$scratch/loop.lua" 2>&1); then fail "an endless enumeration succeeded: $out"; else rc=$?; fi
elapsed=$(( $(date +%s) - start ))
[ "$rc" = 1 ] || fail "exit code $rc, expected 1 (a rule/script error)"
grep -q -- "--timeout 2s" <<<"$out" || fail "the error does not name the limit: $out"
# The bound is the whole run: it must not go on for many times the limit (generous for a busy CI).
[ "$elapsed" -le 20 ] || fail "--timeout 2 stopped only after ${elapsed}s"

cat > "$scratch/chain.lua" <<'LUA'
local s = umpire.odds.chain{state = {t = 0, last = 6}, max_steps = 10,
  step = function(s) s.last = umpire.dice.d(6); s.t = s.t + s.last end,
  stop = function(s) return s.last ~= 6 end}
return s.t
LUA
out=$("$umpire" odds --json "$scratch/chain.lua")
# (1/6)^10 of the probability is cut at depth 10: ten 6s, then the last die as rolled (61-66).
grep -q '"truncated": *"1/60466176"' <<<"$out" || fail "no exact truncated mass in: $out"
grep -q '"method": *"exact"' <<<"$out" || fail "not exact: $out"
echo "odds_bounds: all 3 cases behave"
