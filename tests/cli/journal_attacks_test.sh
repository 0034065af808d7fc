#!/usr/bin/env bash
# Crafted journals given to `umpire replay` (issue 16: a journal is untrusted input). Each is made
# from a journal `umpire run` recorded, changed as an attacker would, and must be refused with
# status 1 (never 134/139, never a hang: the test's timeout would end it) and an error naming the
# journal file; none of them may be changed by the replay. Then a journal whose recorded code is
# one of the known bombs: stopped, the parent alive to say so.
set -uo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

. "$(dirname "$0")/lib.sh"  # expect

"$umpire" run --ruleset "$src/rulesets/asl" -e 'print(umpire.dice.dr())' --journal "$work/game.json" > /dev/null 2>&1 ||
  { echo "FAIL: recording the journal"; exit 1; }
expect 0 "replay loads ruleset 'asl'" replay "$work/game.json"

# Each case: NAME, then the expected text of the error (after "umpire: <file>: "), made by
# craft.py below as $work/j/NAME.json.
mkdir "$work/j"
python3 - "$work/game.json" "$work/j" <<'PY'
import copy, json, os, sys
base = json.load(open(sys.argv[1])); out = sys.argv[2]
def write(name, text):
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f: f.write(text)
def dumps(j): return json.dumps(j, separators=(",", ":"))
def changed(name, change):
    j = copy.deepcopy(base); change(j); write(name, dumps(j))
