#!/usr/bin/env bash
# The installed command finds its own files, wherever it is put, and nothing of the checkout:
#  1. `cmake --install` into a temporary prefix; the installed umpire, run from another folder,
#     runs and checks the installed rulesets (an unknown name lists only the installed folder),
#     and the installed docs/new-game.md runs with it, from nothing to a house-rule comparison;
#  2. UMPIRE_PATH adds a user's folder of rulesets, and a house rule there extends a shipped one;
#  3. a copy of the checkout (rulesets/, schemas/ and build/cli/umpire) reads the copy's rulesets;
#  4. `cpack` makes a .deb; unpacked with `dpkg -x` (no root, no chroot) its umpire runs too.
# Usage: install_test.sh UMPIRE BUILD_DIR SOURCE_DIR
set -euo pipefail
umpire="$1"; build="$2"; src="$3"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work/elsewhere"; cd "$work/elsewhere"

passes() { # umpire, args...: the spec tests named pass
  local bin="$1"; shift
  local out; out=$("$bin" test "$@") || { echo "$out" >&2; fail "$bin test $*"; }
  tail -1 <<<"$out" | grep -qE '^[1-9][0-9]* passed, 0 failed$' || fail "$bin test $*: $(tail -1 <<<"$out")"
}

# 1. Install.
cmake --install "$build" --prefix "$work/prefix" >/dev/null
inst="$work/prefix/bin/umpire"
for f in share/umpire/rulesets/asl/ruleset.yaml share/umpire/schemas/ruleset.schema.json \
         share/umpire/stubs/umpire.lua; do
  [ -f "$work/prefix/$f" ] || fail "not installed: $f"
done
passes "$inst" asl bolt-action skirmish
"$inst" check asl-house-mg >/dev/null || fail "installed: check asl-house-mg"
"$inst" odds --ruleset bolt-action "$work/prefix/share/umpire/scripts/bolt-action/compare_mg42.lua" \
  --compare bolt-action-mg42 >/dev/null || fail "installed: odds --compare"
err=$("$inst" test no-such-ruleset 2>&1) && fail "an unknown ruleset passed"
grep -q "share/umpire/rulesets" <<<"$err" || fail "the unknown-ruleset error does not name the install: $err"
if grep -qF "$src" <<<"$err"; then fail "the installed umpire looks into the checkout: $err"; fi

# The installed guide, followed with only the installed command: a new game, its tests, a house
# rule and the comparison (docs/new-game.md; its odds are checked in new_game_doc_test.sh).
mkdir -p "$work/newgame"
python3 "$src/tests/cli/doc_steps.py" "$work/prefix/share/doc/umpire/new-game.md" > "$work/newgame.sh"
(cd "$work/newgame" && PATH="$work/prefix/bin:$PATH" bash "$work/newgame.sh") > "$work/newgame.log" 2>&1 \
  || { tail -20 "$work/newgame.log"; fail "installed: a step of new-game.md failed"; }
grep -q 'grimdark-rerolls *percent *difference' "$work/newgame.log" || fail "installed: new-game.md's comparison"

# 2. UMPIRE_PATH: a user's folder of rulesets.
mkdir -p "$work/mine/tiny/tests"
printf 'name: tiny\nextends: asl\n' > "$work/mine/tiny/ruleset.yaml"
printf 'test("tiny sees asl", function() ok(umpire.rules.sw_malfunction) end)\n' > "$work/mine/tiny/tests/t.lua"
UMPIRE_PATH="$work/nothing-here:$work/mine" passes "$inst" tiny
err=$("$inst" test tiny 2>&1) && fail "tiny was found without UMPIRE_PATH"

# 3. A copied checkout reads its own rulesets, not the original's.
mkdir -p "$work/copy/build/cli" "$work/copy/docs"
cp -r "$src/rulesets" "$src/schemas" "$work/copy/"
cp -r "$src/docs/stubs" "$work/copy/docs/"
cp "$umpire" "$work/copy/build/cli/umpire"
mkdir -p "$work/copy/rulesets/only-in-copy/tests"
printf 'name: only-in-copy\n' > "$work/copy/rulesets/only-in-copy/ruleset.yaml"
printf 'test("the copy", function() eq(umpire.ruleset.name, "only-in-copy") end)\n' \
  > "$work/copy/rulesets/only-in-copy/tests/t.lua"
passes "$work/copy/build/cli/umpire" only-in-copy asl
if "$umpire" test only-in-copy >/dev/null 2>&1; then fail "the original build sees the copy's ruleset"; fi

# 4. The .deb, unpacked without installing it.
(cd "$build" && cpack -G DEB -B "$work/pkg" >/dev/null) || fail "cpack failed"
deb=$(ls "$work"/pkg/*.deb) || fail "cpack made no .deb"
dpkg-deb -f "$deb" Depends | grep -q luajit || fail "the .deb does not depend on LuaJIT: $(dpkg-deb -f "$deb" Depends)"
dpkg -x "$deb" "$work/root"
passes "$work/root/usr/bin/umpire" asl bolt-action skirmish asl-house-mg
"$work/root/usr/bin/umpire" check bolt-action-mg42 >/dev/null || fail ".deb: check bolt-action-mg42"
echo "ok: install, UMPIRE_PATH, a copied checkout, the .deb"
