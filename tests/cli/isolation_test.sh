#!/usr/bin/env bash
# Process isolation through the command (docs/sandbox.md, "Out of process"): the attacks that
# only the worker process stops, each with its exit status and message, and the command (the
# parent) alive afterwards: a pattern bomb killed at the wall clock with its file and line, the
# memory cap following --memory (its error with the file and line), the outputs (--journal,
# --save-state, --svg) written by the parent, and `watch` going on after its worker was killed
# mid-run, with the game state of the last finished run. (That a worker out of address space is
# an error naming --memory is tested in test_host "[isolation]": memory the cap does not count
# cannot reach seven times the cap through the command.)
# Usage: isolation_test.sh UMPIRE SOURCE_DIR [asan]   (asan: the build sets no RLIMIT_AS)
set -uo pipefail
umpire="$1"; src="$2"; asan="${3:-}"
work=$(mktemp -d)
watcher=""
trap '[ -n "$watcher" ] && kill "$watcher" 2>/dev/null; rm -rf "$work"' EXIT
fail=0

. "$(dirname "$0")/lib.sh"  # expect, wait_for

bomb='local found = ("a"):rep(3000):find(".-.-.-.-.-b") return found'  # not a tail call: it keeps its line
expect 1 "(command line):1: in string.find: script stopped: killed at the wall-clock limit of 1 s (--timeout)" \
  run --timeout 1 -e "$bomb"
printf '%s\n' "$bomb" > "$work/bomb.lua"
expect 1 "bomb.lua:1: in string.find: script stopped: killed at the wall-clock limit of 1 s" odds --timeout 1 "$work/bomb.lua"
# A bomb in a tail call is placed on the line of the tail call, not on the line that called the
# function making it (LuaJIT keeps no frame of it; host/LuaHost.cpp, push_tail_caller_where):
# through a local, an upvalue and a global. Before, these said tail.lua:5, up.lua:5 and g.lua:3.
printf 'local function probe(s)\n  local x = 1\n  return s:find(".-.-.-.-.-b")\nend\nlocal found = probe(("a"):rep(3000))\nreturn found\n' > "$work/tail.lua"
expect 1 "tail.lua:3: in string.find: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/tail.lua"
printf 'local function probe(s)\n  return s:gsub(".-.-.-.-.-b", "")\nend\nlocal function outer(s)\n  local r = probe(s)\n  return r\nend\nreturn outer(("a"):rep(3000))\n' > "$work/up.lua"
expect 1 "up.lua:2: in string.gsub: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/up.lua"
printf 'local s = ("a"):rep(3000)\nprobe = function(t) return t:match(".-.-.-.-.-b") end\nlocal found = probe(s)\nreturn found\n' > "$work/g.lua"
expect 1 "g.lua:2: in string.match: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/g.lua"
expect 1 "up.lua:2: in string.gsub: script stopped: ran longer than 1s inside a C function" run --no-isolate --timeout 1 "$work/up.lua"
# The cases session 29 left at the calling line (host/TailCallWhere.cpp; each said the calling
# line before, given in brackets): a tail-calling function reached as a method through a class's
# __index [method.lua:7] and as a field [field.lua:5]; one with tail calls on several lines, the
# bomb's callee told apart by the bytecode [lines.lua:7]; the inner step of a chain of tail calls
# [chain.lua:5]. Where the frame left nothing to tell the line by, the calling line names the
# function that made the tail call: two tail calls of string.find [both.lua:7], and a method of a
# temporary object, whose table the frame no longer holds [temp.lua:6].
printf 'local Class = {}\nClass.__index = Class\nfunction Class:probe(s)\n  return s:find(".-.-.-.-.-b")\nend\nlocal obj = setmetatable({}, Class)\nlocal found = obj:probe(("a"):rep(3000))\nreturn found\n' > "$work/method.lua"
expect 1 "method.lua:4: in string.find: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/method.lua"
printf 'local M = {}\nM.probe = function(s)\n  return s:match(".-.-.-.-.-b")\nend\nlocal found = M.probe(("a"):rep(3000))\nreturn found\n' > "$work/field.lua"
expect 1 "field.lua:3: in string.match: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/field.lua"
printf 'local function probe(s, n)\n  if n > 1 then\n    return tostring(n)\n  end\n  return s:gsub(".-.-.-.-.-b", "")\nend\nlocal r = probe(("a"):rep(3000), 0)\nreturn r\n' > "$work/lines.lua"
expect 1 "lines.lua:5: in string.gsub: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/lines.lua"
printf 'local function inner(s)\n  return s:find(".-.-.-.-.-b")\nend\nlocal function outer(s)\n  return inner(s)\nend\nlocal found = outer(("a"):rep(3000))\nreturn found\n' > "$work/chain.lua"
expect 1 "chain.lua:2: in string.find: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/chain.lua"
printf 'local function probe(s, plain)\n  if plain then\n    return s:find("b", 1, true)\n  end\n  return s:find(".-.-.-.-.-b")\nend\nlocal found = probe(("a"):rep(3000), false)\nreturn found\n' > "$work/both.lua"
expect 1 "both.lua:7: in a tail call from probe (defined at line 1) on line 3 or 5, in string.find: script stopped: killed at the wall-clock limit of 1 s" \
  run --timeout 1 "$work/both.lua"
