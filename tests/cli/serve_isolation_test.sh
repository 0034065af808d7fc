#!/usr/bin/env bash
# `umpire serve` computes each page in a worker process with the command line's limits, made by a
# fork server that was forked before the web server's threads (host/Isolation.hpp, ForkServer):
# a pattern bomb saved into the served script (a C call the count hook cannot stop; in-process it
# would end the whole server) is killed at --timeout, the page names the limit and keeps the last
# good results, marked stale, the server lives on, and the next good save is shown. A runaway
# Lua loop is stopped with its line; one without a wall-clock limit ends at --cpu. And --rules-text: /rules/<section> shows the section's
# paragraph of a made-up rules text (escaped), beside the rules lines that cite it.
# Usage: serve_isolation_test.sh UMPIRE SOURCE_DIR
set -euo pipefail
umpire="$1"; src="$2"
. "$(dirname "$0")/lib.sh"  # serve_test_setup, serve_start, serve_stop
serve_test_setup
cd "$src"

# field FILE EXPR: a value of the page document (python3 reads the JSON), printed.
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# wait_page VERSION_ABOVE STATUS: waits (60 s at most; ASan is slow) for a document newer than
# VERSION_ABOVE whose status is STATUS, in $work/page.json.
wait_page() {
  for _ in $(seq 600); do
    curl -s "$base/api/page" > "$work/page.json" || true
    if [ -s "$work/page.json" ] && [ "$(field "$work/page.json" "d['version'] > $1 and d['status'] == '$2'")" = True ]; then
      return 0
    fi
    sleep 0.1
  done
  fail "no page with status $2 after version $1: $(head -c 800 "$work/page.json")"
}
version() { field "$work/page.json" "d['version']"; }

good() { printf 'return { hits = umpire.dice.count(%s, 6, 5) }\n' "$1" > "$work/script.lua"; }
good 2
cat > "$work/rules.txt" <<'TEXT'
9.2 MULTIPLE ROF: not the section asked for
9.22 FIRE LANE: a made-up paragraph with <b>markup</b> & an ampersand,
over two lines.
9.223 the next section
TEXT

serve_start --ruleset asl --timeout 1 "$work/script.lua" --rules-text "$work/rules.txt"

wait_page -1 ok
[ "$(field "$work/page.json" "len(d['page']['odds']['outcomes'])")" = 3 ] || fail "2 dice: not 3 outcomes"

# The fork server and its workers are other processes: serve's own process never forks after
# its threads start. While idle, the fork server is serve's only child.
children=$( (pgrep -P "$server" || true) | wc -l)
[ "$children" = 1 ] || fail "serve has $children child processes while idle, expected the fork server alone"

# 1. A pattern bomb: killed at the 1 s limit; the page says so and keeps the last good odds, stale.
v=$(version)
printf '%s\n' 'local found = ("a"):rep(3000):find(".-.-.-.-.-b")' 'return { hits = umpire.dice.count(2, 6, 5) }' > "$work/script.lua"
started=$(date +%s.%N)
wait_page "$v" error
seconds=$(python3 -c "import sys; print(round($(date +%s.%N) - $started, 2))")
message=$(field "$work/page.json" "d['error']['message']")
grep -q 'killed at the wall-clock limit of 1 s (--timeout)' <<<"$message" || fail "the bomb's page does not name the limit: $message"
grep -q 'script.lua:1: in string.find' <<<"$message" || fail "the bomb's page does not name its place: $message"
[ "$(field "$work/page.json" "d['stale'] and d['page'] is not None")" = True ] || fail "the last good page was not kept, stale"
kill -0 "$server" 2>/dev/null || fail "the server died with its worker"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/")" = 200 ] || fail "the server does not answer after its worker's kill"
echo "the bomb's page showed the limit ${seconds} s after the save"

# 2. The next good save is shown, by a new worker.
v=$(version)
good 3
wait_page "$v" ok
[ "$(field "$work/page.json" "len(d['page']['odds']['outcomes'])")" = 4 ] || fail "3 dice after the bomb: not 4 outcomes"
[ "$(field "$work/page.json" "d['stale']")" = False ] || fail "the good page after the bomb is marked stale"

# 3. A runaway Lua loop: the count hook stops it in the worker, with its file and line.
v=$(version)
printf '%s\n' 'local n = 0' 'while true do n = n + 1 end' > "$work/script.lua"
wait_page "$v" error
[ "$(field "$work/page.json" "d['error']['line']")" = 2 ] || fail "the loop's line: $(field "$work/page.json" "d['error']")"
grep -q 'ran longer than 1s' <<<"$(field "$work/page.json" "d['error']['message']")" || fail "the loop's message: $(field "$work/page.json" "d['error']")"
v=$(version)
good 2
wait_page "$v" ok

# 4. --rules-text: the section's paragraph, escaped, up to the next numbered section, and the
# rules lines that cite it.
curl -s "$base/rules/A9.22" > "$work/rules.html"
grep -q 'a made-up paragraph with &lt;b&gt;markup&lt;/b&gt; &amp; an ampersand,' "$work/rules.html" || fail "/rules/A9.22 lacks its paragraph: $(cat "$work/rules.html")"
grep -q 'over two lines.' "$work/rules.html" || fail "/rules/A9.22 lacks the paragraph's second line"
! grep -q 'the next section\|not the section asked for' "$work/rules.html" || fail "/rules/A9.22 shows other sections"
grep -Eq 'fire_lane\.lua:[0-9]+' "$work/rules.html" || fail "/rules/A9.22 lists no citing rules line"
curl -s "$base/rules/A7.5" > "$work/none.html"
grep -q 'No rules text for A7.5 in the --rules-text files' "$work/none.html" || fail "/rules/A7.5: $(cat "$work/none.html")"

# 5. The CPU limit: with no wall-clock limit, a loop runs until the worker's RLIMIT_CPU (--cpu 1)
# ends it; the page names that limit, and the server lives on.
serve_stop
printf '%s\n' 'local n = 0' 'while true do n = n + 1 end' > "$work/script.lua"
serve_start --timeout 0 --cpu 1 "$work/script.lua"
wait_page -1 error
grep -q 'ran out of CPU time (limit 1 s of CPU, --cpu)' <<<"$(field "$work/page.json" "d['error']['message']")" ||
  fail "the CPU limit is not named: $(field "$work/page.json" "d['error']")"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/")" = 200 ] || fail "the server does not answer after the CPU limit"

echo "ok: pages in a worker (a pattern bomb killed at --timeout, the server lives, the next save shown; a loop stopped with its line, --cpu named); --rules-text shown"
