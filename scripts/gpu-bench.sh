#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# GPU benchmarks for docs/PERFORMANCE.md, in one go (fits one 10-minute device call): the device
# field multiplication variants, NTT 2^20 .. 2^27 and the H step at 2^27 on the CUDA backend, the
# CPU figures of the same commands for the ratio, then the MSM part. Output: JSON lines
# (cuzk-bench --json) plus the device info; exit 77 without a device.
#   scripts/gpu-bench.sh                  build with make in $BUILD (default build), then run
#   NO_BUILD=1 BENCH=... scripts/gpu-bench.sh
set -eu
BUILD=${BUILD:-build}
BENCH=${BENCH:-$BUILD/bin/cuzk-bench}
if [ -z "${NO_BUILD:-}" ]; then
    make -j"${JOBS:-$(nproc)}" BUILD="$BUILD" "$BENCH"
fi
"$BENCH" info
if ! "$BENCH" info | grep -q '^backend cuda: compiled, [1-9]'; then
    echo "gpu-bench: no CUDA device (or CUDA not compiled in): skipped"
    exit 77
fi
git rev-parse --short=12 HEAD 2>/dev/null || true
date -u +%Y-%m-%dT%H:%M:%SZ

echo "== NTT (device-resident = kernels only; otherwise host arrays, transfers included)"
"$BENCH" ntt --backend cuda --log-n 20 --json --iters 5 --filter='fr_mul*' 
"$BENCH" ntt --backend cuda --log-n 20 --json --iters 5 --filter='fp_mul*'
for l in 20 22 24 26; do
    "$BENCH" ntt --backend cuda --log-n $l --json --iters 5 --warmup 1 --filter='*ntt_bellperson*'
done
"$BENCH" ntt --backend cuda --log-n 27 --json --iters 3 --warmup 1

echo "== CPU, same commands (for the GPU/CPU ratio)"
"$BENCH" ntt --log-n 24 --json --iters 3 --warmup 1 --filter='ntt_bellperson'
"$BENCH" ntt --log-n 24 --json --iters 1 --warmup 0 --filter='h_bellperson'
"$BENCH" ntt --log-n 27 --json --iters 1 --warmup 0 --filter='ntt_bellperson'

echo "== MSM"
# (the MSM benchmarks of src/gpu/msm*.cu go here)