printf 'local obj = {}\nfunction obj:probe(s)\n  return s:find(".-.-.-.-.-b")\nend\nlocal function get() return obj end\nlocal found = get():probe(("a"):rep(3000))\nreturn found\n' > "$work/temp.lua"
expect 1 "temp.lua:6: in a call of probe, in string.find: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/temp.lua"
expect 1 "chain.lua:2: in string.find: script stopped: ran longer than 1s inside a C function" run --no-isolate --timeout 1 "$work/chain.lua"
# A field of the pattern function's own name making the tail call (`M.find(s)` ending in
# `return s:find(p)`): its tail call's line [same.lua:5, the calling line, before]; and the direct
# `s:find(p)` next to it keeps its own line.
printf 'local M = {}\nfunction M.find(s)\n  return s:find(".-.-.-.-.-b")\nend\nlocal found = M.find(("a"):rep(3000))\nreturn found\n' > "$work/same.lua"
expect 1 "same.lua:3: in string.find: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/same.lua"
printf 'local M = {}\nfunction M.find(s)\n  return s:find(".-.-.-.-.-b")\nend\nlocal s = ("a"):rep(3000)\nlocal found = s:find(".-.-.-.-.-b")\nreturn found, M\n' > "$work/direct.lua"
expect 1 "direct.lua:6: in string.find: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/direct.lua"
# A direct call through a local alias is no tail call: its own line, as before.
printf 'local find = string.find\nlocal s = ("a"):rep(3000)\nlocal found = find(s, ".-.-.-.-.-b")\nreturn found\n' > "$work/alias.lua"
expect 1 "alias.lua:3: in string.find: script stopped: killed at the wall-clock limit of 1 s" run --timeout 1 "$work/alias.lua"
# Without the worker, the in-process watchdog ends the whole process (the old backstop).
expect 1 "script stopped: ran longer than 1s inside a C function that cannot be interrupted" \
  run --no-isolate --timeout 1 -e "$bomb"
# A loop the count hook reaches is still stopped in the worker, with its line, before the kill.
expect 1 "(command line):1: script stopped: ran longer than 1s (runaway loop?)" run --timeout 1 -e 'while true do end'

# The one memory cap follows --memory (an eighth of it: cli/Common.hpp, memory_cap), in the worker
# as in the command: a script growing memory under a small --memory meets the cap, whose error
# names the limit and the script's file:line, and not the address space (whose death names
# neither). Before, the cap stayed at 256 MiB whatever --memory said, and these ended in "the
# rules ran out of address space (limit 200 MiB, --memory)" (the first and second). The
# worker reports the error (exit 1, not a signal), so the command is alive to say it.
printf 'local l = nil\nwhile true do\n  l = {l}\nend\n' > "$work/grow.lua"
expect 1 "grow.lua:3: memory limit: the rules used more than 25 MiB of Lua memory" run --memory 200 "$work/grow.lua"
printf 'local t = {}\nfor i = 1, 1e9 do\n  t[i] = ("x"):rep(100) .. i\nend\n' > "$work/strings.lua"
expect 1 "strings.lua:3: memory limit: the rules used more than 25 MiB of Lua memory" run --memory 200 "$work/strings.lua"
expect 1 "(odds script):1: memory limit: the rules used more than 8 MiB of Lua memory" \
  odds --memory 64 -e 'local t = {} for i = 1, 1e8 do t[i] = i end return 1'
