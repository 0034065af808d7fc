#!/usr/bin/env bash
# docs/new-game.md, followed to the letter: every file it shows is written and every command it
# shows is run, in order (tests/cli/doc_steps.py), in an empty folder with `umpire` on the PATH.
# Then its odds -- the game's, and the house rule's compared -- must equal an independent count of
# every die (tests/cli/new_game_odds.py), and the fractions its prose quotes must be those.
# Usage: new_game_doc_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work/bin"; ln -s "$(realpath "$umpire")" "$work/bin/umpire"
export PATH="$work/bin:$PATH"
guide="$src/docs/new-game.md"
python3 "$src/tests/cli/doc_steps.py" "$guide" > "$work/steps.sh"
(cd "$work" && bash "$work/steps.sh") > "$work/steps.log" 2>&1 || { tail -30 "$work/steps.log"; fail "a step of new-game.md failed"; }

cd "$work"
python3 "$src/tests/cli/new_game_odds.py" > expected.txt
python3 "$src/tests/cli/new_game_odds.py" --rerolls > expected_rerolls.txt
umpire odds --ruleset games/grimdark games/grimdark/odds/attack.lua > odds.txt
umpire odds --ruleset games/grimdark games/grimdark/odds/attack.lua --compare games/grimdark-rerolls > compare.txt
# The joint table comes first; its rows are "damage=K  FRACTION  PERCENT [...]".
awk '/^damage=/ && !seen[$1]++ {print $1, $2}' odds.txt > got.txt
awk '/^damage=/ && !seen[$1]++ {print $1, $2}' compare.txt > got_original.txt
awk '/^damage=/ && !seen[$1]++ {print $1, $4}' compare.txt > got_rerolls.txt
diff -u expected.txt got.txt || fail "grimdark's odds differ from the count of every die"
diff -u expected.txt got_original.txt || fail "--compare: the original's odds differ"
diff -u expected_rerolls.txt got_rerolls.txt || fail "--compare: the house rule's odds differ from the count"
# The prose quotes the odds: the fractions it names must be the counted ones.
for f in $(awk '{print $2}' expected.txt expected_rerolls.txt | sort -u); do
  grep -qF "$f" "$guide" || fail "new-game.md does not quote $f"
done
grep -q 'HOUSE-2.1' games/grimdark-rerolls/rules/attack.lua || fail "the house rule module was not written"
echo "ok: new-game.md's steps run, and its odds match an independent count of every die"
