#!/bin/bash
# forty-eighth session on the device host: verify on the GPU without libm
# linked (cos/log/exp2 bound at run time), then emit's memory and speed
# per process on the six largest corpus files; start = 302023a (the
# session's first binary), new = e785c05
D=.dev/s48
cd "$(dirname "$0")/../../.."
nproc; grep -m1 'model name' /proc/cpuinfo; cat /sys/kernel/mm/transparent_hugepage/enabled
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ldd $D/px-new | grep -c libm; ldd $D/px-start | grep -c libm
for b in start new; do echo "verify $b"; $D/px-$b verify --runs 3 --warmup 1 --ref-rows 16 corpus/fmha_sm90a.ptx corpus/fmha_sm90a.ptx tests/verify/tiny-attn.launch > $OUT/v-$b.txt 2>&1; echo "rc $?"; cat $OUT/v-$b.txt; done
diff <(grep -v -i 'time\|median\|ms' $OUT/v-start.txt) <(grep -v -i 'time\|median\|ms' $OUT/v-new.txt) && echo verify-same
for r in 1 2 3; do for b in start new; do for f in Sort hist mfree c128 c256 c64; do /usr/bin/time -f "rss $b $f %M KiB" $D/px-$b emit $D/$f.ptx -o /dev/null; done; done; done 2>&1
for f in mfree hist c64 c256 c128 Sort mfree; do echo "$f (A=start B=new)"; python3 $D/alt.py $D/px-start $D/px-new $D/$f.ptx 40; done
uptime
