#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 1, wire compatibility: a grpc-js client loading our proving.proto calls every RPC and
# checks the fields; the proofs it received are then checked by `cuzk-bench verify` with the
# bellperson .vk the daemon returned (GetCircuitInfo), so a non-C client's bytes are verified.
. "$(dirname "$0")/lib.sh"
need_node
start_daemon d
node_client wire "$DADDR" "$T/out"
O=$T/out
if [ -s "$O/demo.vk" ]; then
    for p in p1 p2 p3; do
        expect 0 '^valid$' "cuzk-bench verify accepts proof $p received by node" \
            "$BENCH" verify --vk "$O/demo.vk" --proof "$O/$p.proof" --inputs "$O/$p.inputs"
    done
    # The check can fail: another proof's inputs, and a flipped bit in a proof.
    expect 1 '^invalid' "cuzk-bench verify rejects proof p1 with the inputs of p3" \
        "$BENCH" verify --vk "$O/demo.vk" --proof "$O/p1.proof" --inputs "$O/p3.inputs"
    python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[150]^=1; open(sys.argv[2],"wb").write(b)' \
        "$O/p1.proof" "$O/bad.proof"
    expect 1 '^invalid' "cuzk-bench verify rejects p1 with one bit flipped" \
        "$BENCH" verify --vk "$O/demo.vk" --proof "$O/bad.proof" --inputs "$O/p1.inputs"
else
    notok "the node client wrote no verifying key"
fi
finish
