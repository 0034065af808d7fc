#!/usr/bin/env bash
# The editor stubs (docs/stubs/umpire.lua) declare everything a ruleset can reach: every function
# and table of the live `umpire` table, walked inside the sandbox with every shipped ruleset
# loaded, and every global the spec-test environment adds (test, eq, ...). The contents of
# umpire.data/rules/state/ruleset belong to the rulesets, so only those four tables themselves
# must be declared. Also: the Hex class that the stubs use is declared.
# Usage: stubs_complete_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
stubs="$src/docs/stubs/umpire.lua"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
cat > walk.lua <<'LUA'
local own = {["umpire.data"] = true, ["umpire.rules"] = true, ["umpire.state"] = true, ["umpire.ruleset"] = true}
local seen = {}
local function walk(t, prefix)
  if seen[t] then return end
  seen[t] = true
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v, name = t[k], prefix .. "." .. k
    if type(v) == "function" then print("function " .. name)
    elseif type(v) == "table" then
      print("table " .. name)
      if not own[name] then walk(v, name) end
    else print("field " .. name) end
  end
end
walk(umpire, "umpire")
LUA
"$umpire" run --ruleset asl --ruleset bolt-action --ruleset skirmish walk.lua > live.txt
[ "$(wc -l < live.txt)" -ge 60 ] || { cat live.txt; echo "FAIL: the walk found too little"; exit 1; }

# The spec environment's own globals: those of a spec file minus those of a script.
mkdir -p spec/tests
printf 'name: spec\n' > spec/ruleset.yaml
printf 'for k, v in pairs(_G) do print("GLOBAL " .. type(v) .. " " .. k) end\ntest("t", function() end)\n' > spec/tests/g.lua
"$umpire" test --ruleset spec | sed -n 's/^GLOBAL //p' | sort > spec_globals.txt
"$umpire" run -e 'for k, v in pairs(_G) do print(type(v) .. " " .. k) end' | sort > script_globals.txt
comm -23 spec_globals.txt script_globals.txt > spec_only.txt
[ "$(wc -l < spec_only.txt)" -ge 8 ] || { cat spec_only.txt; echo "FAIL: found too few spec globals"; exit 1; }

missing=0
while read -r kind name; do
  case "$kind" in
    function) pattern="^function ${name//./\\.}(" ;;
    *)        pattern="^${name//./\\.} = " ;;
  esac
  grep -q "$pattern" "$stubs" || { echo "no stub for $kind $name"; missing=1; }
done < <(cat live.txt spec_only.txt)
grep -q '^---@class Hex$' "$stubs" || { echo "the Hex class is used but not declared"; missing=1; }
[ "$missing" = 0 ] || { echo "FAIL: add them (scripts/gen_stubs.lua) and regenerate docs/stubs/umpire.lua"; exit 1; }
echo "ok: $(wc -l < live.txt) names of umpire and $(wc -l < spec_only.txt) spec globals all have stubs"
