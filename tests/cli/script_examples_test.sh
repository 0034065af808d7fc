#!/usr/bin/env bash
# Every example script under scripts/ runs as its own header says. Each script names its command
# in its first lines ("umpire odds --ruleset rulesets/asl scripts/asl/... --given kia=true"); that
# command is run with the built umpire, an --svg output going to a temporary folder. A script
# without such a line, or whose command fails, fails the test, so the examples the docs point
# at cannot rot unnoticed.
set -uo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$src"
failed=0; ran=0
for script in scripts/*/*.lua; do
  line=$(head -n 12 "$script" | grep -m1 -o 'umpire \(odds\|run\|sweep\) [^`]*') || {
    echo "FAIL $script: no 'umpire odds ...' or 'umpire run ...' line in its header"; failed=1; continue; }
  read -r -a words <<< "${line#umpire }"
  args=()
  for ((i = 0; i < ${#words[@]}; i++)); do
    args+=("${words[i]}")
    if [ "${words[i]}" = --svg ]; then args+=("$work/$(basename "${words[i+1]}")"); i=$((i + 1)); fi
  done
  if ! "$umpire" "${args[@]}" > "$work/out.txt" 2>&1; then
    echo "FAIL $script: umpire ${args[*]}"; sed 's/^/    /' "$work/out.txt"; failed=1
  fi
  ran=$((ran + 1))
done
[ "$failed" = 0 ] && echo "ok: $ran example scripts run as their headers say"
exit "$failed"
