#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# PoRep-shaped partition (cuzk-bench porep-shape), host-memory pinning and MSM variants on a CUDA
# host, in one call of the device tool (issue 4). Usage:
#   scripts/gpu-porep.sh pack                 here: strip the binaries of $BUILD into build/gpu-carry
#                                             with the shared libraries they need (the device image
#                                             lacks libcjson, libgrpc, libprotobuf-c, abseil ...), and
#                                             build/gpu-carry.tar.xz of it (carry that; unpacked there)
#   scripts/gpu-porep.sh [check] [zkey] [compare] [prover] [stream] [full] [ratio] [pin] [field] [msm] [msmsizes] [msmtune] [msmenv] [msmsmall] [tests] [ncu] [ntt] [workers]
#                                             [prefetch] [badd] [preinv] [red2] [fp2ka] [post] [porep] [synth] [pce] [prefault] [pcedaemon]
#                                             [matvec] [engtests] [together]
#                                             on the device
# Logs go to $OUT (default ./gpu-out); the last lines printed are a summary.
set -u
OUT=${OUT:-gpu-out}
CARRY=${CARRY:-build/gpu-carry}
modes=${*:-compare full ratio pin}

if [ "$modes" = pack ]; then
    BUILD=${BUILD:-build/gpu-port}
    # A binary older than the library was linked before the library's last rebuild (e.g. by
    # `make msm-variant` after a source change): it would carry old kernels. Refuse it.
    for b in cuzk-bench cuzk-test cuzk; do
        if [ "$BUILD/lib/libcuzk.a" -nt "$BUILD/bin/$b" ]; then
            echo "pack: $BUILD/bin/$b is older than $BUILD/lib/libcuzk.a; run make all first" >&2
            exit 1
        fi
    done
    rm -rf "$CARRY" && mkdir -p "$CARRY/bin" "$CARRY/lib" "$CARRY/rt" || exit 1
    for b in cuzk-bench cuzk-test cuzk; do strip -o "$CARRY/bin/$b" "$BUILD/bin/$b" || exit 1; done
    # The client commands' gRPC module, found by cuzk-bench in ../lib.
    strip -o "$CARRY/lib/cuzk-bench-grpc.so" "$BUILD/lib/cuzk-bench-grpc.so" || exit 1
    # MSM variants linked beside the main binary (bin/cuzk-bench-<variant>), timed by mode msm.
    for v in "$BUILD"/bin/cuzk-bench-*; do
        [ -x "$v" ] && { strip -o "$CARRY/bin/$(basename "$v")" "$v" || exit 1; }
    done
    # This tree's scripts, for a device copy of an older tree (cp build/gpu-carry/scripts/* scripts/).
    mkdir -p "$CARRY/scripts" && cp scripts/*.sh "$CARRY/scripts/" || exit 1
    # The fixtures (snarkjs keys for gpu_snarkjs_prove and mode check; the Filecoin verifying keys
    # and vectors the unit tests also read): CUZK_FIXTURES there.
    mkdir -p "$CARRY/fixtures" &&
        cp -r "${FIXTURES:-../shared/fixtures}/snarkjs" "${FIXTURES:-../shared/fixtures}/filecoin" \
            "$CARRY/fixtures/" || exit 1
    for b in "$CARRY"/bin/* "$CARRY"/lib/*; do ldd "$b"; done | awk '$3 ~ /^\// {print $3}' | sort -u |
        grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
        while read -r l; do cp -L "$l" "$CARRY/rt/"; done
    # The working tree plus carried files must stay under 64 MiB: carry the xz archive. The
    # binaries share most of their bytes (static CUDA runtime), which a dictionary larger than
    # the tree finds: 242 MiB of variants -> 14 MiB instead of 74 MiB.
    tar -cf - -C "$(dirname "$CARRY")" "$(basename "$CARRY")" |
        xz -T1 --lzma2=preset=6,dict=256MiB >"$CARRY.tar.xz" || exit 1
    du -sh "$CARRY" "$CARRY.tar.xz"
    exit 0
fi
if [ ! -x "$CARRY/bin/cuzk-bench" ] && [ -f "$CARRY.tar.xz" ]; then
    tar -xJf "$CARRY.tar.xz" -C "$(dirname "$CARRY")" || exit 1
fi

mkdir -p "$OUT"
B=$CARRY/bin/cuzk-bench
T=$CARRY/bin/cuzk-test
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }
if ldd "$B" | grep -q "not found"; then
    export LD_LIBRARY_PATH=$PWD/$CARRY/rt${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
ldd "$B" | grep "not found" && { log "missing libraries"; exit 1; }
[ -d "$CARRY/fixtures" ] && export CUZK_FIXTURES=${CUZK_FIXTURES:-$PWD/$CARRY/fixtures}
"$B" info >"$OUT/info.txt" 2>&1 || { log "cuzk-bench info failed"; cat "$OUT/info.txt"; exit 1; }
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm,driver_version --format=csv |
    tee -a "$OUT/summary.txt"
free -g | head -2 | tee -a "$OUT/summary.txt"
NT=$(nproc)
# Each step: a time limit, output to its log, the lines that matter to the summary.
step() {
    local lim=$1 name=$2
    shift 2
    log "$name: $*"
    timeout "$lim" "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    grep -E "^(prove|resident|  G1|    G1|proofs|porep-shape|  gener|  host|host memory)|error|DIFFER" \
        "$OUT/$name.log" | tee -a "$OUT/summary.txt"
    log "$name rc=$rc"
}

for m in $modes; do
case $m in
tests)
    step 200 tests "$T" --filter='gpu_msm*' --timeout=190
    ;;
check)
    # scripts/gpu-check.sh on the carried binaries: all gpu_* tests, whole proofs of built-in
    # circuits and of the snarkjs fixture keys (kept in $OUT/proofs for snarkjs on the dev VM).
    step "${CHECK_LIMIT:-500}" check env NO_BUILD=1 BENCH="$B" TESTS="$T" PROOF_DIR="$OUT/proofs" scripts/gpu-check.sh
    grep -E "^(ok|not ok)|tests," "$OUT/check.log" | tee -a "$OUT/summary.txt"
    ;;
zkey)
    # snarkjs keys on the CPU and the cuda backend and through a GPU daemon (scripts/gpu-zkey.sh):
    # the poseidon fixture, then the keys named by ZKEYS ("zkey:wtns ...", e.g. the 2^16 chain).
    for zw in "$CUZK_FIXTURES/snarkjs/poseidon.zkey:$CUZK_FIXTURES/snarkjs/poseidon.wtns" ${ZKEYS:-}; do
        step 280 "zkey-$(basename "${zw%%:*}" .zkey)" env BIN="$CARRY/bin" OUT="$OUT" \
            scripts/gpu-zkey.sh "${zw%%:*}" "${zw##*:}"
        grep -E "^(ok|not ok)|repeat|daemon job" "$OUT/zkey-$(basename "${zw%%:*}" .zkey).log" |
            tee -a "$OUT/summary.txt"
    done
    ;;
together)
    # Synthesis and the GPU prover on one host: PoRep 32 GiB partitions synthesised through their
    # PCE one at a time on all threads (the synthesis an engine runs beside its GPU worker) alone,
    # the GPU proving PoRep-shaped partitions back to back alone (one worker, resident set), then
    # both at once: the synthesis repeated in the background for as long as the GPU run lasts,
    # each round's start and end time printed (the GPU run's start, end and its parameter
    # generation tell which rounds ran beside the proving).
    PF=${PCE_FILE:-/tmp/cuzk-porep3.pce}
    GPU_ARGS="--backend cuda --mode prove --pinned-params --keep-resident --continuous --workers 1
        --repeat ${TG_REPEAT:-30} --threads $NT --h-rows ${TG_ROWS:-0}"
    rm -f "$PF"
    step 300 tg-extract "$B" synth-only --circuit fil-porep:3 --mode pce-ab --repeat 1 \
        --threads "$NT" --pce-file "$PF"
    grep -E '^(extract|pce file)' "$OUT/tg-extract.log" | tee -a "$OUT/summary.txt"
    step 120 tg-synth "$B" synth-only --circuit fil-porep:3 --mode pce-ab --repeat 5 \
        --threads "$NT" --pce-file "$PF"
    grep -E '^(time|  witness)' "$OUT/tg-synth.log" | sed 's/^/synthesis alone: /' |
        tee -a "$OUT/summary.txt"
    step 200 tg-gpu "$B" porep-shape $GPU_ARGS
    grep -E '^workers continuous' "$OUT/tg-gpu.log" | sed 's/^/gpu alone: /' |
        tee -a "$OUT/summary.txt"
    rm -f "$OUT/tg-stop"
    (
        i=0
        while [ ! -e "$OUT/tg-stop" ] && [ $i -lt 40 ]; do
            i=$((i + 1))
            t0=$(date +%s.%N)
            "$B" synth-only --circuit fil-porep:3 --mode pce-ab --repeat 12 --threads "$NT" \
                --pce-file "$PF" >"$OUT/tg-bg-$i.log" 2>&1
            echo "synthesis round $i: $t0 .. $(date +%s.%N)"
            grep -E '^(time|  witness)' "$OUT/tg-bg-$i.log" | sed "s/^/synthesis round $i: /"
        done >"$OUT/tg-bg.txt"
    ) &
    bg=$!
    sleep 20 # the background synthesis past its PCE read and first (unsized) repeat
    log "gpu run starts at $(date +%s.%N)"
    step 200 tg-both "$B" porep-shape $GPU_ARGS
    log "gpu run ends at $(date +%s.%N)"
    grep -E '^  generated' "$OUT/tg-both.log" | tee -a "$OUT/summary.txt"
    touch "$OUT/tg-stop"
    wait "$bg"
    grep -E '^workers continuous' "$OUT/tg-both.log" | sed 's/^/gpu beside synthesis: /' |
        tee -a "$OUT/summary.txt"
    tee -a "$OUT/summary.txt" <"$OUT/tg-bg.txt"
    rm -f "$PF" "$OUT"/tg-bg-*.log
    ;;
engtests)
    # Every engine test (the cuda ones run here, not in CI).
    step 300 engtests "$T" --filter='engine_*' --timeout=290
    grep -E "^(ok|not ok)|tests," "$OUT/engtests.log" | tee -a "$OUT/summary.txt"
    ;;
alltests)
    # Every GPU test (field, NTT, H, MSM, batch addition, backends, errors).
    step 400 alltests "$T" --filter='gpu_*' --timeout=390
    grep -E "^(ok|not ok)|tests," "$OUT/alltests.log" | tee -a "$OUT/summary.txt"
    ;;
prover)
    # The prover (cuzk_groth16_prove) on a resident set, full shape, A/B in one run: as built;
    # without transparent huge pages (CUZK_THP=0); with the H step and H MSM as separate calls
    # (CUZK_PROVER_H_UNFUSED=1); with c uploaded instead of made on the device (hostc); with one
    # or four pinning threads (pin1, pin4; CUZK_GPU_PIN_THREADS); with the NTT of before the
    # register rounds and the tiled bit reversal (ntt0); with a, b, c in fresh memory per proof
    # instead of the a/b/c pool (nopool); with the NTT's Montgomery twiddle products instead of
    # Shoup's (ntt5, CUZK_GPU_MONT=5). Host trace of the H step and device timing lines; then
    # CPU proof = CUDA proofs at 2^-6.
    for v in ${PROVER_VARIANTS:-default thp0 unfused}; do
        thp=; uf=; hc=; pt=; rx=; br=; np=; mont=
        [ $v = thp0 ] && thp=0
        [ $v = ntt5 ] && mont=5
        [ $v = nopool ] && np=--no-abc-pool
        [ $v = ntt0 ] && rx=1 && br=0
        [ $v = unfused ] && uf=1
        [ $v = hostc ] && hc=1
        [ $v = pin1 ] && pt=1
        [ $v = pin4 ] && pt=4
        CUZK_THP=$thp CUZK_PROVER_H_UNFUSED=$uf CUZK_PROVER_H_HOST_C=$hc CUZK_GPU_PIN_THREADS=$pt \
            CUZK_GPU_NTT_RADIX=$rx CUZK_GPU_NTT_BITREV=$br CUZK_GPU_MONT=$mont \
            CUZK_TIMING=1 CUZK_GPU_H_TRACE=1 step 300 \
            "prover-$v" "$B" porep-shape --backend cuda --mode prove --keep-resident \
            --repeat "${FULL_REPEAT:-3}" --threads "$NT" $np
        grep -E '^gpu h:|"phase":"ntt_h"|^a/b/c pool' "$OUT/prover-$v.log" | head -8 |
            tee -a "$OUT/summary.txt"
    done
    step 200 compare6 "$B" porep-shape --scale 2^-6 --backend cuda --compare --keep-resident \
        --repeat 2 --threads "$NT"
    ;;
stream)
    # Parameters not resident (docs/PERFORMANCE.md "Parameters that are not resident"): the test
    # of the streamed calls; proofs equal with every call streamed (2^-6, chunks of 65536);
    # G1 2^26 over pinned host bases, one upload per call (STREAM=0) against streamed; the
    # partition with its queries in pinned host memory, streamed, on the whole device and on
    # 24 / 16 GiB limits (CUZK_GPU_MEM_LIMIT); then without the side lane (CUZK_GPU_LANES=1)
    # and without device gathers (CUZK_GPU_DEVICE_GATHER=0) for the A/B of runs U1-U5.
    for t in gpu_msm_stream gpu_side_lane gpu_msm_host_idx; do
        step 200 "stream-test-$t" "$T" --filter="$t" --timeout=190
    done
    step 150 stream-compare env CUZK_GPU_MSM_STREAM=65536 "$B" porep-shape --scale 2^-6 \
        --backend cuda --compare --threads "$NT"
    step 150 stream-compare-pinned "$B" porep-shape --scale 2^-6 --backend cuda --compare \
        --pinned-params --threads "$NT"
    for v in 0 "" 0 ""; do
        step 200 "stream-msm${v:-auto}" env CUZK_GPU_MSM_STREAM=$v "$B" msm --backend cuda \
            --group g1 --log-n 26 --pinned --iters 3 --warmup 1 --threads "$NT"
        grep "cuda events" "$OUT/stream-msm${v:-auto}.log" | tee -a "$OUT/summary.txt"
    done
    for lim in "" 24G 16G; do
        step 300 "stream-porep${lim:-all}" env CUZK_GPU_MEM_LIMIT=$lim CUZK_TIMING=1 "$B" \
            porep-shape --backend cuda --mode prove --pinned-params --repeat 2 --threads "$NT"
    done
    for v in LANES=1 DEVICE_GATHER=0 DEVICE_GATHER=tails; do
        step 300 "stream-porep-${v//=/-}" env "CUZK_GPU_$v" CUZK_TIMING=1 "$B" porep-shape \
            --backend cuda --mode prove --pinned-params --repeat 2 --threads "$NT"
    done
    ;;
workers)
    # Prover workers proving back to back on one device (porep-shape --continuous, the engine's
    # steady state), resident set: two workers with and without the staging of a and b
    # (CUZK_GPU_H_STAGE=0), with 4 and 0 precomputed H rows, then one worker; the rate between
    # the first and the last completion (docs/PERFORMANCE.md "Two workers back to back").
    # Proofs must be equal; first the same at 2^-6.
    step 120 workers-small "$B" porep-shape --scale 2^-6 --backend cuda --mode prove \
        --keep-resident --continuous --workers 2 --repeat 3 --threads "$NT"
    for v in "4 1" "4 0" "0 1" "0 0"; do
        set -- $v
        CUZK_GPU_H_STAGE=$2 step 150 "workers-rows$1-stage$2" "$B" porep-shape \
            --backend cuda --mode prove --pinned-params --keep-resident --continuous --workers 2 \
            --repeat "${FULL_REPEAT:-4}" --threads "$NT" --h-rows "$1"
    done
    step 120 workers-one "$B" porep-shape --backend cuda --mode prove --pinned-params \
        --keep-resident --continuous --workers 1 --repeat "${FULL_REPEAT:-4}" --threads "$NT" \
        --h-rows 4
    grep -hE '^workers continuous|staged on the device' "$OUT"/workers-*.log | tee -a "$OUT/summary.txt"
    ;;
prefetch)
    # One prover worker proving back to back (porep-shape --continuous --workers 1), resident
    # set: its next partition's a and b prefetched under its H MSM, or not (--no-prefetch), with
    # 0 and 4 precomputed H rows, alternating (docs/PERFORMANCE.md "One worker: a and b
    # prefetched"). Proofs must be equal; first the same at 2^-6.
    step 120 prefetch-small "$B" porep-shape --scale 2^-6 --backend cuda --mode prove \
        --keep-resident --continuous --workers 1 --repeat 3 --threads "$NT"
    for v in "0 off" "0 on" "4 on" "4 off"; do
        set -- $v
        pf=""
        [ "$2" = off ] && pf=--no-prefetch
        step 150 "prefetch-rows$1-$2" "$B" porep-shape --backend cuda --mode prove \
            --pinned-params --keep-resident --continuous --workers 1 \
            --repeat "${FULL_REPEAT:-5}" --threads "$NT" --h-rows "$1" $pf
    done
    grep -HE '^workers continuous|staged on the device' "$OUT"/prefetch-*.log | tee -a "$OUT/summary.txt"
    ;;
badd)
    # The bitmap batch additions with the same count of set bits per thread (default) against W
    # words per thread (CUZK_GPU_BADD_BALANCE=0): the resident partition, one worker, 4 H rows,
    # prefetching, then G1 2^24 and G2 2^20 at 50 % and 25 %, alternating (docs/PERFORMANCE.md
    # "Batch additions with the same count of bits per thread").
    for bal in ${BADD_ORDER:-0 1}; do
        CUZK_GPU_BADD_BALANCE=$bal step 150 "badd-part-$bal" "$B" porep-shape --backend cuda \
            --mode prove --pinned-params --keep-resident --continuous --workers 1 \
            --repeat "${FULL_REPEAT:-5}" --threads "$NT" --h-rows 4
    done
    grep -HE '^workers continuous|batch_add|msm_b_g2' "$OUT"/badd-part-*.log | tee -a "$OUT/summary.txt"
    for d in 50 25; do
        for bal in ${BADD_MICRO:-0 1 0 1}; do
            CUZK_GPU_BADD_BALANCE=$bal step 60 "badd-g1-$d-$bal" "$B" msm --backend cuda --group g1 \
                --log-n 24 --op batch-add --density "$d" --resident --pinned --check --iters 5
            CUZK_GPU_BADD_BALANCE=$bal step 60 "badd-g2-$d-$bal" "$B" msm --backend cuda --group g2 \
                --log-n 20 --op batch-add --density "$d" --resident --pinned --check --iters 5
        done
    done
    grep -HE 'batch|compute|ok|MISMATCH' "$OUT"/badd-g*.log | tee -a "$OUT/summary.txt"
    ;;
preinv)
    # gm_precompute's rows with the binary-GCD inversion (the main binary) against the
    # exponentiation (cuzk-bench-fermat, built with make msm-variant VARIANT=fermat
    # VARIANT_SRC=src/gpu/msm_g1.cu VARIANT_FLAGS=-DGM_PRE_INV_FERMAT=1), alternating
    # (docs/PERFORMANCE.md "Rows of precomputed bases with the binary-GCD inversion").
    for round in $(seq "${PRE_ROUNDS:-2}"); do
        for v in "$B" "$CARRY/bin/cuzk-bench-fermat"; do
            [ -x "$v" ] || continue
            n=$(basename "$v")
            step 100 "preinv24-$n-$round" "$v" msm --backend cuda --group g1 --log-n 24 \
                --resident --pinned --precompute 22 --check --threads "$NT" --iters 2
            step 100 "preinv26-$n-$round" "$v" msm --backend cuda --group g1 --log-n 26 \
                --resident --pinned --precompute 0 --rows 4 --threads "$NT" --iters 1
        done
    done
    grep -HE 'precompute:|check:|compute \(' "$OUT"/preinv*.log | tee -a "$OUT/summary.txt"
    ;;
red2)
    # The bucket reduction in two passes (the default for G1 above 2^16 points, segments of 32)
    # against one pass (CUZK_GPU_MSM_RED2=0, segments of 64), alternating: G1 2^24, the H MSM's
    # shape (2^27 over 4 precomputed rows), then the resident partition, new first then old
    # (docs/PERFORMANCE.md "The bucket reduction in two passes", runs I1-I3).
    for round in $(seq "${RED2_ROUNDS:-2}"); do
        for r in 1 0; do
            s=32 && [ "$r" = 0 ] && s=64
            CUZK_GPU_MSM_RED2=$r CUZK_GPU_MSM_SEG=$s CUZK_GPU_MSM_PROFILE=1 step 100 \
                "red2-g1-24-$r-$round" "$B" msm --backend cuda --group g1 --log-n 24 --resident \
                --pinned --threads "$NT" --iters 3 --warmup 1
            CUZK_GPU_MSM_RED2=$r CUZK_GPU_MSM_SEG=$s CUZK_GPU_MSM_PROFILE=1 step 150 \
                "red2-g1-27-$r-$round" "$B" msm --backend cuda --group g1 --log-n 27 --resident \
                --pinned --precompute 0 --rows 4 --threads "$NT" --iters 2 --warmup 1
        done
    done
    for r in 1 0; do
        s=32 && [ "$r" = 0 ] && s=64
        CUZK_GPU_MSM_RED2=$r CUZK_GPU_MSM_SEG=$s step 200 "red2-part-$r" "$B" porep-shape \
            --backend cuda --mode prove --pinned-params --keep-resident --continuous --workers 1 \
            --repeat "${FULL_REPEAT:-5}" --threads "$NT" --h-rows 4
    done
    grep -HE 'msm profile|compute \(|^workers continuous' "$OUT"/red2-*.log | tee -a "$OUT/summary.txt"
    ;;
fp2ka)
    # G2 over the wide Fp2 products (CUZK_GPU_FP2_KA: three wide products, two reductions)
    # against the default, from the variant built here beside the main binaries with
    #   make BUILD=build/gpu-port OPT='-O3 -march=sapphirerapids' msm-variant VARIANT=fp2ka \
    #     VARIANT_SRC='src/gpu/msm_g2.cu src/gpu/batch_add.cu' VARIANT_FLAGS=-DCUZK_GPU_FP2_KA=1
    # then packed: its results against the CPU, the G2 batch addition at the partition's B scale
    # and the G2 MSM at its tail scale alternating, then the resident partition (one worker,
    # prefetching, HROWS H rows) alternating.
    V=$CARRY/bin/cuzk-bench-fp2ka
    [ -x "$V" ] || { log "fp2ka: no $V (build and pack the variant first)"; continue; }
    step 60 fp2ka-check-msm "$V" msm --backend cuda --group g2 --log-n 18 --resident --check
    step 60 fp2ka-check-badd "$V" msm --backend cuda --group g2 --log-n 20 --op batch-add \
        --density 50 --resident --check
    for r in 1 2; do
        for b in "$B" "$V"; do
            k=$(basename "$b")-$r
            step 90 "fp2ka-badd-$k" "$b" msm --backend cuda --group g2 --log-n 24 --op batch-add \
                --density 47.5 --resident --pinned --iters 5 --warmup 1
            CUZK_GPU_MSM_PROFILE=1 step 90 "fp2ka-msm21-$k" "$b" msm --backend cuda --group g2 \
                --log-n 21 --resident --pinned --iters 5 --warmup 1
        done
    done
    grep -HE 'median|accum|reduce|ok|MISMATCH' "$OUT"/fp2ka-*.log | tee -a "$OUT/summary.txt"
    r=0
    for b in "$B" "$V" "$B" "$V"; do
        r=$((r + 1))
        CUZK_TIMING=1 step 130 "fp2ka-part-$r-$(basename "$b")" "$b" porep-shape --backend cuda \
            --mode prove --pinned-params --keep-resident --continuous --workers 1 \
            --repeat "${FULL_REPEAT:-5}" --threads "$NT" --h-rows "${HROWS:-4}"
    done
    grep -HE '^workers continuous|per partition' "$OUT"/fp2ka-part-*.log | tee -a "$OUT/summary.txt"
    ;;
post)
    # Filecoin PoSt on the device: test parameters for WinningPoSt 2 KiB (fil-post:0) and
    # WindowPoSt 2 KiB (fil-post:5) made here, each proved with the cuda backend and the cpu
    # backend (the prover verifies every proof), then the daemon's PoSt test (t13: requests as
    # Curio sends them, proofs checked client-side against inputs derived apart) with the daemon
    # on the cuda backend.
    PD=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-post.XXXXXX")
    for id in ${POST_IDS:-0 5}; do
        step 120 "post-setup-$id" "$B" setup --circuit "fil-post:$id" --out "$PD/p$id" --threads "$NT"
        for be in cuda cpu cuda; do
            CUZK_TIMING=1 step 120 "post-prove-$id-$be" "$B" prove --params "$PD/p$id" \
                --circuit "fil-post:$id" --backend "$be" --threads "$NT" --repeat 3
        done
    done
    grep -HE '^  (total|synthesis)|backend|error' "$OUT"/post-prove-*.log |
        tee -a "$OUT/summary.txt"
    rm -rf "$PD"
    CUZK_TEST_BACKEND=cuda CUZK_TEST_NO_NODE=1 step 300 post-daemon tests/daemon/run.sh \
        "$CARRY/bin/cuzk" "$B" t13
    grep -E "^(ok|not ok)|daemon tests" "$OUT/post-daemon.log" | tee -a "$OUT/summary.txt"
    ;;
porep)
    # Filecoin PoRep C2 on the device: test parameters for fil-porep:ID (POREP_IDS, default 2 KiB
    # V1_1 and 512 MiB V1) made here, a synthetic partition proved with the cuda and the cpu
    # backend (the prover verifies every proof), then the daemon's PoRep test (t15: a C1 as
    # Curio sends it, checked client-side against inputs derived apart) on the cuda backend.
    PD=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-porep.XXXXXX")
    for id in ${POREP_IDS:-5 2}; do
        step 240 "porep-setup-$id" "$B" setup --circuit "fil-porep:$id" --out "$PD/p$id" --threads "$NT"
        for be in cuda cpu cuda; do
            CUZK_TIMING=1 step 180 "porep-prove-$id-$be" "$B" prove --params "$PD/p$id" \
                --circuit "fil-porep:$id" --backend "$be" --threads "$NT" --repeat 2
        done
        rm -rf "$PD/p$id"
    done
    grep -HE '^  (total|synthesis|ntt_h|msm_h)|backend|error' "$OUT"/porep-prove-*.log |
        tee -a "$OUT/summary.txt"
    rm -rf "$PD"
    CUZK_TEST_BACKEND=cuda CUZK_TEST_NO_NODE=1 step 300 porep-daemon tests/daemon/run.sh \
        "$CARRY/bin/cuzk" "$B" t15
    grep -E "^(ok|not ok)|daemon tests" "$OUT/porep-daemon.log" | tee -a "$OUT/summary.txt"
    ;;
synth)
    # Filecoin synthesis on this host's cores: SnapDeals 32 GiB on 1 thread and on all (its
    # challenges on forked systems), alternating; PoRep 32 GiB the same way (its 18 challenges).
    for t in 1 "$NT" 1 "$NT"; do
        step 120 "snap3-full-t$t" "$B" synth-only --circuit fil-snap:3 --mode full --repeat 1 \
            --threads "$t"
        grep -E '^(constraints|time|memory)' "$OUT/snap3-full-t$t.log" | tee -a "$OUT/summary.txt"
    done
    for mt in witness:1 "witness:$NT" "full:$NT" full:1; do
        md=${mt%%:*} t=${mt##*:}
        step 180 "porep3-$md-t$t" "$B" synth-only --circuit fil-porep:3 --mode "$md" --repeat 1 \
            --threads "$t"
        grep -E '^(constraints|time|memory)' "$OUT/porep3-$md-t$t.log" | tee -a "$OUT/summary.txt"
    done
    ;;
pce)
    # The PCE path against the direct one at 32 GiB on all cores, alternating (extraction once
    # per process: KEYGEN + compile; then witness + sparse products per repeat), and the engine
    # through its PCE on the CPU and CUDA backends.
    for c in ${PCE_CIRCUITS-fil-porep:3 fil-snap:3}; do
        for md in full pce full pce; do
            step 300 "pce-${c/:/}-$md" "$B" synth-only --circuit "$c" --mode "$md" --repeat 2 \
                --threads "$NT"
            grep -E '^(constraints|time|extract|  witness|memory)' "$OUT/pce-${c/:/}-$md.log" |
                tee -a "$OUT/summary.txt"
        done
    done
    # Partitions at once (an engine's synthesis workers), a and b only (a CUDA engine's).
    for mp in ab:2 pce-ab:2 pce-ab:4; do
        md=${mp%%:*} p=${mp##*:}
        step 300 "pce-par-$md-$p" "$B" synth-only --circuit fil-porep:3 --mode "$md" --repeat 2 \
            --threads "$NT" --parallel "$p"
        grep -E '^(time|extract|  witness|parallel|memory)' "$OUT/pce-par-$md-$p.log" |
            tee -a "$OUT/summary.txt"
    done
    step 120 pce-engine "$T" --filter='engine_pce*' --timeout=110
    grep -E '^(ok|not ok)' "$OUT/pce-engine.log" | tee -a "$OUT/summary.txt"
    ;;
pcedaemon)
    # The daemon on this GPU proving one 2 KiB PoRep C1 (as daemon test t15 does) with
    # synthesis.pce on and off, alternating: per proof the synthesis and total times (ms). The
    # first proof of a daemon starts the extraction (or the read of the PCE file a previous
    # daemon of this build wrote); the next ones wait for it.
    C=$CARRY/bin/cuzk
    PD=$OUT/pcedaemon
    mkdir -p "$PD/cache"
    g=$("$B" gen-vanilla --seal-proof 5 --seed 7 --out "$PD/c1.json" --json)
    SECTOR=$(printf '%s' "$g" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sector_num"])')
    for pce in ${PD_PCE:-true false true false}; do
        printf '[synthesis]\npce = %s\n[[circuits]]\nid = "porep-2k"\nbuiltin = "fil-porep:5"\n' \
            "$pce" >"$PD/cuzk.toml"
        rm -f "$PD/s"
        "$C" --listen "unix://$PD/s" --cache-dir "$PD/cache" --backend "${PD_BACKEND:-cuda}" --config "$PD/cuzk.toml" \
            >"$PD/daemon-$pce.log" 2>&1 &
        dpid=$!
        for _ in $(seq 1 300); do
            [ -S "$PD/s" ] && "$B" status --addr "unix://$PD/s" >/dev/null 2>&1 && break
            sleep 0.1
        done
        for i in $(seq 1 "${PD_N:-6}"); do
            timeout 200 "$B" single --addr "unix://$PD/s" --type porep --registered-proof 5 \
                --c1 "$PD/c1.json" --miner-id 1000 --sector-num "$SECTOR" --sector-size 2048 \
                --json >"$PD/p-$pce-$i.json" 2>&1
            python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["timings_ms"]; print("pce=%s proof %s: %s total %d ms, synthesis %d, gpu %d" % (sys.argv[2], sys.argv[3], d.get("status"), t["total"], t["synthesis"], t["gpu_compute"]))' \
                "$PD/p-$pce-$i.json" "$pce" "$i" 2>&1 | tee -a "$OUT/summary.txt"
            [ "$i" = 1 ] && sleep 8 # the extraction (or the file's read) after the first proof
        done
        "$B" status --addr "unix://$PD/s" >"$PD/status-$pce.txt" 2>&1
        kill "$dpid"
        wait "$dpid"
        grep -E "PCE|error" "$PD/daemon-$pce.log" | tail -3 | tee -a "$OUT/summary.txt"
    done
    ls -la "$PD/cache/pce" 2>&1 | tee -a "$OUT/summary.txt"
    ;;
matvec)
    # The PCE path at 32 GiB as an engine runs it (a, b, c from a pool kept between partitions,
    # systems sized from the last one): one partition on all threads (and with a, b, c afresh,
    # --fresh-abc), then partitions at once: MV_CFGS lists P[:flag...] (flags of synth-only
    # --parallel: --shared = products on one shared pool as the engine's; --witness-all = each
    # witness synthesis on all threads; B0 / P0 = env CUZK_SYNTH_BALANCE / PLACE=0). The PCE is
    # extracted once and read back from a file by the later processes. MV_OLD: an older
    # cuzk-bench (no pool, no --pce-file) run with run P3's arguments, on this machine, for
    # comparison.
    PF=${PCE_FILE:-/tmp/cuzk-porep3.pce}
    rm -f "$PF"
    step 300 mv-extract "$B" synth-only --circuit fil-porep:3 --mode pce-ab --repeat 1 \
        --threads "$NT" --pce-file "$PF"
    grep -E '^(extract|pce file|memory)' "$OUT/mv-extract.log" | tee -a "$OUT/summary.txt"
    for f in "" --fresh-abc; do
        step 200 "mv-one$f" "$B" synth-only --circuit fil-porep:3 --mode pce-ab --repeat 3 \
            --threads "$NT" --pce-file "$PF" $f
        grep -E '^(pce file|time|  witness|  a, b)' "$OUT/mv-one$f.log" | tee -a "$OUT/summary.txt"
    done
    # The first forked systems sized from the partition's reservation, or not (=0), alternating;
    # then the challenges on more threads than cores where the last wave is short, or not (=0).
    k=0
    for fh in ${MV_FORK_HINT-1 0}; do
        k=$((k + 1))
        CUZK_SYNTH_FORK_HINT=$fh step 200 "mv-fh$fh-$k" "$B" synth-only --circuit fil-porep:3 \
            --mode witness --repeat 3 --threads "$NT"
        grep -E '^(time|  cpu)' "$OUT/mv-fh$fh-$k.log" | sed "s/^/fork hint $fh: /" |
            tee -a "$OUT/summary.txt"
    done
    # Balance and places (the challenges' values written straight into the partition's vector)
    # as pairs BALANCE:PLACE.
    for bp in ${MV_BALANCE_PLACE-1:1 0:0 1:0 0:1 1:1 0:0}; do
        bl=${bp%%:*} pl=${bp##*:} k=$((k + 1))
        CUZK_SYNTH_BALANCE=$bl CUZK_SYNTH_PLACE=$pl step 200 "mv-bp$bl$pl-$k" "$B" synth-only \
            --circuit fil-porep:3 --mode witness --repeat 3 --threads "$NT"
        grep -E '^(time|  cpu|memory)' "$OUT/mv-bp$bl$pl-$k.log" |
            sed "s/^/balance $bl place $pl: /" | tee -a "$OUT/summary.txt"
    done
    # P[:flag...]; flags B0 / P0 = env CUZK_SYNTH_BALANCE=0 / CUZK_SYNTH_PLACE=0, the others
    # are synth-only's.
    k=0
    for cfg in ${MV_CFGS:-4:--shared 4:--shared:B0:P0 2:--shared 2:--shared:B0:P0 4:--shared:--witness-all:B0:P0 4:--shared 4:--shared:B0:P0}; do
        p=${cfg%%:*} flags=$(printf '%s' "${cfg#"$p"}" | tr ':' ' ') k=$((k + 1)) bl=1 pl=1
        case " $flags " in *" B0 "*) bl=0 ;; esac
        case " $flags " in *" P0 "*) pl=0 ;; esac
        flags=$(printf '%s' "$flags" | sed 's/ B0//; s/ P0//')
        CUZK_SYNTH_BALANCE=$bl CUZK_SYNTH_PLACE=$pl step 300 "mv-par-$k" "$B" synth-only \
            --circuit fil-porep:3 --mode pce-ab --repeat 2 --threads "$NT" --parallel "$p" \
            --pce-file "$PF" $flags
        grep -E '^(parallel|memory|  a, b)' "$OUT/mv-par-$k.log" |
            sed "s/^/balance $bl place $pl: /" | tee -a "$OUT/summary.txt"
    done
    if [ -n "${MV_OLD:-}" ]; then
        step 300 mv-old-par4 "$MV_OLD" synth-only --circuit fil-porep:3 --mode pce-ab \
            --repeat 2 --threads "$NT" --parallel 4
        grep -E '^(extract|parallel|memory)' "$OUT/mv-old-par4.log" | sed 's/^/old: /' |
            tee -a "$OUT/summary.txt"
    fi
    rm -f "$PF"
    ;;
prefault)
    # PoRep 32 GiB on all cores with the merged system's vectors touched first on all threads
    # (cuzk_cs_prefault) and without (CUZK_SYNTH_PREFAULT=0), alternating.
    for mp in witness:1 witness:0 witness:1 witness:0 ab:1 ab:0; do
        md=${mp%%:*} pf=${mp##*:}
        CUZK_SYNTH_PREFAULT=$pf step 200 "pf-$md-$pf" "$B" synth-only --circuit fil-porep:3 \
            --mode "$md" --repeat 3 --threads "$NT"
        grep -E '^(time|memory)' "$OUT/pf-$md-$pf.log" | sed "s/^/$md prefault=$pf: /" |
            tee -a "$OUT/summary.txt"
    done
    ;;
compare)
    # Same inputs, same r and s: CPU prove, CUDA prove, resident partition; proofs must be equal.
    step 120 compare "$B" porep-shape --scale 2^-6 --backend cuda --compare --threads "$NT"
    ;;
full)
    # The full shape: the prover as it is (bases passed per call), then SRS-resident.
    CUZK_TIMING=0 step 330 full "$B" porep-shape --backend cuda --mode "${FULL_MODE:-both}" --repeat "${FULL_REPEAT:-1}" \
        --threads "$NT"
    ;;
ratio)
    # GPU/CPU on the same inputs at 1/16 of the shape (domain 2^23), all cores.
    step 200 ratio "$B" porep-shape --scale 2^-4 --backend cuda --compare --repeat 2 \
        --threads "$NT"
    ;;
pin)
    step 200 pin "$B" msm --pin-gib 16,64
    ;;
field)
    # Device field ops against the host (every variant, lazy forms, squaring), then throughput.
    step 120 field-tests "$T" --filter='gpu_field_ops' --timeout=110
    step 120 field "$B" ntt --backend cuda --filter='f[rp]_*'
    grep -E "G mul/s" "$OUT/field.log" | tee -a "$OUT/summary.txt"
    ;;
msm)
    # G1 2^24 resident MSM, the current code and the variants built beside it (bin/cuzk-bench-*).
    for v in "$B" "$CARRY"/bin/cuzk-bench-*; do
        [ -x "$v" ] || continue
        n=$(basename "$v")
        case $n in
        cuzk-bench-g2*)
            # A G2 variant (src/gpu/msm_g2.cu): check at 2^16, time 2^20 resident.
            step 200 "msm-$n" "$v" msm --backend cuda --group g2 --log-n 16 --check --iters 2 \
                --threads "$NT"
            CUZK_GPU_MSM_PROFILE=1 step 200 "msm20g2-$n" "$v" msm --backend cuda --group g2 \
                --log-n 20 --resident --pinned --iters 3 --warmup 1 --threads "$NT"
            grep -E "cuda events|msm profile" "$OUT/msm20g2-$n.log" | tail -3 | tee -a "$OUT/summary.txt"
            continue
            ;;
        esac
        step 200 "msm-$n" "$v" msm --backend cuda --group g1 --log-n 20 --check --iters 2 \
            --threads "$NT"
        CUZK_GPU_MSM_PROFILE=1 step 200 "msm24-$n" "$v" msm --backend cuda --group g1 \
            --log-n 24 --resident --pinned --iters "${MSM_ITERS:-5}" --warmup 1 --threads "$NT"
        grep -E "cuda events|msm profile" "$OUT/msm24-$n.log" | tail -3 | tee -a "$OUT/summary.txt"
    done
    ;;
msmsizes)
    # The G1 / G2 MSM and batch-addition table of docs/PERFORMANCE.md "GPU MSM" (resident, pinned).
    for a in "g1 20 5" "g1 22 5" "g1 24 5" "g1 26 2" "g2 16 5" "g2 20 3"; do
        set -- $a
        CUZK_GPU_MSM_PROFILE=1 step 200 "size-$1-$2" "$B" msm --backend cuda --group "$1" \
            --log-n "$2" --resident --pinned --iters "$3" --warmup 1 --threads "$NT"
        grep -E "cuda events|msm profile" "$OUT/size-$1-$2.log" | tail -2 | tee -a "$OUT/summary.txt"
    done
    for a in "g1 24" "g2 20"; do
        set -- $a
        step 200 "badd-$1-$2" "$B" msm --backend cuda --group "$1" --log-n "$2" --op batch-add \
            --density 50 --resident --pinned --iters 5 --warmup 1 --threads "$NT"
        grep -E "cuda events" "$OUT/badd-$1-$2.log" | tail -1 | tee -a "$OUT/summary.txt"
    done
    ;;
msmtune)
    # Runtime knobs of the G1 MSM (src/gpu/msm_run.cuh) at 2^24 (TUNE_LOGN) resident: window,
    # level-0 chunk, reduction segment; then 2^26 with the defaults. TUNE_BIN: another
    # cuzk-bench (a variant).
    TB=${TUNE_BIN:-$B}
    TL=${TUNE_LOGN:-24}
    for w in ${TUNE_WINDOWS:-19 20 21}; do
        for ch in ${TUNE_CHUNKS:-32 64 128}; do
            CUZK_GPU_MSM_WINDOW=$w CUZK_GPU_MSM_CHUNK=$ch CUZK_GPU_MSM_PROFILE=1 step 100 \
                "tune-w$w-l$ch" "$TB" msm --backend cuda --group g1 --log-n "$TL" --resident --pinned \
                --iters 3 --warmup 1 --threads "$NT"
            grep -E "cuda events|msm profile" "$OUT/tune-w$w-l$ch.log" | tail -2 | tee -a "$OUT/summary.txt"
        done
    done
    CUZK_GPU_MSM_SEG=64 CUZK_GPU_MSM_PROFILE=1 step 100 tune-s64 "$TB" msm --backend cuda --group g1 \
        --log-n 24 --resident --pinned --iters 3 --warmup 1 --threads "$NT"
    grep -E "cuda events|msm profile" "$OUT/tune-s64.log" | tail -2 | tee -a "$OUT/summary.txt"
    CUZK_GPU_MSM_PROFILE=1 step 200 msm26 "$TB" msm --backend cuda --group g1 --log-n 26 --resident \
        --pinned --iters 2 --warmup 1 --threads "$NT"
    grep -E "cuda events|msm profile" "$OUT/msm26.log" | tail -2 | tee -a "$OUT/summary.txt"
    ;;
msmenv)
    # Variants of the current binary chosen by env knobs, one after the other in this call (A/B on
    # one machine): MSMENV is a ';'-separated list of 'name [VAR=value ...]', MSMENV_ARGS the
    # cuzk-bench msm arguments (default: G1 2^24 over precomputed bases, c = 22). E.g. the 2^24
    # rows of docs/PERFORMANCE.md "Whole waves, longer level-0 chunks":
    #   MSMENV='old CUZK_GPU_MSM_WAVES=0 CUZK_GPU_MSM_CHUNK=64 CUZK_GPU_MSM_SUMK=8; new' msmenv
    MA=${MSMENV_ARGS:---group g1 --log-n 24 --resident --pinned --precompute 22 --iters 5 --warmup 1}
    IFS=';' read -ra variants <<<"${MSMENV:-default}"
    for v in "${variants[@]}"; do
        read -ra words <<<"$v"
        [ ${#words[@]} -gt 0 ] || continue
        name=${words[0]}
        # shellcheck disable=SC2086
        step 150 "env-$name" env CUZK_GPU_MSM_PROFILE=1 "${words[@]:1}" "$B" msm --backend cuda $MA \
            --threads "$NT"
        grep -E "cuda events|msm profile|check:" "$OUT/env-$name.log" | tail -3 | tee -a "$OUT/summary.txt"
    done
    ;;
msmsmall)
    # Small device MSMs (snarkjs-sized keys): window, level-0 chunk and reduction segment against
    # the defaults, G1 and G2 at 2^10 .. 2^16, every result checked against the CPU.
    for grp in g1 g2; do
        for ln in 10 12 14 16; do
            for cfg in def:64:d 0:16:16 0:8:8 0:4:4 8:8:8 9:8:8 8:16:16 10:8:8; do
                IFS=: read -r cw l0 sg <<<"$cfg"
                [ "$cw" = def ] && cw= && l0= && sg=
                [ "$cw" = 0 ] && cw=
                r=$(CUZK_GPU_MSM_PROFILE=1 CUZK_GPU_MSM_WINDOW=$cw CUZK_GPU_MSM_CHUNK=$l0 \
                    CUZK_GPU_MSM_SEG=$sg timeout 60 "$B" msm --backend cuda --group $grp \
                    --log-n $ln --resident --iters 7 --warmup 2 --check --threads "$NT" 2>&1)
                echo "$r" >>"$OUT/msmsmall.log"
                echo "$grp 2^$ln cfg=$cfg: $(echo "$r" | grep -oE 'compute \(kernels only[^;]*|median=[0-9.]+ max' | tr '\n' ' ') $(echo "$r" | grep -ciE 'differ|mismatch|error') $(echo "$r" | grep -oE 'msm profile[^$]*' | tail -1)" |
                    tee -a "$OUT/summary.txt"
            done
        done
    done
    ;;
ntt)
    # The NTT's register rounds and bit reversals: tests under the defaults and under the other
    # settings, the sweep at 2^27, the old against the new defaults (A/B twice in this call), and
    # the counters of each kernel of one transform.
    step 300 ntt-tests "$T" --filter='gpu_ntt*' --timeout=290
    grep -E "^(ok|not ok)|tests," "$OUT/ntt-tests.log" | tee -a "$OUT/summary.txt"
    for rb in 2:0 3:1 1:1; do
        i=0
        IFS=: read -r rx br <<<"$rb"
        for f in 'gpu_ntt_large' 'gpu_h' 'gpu_backend_h*'; do
            i=$((i + 1))
            CUZK_GPU_NTT_RADIX=$rx CUZK_GPU_NTT_BITREV=$br CUZK_TEST_NPOW=22 \
                step 200 "ntt-tests-$rb-$i" "$T" --filter="$f" --timeout=190
            grep -E "^(ok|not ok)|tests," "$OUT/ntt-tests-$rb-$i.log" | tee -a "$OUT/summary.txt"
        done
    done
    step 200 ntt-sweepr "$B" ntt --backend cuda --log-n 27 --iters 3 --warmup 1 --filter=sweepr
    grep -E "^sweepr" "$OUT/ntt-sweepr.log" | tee -a "$OUT/summary.txt"
    for v in old new old new; do
        rx=; br=
        [ $v = old ] && rx=1 && br=0
        CUZK_GPU_NTT_RADIX=$rx CUZK_GPU_NTT_BITREV=$br step 100 "ntt27-$v" "$B" ntt --backend cuda \
            --log-n 27 --iters 3 --warmup 1 --filter='*_bellperson_resident'
        grep -E "resident" "$OUT/ntt27-$v.log" | tee -a "$OUT/summary.txt"
    done
    NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    [ -n "$NCU" ] || NCU=$(ls /usr/local/cuda/bin/ncu 2>/dev/null)
    step 150 ntt-ncu "$NCU" --clock-control none --kernel-name-base demangled \
        --kernel-name regex:'k_ntt_pass|k_bitrev' --launch-count 6 --section SpeedOfLight \
        --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis \
        "$B" ntt --backend cuda --log-n 27 --iters 1 --warmup 0 --filter=ntt_bellperson_resident
    grep -E "^  k_|Duration|Compute \(SM\)|Achieved Occupancy|Registers Per|Issued Ipc" \
        "$OUT/ntt-ncu.log" | head -60 | tee -a "$OUT/summary.txt"
    ;;
ncu)
    # Hardware counters of one level-0 accumulation launch (G1 2^22, clocks left alone).
    NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    [ -n "$NCU" ] || NCU=$(ls /usr/local/cuda/bin/ncu 2>/dev/null)
    step 100 ncu "$NCU" --clock-control none --kernel-name-base demangled \
        --kernel-name regex:'gm_accum<gm_g1, (true|\(bool\)1)>' --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
        "$B" msm --backend cuda --group g1 --log-n 22 --resident --iters 1
    grep -E "Duration|Throughput|Occupancy|Registers|Stall|Issue|Pipe|Executed Ipc|Warp Cycles|Eligible" \
        "$OUT/ncu.log" | head -40 | tee -a "$OUT/summary.txt"
    ;;
esac
done
log done
