#!/usr/bin/env python3
"""emitruns.py: the CPU time (user + system, from getrusage, to the
microsecond) of N runs of 'ptxpress emit FILE -o /dev/null' on one core,
as min, median and 90th percentile, and the MB/s of each.  bench/speed.sh
times with /usr/bin/time (10 ms steps) and repeats small files; this
gives the spread of single runs, which on a shared machine is most of the
story.
usage: bench/emitruns.py PTXPRESS FILE [RUNS] [CORE]"""
import os
import resource
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    px, path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    core = sys.argv[4] if len(sys.argv) > 4 else "1"
    # pinned here, and the children inherit it: through taskset, each
    # run's figure held taskset's own exec and dynamic loading too,
    # 1.2 ms of this machine's 1.8 ms for an empty file (forty-eighth
    # session)
    os.sched_setaffinity(0, {int(core)})
    times = []
    for _ in range(runs):
        a = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([px, "emit", path, "-o", os.devnull], check=True)
        b = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(b.ru_utime - a.ru_utime + b.ru_stime - a.ru_stime)
    times.sort()
    size = os.path.getsize(path)

    def at(q):
        t = times[int(q * (len(times) - 1))]
        return "%.1f ms (%.0f MB/s)" % (t * 1e3, size / t / 1e6)
    print("%s: %d runs on core %s: min %s, median %s, p90 %s" % (
        os.path.basename(path), runs, core, at(0), at(0.5), at(0.9)))


main()
