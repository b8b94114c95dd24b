#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 15, PoRep C2 through the daemon: the C1 output of a 2 KiB sector replicated over the PoRep
# graph (`cuzk-bench gen-vanilla --seal-proof 5`: Curio's wrapper JSON, challenges derived from
# its seed, replica_id of miner 1000's sector), sent the way Curio sends it (vanilla_proof, miner
# and sector number), proved by the builtin fil-porep:5 registered in the configuration (test
# parameters made on first use: 2.7 M constraints, the slow part); the proof verifies client-side
# and with `cuzk-bench verify` against the public inputs gen-vanilla derived apart from the
# daemon. Refused with their reason, nothing proved: another sector number (replica_id), a C1 cut
# short, raw bincode under another proof's shape; the daemon keeps running.
. "$(dirname "$0")/lib.sh"

cat >"$T/cuzk.toml" <<TOML
[[circuits]]
id = "porep-2k"
builtin = "fil-porep:5"
TOML
start_daemon d --config "$T/cuzk.toml"
seed=$((CUZK_TEST_SEED % 1000000007))

g=$("$BENCH" gen-vanilla --seal-proof 5 --seed "$seed" --out "$T/c1.json" --inputs "$T/c1.want" \
    --json)
SECTOR=$(jget "$g" 'd["sector_num"]')
expect 0 '^client verify: *valid' "PoRep proof of a 2 KiB C1, verified client-side" \
    "$BENCH" single --addr "$DADDR" --type porep --registered-proof 5 --c1 "$T/c1.json" \
    --miner-id 1000 --sector-num "$SECTOR" --sector-size 2048 --proof-out "$T/c1.proof" \
    --public-out "$T/c1.public"
check "the daemon's public inputs are the ones gen-vanilla derived" cmp -s "$T/c1.public" "$T/c1.want"
expect 0 '^valid$' "cuzk-bench verify with the circuit's vk and the derived inputs" \
    "$BENCH" verify --vk "$DDIR/cache/porep-2k.vk" --proof "$T/c1.proof" --inputs "$T/c1.want"

# Refusals: each names its reason.
expect 2 'replica_id is not the one of miner 1000' "another sector number" \
    "$BENCH" single --addr "$DADDR" --type porep --c1 "$T/c1.json" --miner-id 1000 \
    --sector-num $((SECTOR + 1))
head -c 4000 "$T/c1.json" >"$T/cut.json"
expect 2 'not valid JSON' "a C1 cut short" \
    "$BENCH" single --addr "$DADDR" --type porep --c1 "$T/cut.json" --sector-num "$SECTOR"
"$BENCH" gen-vanilla --seal-proof 5 --seed "$seed" --bincode --out "$T/c1.bin" >/dev/null
expect 2 'C1 output' "raw bincode C1 read as 8 MiB" \
    "$BENCH" single --addr "$DADDR" --type porep --registered-proof 6 --c1 "$T/c1.bin" \
    --sector-num "$SECTOR"
check "the daemon is still running" alive "$DPID"
finish
