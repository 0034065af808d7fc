#!/usr/bin/env bash
# The sandbox attacks that used to end the `umpire` process abnormally, run through the command:
# each must now exit with status 1 (a rule error) and say why -- not 139 (SIGSEGV) or 134
# (std::terminate) -- and a journal that names a folder instead of a ruleset is not followed.
set -uo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

. "$(dirname "$0")/lib.sh"  # expect

expect 1 "C stack overflow" run -e 'local function f(s) return (s:gsub(".", f)) end f("ab")'
expect 1 "C stack overflow" run -e 'local function f() return coroutine.wrap(f)() end f()'
expect 1 "C stack overflow" run -e 'local t t = setmetatable({}, {__index = function() return (("x"):gsub(".", t)) end}) return t.a'
expect 1 "script stopped: ran longer than 1s" run --timeout 1 -e 'while true do coroutine.resume(coroutine.create(function() while true do end end)) end'
expect 1 "in string.find: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 -e 'return ("a"):rep(3000):find(".-.-.-.-.-b")'

# An alias bomb in a data file: refused by the value cap (it used to abort after 10-16 s).
mkdir -p "$work/bomb/data"
printf 'name: bomb\ndata: [d]\n' > "$work/bomb/ruleset.yaml"
python3 - "$work/bomb/data/d.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("a0: &a0 [x, x, x, x, x, x, x, x, x]\n")
    for i in range(1, 12):
        f.write(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 9) + "]\n")
PY
expect 1 "aliases expanding without end" run --ruleset "$work/bomb" -e 'print(1)'

# C++ memory an odds run grows for rule code counts against the Lua cap, in the worker as with
# --no-isolate: the fold cache of a chain started from ever new states, the tally of an outcome
# that never repeats, and the game state's JSON text (docs/sandbox.md, "Memory"). Each runs under
# --memory 256 (a cap of 32 MiB, an eighth) with no wall-clock limit: the cap alone ends it, so
# the test does not depend on the machine's load. Under the default cap of 256 MiB these took 2-3 s
# each and, at load 16, once ran into the default 10 s limit; now they take a tenth of that. Were a
# charge missing, the attack would run on to the address space (--memory 256) or finish: either
# way a different status or message.
limit="--memory 256 --timeout 0"
expect 1 "memory limit: umpire.odds.chain: the end states kept for the rest of the odds run" odds $limit -e \
  "local pad = ('x'):rep(20000) for i = 1, 40000 do umpire.odds.chain{state = {n = i, pad = pad}, max_steps = 1, step = function(s) s.n = s.n + 1 end} end return 1"
expect 1 "memory limit: the odds engine's tally of this script's distinct outcomes" odds $limit -e \
  "return {a = umpire.dice.d(1000), b = umpire.dice.d(1000), pad = ('x'):rep(1000)}"
expect 1 "memory limit: the odds engine's tally of this script's distinct outcomes" odds $limit --no-isolate --monte-carlo \
  --samples 300000 --threads 2 -e "return {a = umpire.dice.d(1000), b = umpire.dice.d(1000), pad = ('x'):rep(1000)}"
expect 1 "memory limit: umpire.state written as JSON would take more than" run $limit \
  -e 'local big = {} for i = 1, 1e6 do big[i] = 1 / 3 end umpire.state.big = big' --save-state "$work/state.json"
expect 1 "memory limit: d1000000 has 1000000 possible totals" odds d1000000
# What the run holds outside its hosts is charged against a cap of the host's size that outlives
# them (core/odds/MemoryBudget.hpp): the report, built after the hosts have ended, and the Monte
# Carlo workers' counts merged into one. Each script's tally fits under the host's cap, but not
# its report, or not the two workers' tallies merged: before, both ran on past the cap and printed.
# In-process and in the worker.
printf "return ('x'):rep(300) .. umpire.dice.d(20000)\n" > "$work/many.lua"
# Numbers of nine digits: a short key, so the merge and its Result (a map node and an entry each)
# weigh twice the tally, and even one worker's tally of all 150 000 samples fits its host's cap
# (the workers share the chunks as they come, unevenly on a loaded machine).
printf "return umpire.dice.d(1000000) * 1000 + umpire.dice.d(1000)\n" > "$work/never.lua"
for mode in "" --no-isolate; do
  expect 1 "many.lua: memory limit: the report of 20000 distinct outcomes, with the results it is built from, would take ~" \
    odds $limit $mode "$work/many.lua"
  expect 1 "never.lua: memory limit: the Monte Carlo workers' counts merged into one total (" \
    odds $limit $mode --monte-carlo --samples 150000 --threads 2 "$work/never.lua"
