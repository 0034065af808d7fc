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

# A journal whose rulesets name a folder: replay looks the name up on the search path only.
"$umpire" run --ruleset "$src/rulesets/asl" -e 'print(umpire.dice.dr())' --journal "$work/game.json" > /dev/null 2>&1 || { echo "FAIL: recording"; fail=1; }
sed -e 's#"rulesets":{"asl"#"rulesets":{"bomb"#' -e 's#"rulesets":\["[^"]*"\]#"rulesets":["'"$work"'/bomb"]#' "$work/game.json" > "$work/evil.json"
expect 1 "ruleset 'bomb' not found on the search path" replay "$work/evil.json"
expect 0 "replay loads ruleset 'asl'" replay "$work/game.json"

exit $fail