# A single allocation that jumps past the cap from below half gets the line that made it
# (host/LuaHost.cpp, note_refused_allocation): in run, in the worker and in-process, and in a spec
# test. Before, all three said "memory limit: ..." with no place.
printf 'local x = 1\nlocal s = ("x"):rep(1e8)\nreturn #s\n' > "$work/big.lua"
expect 1 "big.lua:2: memory limit: the rules used more than 25 MiB of Lua memory" run --memory 200 "$work/big.lua"
expect 1 "big.lua:2: memory limit: the rules used more than 25 MiB of Lua memory" run --no-isolate --memory 200 "$work/big.lua"
mkdir -p "$work/memrs/mem/tests"
printf 'name: mem\nversion: 0.1.0\ntests:\n  - tests/grow.lua\n' > "$work/memrs/mem/ruleset.yaml"
printf 'test("grows", function()\n  local s = ("x"):rep(1e8)\n  return s .. s\nend)\n' > "$work/memrs/mem/tests/grow.lua"
out=$("$umpire" test --memory 200 --ruleset "$work/memrs/mem" 2>&1)
grep -qF "tests/grow.lua:2: memory limit: the rules used more than 25 MiB" <<<"$out" \
  || { echo "FAIL: a memory error in a spec test names its line: $out"; fail=1; }
# A Monte Carlo run keeps a host per thread, each under its own cap: past four threads they share
# half of --memory (cli/Common.hpp, monte_carlo_cap). Before, eight threads under --memory 256 had
# 32 MiB each, the whole address space together; now 16 MiB each. A --threads whose share would
# fall under 8 MiB is refused as bad usage, naming how many fit.
expect 1 "(odds script):1: memory limit: the rules used more than 16 MiB of Lua memory" \
  odds --memory 256 --threads 8 --monte-carlo --samples 100 -e 'local t = {} for i = 1, 1e8 do t[i] = i end return 1'
expect 2 "umpire odds: --threads 40 does not fit in --memory 256: the Lua memory caps of the Monte Carlo threads' hosts share half of it, which would leave each ~3276 KiB, under the 8192 KiB a host is given at least (at most 16 threads here" \
  odds --memory 256 --threads 40 -e 'return 1'
# C++ memory charged to the cap follows it too: a distribution of a million outcomes (~45 MiB)
# is kept under the default cap (256 MiB) and refused under --memory 200 (25 MiB), with its line.
dist='local d = umpire.dice.dist("d1000000") return d:mean()'
[ "$("$umpire" run -e "$dist" 2> "$work/err")" = "$(printf '500000.5\t1000001/2')" ] || { echo "FAIL: d1000000 under the default cap"; cat "$work/err"; fail=1; }
expect 1 "(command line):1: memory limit: a distribution of 1000000 outcomes (~45 MiB) would pass the Lua memory cap" \
  run --memory 200 -e "$dist"
# A dice expression's report is bounded by the same cap: 100000 totals (~97 MiB as text) pass the
# default cap and not an eighth of 256 MiB.
expect 1 "memory limit: d100000 has 100000 possible totals; its distribution and the report of every total would take ~97 MiB, past the memory cap of 32 MiB" \
  odds --memory 256 d100000
expect 1 "memory limit: d1000000 has 1000000 possible totals" odds d1000000

# umpire.result's data parsed for the journal is charged with its text before it is parsed: 400,000
# copies of a 30-byte string (13 MB of JSON under the 32 MiB cap of --memory 256) were parsed into
# a second, larger document uncharged before the journal's charge looked (test_host "[cxx]").
expect 1 "(command line):1: memory limit: the data of umpire.result (~12 MiB as JSON) parsed for the journal would take" \
  run --memory 256 -e "local s = ('x'):rep(30) local t = {} for i = 1, 4e5 do t[i] = s end umpire.result('r', {list = t})"

