#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Device MSM / batch addition: GPU-vs-CPU tests and benchmarks on a CUDA host (issue 4), one
# call of the device tool. Usage:
#   scripts/gpu-msm.sh [check] [bench] [tune] [cpu]      (default: check and bench)
# Uses the binaries of $BUILD (default build/gmsm) when they exist (built elsewhere and carried),
# else builds them with make. Logs go to $OUT (default ./gpu-out). Debian runtime libraries the
# host lacks (libcjson, libgmp, libssl) are taken from .debs/*.deb when present (dpkg -x into a
# private prefix, used only if the binaries miss a library).
set -u
BUILD=${BUILD:-build/gmsm}
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
modes=${*:-check bench}
T=$BUILD/bin/cuzk-test
B=$BUILD/bin/cuzk-bench
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

if [ -d .debs ] && ls .debs/*.deb >/dev/null 2>&1; then
    mkdir -p /tmp/cuzk-debs
    for f in .debs/*.deb; do dpkg -x "$f" /tmp/cuzk-debs; done
fi
# Carried binaries may not run here (other CPU, other libraries): rebuild then.
if [ -x "$B" ] && ldd "$B" | grep -q "not found"; then
    export LD_LIBRARY_PATH=/tmp/cuzk-debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if [ -x "$B" ] && ! "$B" info >"$OUT/info.txt" 2>&1; then
    log "carried binaries fail here (rc $?): rebuilding"
    BUILD=build/gpu-local
    T=$BUILD/bin/cuzk-test
    B=$BUILD/bin/cuzk-bench
fi
if [ ! -x "$T" ] || [ ! -x "$B" ]; then
    export CPATH=/tmp/cuzk-debs/usr/include${CPATH:+:$CPATH}
    export LIBRARY_PATH=/tmp/cuzk-debs/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}
    log "building $BUILD"
    make -j"$(nproc)" BUILD="$BUILD" >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
if ldd "$B" | grep -q "not found"; then
    export LD_LIBRARY_PATH=/tmp/cuzk-debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
ldd "$B" | grep "not found" && { log "missing libraries"; exit 1; }
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv | tee -a "$OUT/summary.txt"
NT=$(nproc)

for m in $modes; do
case $m in
check)
    log "tests gpu_msm* (device vs CPU)"
    timeout 300 "$T" --filter='gpu_msm*' --timeout=280 2>&1 | tee "$OUT/test.log" | grep -v '^#' | tee -a "$OUT/summary.txt"
    ;;
bench)
    # Random scalars; total = CUDA events with transfers, compute = kernels only.
    run() { log "cuzk-bench msm $*"; timeout 240 "$B" msm "$@" 2>&1 | tee -a "$OUT/bench.log" | tail -4 | tee -a "$OUT/summary.txt"; }
    run --backend cuda --group g1 --log-n 20 --threads "$NT" --check --iters 5 --warmup 1
    run --backend cuda --group g1 --log-n 20 --resident --pinned --threads "$NT" --iters 5 --warmup 1
    run --backend cuda --group g1 --log-n 22 --resident --pinned --threads "$NT" --iters 5 --warmup 1
    run --backend cuda --group g1 --log-n 24 --pinned --threads "$NT" --iters 3 --warmup 1
    CUZK_GPU_MSM_PROFILE=1 run --backend cuda --group g1 --log-n 24 --resident --pinned --threads "$NT" --iters 5 --warmup 1
    CUZK_GPU_MSM_SEG=64 CUZK_GPU_MSM_PROFILE=1 run --backend cuda --group g1 --log-n 24 --resident --pinned --threads "$NT" --iters 3
    run --backend cuda --group g1 --log-n 26 --resident --pinned --threads "$NT" --iters 2
    run --backend cuda --group g2 --log-n 16 --threads "$NT" --check --iters 3
    CUZK_GPU_MSM_PROFILE=1 run --backend cuda --group g2 --log-n 20 --resident --pinned --threads "$NT" --iters 3 --warmup 1
    run --backend cuda --group g1 --log-n 24 --op batch-add --density 50 --resident --pinned --threads "$NT" --iters 5 --warmup 1
    run --backend cuda --group g1 --log-n 24 --op batch-add --density 50 --pinned --threads "$NT" --iters 3
    run --backend cuda --group g2 --log-n 20 --op batch-add --density 50 --resident --pinned --threads "$NT" --iters 3
    ;;
tune)
    # Phase profile (CUDA events between kernels, one stderr line per call) and the knobs
    # (env): window CUZK_GPU_MSM_WINDOW, level-0 chunk CUZK_GPU_MSM_CHUNK, segment CUZK_GPU_MSM_SEG.
    run() { log "$(env | grep -o 'CUZK_GPU_MSM_[A-Z0-9]*=[0-9a-z]*' | grep -v PROFILE | tr '\n' ' ')cuzk-bench msm $*"; timeout 240 "$B" msm "$@" --threads "$NT" 2>&1 | tee -a "$OUT/tune.log" | grep -E "^msm profile|cuda events" | tail -2 | tee -a "$OUT/summary.txt"; }
    export CUZK_GPU_MSM_PROFILE=1
    for n in 20 22 24; do run --backend cuda --group g1 --log-n $n --resident --iters 2; done
    for c in 16 17 18 19 21 22; do CUZK_GPU_MSM_WINDOW=$c run --backend cuda --group g1 --log-n 24 --resident --iters 2; done
    for l in 16 32 128; do CUZK_GPU_MSM_CHUNK=$l run --backend cuda --group g1 --log-n 24 --resident --iters 2; done
    for s in 16 64; do CUZK_GPU_MSM_SEG=$s run --backend cuda --group g1 --log-n 24 --resident --iters 2; done
    run --backend cuda --group g2 --log-n 20 --resident --iters 2
    unset CUZK_GPU_MSM_PROFILE
    ;;
cpu)
    # The CPU on the same host, all cores, for the GPU/CPU ratio at the benchmark sizes.
    run() { log "cuzk-bench msm $*"; timeout 240 "$B" msm "$@" 2>&1 | tee -a "$OUT/bench.log" | tail -2 | tee -a "$OUT/summary.txt"; }
    run --backend cpu --group g1 --log-n 24 --threads "$NT" --iters 1
    run --backend cpu --group g2 --log-n 20 --threads "$NT" --iters 1
    run --backend cpu --group g1 --log-n 24 --op batch-add --density 50 --threads "$NT" --iters 3
    ;;
esac
done
log done
