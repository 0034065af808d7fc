#!/usr/bin/env bash
# The layer check (cmake/check_layers.cmake) passes on this tree and refuses an include that points
# up a layer, or a Lua header in core/, naming the file, the line and the rule.
# Usage: layers_test.sh SOURCE_DIR
set -euo pipefail
src="$1"
check="$src/cmake/check_layers.cmake"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake -DROOT="$src" -P "$check" || fail "the source tree itself breaks the layer order"

# A tree where every include points down: passes.
mkdir -p "$scratch/ok/core/dice" "$scratch/ok/bindings" "$scratch/ok/cli"
echo '#include "core/dice/Die.hpp"' > "$scratch/ok/bindings/wrap_Die.cpp"
printf '#include "app/OddsRunner.hpp"\n#include "core/dice/Die.hpp"\n' > "$scratch/ok/cli/cmd_x.cpp"
echo '#include <vector>' > "$scratch/ok/core/dice/Die.cpp"
cmake -DROOT="$scratch/ok" -P "$check" || fail "downward includes were refused"

expect_refusal() { # tree, text the error must contain
  local out
  if out=$(cmake -DROOT="$1" -P "$check" 2>&1); then fail "$1 passed the check: $2"; fi
  grep -qF -- "$2" <<<"$out" || { echo "$out" >&2; fail "error does not say: $2"; }
}

# A binding that reaches up into the host (the cycle this check exists to prevent).
mkdir -p "$scratch/up/bindings"
printf '#include "bindings/Game.hpp"\n#include "host/LuaHost.hpp"\n' > "$scratch/up/bindings/wrap_Die.cpp"
expect_refusal "$scratch/up" 'bindings/wrap_Die.cpp: #include "host/LuaHost.hpp": bindings/ may not include host/'

# The host reaching up into rulesets, and a ruleset into the commands.
mkdir -p "$scratch/up2/host" "$scratch/up2/ruleset"
echo '#include "ruleset/Ruleset.hpp"' > "$scratch/up2/host/LuaHost.cpp"
echo '#include "app/SpecRunner.hpp"' > "$scratch/up2/ruleset/Load.cpp"
expect_refusal "$scratch/up2" 'host/LuaHost.cpp: #include "ruleset/Ruleset.hpp": host/ may not include ruleset/'
expect_refusal "$scratch/up2" 'ruleset/Load.cpp: #include "app/SpecRunner.hpp": ruleset/ may not include app/'

# core/ including Lua.
mkdir -p "$scratch/lua/core/dice"
echo '#include <lua.hpp>' > "$scratch/lua/core/dice/Die.cpp"
expect_refusal "$scratch/lua" 'core/dice/Die.cpp: #include <lua.hpp>: core/ never includes a Lua header'

echo "layers_check: all 5 cases behave"
