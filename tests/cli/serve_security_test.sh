#!/usr/bin/env bash
# `umpire serve` is a local, read-only server: it listens on 127.0.0.1 only (a connection to any
# other address of this machine is refused, and the socket is bound to 127.0.0.1), it answers GET
# and HEAD only (405 otherwise), and it refuses (403) a request whose Host is not 127.0.0.1:PORT or
# localhost:PORT (DNS rebinding) or whose Origin is another site's (a page elsewhere reading it).
# (And the journal of the game it shows replays.)
# Usage: serve_security_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
. "$(dirname "$0")/lib.sh"  # serve_test_setup, serve_start, serve_stop
serve_test_setup
cd "$src"

serve_start --ruleset asl scripts/tour/a9_222_first_fire_odds.lua

status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(status "$base/")" = 200 ] || fail "GET / is not 200"
[ "$(status -H "Host: localhost:$port" "$base/api/page")" = 200 ] || fail "Host localhost:PORT refused"
[ "$(status -H "Origin: http://127.0.0.1:$port" "$base/api/page")" = 200 ] || fail "the page's own Origin refused"
[ "$(status -I "$base/")" = 200 ] || fail "HEAD / is not 200"
for method in POST PUT DELETE PATCH OPTIONS; do
  [ "$(status -X "$method" "$base/api/page")" = 405 ] || fail "$method was not refused with 405"
done
[ "$(status -H "Host: evil.example:$port" "$base/api/page")" = 403 ] || fail "a foreign Host was served"
[ "$(status -H "Host: 127.0.0.1:1" "$base/")" = 403 ] || fail "a Host with another port was served"
[ "$(status -H "Origin: http://evil.example" "$base/api/page")" = 403 ] || fail "a foreign Origin was served"
[ "$(status -H "Origin: null" "$base/journal.json")" = 403 ] || fail "Origin: null was served"
curl -s -H "Origin: http://evil.example" "$base/api/page" | grep -q "may not read" || fail "no reason given for a foreign Origin"

# The game the page shows is kept as a journal that `umpire replay` plays again, identically. The
# first game is played after the address is printed: until then /journal.json answers 503.
for _ in $(seq 300); do
  code=$(curl -s -o "$work/game.json" -w '%{http_code}' "$base/journal.json")
  [ "$code" = 503 ] || break; sleep 0.1
done
[ "$code" = 200 ] || fail "/journal.json answered $code: $(cat "$work/game.json")"
"$umpire" replay "$work/game.json" > "$work/replay" 2>&1 || { cat "$work/replay"; fail "/journal.json does not replay"; }
grep -q "replay identical" "$work/replay" || fail "/journal.json: $(cat "$work/replay")"

# The socket is bound to 127.0.0.1 (not 0.0.0.0 or ::), and another address of this machine
# (when it has one) refuses the connection.
if command -v ss >/dev/null; then
  ss -ltnH "sport = :$port" > "$work/ss"
  grep -q "127.0.0.1:$port" "$work/ss" || fail "not bound to 127.0.0.1: $(cat "$work/ss")"
  ! grep -Eq "(0\.0\.0\.0|\*|\[::\]):$port" "$work/ss" || fail "bound to every address: $(cat "$work/ss")"
fi
others=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -Ev '^(127\.|$)' | grep -v ':' || true)
for address in $others; do
  if curl -s -o /dev/null --max-time 3 "http://$address:$port/"; then fail "reachable at $address:$port"; fi
done
# --set reaches the script as umpire.args, as in `umpire odds`, and the game's journal records it
# (its replay gets the same arguments).
serve_stop
serve_start --ruleset asl scripts/asl/sweep_mmg.lua --set range=13 --set cover=2
for _ in $(seq 300); do
  curl -s "http://127.0.0.1:$port/api/page" > "$work/page.json"
  grep -q '"status": *"ok"' "$work/page.json" && break; sleep 0.1
done
"$umpire" odds --json --ruleset asl scripts/asl/sweep_mmg.lua --set range=13 --set cover=2 > "$work/odds.json"
python3 - "$work/page.json" "$work/odds.json" <<'PY' || fail "serve --set: the page's odds differ from umpire odds --set"
import json, sys
page, odds = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
exact = lambda r: sorted((o["key"], [s.get("exact") for s in o["sides"]]) for o in r["outcomes"])
sys.exit(0 if exact(page["page"]["odds"]) == exact(odds) else 1)
PY
curl -s "http://127.0.0.1:$port/journal.json" > "$work/game.json"
grep -q '"range=13"' "$work/game.json" || fail "serve --set: the journal does not record the arguments"
grep -q "replay identical" <<<"$("$umpire" replay "$work/game.json" 2>&1)" || fail "serve --set: the journal does not replay"

echo "ok: loopback only (checked ${others:-no other address}), GET/HEAD only, foreign Host and Origin refused"
