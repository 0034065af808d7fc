#!/bin/sh
# Machine instructions of one Lua expression in a Monte Carlo sample of an odds script (issue 18):
# how rule code finds which of its calls cost what, since the sandbox has no Lua profiler. Two
# scripts are made: SETUP then a loop evaluating EXPR K times, and the same loop evaluating `1`;
# bench/per_sample.sh gives each one's instructions a sample, and the difference divided by K is
# the expression's cost, its tables' share of the collector included. Load-independent (callgrind);
# counts move by a few hundred between runs (the collector's timing), so compare like with like.
# Usage: bench/per_call.sh UMPIRE_BINARY RULESET SETUP EXPR
#   e.g. bench/per_call.sh build-bench/cli/umpire rulesets/asl \
#          'local mmg = umpire.rules.mg_usage.counter("ger_mmg")' \
#          'umpire.rules.sw_malfunction.numbers(mmg, {sustained = true})'
#   K (default 20), N1 and N2 (default 256 and 768) in the environment. An expression that makes
#   tables needs N1/N2 large enough for collection cycles (see per_sample.sh): `umpire.dice.dr()`
#   counts ~1,540 at the defaults and ~1,240 at N1=4000 N2=12000.
set -eu
umpire=$1 ruleset=$2 setup=$3 expr=$4
k=${K:-20}
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
write() {
    printf '%s\nfor _ = 1, %s do local x = %s end\nreturn 1\n' "$setup" "$k" "$1" > "$2"
}
write "$expr" "$scratch/with.lua"
write 1 "$scratch/without.lua"
with=$(N1=${N1:-256} N2=${N2:-768} "$here/per_sample.sh" "$umpire" "$ruleset" "$scratch/with.lua")
without=$(N1=${N1:-256} N2=${N2:-768} "$here/per_sample.sh" "$umpire" "$ruleset" "$scratch/without.lua")
echo $(( (with - without) / k ))
