#!/bin/sh
# Prints the output of every shipped script (scripts/**/*.lua) run with the command its opening
# comment documents (`umpire odds ...` / `umpire run ...`), plus, for odds scripts,
# `--json` and a seeded 2-thread Monte Carlo, so that two builds can be compared: nothing may
# change a result (issue 18). Timings are filtered out.
# Usage: bench/odds_outputs.sh UMPIRE_BINARY > outputs.txt
set -u
umpire=$1
cd "$(dirname "$0")/.."
# A file a documented command writes (--svg odds.svg, --journal game.json) goes to a scratch folder,
# not into the checkout.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for script in $(find scripts -name '*.lua' | sort); do
    command=$(head -5 "$script" | sed -n 's/^--.*umpire \(odds\|run\) \(.*\)$/\1 \2/p' | head -1)
    [ -n "$command" ] || continue
    command=$(echo "$command" | sed "s#--\(svg\|journal\) [^ ]*#--\1 $scratch/out#g")
    case $command in odds*) extras="--json|--monte-carlo --samples 20000 --threads 2 --seed 7" ;; *) extras="" ;; esac
    echo "== $command"
    # shellcheck disable=SC2086
    { "$umpire" $command 2>&1; echo "rc $?"; } | grep -v -i -e 'seconds' -e ' ms\b' -e 'samples/s'
    IFS='|'
    for extra in $extras; do
        unset IFS
        echo "== $command $extra"
        # shellcheck disable=SC2086
        { "$umpire" $command $extra 2>&1; echo "rc $?"; } | grep -v -i -e 'seconds' -e ' ms\b' -e 'samples/s'
        IFS='|'
    done
    unset IFS
done | sed "s|$scratch|SCRATCH|g"
