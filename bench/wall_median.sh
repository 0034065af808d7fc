#!/bin/sh
# Median and minimum wall time of N runs of one umpire command under each of several binaries.
# The binaries take turns run by run, so a change in the machine's load falls on each alike; the
# load average (`uptime`) is printed before and after. Output is discarded; a run that fails is
# reported and stops the measurement.
# Usage: bench/wall_median.sh N BINARY... -- ARGS...
#   e.g. bench/wall_median.sh 41 build-base/umpire build/cli/umpire -- run --ruleset asl -e 'return 1'
set -eu
[ $# -ge 3 ] || { echo "usage: $0 N BINARY... -- ARGS..." >&2; exit 2; }
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'EOF'
import os, statistics, subprocess, sys, time
n = int(sys.argv[1])
rest = sys.argv[2:]
split = rest.index("--")
binaries, args = rest[:split], rest[split + 1:]
print("before:", os.popen("uptime").read().strip())
times = {b: [] for b in binaries}
for _ in range(n):
    for b in binaries:
        start = time.perf_counter()
        rc = subprocess.run([b] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        times[b].append(time.perf_counter() - start)
        if rc != 0:
            sys.exit(f"{b} {' '.join(args)}: exit {rc}")
print("after: ", os.popen("uptime").read().strip())
for b in binaries:
    t = times[b]
    print(f"{statistics.median(t) * 1000:8.1f} ms median {min(t) * 1000:8.1f} ms min  ({n} runs)  {b}")
EOF
