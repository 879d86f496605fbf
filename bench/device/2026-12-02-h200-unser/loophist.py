#!/usr/bin/env python3
# The opcode histogram of the largest loop of each PTX's SASS (ptxas
# for its .target, then nvdisasm -c from $PTXPRESS_NVDISASM), side by side.
# usage: loophist.py PTX...
import os,re,sys,collections
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),"..","2026-12-02-h200-plainpin"))
from sassfig import sass   # ptxas for the PTX's .target, nvdisasm -c
def body(ptx):
    ins,labels=sass(ptx)
    best=None
    for i,s in enumerate(ins):
        m=re.search(r'BRA.*?`\((\.L_x_\d+)\)',s)
        if m and m.group(1) in labels and labels[m.group(1)]<=i:
            a=labels[m.group(1)]
            if best is None or i-a>best[1]-best[0]: best=(a,i+1)
    return ins[best[0]:best[1]]
H={}
for p in sys.argv[1:]:
    b=body(p); c=collections.Counter()
    for s in b:
        s=re.sub(r'^@!?U?P\w+\s+','',s)
        c[s.split()[0].split('.')[0]]+=1
    H[os.path.basename(p)]=c
keys=sorted(set(k for c in H.values() for k in c), key=lambda k:(-max(c[k] for c in H.values()),k))
print('%-10s'%'op', *['%8s'%n.split('.')[-2][:8] for n in H])
for k in keys[:40]:
    print('%-10s'%k, *['%8d'%c[k] for c in H.values()])
