#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 14, SnapDeals through the daemon: a 2 KiB request the way Curio sends it (proof kind,
# registered proof 0, the three comms, one bincode PartitionProof per partition from
# `cuzk-bench gen-vanilla --update-proof 0`), proved by the builtin fil-snap:0 circuit registered
# in the configuration (test parameters made on first use: 1.7 M constraints, the slow part);
# the proof verifies client-side and with `cuzk-bench verify` against the public inputs
# gen-vanilla derived apart from the daemon. Refused with their reason, nothing proved: another
# comm_r_new (other challenges), a damaged partition proof, a proof type no circuit is
# registered for; the daemon keeps running.
. "$(dirname "$0")/lib.sh"

cat >"$T/cuzk.toml" <<TOML
[[circuits]]
id = "snap-2k"
builtin = "fil-snap:0"
TOML
start_daemon d --config "$T/cuzk.toml"
seed=$((CUZK_TEST_SEED % 1000000007))

g=$("$BENCH" gen-vanilla --update-proof 0 --seed "$seed" --out "$T/snap.json" \
    --inputs "$T/snap.want" --json)
CRO=$(jget "$g" 'd["comm_r_old"]')
CDN=$(jget "$g" 'd["comm_d_new"]')
CRN=$(jget "$g" 'd["comm_r_new"]')
expect 0 '^client verify: *valid' "SnapDeals proof of registered proof 0, verified client-side" \
    "$BENCH" single --addr "$DADDR" --type snap --registered-proof 0 --vanilla "$T/snap.json" \
    --comm-r-old "$CRO" --comm-d-new "$CDN" --comm-r-new "$CRN" --proof-out "$T/snap.proof" \
    --public-out "$T/snap.public"
check "the daemon's public inputs are the ones gen-vanilla derived" cmp -s "$T/snap.public" "$T/snap.want"
expect 0 '^valid$' "cuzk-bench verify with the circuit's vk and the derived inputs" \
    "$BENCH" verify --vk "$DDIR/cache/snap-2k.vk" --proof "$T/snap.proof" --inputs "$T/snap.want"

# Refusals: each names its reason.
other=$(python3 -c "b=bytearray.fromhex('$CRN'); b[0]^=1; print(b.hex())")
expect 2 'partition 0, challenge' "another comm_r_new: the proof's challenges are not its" \
    "$BENCH" single --addr "$DADDR" --type snap --registered-proof 0 --vanilla "$T/snap.json" \
    --comm-r-old "$CRO" --comm-d-new "$CDN" --comm-r-new "$other"
python3 - "$T/snap.json" "$T/cut.json" <<'PY'
import base64, json, sys
v = json.load(open(sys.argv[1]))
raw = base64.b64decode(v[0])
json.dump([base64.b64encode(raw[: len(raw) // 2]).decode()], open(sys.argv[2], "w"))
PY
expect 2 'truncated' "a partition proof cut in half" \
    "$BENCH" single --addr "$DADDR" --type snap --registered-proof 0 --vanilla "$T/cut.json" \
    --comm-r-old "$CRO" --comm-d-new "$CDN" --comm-r-new "$CRN"
expect 2 'needs 4 vanilla partition proofs' "8 MiB (4 partitions) with one partition proof" \
    "$BENCH" single --addr "$DADDR" --type snap --registered-proof 1 --vanilla "$T/snap.json" \
    --comm-r-old "$CRO" --comm-d-new "$CDN" --comm-r-new "$CRN"
check "the daemon is still running" alive "$DPID"
finish
