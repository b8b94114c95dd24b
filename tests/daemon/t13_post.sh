#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 13, Filecoin PoSt through the daemon: WindowPoSt (2 KiB, a partition short of one sector)
# and WinningPoSt (2 KiB) requests the way Curio sends them (proof kind, registered proof,
# randomness, bincode vanilla proofs), proved by the builtin fil-post circuits registered in the
# configuration (test parameters made on first use); the proofs verify client-side and with
# `cuzk-bench verify` against public inputs derived apart from the daemon (gen-vanilla
# --inputs); a wrong randomness, a damaged vanilla proof, a kind that does not match its
# registered proof and a proof type no circuit is registered for are refused with their reason,
# and the daemon keeps proving.
. "$(dirname "$0")/lib.sh"

cat >"$T/cuzk.toml" <<TOML
[[circuits]]
id = "wpost-2k"
builtin = "fil-post:5"

[[circuits]]
id = "winning-2k"
builtin = "fil-post:0"
TOML
start_daemon d --config "$T/cuzk.toml"
seed=$((CUZK_TEST_SEED % 1000000007))

# post KIND ID NAME [extra gen-vanilla args]: vanilla proofs, a proof through the daemon, checks.
post() {
    local kind=$1 id=$2 name=$3
    shift 3
    local g
    g=$("$BENCH" gen-vanilla --post-proof "$id" --seed "$seed" --out "$T/$name.json" \
        --inputs "$T/$name.want" --json "$@")
    RND=$(jget "$g" 'd["randomness"]')
    expect 0 '^client verify: *valid' "$name: $kind proof of registered proof $id, verified client-side" \
        "$BENCH" single --addr "$DADDR" --type "$kind" --registered-proof "$id" \
        --vanilla "$T/$name.json" --randomness "$RND" --proof-out "$T/$name.proof" \
        --public-out "$T/$name.public"
    check "$name: the daemon's public inputs are the ones derived from the vanilla proofs" \
        cmp -s "$T/$name.public" "$T/$name.want"
    expect 0 '^valid$' "$name: cuzk-bench verify with the circuit's vk and the derived inputs" \
        "$BENCH" verify --vk "$DDIR/cache/$name.vk" --proof "$T/$name.proof" --inputs "$T/$name.want"
}
post wpost 5 wpost-2k --sectors 1
post winning 0 winning-2k

# Refusals: each names its reason; nothing is proved.
other=$(python3 -c "print('%064x' % (int('$RND', 16) ^ 1))")
expect 2 'the randomness asks for leaf' "another randomness: the challenges do not match" \
    "$BENCH" single --addr "$DADDR" --type winning --registered-proof 0 \
    --vanilla "$T/winning-2k.json" --randomness "$other"
python3 - "$T/winning-2k.json" "$T/cut.json" <<'PY'
import base64, json, sys
v = json.load(open(sys.argv[1]))
raw = base64.b64decode(v[0])
json.dump([base64.b64encode(raw[: len(raw) // 2]).decode()], open(sys.argv[2], "w"))
PY
expect 2 'truncated' "a vanilla proof cut in half" \
    "$BENCH" single --addr "$DADDR" --type winning --registered-proof 0 \
    --vanilla "$T/cut.json" --randomness "$RND"
expect 2 'a WinningPoSt request with registered proof 5' "a kind that does not match its proof type" \
    "$BENCH" single --addr "$DADDR" --type winning --registered-proof 5 \
    --vanilla "$T/winning-2k.json" --randomness "$RND"
expect 2 'no circuit is registered for WindowPoSt' "a proof type with no circuit registered" \
    "$BENCH" single --addr "$DADDR" --type wpost --registered-proof 6 \
    --vanilla "$T/wpost-2k.json" --randomness "$RND"
check "the daemon is still running" alive "$DPID"
post wpost 5 wpost-2k
finish
