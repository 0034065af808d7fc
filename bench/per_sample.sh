#!/bin/bash
# Per-sample CPU cost of a Monte Carlo odds script through the umpire command, with the host's
# start-up taken out: min-of-N user+sys CPU of a run of BIG samples minus that of SMALL samples,
# divided by the difference. CPU time (not wall) so that a loaded machine inflates it less; the
# minimum over the repetitions for the same reason.
# Usage: bench/per_sample.sh UMPIRE [REPS] -- ODDS ARGS...   (e.g. --ruleset rulesets/asl scripts/asl/odds_mmg_fire_group.lua)
set -eu
umpire=$1; shift
reps=5
if [ "$1" != "--" ]; then reps=$1; shift; fi
shift
small=4096 big=65536
cpu() {  # min user+sys seconds over $reps runs of $1 samples
    local best=999999
    for _ in $(seq "$reps"); do
        local t
        t=$( { /usr/bin/time -f '%U %S' "$umpire" odds "${@:2}" --monte-carlo --samples "$1" --threads 1 --seed 7 >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}')
        best=$(echo "$t $best" | awk '{print ($1 < $2) ? $1 : $2}')
    done
    echo "$best"
}
a=$(cpu $small "$@")
b=$(cpu $big "$@")
echo "$a $b" | awk -v s=$small -v g=$big '{printf "%.2f us/sample (CPU, min of runs; %d vs %d samples: %.2f s vs %.2f s)\n", ($2 - $1) * 1e6 / (g - s), g, s, $2, $1}'
