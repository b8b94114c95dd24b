#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The main job, end to end on embedded defaults: build cuzk and cuzk-bench, report the build,
# verify the real Filecoin WinningPoSt 2 KiB proof against the official verifying key (and reject
# a tampered copy), then start the `cuzk` daemon on a unix socket in a fresh temporary directory
# (embedded defaults plus a two-circuit configuration written there: the demo circuit and the
# 2 KiB WindowPoSt circuit, test parameters made on first use), prove the built-in "demo" circuit
# through it with `cuzk-bench single` (the client checks every partition with the key the daemon
# hands out and prints phase timings), check the same proof once more with `cuzk-bench verify`,
# prove a WindowPoSt partition sent as Curio sends it (synthetic vanilla proofs from `cuzk-bench
# gen-vanilla`) and verify it against inputs derived apart from the daemon, run a short `cuzk-bench batch`, show
# `cuzk-bench status`, and stop the daemon with SIGTERM, which must exit 0. CPU proving when there
# is no GPU. Any failure prints the daemon's log and exits non-zero. BUILD=dir uses another build
# directory.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
BUILD=${BUILD:-build}
# Only what the demo runs (the test runner is `make test`'s business).
make BUILD="$BUILD" -j"$(nproc)" "$BUILD/bin/cuzk" "$BUILD/bin/cuzk-bench" >/dev/null
BENCH=$BUILD/bin/cuzk-bench
CUZK=$BUILD/bin/cuzk
FIX=${CUZK_FIXTURES:-../shared/fixtures}/filecoin
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-demo.XXXXXX")
DPID=""
cleanup() {
    if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
        kill -KILL "$DPID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

fail() {
    echo "demo: FAILED: $*" >&2
    if [ -s "$TMP/daemon.log" ]; then
        echo "---- daemon log ($TMP/daemon.log) ----" >&2
        cat "$TMP/daemon.log" >&2
        echo "---- end of daemon log ----" >&2
    fi
    exit 1
}

echo "== cuzk-bench info"
$BENCH info

if [ -f "$FIX/winning-post-2kib.vk" ]; then
    echo "== verify the real WinningPoSt 2 KiB proof (official vk, filecoin-ffi v1.36 proof)"
    $BENCH verify-winning-post --vk "$FIX/winning-post-2kib.vk" \
        --vector "$FIX/winning-post-2kib-vector.json" ||
        fail "the real WinningPoSt proof was not accepted"
    echo "== the same vector with one proof bit flipped must be rejected"
    python3 - "$FIX/winning-post-2kib-vector.json" "$TMP/t.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
b = bytearray.fromhex(v["proof_bytes_hex"]); b[150] ^= 0x01
v["proof_bytes_hex"] = b.hex()
json.dump(v, open(sys.argv[2], "w"))
PY
    if $BENCH verify-winning-post --vk "$FIX/winning-post-2kib.vk" --vector "$TMP/t.json"; then
        fail "a tampered proof was accepted"
    fi
else
    echo "== (no Filecoin fixtures at $FIX: skipping the WinningPoSt vector)"
fi

cat >"$TMP/cuzk.toml" <<TOML
[[circuits]]
id = "demo"
builtin = "sha256-chain:1"

[[circuits]]
id = "wpost-2k"
builtin = "fil-post:5"
TOML
echo "== start the daemon: $CUZK --listen unix://$TMP/cuzk.sock --cache-dir $TMP/cache --config $TMP/cuzk.toml"
ADDR="unix://$TMP/cuzk.sock"
mkdir -p "$TMP/cache"
"$CUZK" --listen "$ADDR" --cache-dir "$TMP/cache" --config "$TMP/cuzk.toml" >"$TMP/daemon.log" 2>&1 &
DPID=$!
i=0
until $BENCH status --addr "$ADDR" >/dev/null 2>&1; do
    if ! kill -0 "$DPID" 2>/dev/null; then
        rc=0
        wait "$DPID" || rc=$?
        fail "the daemon exited (status $rc) before answering"
    fi
    i=$((i + 1))
    [ $i -le 300 ] || fail "the daemon did not answer GetStatus within 60 s"
    sleep 0.2
done
echo "   daemon pid $DPID answers on $ADDR"

echo "== cuzk-bench single: prove the demo circuit through the daemon, verify it client-side"
SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "   (seed $SEED chooses the circuit's private inputs)"
$BENCH single --addr "$ADDR" --circuit demo --seed "$SEED" \
    --proof-out "$TMP/proof.bin" --public-out "$TMP/public.txt" || fail "cuzk-bench single"

echo "== independent check of that proof with the daemon's verifying key (cuzk-bench verify)"
$BENCH circuit-info --addr "$ADDR" --circuit demo --vk-out "$TMP/demo.vk" ||
    fail "cuzk-bench circuit-info"
$BENCH verify --vk "$TMP/demo.vk" --proof "$TMP/proof.bin" --inputs "$TMP/public.txt" ||
    fail "the daemon's proof does not verify"

echo "== Filecoin WindowPoSt (2 KiB, test parameters): vanilla proofs as Curio sends them"
RND=$($BENCH gen-vanilla --post-proof 5 --seed "$SEED" --sectors 1 --out "$TMP/wpost.json" \
    --inputs "$TMP/wpost.inputs" --json | sed 's/.*"randomness":"\([0-9a-f]*\)".*/\1/') ||
    fail "cuzk-bench gen-vanilla"
$BENCH single --addr "$ADDR" --type wpost --registered-proof 5 --vanilla "$TMP/wpost.json" \
    --randomness "$RND" --proof-out "$TMP/wpost.proof" || fail "cuzk-bench single --type wpost"
$BENCH circuit-info --addr "$ADDR" --circuit wpost-2k --vk-out "$TMP/wpost.vk" >/dev/null ||
    fail "cuzk-bench circuit-info wpost-2k"
$BENCH verify --vk "$TMP/wpost.vk" --proof "$TMP/wpost.proof" --inputs "$TMP/wpost.inputs" ||
    fail "the WindowPoSt proof does not verify with the inputs derived from its vanilla proofs"

echo "== cuzk-bench batch: 4 more proofs over 2 connections (latency, throughput, all verified)"
$BENCH batch --addr "$ADDR" --circuit demo -c 4 -j 2 --seed "$((SEED + 1))" ||
    fail "cuzk-bench batch"

echo "== cuzk-bench status"
$BENCH status --addr "$ADDR" || fail "cuzk-bench status"

echo "== SIGTERM: the daemon must drain and exit 0"
kill -TERM "$DPID"
i=0
while kill -0 "$DPID" 2>/dev/null; do
    i=$((i + 1))
    [ $i -le 300 ] || fail "the daemon did not exit within 60 s of SIGTERM"
    sleep 0.2
done
rc=0
wait "$DPID" || rc=$?
DPID=""
[ "$rc" = 0 ] || fail "the daemon exited with status $rc after SIGTERM"
[ ! -e "$TMP/cuzk.sock" ] || fail "the daemon left its socket file behind"
echo "   daemon exited 0"
echo "demo: ok"
