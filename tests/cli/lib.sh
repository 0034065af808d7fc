# Helpers shared by the command's shell tests (sourced, not run).

# expect CODE PATTERN ARGS...: runs "$umpire" ARGS with stdout and stderr in "$work/out" and
# "$work/err", and checks the exit status and that stderr holds PATTERN (fixed text); on a
# mismatch prints why and sets fail=1.
expect() {
  local code="$1" pattern="$2"; shift 2
  "$umpire" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  if [ "$rc" != "$code" ] || ! grep -qF -- "$pattern" "$work/err"; then
    echo "FAIL: umpire $* -> rc $rc (want $code), stderr:"; cat "$work/err"; fail=1
  fi
}

# wait_for FILE PATTERN N WHAT: waits (up to 30 s) until FILE has a line matching PATTERN at least
# N times, while the process "$watcher" (writing "$watch_out" and "$watch_err") runs; exits 1 if
# it ends or the time runs out. FILE must exist before the watcher starts (create it empty: the
# watcher's `> FILE` is done in the background job, which may not have run yet), and any error of
# grep is a failure: before, a FILE not made yet gave an empty count and "integer expression
# expected" on every try until it was.
wait_for() {
  local count
  for _ in $(seq 300); do
    [ -f "$1" ] || { echo "FAIL: $1 does not exist while waiting for $4 (create it before starting the watcher)"; exit 1; }
    # grep exits 1 for no match (count 0), 2 for an error; the || list keeps set -e out of it.
    count=$(grep -c -- "$2" "$1") || [ $? = 1 ] || { echo "FAIL: grep could not read $1 while waiting for $4"; exit 1; }
    [ "$count" -ge "$3" ] && return 0
    kill -0 "$watcher" 2>/dev/null || { echo "FAIL: watch exited while waiting for $4"; cat "$watch_err"; exit 1; }
    sleep 0.1
  done
  echo "FAIL: timed out waiting for $4"; echo "-- stdout:"; cat "$watch_out"; echo "-- stderr:"; cat "$watch_err"; exit 1
}

# watch_start ARGS...: starts `umpire watch ARGS` in the background, its stdout and stderr in
# "$work/out" and "$work/err" (made empty first: the redirections run in the background job,
# perhaps after the first wait_for), and sets $watcher, $watch_out and $watch_err for wait_for.
watch_start() {
  : > "$work/out"; : > "$work/err"
  "$umpire" watch "$@" > "$work/out" 2> "$work/err" &
  watcher=$!
  watch_out="$work/out"; watch_err="$work/err"
}

# serve_test_setup: the start both serve shell tests share. It needs curl, makes the scratch folder
# $work, removed at exit with the server stopped, and defines `fail MESSAGE`, which prints the
# message and the server's output and exits 1.
serve_test_setup() {
  command -v curl >/dev/null || { echo "FAIL: curl is needed"; exit 1; }
  work=$(mktemp -d)
  server=""
  trap 'serve_stop; rm -rf "$work"' EXIT
  fail() { echo "FAIL: $*" >&2; [ -f "$work/out" ] && cat "$work/out" >&2; exit 1; }
}

# serve_start ARGS...: starts `umpire serve ARGS --port 0` in the background, its output in
# "$work/out" and its pid in $server (serve_stop ends it; call that from the test's cleanup too),
# waits for the address it prints and sets $port and $base; exits 1 if none comes within 10 s.
serve_start() {
  # Emptied first: the server's redirection runs in the background job, perhaps after the first
  # grep below, which then read the address the previous server of the test printed (and the
  # port was taken from the file the new server had emptied meanwhile: "printed no address").
  : > "$work/out"
  "$umpire" serve "$@" --port 0 > "$work/out" 2>&1 &
  server=$!
  for _ in $(seq 100); do grep -q 'http://127.0.0.1:' "$work/out" && break; sleep 0.1; done
  port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/out" | head -1)
  [ -n "$port" ] || { echo "FAIL: umpire serve $* printed no address:"; cat "$work/out"; exit 1; }
  base="http://127.0.0.1:$port"
}

# serve_stop: ends the server serve_start started, if it runs.
serve_stop() {
  if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  server=""
}
