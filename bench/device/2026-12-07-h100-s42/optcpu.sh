#!/bin/sh
# opt's own CPU against its ptxas children on CUTLASS 77's file, device machine (42nd session)
# run from a folder holding ptxpress, emitbench (build-rel, 2753f95),
# ocelot_thrust_Sort.ptx as Sort.ptx, CUTLASS 88 and 77 PTX
# (tools/gen-cutlass.sh), inside a checkout two levels down (.dev/s42)
cd "$(dirname "$0")"
for i in 1 2; do
  ./ptxpress opt fmha77_fp16_sm100a.ptx -o out.$i.ptx --cpu --tries 4 --refine 0 -j 1 2>&1 | grep 'CPU:'
done
cmp out.1.ptx out.2.ptx && echo same-output
md5sum out.1.ptx