done
grep -qF "which would pass the memory cap of 32 MiB" "$work/err" || { echo "FAIL: the merge's error names no cap:"; cat "$work/err"; fail=1; }
# Within the cap the same commands answer as before.
"$umpire" odds -e "return {a = umpire.dice.d(6), pad = ('x'):rep(1000)}" > "$work/out" 2>&1 &&
  [ "$(grep -c "a=[1-6] pad=x* *1/6" "$work/out")" = 6 ] || { echo "FAIL: a six-outcome odds script under the cap:"; cat "$work/out"; fail=1; }
printf "return ('x'):rep(300) .. umpire.dice.d(3000)\n" > "$work/fewer.lua"
"$umpire" odds $limit "$work/fewer.lua" > "$work/out" 2>&1 &&
  grep -q "exact: 3000 paths evaluated" "$work/out" || { echo "FAIL: 3000 outcomes under the cap:"; cat "$work/out"; fail=1; }

# A journal whose rulesets name a folder: replay looks the name up on the search path only.
"$umpire" run --ruleset "$src/rulesets/asl" -e 'print(umpire.dice.dr())' --journal "$work/game.json" > /dev/null 2>&1 || { echo "FAIL: recording"; fail=1; }
sed -e 's#"rulesets":{"asl"#"rulesets":{"bomb"#' -e 's#"rulesets":\["[^"]*"\]#"rulesets":["'"$work"'/bomb"]#' "$work/game.json" > "$work/evil.json"
expect 1 "ruleset 'bomb' not found on the search path" replay "$work/evil.json"
expect 0 "replay loads ruleset 'asl'" replay "$work/game.json"

# Debian's LuaJIT 2.1 (beta3) crashes in compiled code that raises "table index is NaN" under
# pcall (found in session 34; plain `luajit` on this script: SIGSEGV on every seed tried, and with
# -joff it runs to the end). The sandbox keeps rule code interpreted, so it runs to the end; under
# --jit the crash is the worker's (LuaJIT compiles this loop in some runs and not in others: either
# answer is accepted there), and the command says so, naming the script.
cat > "$work/nan_keys.lua" <<'LUA'
local tables = {}
local function keep(result, number)
  local node = tables
  for name, value in next, result do
    local by_value = node[name]
    if by_value == nil then by_value = {}; node[name] = by_value end
    node = by_value[value]
    if node == nil then node = {}; by_value[value] = node end
  end
  node[tables] = number
end
local names = {"ift", "malfunction", "keeps_rof", "a", "ab", "b", "A", "a b", "x", ""}
local nums = {0, -0.0, 1, 7, -3, 2.5, 0.1, 1e300, -1e-300, 2^53, 2^53 + 2, math.huge, -math.huge, 0/0}
local x = 1
local function rnd(n) x = x * 16807 % 2147483647 return x % n end
for i = 1, 3000 do
  local t = {}
  for _ = 1, rnd(6) do
    local k = rnd(3)
    t[names[rnd(#names) + 1]] = k == 0 and (rnd(2) == 1) or k == 1 and nums[rnd(#nums) + 1] or "s"
  end
  pcall(keep, t, i)
end
return "ok"
LUA
[ "$("$umpire" run "$work/nan_keys.lua" 2> "$work/err")" = ok ] || { echo "FAIL: nan_keys sandboxed"; cat "$work/err"; fail=1; }
"$umpire" run --jit "$work/nan_keys.lua" > "$work/out" 2> "$work/err"; rc=$?
if [ "$rc" = 0 ]; then grep -qx ok "$work/out" || { echo "FAIL: nan_keys under --jit ended without its answer"; cat "$work/out" "$work/err"; fail=1; }
else
  # (under AddressSanitizer its own handler may end the worker instead of the signal: a worker
  # that ended without its answer is then the message)
  [ "$rc" = 1 ] && grep -q "the rules' worker process" "$work/err" \
    || { echo "FAIL: nan_keys under --jit: rc $rc"; cat "$work/out" "$work/err"; fail=1; }
fi


# ---- session 35 (h3): a worker crash under --jit names its position readably -----------------
# Before, nan_keys.lua's crash under --jit ended "(last known position: nan_keys.lua:)", a colon
# with nothing after it. The worker's crash handler now names the line of the trace it crashed in
# ("nan_keys.lua:N: the rules' worker process crashed ... in code compiled under --jit for the
# loop at this line"), or, where the handler finds none, says the line is not known. Whether
# LuaJIT compiles the loop varies from run to run, so each run may crash or answer.
for i in 1 2 3; do
  "$umpire" run --jit "$work/nan_keys.lua" > "$work/out" 2> "$work/err"; rc=$?
  [ "$rc" = 0 ] && continue
  if grep -q 'nan_keys\.lua:)' "$work/err" \
     || ! grep -q "the rules' worker process" "$work/err"; then
    echo "FAIL: nan_keys under --jit: the crash's position reads badly"; cat "$work/err"; fail=1
  fi
done

exit $fail
