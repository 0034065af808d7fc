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

# Session 35 (helper h4): attacks that got through, each refused now with its reason and place
# (docs/sandbox.md, "The attack suite"). Numbers rule code hands C++ as integers must be whole and
# in range (bindings/WholeNumber.hpp): lua_tointeger read 0.5 as 0, and NaN, infinities and 1e300
# as -2^63, so each of these was a silent change of the answer.
expect 1 "(command line):1: hex.q must be a whole number from -100000000 to 100000000, got 0.5" \
  run -e 'local d = umpire.hex.distance({q = 0.5, r = 0}, {q = 0, r = 0}) return d'
expect 1 "hex.r must be a whole number from -100000000 to 100000000, got nan" \
  run -e 'return umpire.hex.distance({q = 0, r = 0/0}, {q = 0, r = 0})'
expect 1 "hex.q must be a whole number from -100000000 to 100000000, got 2147483647" \
  run -e 'return tostring(umpire.hex.neighbour({q = 2^31 - 1, r = 0}, "NE"))'
expect 1 "umpire.hex.map: row_offset must be a whole number" run -e 'umpire.hex.map{boards = {{board = 1, row_offset = 1e300}}}'
# A ring, range or line is a C++ vector, then a Lua table per hex: its size is checked against
# the memory cap first (range 10000 took 2.3 GB and was killed inside C++ past the time limit).
expect 1 "(command line):1: memory limit: umpire.hex.range: a list of 300030001 hexes" \
  run --no-isolate -e 'return #umpire.hex.range("A1", 10000)'
expect 1 "memory limit: umpire.hex.line: a list of 100000001 hexes" \
  run -e 'return #umpire.hex.line({q = 0, r = 0}, {q = 1e8, r = 0})'
expect 1 "radius must be a whole number from 0 to 100000000, got 2147483647" run -e 'return #umpire.hex.ring("A1", 2^31 - 1)'
expect 1 "die.faces[1] must be a whole number from -1000000000 to 1000000000, got 1.5" \
  run -e 'return umpire.dice.sum(1, {faces = {1.5, 2.5}})'
expect 1 "die.faces[2] must be a whole number from -1000000000 to 1000000000, got nan" \
  odds -e 'return umpire.dice.sum(3, {faces = {1, 0/0}})'
expect 1 "die.explode[1] must be a whole number" run -e 'return umpire.dice.sum(1, {sides = 6, explode = {1e300}})'
expect 1 "a number added to a distribution must be a whole number from -9007199254740992 to 9007199254740992, got 0.5" \
  run -e 'return tostring(umpire.dice.dist("d2") + 0.5)'
# A target of 4.5 was counted as 4 (three 4s met ">= 4.5"; under odds P = 1/2, not 1/3), NaN as
# every die, 2^32 + 4 as 4: the fast path's int32 bounds, the classic and die-table paths' casts.
expect 1 "umpire.dice.count: target must be a whole number from -9007199254740992 to 9007199254740992, got 4.5" \
  run -e 'umpire.dice.fix{4, 4, 4} return umpire.dice.count(3, 6, 4.5)'
expect 1 "umpire.dice.count: target must be a whole number" odds -e 'return umpire.dice.count(1, 6, 0/0)'
expect 1 "umpire.dice.count: target must be a whole number" run -e 'return umpire.dice.count(1, {sides = 6}, 4.5)'
expect 1 "Distribution:p: value must be a whole number" run -e 'return umpire.dice.dist("d6"):p(">=", 4.5)'
[ "$("$umpire" run -e 'umpire.dice.fix{4, 5} return umpire.dice.count(2, 6, 2^32 + 4)' 2> "$work/err")" = 0 ] ||
  { echo "FAIL: count(2, 6, 2^32 + 4) is not 0"; cat "$work/err"; fail=1; }
expect 1 "umpire.table.place_templates: count must be a whole number from 0 to 1000000, got -1" \
  run -e 'return umpire.table.place_templates(-1, 3, {{x = 0, y = 0}}, {})'
expect 1 "ModifierPipeline:add: a whole number from -2^53 to 2^53 expected, got 1e+300" \
  run -e 'local m = umpire.bus.modifiers("x") m:add(1e300, "a", "A1") return m:total()'
expect 1 "a modifier pipeline's value must be a whole number" \
  run -e 'local m = umpire.bus.modifiers("x") m:add(1, "a", "A1") m[2] = 1e300 return tostring(m)'
