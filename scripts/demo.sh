#!/usr/bin/env bash
# The main job of the README: a rulebook example played and explained, then its odds.
# Usage: scripts/demo.sh [path/to/umpire]   (scripts/setup.sh demo builds it and calls this)
set -euo pipefail
cd "$(dirname "$0")/.."
umpire="${1:-build/cli/umpire}"

echo "== ASL A9.222 EX: MMG and HMG Fire Lanes, played with fixed dice and explained"
"$umpire" run --ruleset rulesets/asl scripts/asl/a9_222_fire_lane.lua --explain

echo
echo "== Odds: an MMG in a fire group with a 4-6-7 on Sustained Fire (A9.3), every outcome exact"
"$umpire" odds --ruleset rulesets/asl scripts/asl/odds_mmg_fire_group.lua

echo
echo "== The same question under a house rule (rulesets/asl-house-mg), side by side"
"$umpire" odds --ruleset rulesets/asl scripts/asl/odds_mmg_fire_group.lua --compare rulesets/asl-house-mg
