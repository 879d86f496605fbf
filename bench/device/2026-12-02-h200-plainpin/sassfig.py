#!/usr/bin/env python3
# The SASS figures the guard-rule fit in bench/RESULTS.md (sixteenth
# session) used: for each PTX, ptxas -arch=<its .target>, then nvdisasm -c
# ($PTXPRESS_NVDISASM): instructions in loops, local-memory ones among
# them, all instructions, all local-memory ones.  (Its loop count is one
# more than sassloops() gives on these files.)
# usage: sassfig.py PTX... > figures.txt
import os, re, subprocess, sys, tempfile
ND = os.environ["PTXPRESS_NVDISASM"]
# The SASS of ptx (its .target): instructions, and each label's index
# among them (bench/device/2026-12-02-h200-unser/loophist.py reads it too).
def sass(ptx):
    tgt=re.search(r'\.target\s+(sm_\w+)',open(ptx).read()).group(1)
    c=tempfile.mktemp(suffix=".cubin")
    subprocess.run(["/usr/local/cuda/bin/ptxas","-arch="+tgt,ptx,"-o",c],check=True,capture_output=True)
    t=subprocess.run([ND,"-c",c],capture_output=True,text=True).stdout; os.unlink(c)
    ins=[];labels={}
    for l in t.splitlines():
        m=re.match(r"\s*(\.L_x_\d+):",l)
        if m: labels[m.group(1)]=len(ins); continue
        m=re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?);',l)
        if m: ins.append(m.group(2))
    return ins,labels
def figs(ptx):
    ins,labels=sass(ptx)
    inl=[False]*len(ins)
    for i,s in enumerate(ins):
        m=re.search(r'BRA.*?`\((\.L_x_\d+)\)',s)
        if m and m.group(1) in labels and labels[m.group(1)]<=i:
            for j in range(labels[m.group(1)],i+1): inl[j]=True
    loc=[bool(re.search(r'\b(LDL|STL)\b',s)) for s in ins]
    return (sum(inl), sum(1 for i in range(len(ins)) if inl[i] and loc[i]), len(ins), sum(loc))
if __name__=="__main__":
    for p in sys.argv[1:]:
        print(os.path.basename(p), *figs(p))
