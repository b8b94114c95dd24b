#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# GPU benchmarks for docs/PERFORMANCE.md, in one go (fits one 10-minute device call): the device
# field multiplication variants, NTT 2^20 .. 2^27 and the H step at 2^27 on the CUDA backend, the
# CPU figures of the same commands for the ratio, then the MSM part (SKIP_MSM=1 leaves it out).
# Output: JSON lines (cuzk-bench --json) plus the device info; exit 77 without a device.
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
"$BENCH" ntt --backend cuda --log-n 20 --json --filter='f[rp]_mul*'
for l in 20 22 24 26; do
    "$BENCH" ntt --backend cuda --log-n $l --json --iters 5 --warmup 1 --filter='*ntt_bellperson*'
done
"$BENCH" ntt --backend cuda --log-n 27 --json --iters 3 --warmup 1 --filter='*_resident'
"$BENCH" ntt --backend cuda --log-n 27 --json --iters 3 --warmup 1 --filter='ntt_bellperson'
"$BENCH" ntt --backend cuda --log-n 27 --json --iters 3 --warmup 1 --filter='h_bellperson*'

echo "== CPU, same commands (for the GPU/CPU ratio)"
"$BENCH" ntt --log-n 24 --json --iters 3 --warmup 1 --filter='ntt_bellperson'
"$BENCH" ntt --log-n 24 --json --iters 1 --warmup 0 --filter='h_bellperson'
"$BENCH" ntt --log-n 27 --json --iters 1 --warmup 0 --filter='ntt_bellperson'

if [ -n "${SKIP_MSM:-}" ]; then
    exit 0
fi
echo "== MSM (random scalars; CUDA events: total = transfers included, compute = kernels only;"
echo "   --resident = bases uploaded once, the SRS case; --pinned = host arrays in pinned memory;"
echo "   scripts/gpu-msm.sh has the tuning sweeps and the profile)"
NT=$(nproc)
"$BENCH" msm --backend cuda --group g1 --log-n 20 --threads "$NT" --check --iters 5 --warmup 1 --json
for l in 20 22 24; do
    "$BENCH" msm --backend cuda --group g1 --log-n $l --resident --pinned --threads "$NT" --iters 5 \
        --warmup 1 --json
done
"$BENCH" msm --backend cuda --group g1 --log-n 24 --pinned --threads "$NT" --iters 3 --warmup 1 --json
"$BENCH" msm --backend cuda --group g1 --log-n 26 --resident --pinned --threads "$NT" --iters 2 --json
"$BENCH" msm --backend cuda --group g2 --log-n 20 --resident --pinned --threads "$NT" --iters 3 --warmup 1 \
    --json
"$BENCH" msm --backend cuda --group g1 --log-n 24 --op batch-add --density 50 --resident --pinned \
    --threads "$NT" --iters 5 --warmup 1 --json
"$BENCH" msm --backend cuda --group g2 --log-n 20 --op batch-add --density 50 --resident --pinned \
    --threads "$NT" --iters 3 --json
echo "== MSM on the CPU, all cores (for the GPU/CPU ratio)"
"$BENCH" msm --group g1 --log-n 24 --threads "$NT" --iters 1 --json
"$BENCH" msm --group g2 --log-n 20 --threads "$NT" --iters 1 --json
