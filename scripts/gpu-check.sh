#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# GPU correctness on a machine with a CUDA device, in one go (fits one 10-minute device call):
# every gpu_* test (GPU against CPU, bit-exact), then whole proofs of built-in circuits with
# --backend cuda (setup -> prove -> our verifier) and of the snarkjs fixture keys (prove --zkey
# --backend cuda -> verify-snarkjs; PROOF_DIR keeps them). Exit 77 (skipped) without a device.
#   scripts/gpu-check.sh                  build with make in $BUILD (default build), then run
#   NO_BUILD=1 BENCH=... TESTS=... scripts/gpu-check.sh     use prebuilt binaries
# Env: CUZK_TEST_NPOW (largest NTT test size, default 24), MSM_NPOW (largest MSM size of the
# second MSM pass, default 22), JOBS (make -j), CUZK_FIXTURES
# (default ../shared/fixtures), PROOF_DIR.
set -eu
BUILD=${BUILD:-build}
BENCH=${BENCH:-$BUILD/bin/cuzk-bench}
TESTS=${TESTS:-$BUILD/bin/cuzk-test}
if [ -z "${NO_BUILD:-}" ]; then
    make -j"${JOBS:-$(nproc)}" BUILD="$BUILD" "$BENCH" "$TESTS"
fi
"$BENCH" info
if ! "$BENCH" info | grep -q '^backend cuda: compiled, [1-9]'; then
    echo "gpu-check: no CUDA device (or CUDA not compiled in): skipped"
    exit 77
fi

fail=0
echo "== gpu tests"
"$TESTS" --filter='gpu_*' || fail=1
# The MSM range: G1 and G2 up to 2^22 (random and 0/1-heavy scalars).
echo "== gpu MSM tests up to 2^22"
CUZK_TEST_NPOW=${MSM_NPOW:-22} "$TESTS" --filter='gpu_msm_*' --timeout=900 || fail=1

echo "== whole proofs on the cuda backend"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for spec in poseidon-merkle:2 sha256-chain:4; do
    "$BENCH" setup --circuit "$spec" --out "$TMP/p" >/dev/null
    if CUZK_TIMING=1 "$BENCH" prove --params "$TMP/p" --circuit "$spec" --backend cuda \
        --proof "$TMP/proof" >"$TMP/out" 2>"$TMP/err" &&
        grep -q 'proof verified' "$TMP/out" && grep -q 'cuda backend' "$TMP/out"; then
        echo "ok - prove $spec --backend cuda"
    else
        echo "not ok - prove $spec --backend cuda"
        fail=1
    fi
    cat "$TMP/out" "$TMP/err"
    rm -rf "$TMP/p"
done
# snarkjs keys on the device: the fixture circuits (poseidon's 2^10 domain puts the H step on
# the GPU too); each proof is verified by cuzk (prove verifies before writing) and again by
# verify-snarkjs; with PROOF_DIR set the files are kept there, to be checked with `snarkjs groth16
# verify` on a machine with node.
FIX=${CUZK_FIXTURES:-../shared/fixtures}/snarkjs
for c in multiplier poseidon; do
    if [ ! -f "$FIX/$c.zkey" ]; then
        echo "not ok - snarkjs $c proof on the cuda backend (no fixture $FIX/$c.zkey)"
        fail=1
        continue
    fi
    "$BENCH" export-vk-snarkjs --zkey "$FIX/$c.zkey" --out "$TMP/$c.vk.json" >/dev/null
    if "$BENCH" prove --zkey "$FIX/$c.zkey" --wtns "$FIX/$c.wtns" --backend cuda \
        --proof "$TMP/$c.proof.json" --public "$TMP/$c.public.json" >"$TMP/out" 2>"$TMP/err" &&
        grep -q 'cuda backend' "$TMP/out" &&
        "$BENCH" verify-snarkjs --vk "$TMP/$c.vk.json" --proof "$TMP/$c.proof.json" \
            --public "$TMP/$c.public.json" | grep -q '^valid$'; then
        echo "ok - snarkjs $c proof on the cuda backend"
    else
        echo "not ok - snarkjs $c proof on the cuda backend"
        fail=1
    fi
    cat "$TMP/out" "$TMP/err"
    if [ -n "${PROOF_DIR:-}" ]; then
        mkdir -p "$PROOF_DIR"
        cp "$TMP/$c.vk.json" "$TMP/$c.proof.json" "$TMP/$c.public.json" "$PROOF_DIR/" || true
    fi
done
exit $fail