# math.random as Lua 5.1: a third argument was ignored, and fractional bounds gave fractional rolls.
expect 1 "bad argument to 'random' (wrong number of arguments)" run -e 'local r = math.random(1, 2, 3) return r'
out=$("$umpire" run -e 'local seen = {} for i = 1, 200 do local r = math.random(0.5, 3.7) seen[r] = true end
  local keys = {} for k in pairs(seen) do keys[#keys + 1] = k end table.sort(keys) return table.concat(keys, ",")' 2> "$work/err")
[ "$out" = "0,1,2,3" ] || { echo "FAIL: math.random(0.5, 3.7) gave $out"; cat "$work/err"; fail=1; }
# --timeout: NaN and negative numbers were no limit, an infinity or 1e308 overflowed the clock and
# stopped the script at once ("ran longer than infs").
for t in inf 1e308 nan -1; do
  expect 2 "--timeout $t: expected seconds from 0 (no limit) to 31536000 (a year)" run --timeout "$t" -e 'for i = 1, 1e6 do end return 1'
done
# sweep: a bound past 2^53 (kept as a double, so the axis said one value and ran another; a range
# ending at 2^63 - 1 stepped past it, wrapped and grew without end: 9 GB in a minute), and a grid
# whose cell count wrapped past 2^64 (four axes of 65536 values: 0 cells, an empty sweep).
printf 'return umpire.dice.d(2) + (umpire.args.n or 0)\n' > "$work/sweep.lua"
expect 2 "A out of range (an integer from -2^53 to 2^53)" sweep "$work/sweep.lua" --grid n=9007199254740993..9007199254740993 --jsonl "$work/s.jsonl"
expect 2 "more than 1000000000 cells" sweep "$work/sweep.lua" --grid a=1..65536 --grid b=1..65536 --grid c=1..65536 \
  --grid d=1..65536 --jsonl "$work/s.jsonl"
# A seed or a shard out of range was read as 2^64 - 1 without a word (-1, 2^64, 10^23).
for seed in -1 18446744073709551616 99999999999999999999999; do
  expect 2 "--seed $seed: expected a whole number from 0 to 18446744073709551615" run --seed "$seed" -e 'return 1'
done
expect 2 "bad shard '1/18446744073709551616' at column 1: a number out of range" sweep "$work/sweep.lua" --grid n=1..3 \
  --shard 1/18446744073709551616 --jsonl "$work/s.jsonl"
expect 2 "bad shard '1/-1'" sweep "$work/sweep.lua" --grid n=1..3 --shard 1/-1 --jsonl "$work/s.jsonl"
# `new` with a name the file system refuses ended in std::terminate (134).
expect 2 "umpire new: bad name" new ruleset "$(printf 'a%.0s' $(seq 300))" --dir "$work"
# A second YAML document in a data file or a manifest was ignored without a word.
mkdir -p "$work/twodocs/data"
printf 'name: twodocs\ndata: [d]\n' > "$work/twodocs/ruleset.yaml"
printf 'a: 1\n---\nb: 2\n' > "$work/twodocs/data/d.yaml"
expect 1 "twodocs/data/d.yaml:2:1: a second YAML document starts here: a file holds one document" run --ruleset "$work/twodocs" -e 'return 1'
printf 'b: 2\n' > "$work/twodocs/data/d.yaml"
printf 'name: twodocs\ndata: [d]\n---\nname: other\n' > "$work/twodocs/ruleset.yaml"
expect 1 "twodocs/ruleset.yaml:3:1: a second YAML document starts here" run --ruleset "$work/twodocs" -e 'return 1'
# extends 40 rulesets deep: refused (a chain of 10 000 took 10-18 s to load, outside the time limit).
mkdir -p "$work/deep/c0"; printf 'name: c0\n' > "$work/deep/c0/ruleset.yaml"
for i in $(seq 1 40); do mkdir -p "$work/deep/c$i"; printf 'name: c%s\nextends: c%s\n' "$i" "$((i - 1))" > "$work/deep/c$i/ruleset.yaml"; done
expect 1 "c40/ruleset.yaml: 'extends' goes more than 32 rulesets deep (c40 -> c39 -> ... -> c9 -> c8)" run --ruleset "$work/deep/c40" -e 'return 1'
[ "$("$umpire" run --ruleset "$work/deep/c31" -e 'return umpire.ruleset.name' 2> "$work/err")" = c31 ] ||
  { echo "FAIL: a chain of 32 rulesets"; cat "$work/err"; fail=1; }

# Session 36 (h3): the items session 35's attacks left open.
# A YAML "\u0000" (or \0, \x00, \U00000000) was decoded into the string, where a raw NUL is refused.
mkdir -p "$work/nul/data"
printf 'name: nul\ndata: [d]\n' > "$work/nul/ruleset.yaml"
printf 'a: 1\nb: "x\\u0000y"\n' > "$work/nul/data/d.yaml"
expect 1 "nul/data/d.yaml:2:6: control characters are not allowed (0x00, written as an escape)" run --ruleset "$work/nul" -e 'return 1'
printf 'a: 1\nb: ["ok \\\\0", "\\0"]\n' > "$work/nul/data/d.yaml"
expect 1 "nul/data/d.yaml:2:16: control characters are not allowed" run --ruleset "$work/nul" -e 'return 1'
printf 'a: "\\\\u0000 is text"\n' > "$work/nul/data/d.yaml"
[ "$("$umpire" run --ruleset "$work/nul" -e 'return umpire.data.d.a' 2> "$work/err")" = '\u0000 is text' ] ||
  { echo "FAIL: an escaped backslash before u0000"; cat "$work/err"; fail=1; }
# A module listed twice was loaded once without a word.
mkdir -p "$work/twice/rules"
printf 'x = 1\n' > "$work/twice/rules/m.lua"
printf 'name: twice\nmodules:\n  - m\n  - rules/m.lua\n' > "$work/twice/ruleset.yaml"
expect 1 "twice/ruleset.yaml:4:5: module 'rules/m.lua' is listed twice in 'modules' (entries 1 and 2 name the same file)" \
  run --ruleset "$work/twice" -e 'return 1'
# umpire.copy_chain of 100 000 tables named data_copy.lua's line, not the caller's.
expect 1 "(command line):2: umpire.copy_chain: a list of 100000 tables (a chain holds at most 1000)" \
  run -e 'local t = {} for i = 1, 100000 do t[i] = {} end
local copy = umpire.copy_chain(t) return copy'
expect 1 "(command line):2: umpire.copier: a list of 1001 tables" \
  run -e 'local t = {} for i = 1, 1001 do t[i] = {} end
local copier = umpire.copier(t) return copier'
# The faces queued by umpire.dice.fix were not charged against the memory cap.
# (--memory 1536: a cap of 192 MiB, which the table's 128 MiB and the queue's 64 MiB pass together)
expect 1 "memory limit: umpire.dice.fix: a queue of 16777216 faces (~64 MiB) would pass the Lua memory cap" run --memory 1536 -e \
  'local t = {} for i = 1, 2^24 do t[i] = 1 end umpire.dice.fix(t) return 1'
# An odds.chain state with a cycle ran in a game and was refused under odds: refused in both, alike.
chain='local s = {n = 0} s.self = s
return umpire.odds.chain{state = s, step = function(x) x.n = x.n + 1 end, stop = function(x) return x.n >= 2 end}.n'
expect 1 "this table appears twice in the game state (a cycle" run -e "$chain"
cp "$work/err" "$work/err_run"
expect 1 "this table appears twice in the game state (a cycle" odds -e "$chain"
grep -o "self: this table.*" "$work/err_run" > "$work/m_run"; grep -o "self: this table.*" "$work/err" > "$work/m_odds"
{ [ -s "$work/m_run" ] && cmp -s "$work/m_run" "$work/m_odds"; } || { echo "FAIL: run and odds refuse a cyclic chain state differently"; cat "$work/err_run" "$work/err"; fail=1; }
[ "$("$umpire" run -e 'local s = {a = {}, n = 0} return umpire.odds.chain{state = s, step = function(x) x.n = x.n + 1 end, stop = function(x) return x.n >= 2 end}.n' 2> "$work/err")" = 2 ] ||
  { echo "FAIL: a tree state in a game's chain"; cat "$work/err"; fail=1; }
# ruleset.yaml a symlink out of the ruleset folder: its entries resolved against the folder.
mkdir -p "$work/outside" "$work/linked"
printf 'name: linked\n' > "$work/outside/manifest.yaml"
ln -s "$work/outside/manifest.yaml" "$work/linked/ruleset.yaml"
expect 1 "linked/ruleset.yaml:1:1: the manifest resolves outside the ruleset folder" run --ruleset "$work/linked" -e 'return 1'

# Session 37 (h2): the items session 36 left open.
# A chain whose step makes a cycle ran in a game and was refused under odds: refused in both, alike,
# naming the step (the step defined on line 2 of the chunk).
chain='local s = {n = 0}
return umpire.odds.chain{state = s, step = function(x) x.n = x.n + 1 x.self = x end,
  stop = function(x) return x.n >= 2 end}.n'
expect 1 "(command line):2: umpire.odds.chain: the state left by the step defined at (command line):2: state.self: this table appears twice" run -e "$chain"
cp "$work/err" "$work/err_run"
expect 1 "(odds script):2: umpire.odds.chain: the state left by the step defined at (odds script):2: state.self: this table appears twice" odds -e "$chain"
grep -o ":2: state.self: this table.*" "$work/err_run" > "$work/m_run"; grep -o ":2: state.self: this table.*" "$work/err" > "$work/m_odds"
{ [ -s "$work/m_run" ] && cmp -s "$work/m_run" "$work/m_odds"; } || { echo "FAIL: run and odds refuse a step's cyclic state differently"; cat "$work/err_run" "$work/err"; fail=1; }
expect 1 "umpire.odds.chain: the state left by the step defined at (command line):3: state.f: a function cannot be part of the game state" \
  run -e 'return umpire.odds.chain{state = {n = 0},
  first = function(x) return {n = 1} end,
  step = function(x) x.n = x.n + 1 x.f = print end, stop = function(x) return x.n >= 2 end}.n'
expect 1 "the state left by the step defined at (odds script):1: state.n: NaN cannot be part of the game state" \
  odds --no-fold -e 'return umpire.odds.chain{state = {n = 0}, first = function(x) x.n = 0/0 end, step = print, max_steps = 0}.n'
# A data file listed twice (`[d, ./d]`) was loaded once without a word, as a module listed twice was.
mkdir -p "$work/twice_data/data"
printf 'x: 1\n' > "$work/twice_data/data/d.yaml"
printf 'name: twice_data\ndata:\n  - d\n  - ./d\n' > "$work/twice_data/ruleset.yaml"
expect 1 "twice_data/ruleset.yaml:4:5: data file './d' is listed twice in 'data' (entries 1 and 2 name the same file)" \
  run --ruleset "$work/twice_data" -e 'return 1'
printf 'name: twice_data\ndata: [d, data/d.yaml]\n' > "$work/twice_data/ruleset.yaml"
expect 1 "twice_data/ruleset.yaml:2:11: data file 'data/d.yaml' is listed twice in 'data' (entries 1 and 2" \
  run --ruleset "$work/twice_data" -e 'return 1'
# A NUL written as an escape in a manifest (read by yaml-cpp) was taken, where a data file's is refused.
mkdir -p "$work/nul_manifest"
printf 'name: "a\\u0000b"\n' > "$work/nul_manifest/ruleset.yaml"
expect 1 "nul_manifest/ruleset.yaml:1:9: control characters are not allowed (0x00, written as an escape)" \
  run --ruleset "$work/nul_manifest" -e 'return 1'
printf 'name: nul_manifest\nturn_sequence:\n  - "ok"\n  - "x\\0"\n' > "$work/nul_manifest/ruleset.yaml"
expect 1 "nul_manifest/ruleset.yaml:4:7: control characters are not allowed (0x00, written as an escape)" \
  run --ruleset "$work/nul_manifest" -e 'return 1'
printf 'name: nul_manifest\nversion: "\\\\0 is text"\n' > "$work/nul_manifest/ruleset.yaml"
[ "$("$umpire" run --ruleset "$work/nul_manifest" -e 'return 1' 2> "$work/err")" = 1 ] ||
  { echo "FAIL: an escaped backslash before 0 in a manifest"; cat "$work/err"; fail=1; }
# An odds result refused (NaN, a function) named neither the script nor, in a sweep, the cell.
printf 'local n = umpire.args.n\nlocal x = umpire.dice.d(2)\nreturn n == 2 and 0/0 or x\n' > "$work/nan_cell.lua"
expect 1 "cell 1 (n=2): $work/nan_cell.lua:3: the script's result is NaN" sweep "$work/nan_cell.lua" --grid n=1..3 --jsonl "$work/s.jsonl"
expect 1 "$work/nan_cell.lua:3: the script's result is NaN" odds --set n=2 "$work/nan_cell.lua"
expect 1 "(odds script):2: field 'f' of the script's result is a function" odds -e 'local x = umpire.dice.d(2)
return {f = print}'
printf 'if umpire.dice.d(2) == 1 then\n  return print\nend\nreturn 1\n' > "$work/two_returns.lua"
expect 1 "$work/two_returns.lua: the script's result is a function" odds --monte-carlo --samples 100 "$work/two_returns.lua"

# Session 36 (h4). An odds script returning NaN or an infinity: the exact report's mean is a
# rational, and GMP's mpq_set_d raised SIGFPE on it (rc 136 with --no-isolate, "the rules' worker
# process crashed" in the worker); Monte Carlo printed a "nan" outcome and a mean of -nan.
for mode in "" --no-isolate; do
  expect 1 "the script's result is NaN: an odds script's numbers must be finite" odds $mode -e 'return 0/0'
done
expect 1 "field 'a' of the script's result is inf: an odds script's numbers must be finite" odds \
  -e 'return {a = umpire.dice.d(3) == 1 and 1/0 or 2}'
expect 1 "the script's result is -inf" odds --monte-carlo --samples 1000 -e 'return -1/0'

# Two chain steps defined on one line (or loaded under one chunk name), called at one call site:
# the fold cache knew a function by its source and first line only, so the second chain answered
# with the first's end states (b in {1, 2} instead of {10, 20}).
printf '%s\n' 'local steps = {function(s) s.n = s.n + umpire.dice.d(2) end, function(s) s.n = s.n + 10 * umpire.dice.d(2) end}' \
  'local r = {}' 'for i = 1, 2 do r[i] = umpire.odds.chain{state = {n = 0}, step = steps[i], max_steps = 1}.n end' \
  'return {a = r[1], b = r[2]}' > "$work/steps.lua"
printf '%s\n' 'local a = load("return function(s) s.n = s.n + umpire.dice.d(2) end")()' \
  'local b = load("return function(s) s.n = s.n + 10 * umpire.dice.d(2) end")()' \
  'local r = {}' 'for i, f in ipairs{a, b} do r[i] = umpire.odds.chain{state = {n = 0}, step = f, max_steps = 1}.n end' \
  'return {a = r[1], b = r[2]}' > "$work/loaded_steps.lua"
for script in steps loaded_steps; do
  "$umpire" odds "$work/$script.lua" > "$work/out" 2>&1
  [ "$(grep -cE '^a=[12] b=(10|20) +1/4' "$work/out")" = 4 ] || { echo "FAIL: two steps on one line ($script):"; cat "$work/out"; fail=1; }
done

# An error whose text holds a "line" past int: std::stoi threw, and the error became "umpire: stoi",
# its own text and place lost.
expect 1 "umpire: a:99999999999999999999: b" run -e 'error("a:99999999999999999999: b", 0)'
expect 1 "umpire: (command line):1: x.lua:99999999999999999999: b" run \
  -e 'umpire.bus.on("x", function() error("x.lua:99999999999999999999: b", 0) end) umpire.bus.emit("x", {})'

# An error raised in rule code a binding called (a bus handler) was prefixed with the caller's
# place once per level: a handler emitting its own event read "(command line):1: " 65 times.
expect 1 "umpire: (command line):1: event recursion limit (64) exceeded raising 'x'" run \
  -e 'umpire.bus.on("x", function() umpire.bus.emit("x", {}) end) umpire.bus.emit("x", {})'
expect 1 "umpire: (command line):1: boom" run -e 'umpire.bus.on("x", function() error("boom") end) umpire.bus.emit("x", {})'

# `check` typed the scalars of a manifest, data file or scenario with std::regex, which recursed
# once per character (a version of 300 000 digits crashed the worker: SIGSEGV), and std::stod
# threw "stod", naming no file, for 1e999.
mkdir -p "$work/numbers/data"
printf 'x: 1\n' > "$work/numbers/data/d.yaml"
printf 'name: numbers\ndata: [d]\nversion: 1e999\n' > "$work/numbers/ruleset.yaml"
"$umpire" check --ruleset "$work/numbers" > "$work/out" 2>&1
grep -qF "numbers/ruleset.yaml:3:10: version: number out of range: 1e999 (quote it to keep it as text)" "$work/out" ||
  { echo "FAIL: check of a manifest's 1e999:"; cat "$work/out"; fail=1; }
python3 -c "print('name: numbers\ndata: [d]\nversion: ' + '1' * 300000)" > "$work/numbers/ruleset.yaml"
"$umpire" check --ruleset "$work/numbers" > "$work/out" 2>&1
[ $? = 1 ] && grep -qF "numbers/ruleset.yaml:3:10: version: number out of range: 1111111111111111111111111111111111111..." "$work/out" ||
  { echo "FAIL: check of a manifest's 300 000 digits:"; cat "$work/out"; fail=1; }

# A ruleset's own JSON Schema (named by a data file's modeline) is a stranger's input to `check`:
# a $ref to itself recursed until the stack ran out, a pattern over a long string overflowed
# std::regex's recursion, a backtracking pattern ran for ever, a schema nested 20 000 deep crashed
# (and took 490 MB of paths), a pattern of 100 000 nested parentheses crashed its compiler, and a
# keyword of the wrong kind ("type": 5) threw nlohmann's own message, naming no file.
mkdir -p "$work/schema/data" "$work/schema/schemas"
printf 'name: schema\ndata: [d]\n' > "$work/schema/ruleset.yaml"
schema_case() {  # schema_case JSON DATA_VALUE EXPECTED_TEXT
  printf '%s\n' "$1" > "$work/schema/schemas/d.schema.json"
  printf '# yaml-language-server: $schema=../schemas/d.schema.json\nx: %s\n' "$2" > "$work/schema/data/d.yaml"
  timeout 60 "$umpire" check --ruleset "$work/schema" > "$work/out" 2>&1
  local rc=$?
  [ "$rc" = 1 ] && grep -qF -- "$3" "$work/out" || { echo "FAIL: check with the schema $1 -> rc $rc:"; head -c 2000 "$work/out"; fail=1; }
}
schema_case '{"definitions": {"a": {"$ref": "#/definitions/a"}}, "$ref": "#/definitions/a"}' hello \
  "schema/data/d.yaml:2:1: the schema's \$ref '#/definitions/a' leads back to itself"
schema_case '{"definitions": {"a": {"anyOf": [{"$ref": "#/definitions/b"}]}, "b": {"$ref": "#/definitions/a"}}, "$ref": "#/definitions/a"}' hello \
  "leads back to itself"
schema_case '{"properties": {"x": {"pattern": "^[a-z]+$"}}, "required": ["y"]}' "$(printf 'a%.0s' $(seq 200000))" \
  "schema/data/d.yaml:2:1: missing required key 'y'"
schema_case '{"properties": {"x": {"pattern": "^(a|aa)*b$"}}}' aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \
  "x: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' does not match ^(a|aa)*b\$"
schema_case "$(python3 -c "print('{\"items\": ' * 20000 + '{}' + '}' * 20000)")" hello "the schema is nested deeper than 64 levels"
schema_case "{\"pattern\": \"$(python3 -c "print('(' * 100000 + ')' * 100000)")\"}" hello "pattern: a pattern of more than 1000 bytes"
schema_case '{"pattern": "(a)\\1"}' hello "pattern: bad regular expression: Unexpected back-reference"
schema_case '{"type": 5}' hello "schema/schemas/d.schema.json: type: must be a type name or a list of them"
schema_case '{"minItems": -1}' hello "minItems: must be a whole number from 0"
schema_case '{"required": "x"}' hello "required: must be a list of key names"

# `new house-rule --extends` reads the parent's modules for their function names with std::regex,
# which recursed once per character: a parent module with a line of 300 000 spaces crashed the
# command (SIGSEGV).
mkdir -p "$work/spaces/rules"
printf 'name: spaces\nmodules: [m]\n' > "$work/spaces/ruleset.yaml"
python3 -c "print('local M = {}\n' + ' ' * 300000 + 'function M.fire() end\nreturn M')" > "$work/spaces/rules/m.lua"
"$umpire" new house-rule spaces-house --extends spaces --ruleset "$work" --dir "$work" > "$work/out" 2>&1 &&
  grep -q "fire" "$work/spaces-house/rules/m.lua" || { echo "FAIL: new house-rule over a module with a long line:"; cat "$work/out"; fail=1; }

# The manifest took a key given twice without a word (yaml-cpp keeps both; the first `name:` was
# read), and the C++ readers' YAML (the manifest, `check`, scenario drawings) said only "bad file"
# for nesting past yaml-cpp's own guard (500 levels; the data loader's 64 apply where they convert).
mkdir -p "$work/twice"
printf 'name: twice\nname: other\n' > "$work/twice/ruleset.yaml"
expect 1 "twice/ruleset.yaml:2:1: duplicate key 'name' (first defined at line 1)" run --ruleset "$work/twice" -e 'return 1'
printf 'name: twice\nturn_sequence: {a: 1, b: {a: 2, a: 3}}\n' > "$work/twice/ruleset.yaml"
expect 1 "twice/ruleset.yaml:2:33: duplicate key 'a' (first defined at line 2)" run --ruleset "$work/twice" -e 'return 1'
python3 -c "print('name: twice\nversion: ' + '[' * 100000 + ']' * 100000)" > "$work/twice/ruleset.yaml"
expect 1 "twice/ruleset.yaml:2:409: nested deeper than 400 levels" run --ruleset "$work/twice" -e 'return 1'

# Spec files: eq() of tables holding a cycle, or nested 100 000 deep, ran out of stack and named
# "(spec api):23" instead of the test's line; a test() declared inside a running test never ran,
# and the test around it passed.
mkdir -p "$work/specs/tests"
printf 'name: specs\n' > "$work/specs/ruleset.yaml"
spec_case() {  # spec_case CODE EXPECTED_TEXT
  printf '%s\n' "$1" > "$work/specs/tests/t.lua"
  "$umpire" test --ruleset "$work/specs" > "$work/out" 2>&1
  grep -qF -- "$2" "$work/out" || { echo "FAIL: spec $1:"; cat "$work/out"; fail=1; }
}
spec_case 'test("c", function() local a = {v = 1} a.a = a local b = {v = 2} b.a = b eq(a, b) end)' \
  "specs/tests/t.lua:1: expected {a=<cycle>, v=2}, got {a=<cycle>, v=1}"
spec_case 'test("c", function() local a = {} a.a = a local b = {} b.a = b eq(a, b) end)' "1 passed, 0 failed"
spec_case 'test("d", function() local a, b = {}, {} local x, y = a, b for i = 1, 100000 do x.x, y.x = {}, {} x, y = x.x, y.x end eq(a, b) end)' \
  "specs/tests/t.lua:1: tables nested deeper than 100 levels cannot be compared"
spec_case 'test("o", function() test("i", function() error("x") end) end)' \
  "specs/tests/t.lua:1: test(name, fn) inside a running test: it would never run"

# Text that is not UTF-8 reached JSON unchecked: umpire.note("\255") (or cite, an event's name,
# umpire.result's data, umpire.state) ended the run with nlohmann's "[json.exception.type_error.316]
# invalid UTF-8 byte at index 0: 0xFF", naming nothing, and the journal or state was not written; a
# manifest's `name: "y\xff"` was taken as the ruleset's name. And umpire.cite's errors named its
# Lua front ("umpire.cite:6") instead of the rule code's line.
expect 1 "umpire: (command line):1: journal: the entry's text is not UTF-8 text (byte 0xFF at offset 0)" run \
  --journal "$work/j.json" -e 'umpire.note("\255")'
expect 1 "umpire: (command line):2: journal: the entry's text is not UTF-8 text (byte 0xFF at offset 1)" run \
  --journal "$work/j.json" -e 'local x = 1
umpire.cite("A1", "x\255")'
expect 1 "umpire: (command line):1: journal: a text in the entry's data is not UTF-8 text" run \
  --journal "$work/j.json" -e 'umpire.bus.emit("e\255", {})'
expect 1 "umpire: (command line):1: state.a.b: a text that is not UTF-8 (byte 0xFF at offset 1)" run \
  --journal "$work/j.json" -e 'umpire.result("r", {a = {b = "x\255"}})'
expect 1 "umpire: state.x: a text that is not UTF-8 (byte 0xFF at offset 0)" run --save-state "$work/state.json" \
  -e 'umpire.state.x = "\255"'
expect 1 "umpire: (command line):1: bad argument #1 to 'cite' (string expected, got table)" run -e 'umpire.cite({})'
mkdir -p "$work/notutf8"
printf 'name: "y\xff"\n' > "$work/notutf8/ruleset.yaml"
expect 1 "notutf8/ruleset.yaml:1:9: malformed UTF-8 (byte 0xFF)" run --ruleset "$work/notutf8" -e 'return 1'

# serve: a page whose error message (or printed text) is not UTF-8 was lost: the worker's strict
# dump threw, and the page said "the page's worker process ended without a page".
printf 'error("bad \\255 byte", 0)\n' > "$work/notutf8.lua"
"$umpire" serve "$work/notutf8.lua" --port 0 > "$work/serve.out" 2>&1 &
serve_pid=$!
for _ in $(seq 100); do grep -q 'http://127.0.0.1:' "$work/serve.out" && break; sleep 0.1; done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/serve.out" | head -1)
page=""
for _ in $(seq 50); do
  page=$(curl -s -H "Host: 127.0.0.1:$port" "http://127.0.0.1:$port/api/page")
  case "$page" in *'"status":"computing"'*|"") sleep 0.1 ;; *) break ;; esac
