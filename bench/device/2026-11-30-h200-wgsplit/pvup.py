import re,sys
L=open(sys.argv[1]).read().split('\n')
regs=lambda s: re.findall(r'%[a-z]+\d+',s)
def isins(s):
    t=s.strip(); return t and not t.startswith(('//','.loc','$','{','}'))
fences=[i for i,s in enumerate(L) if 'wgmma.fence' in s]
commits=[i for i,s in enumerate(L) if 'wgmma.commit_group' in s]
waits=[i for i,s in enumerate(L) if 'wgmma.wait_group' in s]
c1=commits[1]; w1=waits[1]; f2=fences[2]; c2=commits[2]
Ws=[i for i in range(f2,c2) if 'mma_async' in L[i]]
key=regs(L[Ws[0]].split('}')[0])[0]
top=[i for i in Ws if regs(L[i].split('}')[0])[0]==key]
need=set()
for i in top:
    need|=set(regs(L[i].split('}',1)[1]))
sl=set()
for j in range(top[-1],w1,-1):
    s=L[j]
    if j in top or not isins(s): continue
    r=regs(s)
    if r and r[0] in need and 'mma_async' not in s:
        sl.add(j); need|=set(r[1:])
# check slice statements are pure & no WAR/WAW hazards with statements between w1 and them
for j in sorted(sl):
    d=regs(L[j])[0]
    for k in range(c1,j):
        if k in sl or not isins(L[k]): continue
        if d in regs(L[k]): print("hazard",j,k,L[j].strip(),L[k].strip(),file=sys.stderr)
mv=sorted(sl)+top
out=[]
for i,s in enumerate(L):
    if i==c1:
        out += [L[j] for j in mv]
    if i in sl or i in top: continue
    out.append(s)
open(sys.argv[2],'w').write('\n'.join(out))
print(len(sl),len(top),file=sys.stderr)
