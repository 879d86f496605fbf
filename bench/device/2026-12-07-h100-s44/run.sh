#!/bin/bash
# forty-fourth session on the device host: memory and speed of emit, opt's own CPU; base = c1c285d, new = 822bf04
D=.dev/s44
cd "$(dirname "$0")/../.."
nproc; grep -m1 'model name' /proc/cpuinfo; cat /sys/kernel/mm/transparent_hugepage/enabled
for r in 1 2 3; do for b in base new; do for f in Sort hist; do /usr/bin/time -f "rss $b $f %M KiB" $D/px-$b emit $D/$f.ptx -o /dev/null; done; done; done 2>&1
$D/px-new emit $D/Sort.ptx -o $OUT/s.ptx && cmp $OUT/s.ptx $D/Sort.ptx && echo lossless-ok; rm -f $OUT/s.ptx
for r in 1 2; do for b in base new; do echo "emit $b"; python3 bench/emitruns.py $D/px-$b $D/Sort.ptx 21 2 | tail -1; python3 bench/emitruns.py $D/px-$b $D/hist.ptx 21 2 | tail -1; done; done
for r in 1 2; do for b in base new; do echo "opt $b"; $D/px-$b opt $D/f77.ptx -o $OUT/o-$b.ptx --cpu --tries 4 --refine 0 -j 1 2>&1 | grep 'CPU:'; done; done
md5sum $OUT/o-*.ptx; rm -f $OUT/o-*.ptx