done
kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null
case "$page" in *'"message":"bad'*'byte"'*) ;; *) echo "FAIL: serve of an error that is not UTF-8: $page"; cat "$work/serve.out"; fail=1 ;; esac

# Session 37 (h1). Each check fails on the binary before its fix (docs/sandbox.md, "The attack suite").
# umpire.odds.write_back wrote raw into any table: into a read-only view it put the key in the view's
# own table, where it shadowed the library's field for every ruleset of the Lua state and every later
# run. A module of a second ruleset replaced string.format and umpire.cite under asl.
mkdir -p "$work/wb/rules"
printf 'name: wb\nmodules: [evil]\n' > "$work/wb/ruleset.yaml"
printf 'umpire.odds.write_back(string, {format = function() return "EVIL" end})\nreturn {}\n' > "$work/wb/rules/evil.lua"
expect 1 "wb/rules/evil.lua:1: umpire.odds.write_back: this table is a read-only view" run \
  --ruleset "$src/rulesets/asl" --ruleset "$work/wb" -e 'return string.format("%d", 5)'
expect 1 "(command line):1: umpire.odds.write_back: this table is a read-only view" run -e 'umpire.odds.write_back(umpire, {cite = print})'
expect 1 "(command line):1: umpire.odds.write_back: umpire.data is read-only" run --ruleset "$src/rulesets/asl" \
  -e 'umpire.odds.write_back(umpire.data.ift, {})'
