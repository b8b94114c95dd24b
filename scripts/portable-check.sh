#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The portable build of the README (OPT='-O3 -march=x86-64-v3 -madx': no AVX-512, so no IFMA
# paths) on a CPU without AVX-512: cuzk-bench built into build/portable, then run under QEMU's
# user-mode Broadwell (AVX2, BMI2, ADX; qemu-user from scripts/install-deps.sh): its CPU check
# passes, it proves the snarkjs poseidon fixture, and the proof verifies (cuzk-bench
# verify-snarkjs, native). Exit 77 (skipped) without qemu-x86_64.
# Usage: scripts/portable-check.sh   (env BUILD=build/portable, CUZK_FIXTURES)
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build/portable}
F=${CUZK_FIXTURES:-../shared/fixtures}/snarkjs
command -v qemu-x86_64 >/dev/null || { echo "portable-check: skipped (no qemu-x86_64)"; exit 77; }
make -s BUILD="$B" CUDA=0 OPT='-O3 -march=x86-64-v3 -madx' -j"$(nproc)" "$B/bin/cuzk-bench"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export CUZK_CHECK_CACHE="$T/checked-points"
Q="qemu-x86_64 -cpu Broadwell"
info=$($Q "$B/bin/cuzk-bench" info 2>/dev/null)
echo "$info" | grep -q '^cpu: compiled for: .*adx; this CPU: all present$' ||
    { echo "portable-check: FAIL: cuzk-bench info under $Q:"; echo "$info"; exit 1; }
if echo "$info" | grep -q avx512; then
    echo "portable-check: FAIL: the portable build uses AVX-512"; exit 1
fi
$Q "$B/bin/cuzk-bench" prove --zkey "$F/poseidon.zkey" --wtns "$F/poseidon.wtns" \
    --proof "$T/proof.json" --public "$T/public.json" 2>/dev/null | tail -n 1
"$B/bin/cuzk-bench" verify-snarkjs --vk "$F/poseidon.vk.json" --proof "$T/proof.json" \
    --public "$T/public.json" || { echo "portable-check: FAIL: the proof does not verify"; exit 1; }
echo "portable-check: passed (x86-64-v3 build proves under $Q; the proof verifies)"
