#!/usr/bin/env python3
"""DRAM read volumes of `wgperf analyze` (footprints with reuse between waves, without it, and
the LRU model) against measured DRAM read transactions.

Launches: the naive and shared-memory matrix multiplies and the two matrix sums, -DTW=16, blocks
16x16, W = 1024 and 4096, on the GTX 980 and Tesla K40 (../shared/data/amaris-nvprof/
measurements.csv, dram_read_transactions x 32 B, the dataset's registers per thread) and on the
H100 (the model's registers; Nsight Compute dram__sectors_read.sum x 32 B of
microbench/results/h100-2026-11-22/ncu/, which has the smaller sizes only).  The naive multiply has
no counters at 16x16 in the dataset: its 8x8 and 32x32 rows (-DTW=8, 32) are shown instead.

    python3 validation/scripts/footprint_check.py
"""
import csv, json, os, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WGPERF = ROOT + '/build/bin/wgperf'
CSV = os.path.join(os.path.dirname(ROOT), 'shared/data/amaris-nvprof/measurements.csv')
NCU = ROOT + '/microbench/results/h100-2026-11-22/ncu/ncu-validation.csv'
KERNELS = ['matMul_gpu', 'matMul_gpu_sharedmem', 'matrix_sum_normal', 'matrix_sum_coalesced']
tmp = tempfile.mkdtemp()
models = {}


def model(kernel, tw):
    key = (kernel, tw)
    if key not in models:
        path = os.path.join(tmp, '%s_%d.json' % key)
        subprocess.run([WGPERF, 'extract', '%s/validation/kernels/%s.cu' % (ROOT, kernel), '-o', path, '--',
                        '-DTW=%d' % tw], capture_output=True, check=True)
        models[key] = path
    return models[key]


def analyze(kernel, tw, w, gpu, regs=None):
    cmd = [WGPERF, 'analyze', model(kernel, tw), '--grid', '%d,%d' % (w // tw, w // tw), '--block',
           '%d,%d' % (tw, tw), '--arg', 'W=%d' % w, '--gpu', gpu, '--json']
    if regs:
        cmd += ['--regs', str(regs)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise SystemExit('wgperf failed: %s\n%s' % (' '.join(cmd), p.stderr))
    f = json.loads(p.stdout)['footprints']
    return f


def row(gpu, kernel, tw, w, f, measured):
    mb = lambda b: '%9.1f' % (b / 1e6) if b is not None else '        -'
    ratio = lambda b: '%5.2f' % (b / measured) if measured else '    -'
    print('%-10s %-22s %2d %5d %4d %s %s %s %s | %s %s %s' % (
        gpu, kernel, tw, w, f['waves'], mb(f['dram_read_bytes']), mb(f['dram_read_bytes_no_reuse']),
        mb(f['lru_dram_read_bytes']), mb(measured), ratio(f['dram_read_bytes']), ratio(f['dram_read_bytes_no_reuse']),
        ratio(f['lru_dram_read_bytes'])))


print('DRAM read MB: footprints with reuse between waves, without, LRU model, measured | each / measured')
print('%-10s %-22s %2s %5s %4s %9s %9s %9s %9s | %5s %5s %5s' % ('gpu', 'kernel', 'TW', 'W', 'wave', 'reuse',
                                                                 'no reuse', 'LRU', 'measured', 'reuse', 'none',
                                                                 'LRU'))
rows = list(csv.DictReader(open(CSV)))
for gpu, desc in (('GTX-980', 'gtx-980'), ('Tesla-K40', 'tesla-k40')):
    for kernel in KERNELS:
        for tw in ((8, 16, 32) if kernel == 'matMul_gpu' else (16,)):
            for w in (1024, 4096):
                m = [r for r in rows if r['gpu'] == gpu and r['kernel'] == kernel and int(r['block_x']) == tw and
                     int(r['block_y']) == tw and int(r['input_size']) == w]
                if not m:
                    continue
                r = m[0]
                measured = float(r['dram_read_transactions']) * 32 if r['dram_read_transactions'] else None
                if tw != 16 and measured is None:
                    continue
                row(gpu, kernel, tw, w, analyze(kernel, tw, w, desc, int(r['regs_per_thread'])), measured)

# H100: the Nsight Compute runs (16x16 blocks) and the sizes of the task, predicted
ncu = {}
for r in csv.DictReader(open(NCU)):
    grid = r['Grid Size'].strip('()').split(',')
    block = r['Block Size'].strip('()').split(',')
    if int(block[0]) != 16 or r['validation_kernel'] not in KERNELS:
        continue
    key = (r['validation_kernel'], int(grid[0]) * 16)
    ncu.setdefault(key, float(r['dram__sectors_read.sum'].replace(',', '')) * 32)
for kernel in KERNELS:
    for w in sorted({w for (k, w) in ncu if k == kernel} | {1024, 4096}):
        row('H100', kernel, 16, w, analyze(kernel, 16, w, 'h100-sxm'), ncu.get((kernel, w)))