# LuaJIT's table.insert is raw too: a key left in a view passed a value to the next run (and ruleset).
expect 1 "(command line) changed umpire[1] (the libraries and umpire are read-only views" run -e 'table.insert(umpire, "left")'
printf 'table.insert(math, 1)\nreturn {}\n' > "$work/wb/rules/evil.lua"
expect 1 "loading the rules changed math[1] (the libraries and umpire are read-only views" run \
  --ruleset "$src/rulesets/asl" --ruleset "$work/wb" -e 'return 1'
spec_case 'test("a", function() table.insert(umpire, "left by a") end) test("b", function() eq(umpire[1], nil) end)' \
  "1 passed, 1 failed"
grep -qF "the test changed umpire[1]" "$work/out" || { echo "FAIL: a key left in a view by a spec test:"; cat "$work/out"; fail=1; }
# umpire.hooks kept its handlers and event names on the C++ heap, outside the cap: 3000 events of
# 1 MiB names ran the worker out of its 2 GiB address space after 18 s (with --no-isolate, without end).
# Under a cap of 32 MiB, names of 64 KiB: the refusal counts C++ memory (before, the Lua strings alone
# reached the cap, and the message said nothing of C++ memory).
expect 1 "C++ memory" run --memory 256 --timeout 0 \
  -e 'local big = ("x"):rep(2^16) for i = 1, 30000 do umpire.hooks.on(big .. i, print) end'
