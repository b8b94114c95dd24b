#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The main job, end to end on embedded defaults: build cuzk, report the build, verify the real
# Filecoin WinningPoSt 2 KiB proof against the official verifying key (and reject a tampered
# copy), then set up a built-in circuit, prove it on the CPU with per-phase timings, and verify
# the proof. It grows into prove-through-the-daemon when the daemon lands (issue 5).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
make -j"$(nproc)" all >/dev/null
BENCH=build/bin/cuzk-bench
FIX=${CUZK_FIXTURES:-../shared/fixtures}/filecoin
echo "== cuzk-bench info"
$BENCH info
echo "== verify the real WinningPoSt 2 KiB proof (official vk, filecoin-ffi v1.36 proof)"
$BENCH verify-winning-post --vk "$FIX/winning-post-2kib.vk" --vector "$FIX/winning-post-2kib-vector.json"
echo "== the same vector with one proof bit flipped must be rejected"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 - "$FIX/winning-post-2kib-vector.json" "$TMP/t.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
b = bytearray.fromhex(v["proof_bytes_hex"]); b[150] ^= 0x01
v["proof_bytes_hex"] = b.hex()
json.dump(v, open(sys.argv[2], "w"))
PY
if $BENCH verify-winning-post --vk "$FIX/winning-post-2kib.vk" --vector "$TMP/t.json"; then
    echo "demo: FAILED: a tampered proof was accepted" >&2
    exit 1
fi
echo "== prove a built-in circuit on the CPU: setup (test parameters), prove, self-verify"
CIRCUIT=${CUZK_DEMO_CIRCUIT:-sha256-chain:1}
$BENCH setup --circuit "$CIRCUIT" --out "$TMP/params"
$BENCH prove --params "$TMP/params" --circuit "$CIRCUIT" --backend auto --proof "$TMP/proof.bin" --public "$TMP/public.txt"
F=$(echo "$CIRCUIT" | tr ':' '-')
echo "== independent check of that proof with the written verifying key"
$BENCH verify --vk "$TMP/params/$F.vk" --proof "$TMP/proof.bin" --inputs "$TMP/public.txt"
echo "== core timings (median, one thread)"
CUZK_BENCH_ITERS=5 $BENCH pairing --filter='pairing' --warmup=1 || true
CUZK_BENCH_ITERS=5 $BENCH pairing --filter='groth16_verify*' --warmup=1 || true
echo "demo: ok"
