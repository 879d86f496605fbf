#!/bin/sh
# What a stand-in nvdisasm prints (tests/optguard.sh, optpinloop.sh):
# for each function of CUBIN (its .text.NAME sections), N instructions
# in one loop, the first L of them local memory (STL), closed by a
# branch back to the loop's label, then O local-memory loads (LDL)
# after the loop (default 0).
# usage: mocksass.sh N L CUBIN [O]
n=$1 l=$2 o=${4:-0}
for f in $(grep -ao '\.text\.[A-Za-z0-9_]*' "$3" | sort -u); do
	printf '\t.section\t%s,"ax",@progbits\n.L_x_0:\n' "$f"
	i=0
	while [ $i -lt "$n" ]; do
		if [ $i -lt "$l" ]; then op="STL [R1], R0"; else op="FADD R0, R0, R0"; fi
		printf '        /*%04x*/                   %s ;\n' $((i * 16)) "$op"
		i=$((i + 1))
	done
	printf '        /*%04x*/              @P0 BRA `(.L_x_0) ;\n' $((n * 16))
	i=0
	while [ $i -lt "$o" ]; do
		printf '        /*%04x*/                   LDL R0, [R1] ;\n' $(((n + 1 + i) * 16))
		i=$((i + 1))
	done
done
