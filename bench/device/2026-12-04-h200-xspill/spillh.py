import sys
src=open(sys.argv[1]).read().split('\n')
na=int(sys.argv[3]); nb=int(sys.argv[4])   # O1 values across the back edge, O0 values across PV1
O0=['%%r%d'%i for i in range(351,479)]
O1=['%%r%d'%i for i in range(495,623)]
A=O1[:na]; B=O0[:nb]
def st(regs,base):
    return ['\tst.local.v4.b32 \t[__spO+%d], {%s};'%(4*(base+k),', '.join(regs[k:k+4])) for k in range(0,len(regs),4)]
def ld(regs,base):
    return ['\tld.local.v4.b32 \t{%s}, [__spO+%d];'%(', '.join(regs[k:k+4]),4*(base+k)) for k in range(0,len(regs),4)]
resc1=set(range(2036,2164))
moved=[src[i-1] for i in sorted(resc1)]
out=[]
for i,line in enumerate(src,1):
    if i in resc1: continue
    if i==969 or line.startswith('$L__BB0_2:'):
        out+=st(A,128)
    if i==2219:
        out+=['\twgmma.commit_group.sync.aligned;','\twgmma.wait_group.sync.aligned 0;']
        out+=st(B,0)+ld(A,128)+moved+['\twgmma.fence.sync.aligned;']
    out.append(line)
    if i==2231:
        out+=['\twgmma.wait_group.sync.aligned 0;']+st(A,128)+ld(B,0)
    if line.startswith('$L__BB0_3:'):
        out+=ld(A,128)
txt='\n'.join(out).replace('.reg .pred','.local .align 16 .b8 __spO[1024];\n\t.reg .pred',1)
open(sys.argv[2],'w').write(txt)