def inputs(name, key, value): changed(name, lambda j: j["header"]["inputs"].__setitem__(key, value))
text = dumps(base)
write("empty", "")
write("truncated", text[:len(text) // 2])
write("deep", "[" * 100000 + "]" * 100000)
write("deep_in_data", text.replace('"data":{', '"data":{"x":' + "[" * 50000 + "]" * 50000 + ",", 1))
write("number_too_big", text.replace('"seed":1', '"seed":1e999'))
write("integer_too_big", text.replace('"seed":1', '"seed":' + "9" * 400))
changed("format_number", lambda j: j.__setitem__("format", 5))
changed("negative_seed", lambda j: j["header"].__setitem__("seed", -1))
changed("engine_version_number", lambda j: j["header"].__setitem__("engine_version", 5))
changed("header_rulesets_list", lambda j: j["header"].__setitem__("rulesets", ["asl"]))
changed("header_rulesets_hash_number", lambda j: j["header"]["rulesets"].__setitem__("asl", 5))
changed("header_rulesets_nul", lambda j: j["header"]["rulesets"].__setitem__("as\u0000l", "0"))
changed("inputs_text", lambda j: j["header"].__setitem__("inputs", "x"))
inputs("code_number", "code", 5)
inputs("script_number", "script", 5)
inputs("args_object", "args", {"a": 1})
inputs("args_number", "args", [5])
inputs("args_no_equals", "args", ["range"])
inputs("args_not_identifier", "args", ["1x=2"])
inputs("inputs_unknown", "evil", 1)
inputs("state_number", "state", 5)
inputs("state_not_json", "state", "{not json")
inputs("state_list", "state", "[1, 2]")
inputs("state_deep", "state", '{"a":' * 100000 + "1" + "}" * 100000)
changed("ruleset_absolute", lambda j: (j["header"]["inputs"].__setitem__("rulesets", ["/etc"]), j["header"].__setitem__("rulesets", {"etc": "0"})))
changed("ruleset_dotdot", lambda j: (j["header"]["inputs"].__setitem__("rulesets", [".."]), j["header"].__setitem__("rulesets", {"..": "0"})))
changed("ruleset_unicode", lambda j: (j["header"]["inputs"].__setitem__("rulesets", ["a\u0455l"]), j["header"].__setitem__("rulesets", {"a\u0455l": "0"})))
changed("ruleset_many", lambda j: j["header"]["inputs"].__setitem__("rulesets", ["asl"] * 100000))
changed("entry_depth_too_big", lambda j: j["entries"][0].__setitem__("depth", 99999999999999))
changed("entry_turn_too_big", lambda j: j["entries"][0].__setitem__("turn", 18446744073709551615))
changed("entry_seq_negative", lambda j: j["entries"][0].__setitem__("seq", -5))
changed("entry_unknown_field", lambda j: j["entries"][0].__setitem__("evil", 1))
changed("entry_kind", lambda j: j["entries"][0].__setitem__("kind", "nuke"))
write("bom", "\ufeff" + text)
write("duplicate_key", text.replace('"seed":1', '"seed":1,\n"seed":2', 1))
write("duplicate_key_escaped", text.replace('"seed":1', '"seed":1,"s\\u0065ed":1', 1))
inputs("state_duplicate_key", "state", '{"a": 1, "a": 2}')
inputs("code_bytecode", "code", "\x1bLJ\x02\x00print(1)")
PY
ln -s /dev/zero "$work/j/dev_zero.json"
mkfifo "$work/j/fifo.json"
mkdir "$work/j/folder.json"
printf 'a: &a [x]\nb: *a\n' > "$work/j/yaml.json"
python3 -c "import sys; sys.stdout.write('{\"format\":\"' + 'x' * (26 << 20) + '\"}')" > "$work/j/huge.json"
sums=$(cd "$work/j" && find . -type f -exec sha256sum {} + | sort)

# replay_refused NAME TEXT: replay of $work/j/NAME.json exits 1, its error names the file and
# holds TEXT.
replay_refused() {
  expect 1 "umpire: $work/j/$1.json: " replay "$work/j/$1.json"
  grep -qF -- "$2" "$work/err" || { echo "FAIL: replay of $1: want \"$2\" in:"; cat "$work/err"; fail=1; }
}
replay_refused empty "not valid JSON (byte 0)"
replay_refused truncated "not valid JSON (byte"
replay_refused deep "nested deeper than 256 levels (byte 256)"
replay_refused deep_in_data "nested deeper than 256 levels"
replay_refused number_too_big "not valid JSON: number overflow parsing '1e999'"
replay_refused integer_too_big "not valid JSON: number overflow parsing '999"
replay_refused format_number "unknown format"
replay_refused negative_seed 'header "seed" must be a non-negative integer'
replay_refused engine_version_number 'header "engine_version" must be a string'
replay_refused header_rulesets_list 'header "rulesets" must map each ruleset'
replay_refused header_rulesets_hash_number 'the hash of "asl" must be a string'
replay_refused header_rulesets_nul 'header.rulesets names "as\u0000l", which is not a ruleset name'
replay_refused inputs_text 'header "inputs" must be an object'
replay_refused code_number "inputs.code must be a string, not a number"
replay_refused script_number "inputs.script must be a string, not a number"
replay_refused args_object "inputs.args must be a list of strings, not a object"
replay_refused args_number "inputs.args holds a number, not a string"
# (session 35: these named "--set range", a flag the command was never given)
replay_refused args_no_equals 'inputs.args holds "range": expected name=value'
replay_refused args_not_identifier "inputs.args holds \"1x=2\": the name '1x' is not a Lua identifier"
replay_refused inputs_unknown 'unknown field inputs."evil"'
replay_refused state_number "inputs.state must be the game state as JSON text, not a number"
replay_refused state_not_json "bad inputs.state"
replay_refused state_list "inputs.state: the game state must be a JSON object"
replay_refused state_deep "nested deeper than 256 levels (byte 1280)"
replay_refused ruleset_absolute "ruleset 'etc' not found on the search path"
replay_refused ruleset_dotdot 'header.rulesets names "..", which is not a ruleset name'
replay_refused ruleset_unicode "which is not a ruleset name"
replay_refused entry_depth_too_big 'entry 1: missing or mistyped "depth"'
replay_refused entry_turn_too_big 'entry 1: missing or mistyped "turn"'
replay_refused entry_seq_negative 'entry 1: missing or mistyped "seq"'
replay_refused entry_unknown_field "entry 1: unknown field (an entry has seq, kind, depth, turn, player, phase, citation, text, data) ('evil')"
replay_refused entry_kind "entry 1: expected roll, modifier, state, result, cite, event or note ('nuke')"
replay_refused dev_zero "a journal is a JSON file, and this is a device"
replay_refused fifo "a journal is a JSON file, and this is a FIFO"
replay_refused folder "a journal is a JSON file, and this is a folder"
replay_refused yaml "not valid JSON (byte 0)"
replay_refused huge "a journal may hold at most 25.6 MiB, a tenth of the memory cap (256 MiB"
# (session 35: the bound follows --memory, so the parsed tree stays inside the one cap; it was a
# fixed 64 MiB, whose tree took 435 MB at 50 MB of journal, outside the 256 MiB cap)
python3 -c "import sys; sys.stdout.write('{\"format\":\"' + 'x' * (4 << 20) + '\"}')" > "$work/four_mib.json"
expect 1 "a journal may hold at most 3.2 MiB, a tenth of the memory cap (32 MiB" replay --memory 256 "$work/four_mib.json"
replay_refused bom "starts with a byte-order mark (bytes EF BB BF, line 1, column 1)"
replay_refused duplicate_key 'the key "seed" is given twice in one object (line 2, column 1)'
replay_refused duplicate_key_escaped 'the key "seed" is given twice in one object (line 1, column'
replay_refused state_duplicate_key 'bad inputs.state'
replay_refused state_duplicate_key 'the key "a" is given twice in one object (line 1, column 10)'
replay_refused code_bytecode "inputs.code is precompiled Lua bytecode (its first byte is ESC, 0x1B)"
# A name given many times is looked up and loaded once (100 000 copies took minutes): the replay
# diverges from nothing.
expect 0 "replay loads ruleset 'asl'" replay "$work/j/ruleset_many.json"
[ "$(grep -c "replay loads ruleset 'asl'" "$work/err")" = 1 ] || { echo "FAIL: asl loaded more than once:"; cat "$work/err"; fail=1; }
# Nothing read was changed.
[ "$sums" = "$(cd "$work/j" && find . -type f -exec sha256sum {} + | sort)" ] || { echo "FAIL: a replay changed a journal"; fail=1; }

# Recorded code that is one of the known bombs runs sandboxed (even with --trusted) and is stopped
# with its reason, in the worker; the replay's parent says so with status 1.
bomb() {  # NAME CODE: a journal recording CODE, as $work/NAME.json
  python3 - "$work/game.json" "$work/$1.json" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["header"]["inputs"]["code"] = sys.argv[3]
open(sys.argv[2], "w").write(json.dumps(j))
PY
}
bomb cstack 'local function f(s) return (s:gsub(".", f)) end f("ab")'
bomb coroutine 'while true do coroutine.resume(coroutine.create(function() while true do end end)) end'
bomb pattern 'return ("a"):rep(3000):find(".-.-.-.-.-b")'
bomb memory 'local t = {} while true do t[#t + 1] = {} end'
bomb rep 'return #("x"):rep(300 * 1024 * 1024)'
bomb io 'return io.open("/etc/passwd"):read("*a")'
expect 1 "C stack overflow" replay --trusted "$work/cstack.json"
expect 1 "script stopped: ran longer than 1s" replay --timeout 1 "$work/coroutine.json"
expect 1 "in string.find: script stopped: killed at the wall-clock limit of 1 s" replay --timeout 1 "$work/pattern.json"
expect 1 "memory limit: the rules used more than" replay "$work/memory.json"
expect 1 "memory limit: the rules used more than" replay "$work/rep.json"
expect 1 "attempt to index global 'io' (a nil value)" replay --trusted "$work/io.json"

# A journal whose results diverge from the replay: said where, with both sides (exit 1).
python3 - "$work/game.json" "$work/diverged.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["entries"][0]["data"]["total"] = 13
open(sys.argv[2], "w").write(json.dumps(j))
PY
"$umpire" replay "$work/diverged.json" > "$work/out" 2> "$work/err"
rc=$?
[ "$rc" = 1 ] && grep -q "^replay diverged: entry 1 differs at /data/total: expected .*= 13\", got .*\"" "$work/out" ||
  { echo "FAIL: a diverging journal: rc $rc"; cat "$work/out" "$work/err"; fail=1; }

[ "$fail" = 0 ] && echo "ok: crafted journals refused with their file named, bombs stopped, nothing changed"
exit $fail
