#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 6, load: 200 proofs from `cuzk-bench batch -c 200 -j 8` and, at the same time, 40 from 8
# grpc-js clients, on the demo circuit: none lost, none duplicated (distinct job ids), every proof
# verified client-side (cuzk-bench batch's own check; node's proofs through `cuzk-bench verify`
# with the .vk from GetCircuitInfo), and the daemon's counters equal 240.
. "$(dirname "$0")/lib.sh"
N=${LOAD_PROOFS:-200}
NN=40
HAVE_NODE=1
have_node || HAVE_NODE=0
start_daemon d
expect 0 '' "preload demo" "$BENCH" preload --addr "$DADDR" --circuit demo
expect 0 '' "GetCircuitInfo demo: .vk written" "$BENCH" circuit-info --addr "$DADDR" --circuit demo --vk-out "$T/demo.vk"
seed=$((CUZK_TEST_SEED % 1000000007))
t0=$(date +%s)
npid=""
if [ "$HAVE_NODE" = 1 ]; then
    node "$CLIENT" load "$DADDR" $NN 8 "$T/node" >"$T/node.log" 2>&1 &
    npid=$!
    BG_PIDS="$BG_PIDS $npid"
else
    NN=0
    echo "# node missing: only cuzk-bench batch"
fi
"$BENCH" batch --addr "$DADDR" --circuit demo --seed "$seed" -c "$N" -j 8 --json >"$T/batch.json" 2>"$T/batch.err"
brc=$?
echo "# cuzk-bench batch: exit $brc after $(($(date +%s) - t0)) s"
check "cuzk-bench batch -c $N -j 8 exits 0 (got $brc)" [ "$brc" = 0 ] || tail -n 5 "$T/batch.err"
check "batch: $N proofs, all COMPLETED and valid client-side, distinct job ids" python3 - "$T/batch.json" "$N" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
p = d["proofs"]
print(f"# batch: completed {d['completed']}, failed {d['failed']}, rpc_errors {d['rpc_errors']}, "
      f"client_valid {d['client_valid']}, {d['proofs_per_min']:.1f} proofs/min, wall median {d['wall_ms_median']:.0f} ms")
bad = [x for x in p if x["status"] != "COMPLETED" or x["client_verify"] != "valid"]
for x in bad[:5]:
    print("    ", x)
ids = {x["job_id"] for x in p}
sys.exit(0 if len(p) == n and d["completed"] == n and d["client_valid"] == n and not bad and len(ids) == n and "" not in ids else 1)
PY
if [ -n "$npid" ]; then
    wait "$npid"
    nrc=$?
    cat "$T/node.log"
    n=$(grep -c '^not ok' "$T/node.log")
    fails=$((fails + n))
    [ "$nrc" = 0 ] || [ "$n" -gt 0 ] || notok "node load exited $nrc"
    for f in "$T"/node/client*.proof; do
        [ -e "$f" ] || { notok "node wrote no proof files"; break; }
        expect 0 '^valid$' "cuzk-bench verify: $(basename "$f" .proof)'s proofs (from grpc-js)" \
            "$BENCH" verify --vk "$T/demo.vk" --proof "$f" --inputs "${f%.proof}.inputs"
    done
fi
echo "# load: $((N + NN)) proofs in $(($(date +%s) - t0)) s"
st=$("$BENCH" status --addr "$DADDR" --json)
met=$("$BENCH" metrics --addr "$DADDR" --json)
check "GetStatus: total_proofs_completed = $((N + NN)), failed 0, queues empty" python3 - "$st" $((N + NN)) <<'PY'
import json, sys
d = json.loads(sys.argv[1]); n = int(sys.argv[2])
print(f"# status: completed {d['total_proofs_completed']}, failed {d['total_proofs_failed']}, queues {d['queues']}")
sys.exit(0 if d["total_proofs_completed"] == n and d["total_proofs_failed"] == 0 and
         all(q["pending"] == 0 and q["in_progress"] == 0 for q in d["queues"]) else 1)
PY
check "GetMetrics: the completed counter = $((N + NN))" python3 - "$met" $((N + NN)) <<'PY'
import json, re, sys
t = json.loads(sys.argv[1])["prometheus_text"]; n = int(sys.argv[2])
vals = [(m.group(1), float(m.group(2))) for m in re.finditer(r'^(cuzk_\S*completed\S*) (\S+)$', t, re.M)]
vals += [(m.group(1), float(m.group(2))) for m in re.finditer(r'^(cuzk_\S*_total\{[^}]*="completed"[^}]*\}) (\S+)$', t, re.M)]
print(f"# metrics: {vals}")
sys.exit(0 if any(v == n for _, v in vals) else 1)
PY
check "the daemon is still up" alive "$DPID"
finish
