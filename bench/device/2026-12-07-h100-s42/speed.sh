#!/bin/sh
# speed of parse + lossless emit on the device machine (42nd session)
# run from a folder holding ptxpress, emitbench (build-rel, 2753f95),
# ocelot_thrust_Sort.ptx as Sort.ptx, CUTLASS 88 and 77 PTX
# (tools/gen-cutlass.sh), inside a checkout two levels down (.dev/s42)
cd "$(dirname "$0")"
uname -a; nproc; lscpu | grep -E 'Model name|L2|L3'; cat /sys/kernel/mm/transparent_hugepage/enabled
./ptxpress --version
S=Sort.ptx
./ptxpress emit $S -o /dev/null && cmp <(./ptxpress emit $S -o -) $S && echo lossless-ok
for i in 1 2 3; do python3 ../../bench/emitruns.py ./ptxpress $S 21 2; done
for i in 1 2 3; do ./emitbench $S 15; done
for i in 1 2 3; do ./emitbench $S 5 fmha88_fp16_sm90a.ptx; done
for i in 1 2 3; do python3 ../../bench/emitruns.py ./ptxpress fmha88_fp16_sm90a.ptx 11 2; done
perf stat -r 20 -e task-clock ./ptxpress emit $S -o /dev/null 2>&1 | tail -4 || true
