#!/usr/bin/env python3
# The opcode histogram of the largest loop of each PTX's sm_90a SASS
# (ptxas, then nvdisasm -c from $PTXPRESS_NVDISASM), side by side.
# usage: loophist.py PTX...
import os,re,subprocess,sys,tempfile,collections
ND=os.environ["PTXPRESS_NVDISASM"]
def body(ptx):
    c=tempfile.mktemp(suffix=".cubin")
    subprocess.run(["/usr/local/cuda/bin/ptxas","-arch=sm_90a",ptx,"-o",c],check=True,capture_output=True)
    t=subprocess.run([ND,"-c",c],capture_output=True,text=True).stdout; os.unlink(c)
    ins=[];labels={}
    for l in t.splitlines():
        m=re.match(r"\s*(\.L_x_\d+):",l)
        if m: labels[m.group(1)]=len(ins); continue
        m=re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?);',l)
        if m: ins.append(m.group(2))
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
keys=sorted(set(k for c in H.values() for k in c), key=lambda k:-max(c[k] for c in H.values()))
print('%-10s'%'op', *['%8s'%n.split('.')[-2][:8] for n in H])
for k in keys[:40]:
    print('%-10s'%k, *['%8d'%c[k] for c in H.values()])
