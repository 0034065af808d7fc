#!/bin/sh
# Median and minimum wall time of N runs of one umpire command under each of several binaries, and
# the median CPU time (user + system of the command and its worker, from the children's rusage),
# which a loaded machine disturbs less.
# The binaries take turns run by run, so a change in the machine's load falls on each alike; the
# load average (`uptime`) is printed before and after. Output is discarded; a run that fails is
# reported and stops the measurement.
# Usage: bench/wall_median.sh N BINARY... -- ARGS...
#   e.g. bench/wall_median.sh 41 build-base/umpire build/cli/umpire -- run --ruleset asl -e 'return 1'
set -eu
[ $# -ge 3 ] || { echo "usage: $0 N BINARY... -- ARGS..." >&2; exit 2; }
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'EOF'
import os, resource, statistics, subprocess, sys, time
n = int(sys.argv[1])
rest = sys.argv[2:]
split = rest.index("--")
binaries, args = rest[:split], rest[split + 1:]
print("before:", os.popen("uptime").read().strip())
times = {b: [] for b in binaries}
cpu = {b: [] for b in binaries}
def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
for _ in range(n):
    for b in binaries:
        start, cpu_start = time.perf_counter(), children_cpu()
        rc = subprocess.run([b] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        times[b].append(time.perf_counter() - start)
        cpu[b].append(children_cpu() - cpu_start)
        if rc != 0:
            sys.exit(f"{b} {' '.join(args)}: exit {rc}")
print("after: ", os.popen("uptime").read().strip())
for b in binaries:
    t = times[b]
    print(f"wall {statistics.median(t) * 1000:7.1f} ms median {min(t) * 1000:7.1f} ms min, "
          f"cpu {statistics.median(cpu[b]) * 1000:7.1f} ms median  ({n} runs)  {b}")
EOF