# A string argument read as a C string ended at its first NUL: "2d6\0+100" rolled 2d6, the events
# "e\0a" and "e\0b" were one, and a citation's text lost what followed the NUL.
expect 1 "(command line):1: the dice expression holds the control byte 0x00 at column 4" run -e 'return umpire.dice.roll("2d6\0+100")'
expect 1 "(command line):1: the hex name holds the control byte 0x00 at column 3" run -e 'return umpire.hex.asl("K8\0x")'
expect 1 "umpire: no handler ran" run \
  -e 'umpire.bus.on("e\0a", function() error("the handler of e\\0a ran for e\\0b") end) umpire.bus.emit("e\0b", {}) error("no handler ran", 0)'
# Spec API: assert_near passed for a NaN on either side (NaN > tolerance is false), and pick(0) of
# seeded_random was NaN, pick(-3) -1.
spec_case 'test("n", function() assert_near(0/0, 0.5) end)' "specs/tests/t.lua:1: expected 0.5 (+-1e-09), got nan"
spec_case 'test("p", function() local pick = seeded_random(7) pick(0) end)' \
  "specs/tests/t.lua:1: seeded_random: pick(n) takes a whole number n from 1 to 2147483646, got 0"
# umpire.table.in_arc with a facing of NaN (or an infinity) answered false without a word.
expect 1 "(command line):1: arc facing must be a finite number of degrees, got -nan" run \
  -e 'return umpire.table.in_arc({x = 0, y = 0}, 0/0, 45, {x = 1, y = 0})'
