#!/bin/sh
# Machine instructions per Monte Carlo sample of an odds script, from valgrind's callgrind, which
# the machine's load does not change (issue 18). The script runs at two sample counts in-process
# (--no-isolate); the difference of the two totals divided by the difference of the counts
# cancels the host's start-up.
# Usage: bench/per_sample.sh UMPIRE_BINARY RULESET SCRIPT [extra odds options...]
#   e.g. bench/per_sample.sh build/cli/umpire rulesets/asl scripts/asl/odds_mmg_fire_group.lua
#   N1/N2 in the environment change the two sample counts (default 1024 and 3072).
# The counts must span several collection cycles: a cycle frees the garbage into the allocator's
# free lists, and until the first one every table is a fresh malloc. At the collector's 600% pause
# a script making little garbage (one DR, ~160 bytes a sample) first collects after ~15,000
# samples, and at the defaults it counted ~650 instructions more a DR than at N1=20000 N2=60000.
set -eu
umpire=$1 ruleset=$2 script=$3
shift 3
n1=${N1:-1024} n2=${N2:-3072}
total() {
    samples=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$umpire" odds --no-isolate \
        --ruleset "$ruleset" "$script" --monte-carlo --threads 1 --seed 7 --samples "$samples" "$@" \
        2>&1 >/dev/null | sed -n 's/.*Collected : //p'
}
a=$(total "$n1" "$@")
b=$(total "$n2" "$@")
echo $(( (b - a) / (n2 - n1) ))
