import re,sys
src=open(sys.argv[1]).read().split('\n')
O0=['%%r%d'%i for i in range(351,479)]
O1=['%%r%d'%i for i in range(495,623)]
def st(regs,base):
    out=[]
    for k in range(0,len(regs),4):
        out.append('\tst.local.v4.b32 \t[__spO+%d], {%s};'%(4*(base+k),', '.join(regs[k:k+4])))
    return out
def ld(regs,base):
    out=[]
    for k in range(0,len(regs),4):
        out.append('\tld.local.v4.b32 \t{%s}, [__spO+%d];'%(', '.join(regs[k:k+4]),4*(base+k)))
    return out
L=lambda n: n-1  # 1-based to 0-based
out=[]
# indices (1-based) in original file
resc1=set(range(2036,2164))
moved=[src[L(i)] for i in sorted(resc1)]
for i,line in enumerate(src,1):
    if i in resc1: continue
    if i==969:  # before @%p1 bra $L__BB0_3
        out+=st(O0,0)+st(O1,128)
    if line.startswith('$L__BB0_2:'):
        out+=st(O0,0)+st(O1,128)
    if i==1908:
        out+=ld(O0,0)
    if i==2219:  # first line after chain0 end inline asm (line 2218)
        out+=['\twgmma.commit_group.sync.aligned;','\twgmma.wait_group.sync.aligned 0;']
        out+=st(O0,0)+ld(O1,128)+moved+['\twgmma.fence.sync.aligned;']
    out.append(line)
    if i==2231:
        out+=['\twgmma.wait_group.sync.aligned 0;']+st(O1,128)
    if line.startswith('$L__BB0_3:'):
        out+=ld(O0,0)+ld(O1,128)
    if i==1279+1 and False: pass
# declare local buffer after the function's opening brace: find first '{' line after .entry
txt='\n'.join(out)
txt=txt.replace('.reg .pred','.local .align 16 .b8 __spO[1024];\n\t.reg .pred',1)
open(sys.argv[2],'w').write(txt)