# A data file named scenario was lost under umpire.data.scenario, the host's function.
mkdir -p "$work/scen/data"
printf 'name: scen\ndata: [scenario]\n' > "$work/scen/ruleset.yaml"
printf 'a: 1\n' > "$work/scen/data/scenario.yaml"
expect 1 "scen/data/scenario.yaml:1:1: a data file cannot be named 'scenario'" run --ruleset "$work/scen" -e 'return 1'
# An argument too long for a file name: `odds` aborted (SIGABRT, an uncaught filesystem_error), the
# others said "umpire: filesystem error: status: File name too long [...]".
long=$(printf 'a%.0s' $(seq 5000))
expect 2 "umpire odds: bad dice expression 'aaaa" odds "$long"
expect 1 "umpire: ruleset 'aaaa" run --ruleset "$long" -e 'return 1'
expect 1 "umpire: no scenario file 'aaaa" draw "$long"
# new house-rule copied the JSON file a parent's data modeline names, wherever it was, into the
# house rule's schemas/ (a parent's `$schema=../../../.docker/config.json`: its tokens).
mkdir -p "$work/search/hostile/data" "$work/secret"
printf '{"auths": {"r": {"auth": "TOKEN"}}, "type": "object"}\n' > "$work/secret/config.json"
printf 'name: hostile\nversion: 1.0.0\ndata: [units]\n' > "$work/search/hostile/ruleset.yaml"
printf '# yaml-language-server: $schema=../../../secret/config.json\na: 1\n' > "$work/search/hostile/data/units.yaml"
expect 1 "lies outside the ruleset's folders and the shipped schemas: not read" new house-rule mine --extends hostile \
  --ruleset "$work/search" --dir "$work/made"
