#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 2, idempotency: one request_id submitted twice (with cuzk-bench; then eight times at once,
# and by two concurrent Prove calls, with grpc-js) is one job with one proof; GetStatus and the
# metrics count it once.
. "$(dirname "$0")/lib.sh"
start_daemon d
seed=$((CUZK_TEST_SEED % 1000000007))
rid=bench-idem-$CUZK_TEST_SEED
completed() { "$BENCH" status --addr "$DADDR" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_proofs_completed"])'; }
c0=$(completed)
s1=$("$BENCH" submit --addr "$DADDR" --circuit demo --seed "$seed" --request-id "$rid" --json)
s2=$("$BENCH" submit --addr "$DADDR" --circuit demo --seed "$seed" --request-id "$rid" --json)
j1=$(jget "$s1" 'd["job_id"]')
j2=$(jget "$s2" 'd["job_id"]')
check "cuzk-bench submit twice with one --request-id: same job id ($j1, $j2)" test -n "$j1" -a "$j1" = "$j2"
check "existing_job false, then true" [ "$(jget "$s1" 'd["existing_job"]') $(jget "$s2" 'd["existing_job"]')" = "False True" ]
expect 0 '"COMPLETED"' "cuzk-bench await: COMPLETED, verified client-side" "$BENCH" await --addr "$DADDR" --job "$j1" --json
s3=$("$BENCH" submit --addr "$DADDR" --circuit demo --seed "$seed" --request-id "$rid" --json)
check "the id once more after completion: the same job, existing" [ "$(jget "$s3" 'd["job_id"], d["existing_job"]')" = "('$j1', True)" ]
c1=$(completed)
check "GetStatus: one proof completed for the three submits ($c0 -> $c1)" [ "$((c1 - c0))" = 1 ]
if have_node; then
    node_client idem "$DADDR"
else
    echo "# node missing: the grpc-js part is skipped"
fi
finish