# `odds` keeps the ruleset files in memory for its loads after the close (host/FileSnapshot.hpp),
# against the memory cap; `run` keeps nothing (it never loads again). Two modules of 3 MiB of
# comments (no Lua memory) under --memory 40 (a cap of 5 MiB): odds is refused, naming the file,
# and run loads them. Before, the kept files were charged to nothing, and run kept them too.
mkdir -p "$work/big/rules"
printf 'name: big\nmodules: [a, b]\n' > "$work/big/ruleset.yaml"
awk 'BEGIN { for (i = 0; i < 49152; i++) print "-- a line of sixty-four bytes that takes no Lua memory at all"; print "return {}" }' > "$work/big/rules/a.lua"
cp "$work/big/rules/a.lua" "$work/big/rules/b.lua"
expect 1 "big/rules/b.lua:1:1: memory limit: keeping it (~3 MiB) with the ruleset files kept in memory for the loads after this worker's files close" \
  odds --memory 40 --ruleset "$work/big" -e 'return umpire.dice.d(6)'
[ "$("$umpire" run --memory 40 --ruleset "$work/big" -e 'return 7' 2> "$work/err")" = 7 ] \
  || { echo "FAIL: run of the ruleset of large modules under --memory 40"; cat "$work/err"; fail=1; }

# The outputs are written by the parent (the worker may not open a file for writing), and
# replay, isolated too, finds the journal identical.
"$umpire" run --ruleset "$src/rulesets/asl" -e 'umpire.state.shots = 3 print(umpire.dice.dr().total)' \
  --journal "$work/game.json" --save-state "$work/state.json" > /dev/null 2> "$work/err" || { echo "FAIL: run with outputs"; cat "$work/err"; fail=1; }
grep -q '"shots":3' "$work/state.json" || { echo "FAIL: --save-state not written"; fail=1; }
grep -q "^replay identical" <<<"$("$umpire" replay "$work/game.json" 2>/dev/null)" || { echo "FAIL: replay of the isolated run"; fail=1; }
"$umpire" odds --ruleset "$src/rulesets/asl" "$src/scripts/asl/odds_mmg_fire_group.lua" --svg "$work/mmg.svg" > /dev/null 2>&1 \
  || { echo "FAIL: odds --svg"; fail=1; }
grep -q "<svg" "$work/mmg.svg" || { echo "FAIL: --svg not written"; fail=1; }

# Landlock confines the worker's reads to the search path, the rulesets named on the command line
# (and the rulesets beside them, which `extends` may name) and the command's inputs: the commands
# still find everything they need. (That a file outside is refused is tested in test_host
# "[landlock]", with a native hook in the worker.)
mkdir -p "$work/rs/base/data" "$work/rs/mine/data"
printf 'name: base\ndata: [d]\n' > "$work/rs/base/ruleset.yaml"
printf 'x: 41\n' > "$work/rs/base/data/d.yaml"
printf 'name: mine\nextends: base\ndata: [e]\n' > "$work/rs/mine/ruleset.yaml"
printf 'y: 1\n' > "$work/rs/mine/data/e.yaml"
printf 'return umpire.data.d.x + umpire.data.e.y\n' > "$work/sum.lua"
out=$("$umpire" run --ruleset "$work/rs/mine" "$work/sum.lua" 2> "$work/err")
[ "$out" = 42 ] || { echo "FAIL: a ruleset in a scratch folder extending one beside it: '$out'"; cat "$work/err"; fail=1; }
"$umpire" odds --ruleset "$work/rs/mine" -e 'return umpire.dice.roll("1d6") + (umpire.data.e and 1 or 0)' \
  --compare "$work/rs/base" > "$work/out" 2> "$work/err" || { echo "FAIL: odds --compare a folder"; cat "$work/err"; fail=1; }
# run, odds and replay open no file once loaded (docs/sandbox.md, "No file opened after loading"):
# scenarios are read at load, the fallback from exact to Monte Carlo (a budget of 5 paths) and the
# --compare side load from the files kept in memory.
mkdir -p "$work/rs/base/scenarios" "$work/rs/mine/scenarios"
printf 'bonus: 10\n' > "$work/rs/base/scenarios/s.yaml"
printf 'bonus: 20\n' > "$work/rs/mine/scenarios/s.yaml"
out=$("$umpire" run --ruleset "$work/rs/mine" -e 'return umpire.data.scenario("s").bonus' 2> "$work/err")
[ "$out" = 20 ] || { echo "FAIL: a scenario in run: '$out'"; cat "$work/err"; fail=1; }
"$umpire" odds --ruleset "$work/rs/mine" --budget 5 --samples 8192 --threads 2 --json \
  -e 'return umpire.dice.roll("1d6") + umpire.dice.roll("1d6") + umpire.data.scenario("s").bonus' \
  --compare "$work/rs/base" > "$work/out" 2> "$work/err" || { echo "FAIL: odds --compare, Monte Carlo, scenarios"; cat "$work/err"; fail=1; }
