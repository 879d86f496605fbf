#!/bin/sh
# check's register-type rule held to ptxas (tools/typeprobe.py): about
# 3,200 one-line instructions with a register of every scalar type in
# each slot, and 5,000 random ones; any line check refuses that ptxas
# takes fails the test.  Lines ptxas refuses and check takes are
# counted, not failed: check may say less than ptxas, never more.
# usage: typeprobe.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
command -v python3 >/dev/null 2>&1 || { echo "no python3; skipped"; exit 77; }
python3 "$top/tools/typeprobe.py" "$px" "$(command -v ptxas)" 1
