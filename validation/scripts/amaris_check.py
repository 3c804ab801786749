#!/usr/bin/env python3
"""Accuracy of `wgperf predict` on the amaris-nvprof GPUs (Kepler/Maxwell) for a fixed subset.

Predicts vector add and dot product (N = 2^20, 2^22), the matrix sums and four matrix
multiplies (W = 512, 1024; 16x16 blocks, the shared-memory one also 32x32) on the GPUs of
../shared/data/amaris-nvprof/measurements.csv with the dataset's registers per thread, and
prints MAPE per GPU and the mean predicted/measured ratio per kernel.  A developer tool until
`wgperf-validate` (issue 7) exists:  python3 validation/scripts/amaris_check.py
"""
import csv, json, math, os, subprocess, sys, tempfile, collections
ROOT=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))); W=ROOT+'/build/bin/wgperf'
CSV=os.path.join(os.path.dirname(ROOT),'shared/data/amaris-nvprof/measurements.csv')
GPUS={'GTX-980':'gtx-980','Tesla-K40':'tesla-k40','GTX-680':'gtx-680','GTX-750':'gtx-750','Quadro':'quadro-k5200','Titan':'titan','TitanBlack':'titan-black'}
WANT={('vectorAdd',None),('dotProd',None),('matrix_sum_coalesced',16),('matrix_sum_normal',16),('matMul_gpu',16),('matMul_gpu_uncoalesced',16),('matMul_gpu_sharedmem',16),('matMul_gpu_sharedmem',32),('matMul_gpu_sharedmem_uncoalesced',16)}
tmp=tempfile.mkdtemp(); models={}; res=collections.defaultdict(list)
for r in csv.DictReader(open(CSV)):
    g=r['gpu']
    if g not in GPUS: continue
    k,bx,by,n=r['kernel'],int(r['block_x']),int(r['block_y']),int(r['input_size'])
    tw=bx if by>1 else None
    if (k,tw) not in WANT: continue
    if k in ('vectorAdd','dotProd') and n not in (1<<20,1<<22): continue
    if k.startswith('mat') and n not in (512,1024): continue
    if k=='dotProd' and int(r['grid_x'])==32: continue
    key=(k,tw if tw else math.isqrt(bx))
    if key not in models:
        path=os.path.join(tmp,'%s_%d.json'%key)
        subprocess.run([W,'extract',ROOT+'/validation/kernels/%s.cu'%k,'-o',path,'--','-DTW=%d'%key[1]],capture_output=True,check=True)
        models[key]=path
    arg=['--arg',('N=%d' if k in ('vectorAdd','dotProd') else 'W=%d')%n]
    glob='%d,%d'%(int(r['grid_x'])*bx,int(r['grid_y'])*by) if by>1 else str(int(r['grid_x'])*bx)
    loc='%d,%d'%(bx,by) if by>1 else str(bx)
    p=subprocess.run([W,'predict',models[key],'--global',glob,'--local',loc,*arg,'--gpu',GPUS[g],'--regs',r['regs_per_thread'],'--json'],capture_output=True,text=True)
    if p.returncode: print('err',g,k,p.stderr[:150]); continue
    t=json.loads(p.stdout)['time_us']; m=float(r['duration_s'])*1e6
    res[g].append((k,bx,n,m,t))
allerr=[]
for g,rows in res.items():
    e=[abs(t-m)/m for _,_,_,m,t in rows]; allerr+=e
    print('%-12s rows %3d MAPE %5.1f%%'%(g,len(rows),100*sum(e)/len(e)))
    byk=collections.defaultdict(list)
    for k,bx,n,m,t in rows: byk[k].append(t/m)
    print('   ', ', '.join('%s %.2f'%(k[:22],sum(v)/len(v)) for k,v in byk.items()))
print('overall MAPE %.1f%% over %d rows'%(100*sum(allerr)/len(allerr),len(allerr)))
