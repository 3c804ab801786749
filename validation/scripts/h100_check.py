#!/usr/bin/env python3
"""First accuracy check of `wgperf predict` against our H100 timings.

Predicts a fixed subset of microbench/results/h100-2026-11-22/validation/
validation-h100.csv (5 regular kernels and the matrix multiplies, two input
sizes, the dataset's block sizes) with the CUDA validation kernels, and
prints measured vs predicted time and the MAPE.  A developer tool until
`wgperf-validate` (issue 7) exists; run from the repository root after a
build:  python3 validation/scripts/h100_check.py
"""
import csv, json, math, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
W = os.path.join(ROOT, 'build', 'bin', 'wgperf')
CSV = os.path.join(ROOT, 'microbench/results/h100-2026-11-22/validation/validation-h100.csv')
WANT = {('vectorAdd', None), ('dotProd', None), ('matrix_sum_coalesced', 16), ('matrix_sum_coalesced', 32),
        ('matrix_sum_normal', 16), ('matMul_gpu', 16), ('matMul_gpu_uncoalesced', 16),
        ('matMul_gpu_sharedmem', 8), ('matMul_gpu_sharedmem', 16), ('matMul_gpu_sharedmem', 32),
        ('matMul_gpu_sharedmem_uncoalesced', 16)}

def main():
    tmp = tempfile.mkdtemp(prefix='wgperf-h100-')
    models, out = {}, []
    for r in csv.DictReader(open(CSV)):
        k, bx, by, n = r['kernel'], int(r['block_x']), int(r['block_y']), int(r['input_size'])
        tw = bx if by > 1 else None
        if (k, tw) not in WANT:
            continue
        if k in ('vectorAdd', 'dotProd') and n not in (1 << 20, 1 << 24):
            continue
        if k.startswith('mat') and n not in (1024, 4096):
            continue
        key = (k, tw if tw else math.isqrt(bx))
        if key not in models:
            path = os.path.join(tmp, '%s_%d.json' % key)
            subprocess.run([W, 'extract', os.path.join(ROOT, 'validation/kernels/%s.cu' % k), '-o', path, '--',
                            '-DTW=%d' % key[1]], capture_output=True, check=True)
            models[key] = path
        arg = ['--arg', ('N=%d' if k in ('vectorAdd', 'dotProd') else 'W=%d') % n]
        glob = '%d,%d' % (int(r['grid_x']) * bx, int(r['grid_y']) * by) if by > 1 else str(int(r['grid_x']) * bx)
        loc = '%d,%d' % (bx, by) if by > 1 else str(bx)
        p = subprocess.run([W, 'predict', models[key], '--global', glob, '--local', loc, *arg, '--json'],
                           capture_output=True, text=True)
        if p.returncode:
            print('error:', k, p.stderr.strip()[:200])
            continue
        j = json.loads(p.stdout)
        out.append((k, bx, by, n, float(r['duration_s']) * 1e6, j['time_us'], j['breakdown']['bound']))
    for k, bx, by, n, meas, pred, bound in out:
        print('%-34s %4dx%-3d %9d  measured %10.2f us  predicted %10.2f us  ratio %5.2f  %s' %
              (k, bx, by, n, meas, pred, pred / meas, bound))
    errs = [abs(p - m) / m for _, _, _, _, m, p, _ in out]
    print('MAPE %.1f%% over %d rows' % (100 * sum(errs) / len(errs), len(errs)))

if __name__ == '__main__':
    sys.exit(main())