if grep -rqs TOKEN "$work/made"; then echo "FAIL: new house-rule copied a file outside the parent"; fail=1; fi
# A pipeline's overflow named nothing (": total overflows int64"), and umpire.bus.total_of's errors
# named fast_modifiers.lua's lines.
expect 1 "(command line):1: IFT DRM: total overflows int64" run \
  -e 'local m = umpire.bus.modifiers("IFT DRM") m:start(2^53) m:multiply(2^53) local t = m:total() return t'
expect 1 "(command line):2: ModifierPipeline:add: a whole number from -2^53 to 2^53 expected, got 0.5" run \
  -e 'local x
local t = umpire.bus.total_of("x", {{value = 0.5}}) return t'

# Session 38: the minor defects session 37's attacks left open.
# A pattern bomb inside the spec API's raises() was named at the spec API's own line, "(spec api):89".
printf 'test("r", function()\n  raises(function() error(("a"):rep(3000), 0) end, ".-.-.-.-.-b")\nend)\n' > "$work/specs/tests/t.lua"
"$umpire" test --timeout 1 --ruleset "$work/specs" > "$work/out" 2>&1
grep -qF "specs/tests/t.lua:2: in string.find: script stopped: killed at the wall-clock limit of 1 s" "$work/out" ||
  { echo "FAIL: a pattern bomb in raises() not named at the test's line:"; cat "$work/out"; fail=1; }
# A distribution computed for longer than the limit was named by its chunk alone, "(command line):".
expect 1 "(command line):2: in umpire.dice.dist: script stopped: killed at the wall-clock limit of 1 s" \
  run --timeout 1 -e 'local x = 1
return umpire.dice.dist("1000d1000000!>=2{100}")'
# (d14000 + d14000 is 2e8 additions, under the refusal's 2e8: seconds)
expect 1 "(command line):2: in a distribution's +: script stopped: killed at the wall-clock limit of 0.5 s" \
  run --timeout 0.5 -e 'local d = umpire.dice.dist("d14000")
return (d + d):mean()'
# A pipeline's method called with a self that is no pipeline failed inside fast_modifiers.lua.
expect 1 "(command line):2: ModifierPipeline:add: called on a table value, not a pipeline (write m:add(...), with a colon)" \
  run -e 'local m = umpire.bus.modifiers("IFT DRM")
m.add({}, 1)'
expect 1 "(command line):1: ModifierPipeline:total: called on a nil value" run -e 'local m = umpire.bus.modifiers("x") local t = m.total() return t'
expect 1 "(command line):1: ModifierPipeline:steps: called on a table value" run -e 'local m = umpire.bus.modifiers("x") local s = m.steps({}) return s'
# Outcomes that print alike (5 and "5", true and "true") were two rows of the same text.
"$umpire" odds -e 'local d = umpire.dice.d(4) if d == 1 then return 5 elseif d == 2 then return "5" elseif d == 3 then return true end return "true"' \
  > "$work/out" 2>&1
for row in '^5 ' '^"5" ' '^true ' '^"true" '; do
  grep -q -- "$row" "$work/out" || { echo "FAIL: no row $row in the odds report:"; cat "$work/out"; fail=1; }
done
# `run -e 'return 1/0'` printed null; --json gave null too.
[ "$("$umpire" run -e 'return 1/0, -1/0, 0/0, "x"')" = "$(printf 'inf\t-inf\tnan\tx')" ] ||
  { echo "FAIL: run does not print inf, -inf and nan as Lua does"; fail=1; }
"$umpire" run --json -e 'return 1/0, -1/0, 0/0, {1/0}' > "$work/out" &&
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["returned"]; sys.exit(r != ["Infinity", "-Infinity", "NaN", ["Infinity"]])' "$work/out" ||
  { echo "FAIL: run --json does not write inf, -inf and nan as Infinity, -Infinity, NaN:"; cat "$work/out"; fail=1; }
# sweep --csv wrote a text cell starting with = (or +, -, @) as it was: a formula in a spreadsheet.
printf 'local d = umpire.dice.d(3)\nif d == 1 then return "=HYPERLINK(\\"http://x\\")" elseif d == 2 then return -1 end\nreturn umpire.args.s\n' \
  > "$work/inject.lua"
"$umpire" sweep "$work/inject.lua" --grid 's=@SUM(1),plain' --csv "$work/out.csv" > /dev/null 2>&1 ||
  { echo "FAIL: sweep of $work/inject.lua"; fail=1; }
for cell in ",'@SUM(1),outcome,P,'@SUM(1)," ",\"'=HYPERLINK(\"\"http://x\"\")\"," ",outcome,P,-1,"; do
  grep -qF -- "$cell" "$work/out.csv" || { echo "FAIL: no cell $cell in the CSV:"; cat "$work/out.csv"; fail=1; }
done
if grep -q ',=\|,"=\|,@' "$work/out.csv"; then echo "FAIL: a CSV cell starts with = or @:"; cat "$work/out.csv"; fail=1; fi
# error(m, 2) in a function reached by a tail call from the chunk had no place at all.
expect 1 "umpire: (command line):2: not a number" run -e 'local function check(x) if type(x) ~= "number" then error("not a number", 2) end end
return check("x")'
expect 1 "umpire: (command line):1: deliberate" run -e 'local function check() error("deliberate", 2) end local function f() check() end f()'
expect 1 "umpire: no place" run -e 'local function check() error("no place", 0) end return check()'
# Session 38 (h2). The fold's cache found a chain again by its call site, state and a fingerprint of
# its functions, which left out the globals a step reads: a step reading `bonus`, set from a die
# before the chain, was given the first path's end states on every path (exact 11 and 12 at 1/2
# each; 11, 12, 21, 22 at 1/4 is right). Each script's exact odds must equal those of --no-fold (the
# chain run path by path, no cache; it reports no truncated mass).
fold_case() {  # fold_case NAME ARGS...: odds ARGS, folded and not, must print the same table
  local name="$1"; shift
  "$umpire" odds "$@" 2>&1 | grep -v 'paths evaluated\|^truncated:' > "$work/folded"
  "$umpire" odds --no-fold "$@" 2>&1 | grep -v 'paths evaluated\|^truncated:' > "$work/unfolded"
  if ! grep -q '^21 ' "$work/unfolded" || ! cmp -s "$work/folded" "$work/unfolded"; then
    echo "FAIL: $name: folded and unfolded odds differ:"; diff "$work/folded" "$work/unfolded"; fail=1
  fi
}
chain='local s = umpire.odds.chain{state = {t = 0}, max_steps = 1, step = '
fold_case "a global" -e "bonus = umpire.dice.d(2) ${chain}function(s) s.t = s.t + bonus * 10 + umpire.dice.d(2) end} return s.t"
fold_case "a global read by a global function" \
  -e "function b() return bonus end bonus = umpire.dice.d(2) ${chain}function(s) s.t = s.t + b() * 10 + umpire.dice.d(2) end} return s.t"
