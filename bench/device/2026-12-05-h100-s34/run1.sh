#!/bin/bash
# thirty-fourth session: what a CTA's setmaxnreg pool holds.  For each
# PROD/CONS pair: ptxas -v (the launch count), then pool on 1 CTA and
# on 264 (two per SM of 132); a pair that hangs is the last run of its
# kind.  Pairs: 4 x PROD + 8 x CONS warps of 32 against 64512 (the
# launch) and 65536 (the SM).
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc -O2 -o /tmp/pool pool.c -lcuda || exit 1
for pc in 24:240 40:232 48:224 48:232 32:240 24:248; do
	p=${pc%:*} c=${pc#*:}
	sed "s/PROD/$p/; s/CONS/$c/" pool.ptx > /tmp/p.ptx
	ptxas -arch=sm_90a -v /tmp/p.ptx -o /tmp/pool_${p}_${c}.cubin 2>&1 | grep -o 'Used [0-9]* registers' | tr '\n' ' '
	echo "prod $p cons $c: $((4 * p + 8 * c)) warp registers x 32 = $((32 * (4 * p + 8 * c)))"
	for g in 1 264; do
		echo -n "  grid $g: "; timeout 60 /tmp/pool /tmp/pool_${p}_${c}.cubin $g; echo "  (rc $?)"
	done
done