grep -q '"outcome": 32' "$work/out" && grep -q '"outcome": 22' "$work/out" && grep -q 'Monte Carlo estimate' "$work/out" \
  || { echo "FAIL: both sides' scenarios in the Monte Carlo odds"; head -c 600 "$work/out"; fail=1; }
"$umpire" run --ruleset "$work/rs/mine" -e 'return 1' --journal "$work/mine.json" > /dev/null 2> "$work/err" \
  || { echo "FAIL: run --journal"; cat "$work/err"; fail=1; }
"$umpire" check --ruleset "$src/rulesets" asl > "$work/out" 2> "$work/err" || { echo "FAIL: check asl"; cat "$work/err"; fail=1; }
# A ruleset named by its folder, off the search path: the worker may read it. Before, `check`
# gave the worker no inputs, and said "cannot read .../ruleset.yaml".
"$umpire" check "$work/rs/base" > "$work/out" 2> "$work/err" \
  || { echo "FAIL: check of a folder off the search path"; cat "$work/out" "$work/err"; fail=1; }
# The same for `test`: before, its worker was given no folder either, and failed with "cannot read
# base/ruleset.yaml" (it passed with --no-isolate). The spec reads the ruleset's data, so it
# passes only when the worker read the folder named.
mkdir -p "$work/rs/base/tests"
printf 'tests: [t]\n' >> "$work/rs/base/ruleset.yaml"
printf 'test("the data of a folder off the search path", function() eq(umpire.data.d.x, 41) end)\n' > "$work/rs/base/tests/t.lua"
"$umpire" test "$work/rs/base" > "$work/out" 2> "$work/err" && grep -q "^1 passed, 0 failed" "$work/out" \
  || { echo "FAIL: test of a folder off the search path"; cat "$work/out" "$work/err"; fail=1; }
UMPIRE_VERBOSE=1 "$umpire" run -e 'return 1' > /dev/null 2> "$work/err"
if grep -q "no Landlock" "$work/err"; then echo "note: this kernel has no Landlock; reads were not confined"; fi

# watch: the worker is killed mid-run; the watch goes on with the state of the last finished run.
counter='umpire.state.n = (umpire.state.n or 0) + 1 print("run " .. umpire.state.n)'
printf '%s\n' "$counter" > "$work/try.lua"
# The output files exist before the watch starts (lib.sh, wait_for): its redirections run in the
# background job, perhaps after the first wait_for.
: > "$work/wout"; : > "$work/werr"
"$umpire" watch --timeout 1 "$work/try.lua" > "$work/wout" 2> "$work/werr" &
watcher=$!
watch_out="$work/wout"; watch_err="$work/werr"
wait_for "$work/wout" "^run 1$" 1 "the first run"
wait_for "$work/werr" "^-- watching" 1 "the watch prompt"
printf '%s\n%s\n' "$counter" "$bomb" > "$work/try.lua"
wait_for "$work/wout" "^run 2$" 1 "the run that is killed"
wait_for "$work/werr" "killed at the wall-clock limit of 1 s" 1 "the kill"
wait_for "$work/werr" "the watch goes on" 1 "the watch going on"
wait_for "$work/werr" "^-- watching" 2 "the new worker's prompt"
printf '%s\n' "$counter" > "$work/try.lua"
# The killed run never finished, so its n = 2 is not kept: the next run counts 2 again.
wait_for "$work/wout" "^run 2$" 2 "the run after the fix, from the last finished run's state"
kill -0 "$watcher" || { echo "FAIL: watch is gone"; fail=1; }

[ $fail = 0 ] && echo "ok: the worker process stops what the in-process limits cannot, and the command goes on"
exit $fail