fold_case "a global read by stop" -e "bonus = umpire.dice.d(2) local s = umpire.odds.chain{state = {t = 0}, max_steps = 3,
  step = function(s) s.t = s.t + 9 + umpire.dice.d(2) end, stop = function(s) return s.t >= bonus * 10 end} return s.t"

# Session 38 (h2). An odds outcome and a field name were read up to their first NUL: "x\0y" and
# "x\0z" were counted as one outcome "x" (probability 1), and two field names as one field; and an
# outcome that is not UTF-8 ended `odds --json` in "umpire: [json.exception.type_error.316] ...".
expect 1 "(odds script):1: the script's result \"x\\x00y\" holds a NUL byte at offset 1" odds \
  -e 'if umpire.dice.d(2) == 1 then return "x\0y" end return "x\0z"'
expect 1 "(odds script):1: a field name of the script's result \"a\\x00" odds \
  --monte-carlo --samples 100 -e 'if umpire.dice.d(2) == 1 then return {["a\0b"] = 1} end return {["a\0c"] = 1}'
expect 1 "(odds script):1: the script's result \"\\xFF\" is not UTF-8 text (byte 0xFF at offset 0)" odds --json -e 'return "\255"'
expect 1 "(odds script):1: field 'a' of the script's result \"b\\xC3\" is not UTF-8 text (byte 0xC3 at offset 1)" odds \
  -e 'return {a = "b\195"}'

# Session 38 (h2). A game state's boolean key was named as nothing: "the boolean key  cannot be saved".
expect 1 "state.x: the boolean key true cannot be saved" run --save-state "$work/saved.json" -e 'umpire.state.x = {[true] = 1}'

# Session 38 (h2). `sweep merge` took a shard line's cell as it came: -1 was read as 2^64 - 1 and merged
# in place of the missing cell 1 (status 0), and a cell given as text ended in
# "umpire: [json.exception.type_error.302] ...", naming no file.
printf 'return umpire.args.n + umpire.dice.d(2)\n' > "$work/sweep.lua"
"$umpire" sweep "$work/sweep.lua" --grid n=1,2 --shard 1/2 --jsonl "$work/shard1.jsonl" > /dev/null 2>&1
"$umpire" sweep "$work/sweep.lua" --grid n=1,2 --shard 2/2 --jsonl "$work/shard2.jsonl" > /dev/null 2>&1
sed 's/"cell":1,/"cell":-1,/' "$work/shard2.jsonl" > "$work/bad1.jsonl"
sed 's/"cell":1,/"cell":"1",/' "$work/shard2.jsonl" > "$work/bad2.jsonl"
expect 1 "bad1.jsonl:1: not a line of \`umpire sweep\`: \"cell\" must be a whole number below \"cells\" (got cell -1, cells 2)" \
  sweep merge "$work/shard1.jsonl" "$work/bad1.jsonl" --csv "$work/merged.csv"
expect 1 "bad2.jsonl:1: not a line of \`umpire sweep\`: \"cell\" must be a whole number below \"cells\" (got cell \"1\", cells 2)" \
  sweep merge "$work/shard1.jsonl" "$work/bad2.jsonl" --csv "$work/merged.csv"
"$umpire" sweep merge "$work/shard1.jsonl" "$work/shard2.jsonl" --csv "$work/merged.csv" 2> "$work/err" ||
  { echo "FAIL: sweep merge of good shards:"; cat "$work/err"; fail=1; }

# Session 38 (lead): a chain's max_steps or epsilon given as text was read as the number it spells.
expect 1 "'max_steps' must be a whole number from 0 to 1000000" run \
  -e 'return umpire.odds.chain({state = {n = 0}, step = function(s) return {n = s.n + 1} end, max_steps = "3"})'
expect 1 "'epsilon' must be a number in [0, 1)" run \
  -e 'return umpire.odds.chain({state = {n = 0}, step = function(s) return {n = s.n + 1} end, max_steps = 3, epsilon = "0"})'
# A fold's messages named the chain's place with luaL_where's separator and then their own
# ("at (odds script):1: : more than ...", "at (odds script):1:  is not a function ...").
# Its states were shown as two JSON texts on two lines ('{"n":2}' newline '{}'): one line now.
expect 1 "(odds script):1: the step of umpire.odds.chain at (odds script):1 is not a function of its state and dice: from the same state and dice it reached {\"n\":2} where it reached {\"n\":1} before" odds \
  -e 'local k = 0 return umpire.odds.chain{state = {n = 0}, max_steps = 2, step = function(s) k = k + 1 s.n = s.n + k end}.n'
expect 1 "it reached {\"n\":1} with umpire.state {\"k\":2} where it reached {\"n\":1} with umpire.state {\"k\":1} before" odds \
  -e 'local k = 0 return umpire.odds.chain{state = {n = 0}, max_steps = 2, step = function(s) k = k + 1 s.n = s.n + 1 umpire.state.k = k end}.n'

# A binding reached by the chunk's tail call was named '?' (the name is looked up in umpire's
# tables too now, as it was in the standard libraries).
expect 1 "(command line):2: bad argument #2 to 'distance' (hex expected" run -e 'local h = umpire.hex.asl("K8")
return umpire.hex.distance(h, 3)'

exit $fail
