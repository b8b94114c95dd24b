#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 8, SIGTERM under load: the daemon stops taking work, answers every request accepted before
# the signal (completed within the grace period, or cancelled after it), exits 0 and removes its
# socket. Run twice: a grace long enough to drain the queue, and a short one that must cancel.
. "$(dirname "$0")/lib.sh"
HAVE_NODE=1
have_node || HAVE_NODE=0

# run_case NAME GRACE_S LONG_PARTITIONS: load, SIGTERM, checks.
run_case() {
    name=$1 grace=$2 long=$3
    printf '[daemon]\nshutdown_grace = "%ss"\n' "$grace" >"$T/$name.toml"
    start_daemon "$name" --config "$T/$name.toml"
    local pid=$DPID addr=$DADDR sock=$DSOCK
    "$BENCH" preload --addr "$addr" --circuit demo >/dev/null 2>&1
    local bpid="" npid=""
    "$BENCH" batch --addr "$addr" --circuit demo -c 60 -j 4 --json >"$T/$name.batch.json" 2>"$T/$name.batch.err" &
    bpid=$!
    BG_PIDS="$BG_PIDS $bpid"
    if [ "$HAVE_NODE" = 1 ]; then
        node "$CLIENT" drain "$addr" 4 "$T/$name.stop" "$T/$name.drain.json" "$long" >"$T/$name.drain.log" 2>&1 &
        npid=$!
        BG_PIDS="$BG_PIDS $npid"
    fi
    # Mid-way: a few proofs done, the queue full of accepted jobs.
    sleep 4
    local before
    before=$("$BENCH" status --addr "$addr" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("total_proofs_completed","?"))' 2>/dev/null)
    echo "# $name: SIGTERM after $before proofs (grace ${grace}s)"
    date +%s%3N >"$T/$name.sigterm"
    stop_daemon "$pid" $((grace + 20))
    echo "# $name: daemon exited $STOP_RC after ${STOP_S}s"
    check "$name: the daemon exits 0 on SIGTERM (got $STOP_RC)" [ "$STOP_RC" = 0 ]
    check "$name: it exits within the grace period + 5 s (${STOP_S} s)" \
        python3 -c "import sys; sys.exit(0 if float('$STOP_S') <= $grace + 5 else 1)"
    check "$name: the socket file is removed" [ ! -e "$sock" ]
    touch "$T/$name.stop"
    # The clients must not hang: each finishes within a few seconds of the daemon's exit.
    local i=0
    while { alive "$bpid" || { [ -n "$npid" ] && alive "$npid"; }; } && [ $i -lt 150 ]; do
        sleep 0.2
        i=$((i + 1))
    done
    if alive "$bpid"; then notok "$name: cuzk-bench batch hangs after the daemon exited"; kill "$bpid"; else
        wait "$bpid"; echo "# $name: cuzk-bench batch exited $? ($(tail -n 1 "$T/$name.batch.err"))"; ok "$name: cuzk-bench batch returned"; fi
    if [ -n "$npid" ]; then
        if alive "$npid"; then notok "$name: the node clients hang after the daemon exited"; kill "$npid"; else
            wait "$npid"
            cat "$T/$name.drain.log"
            python3 - "$T/$name.drain.json" "$(cat "$T/$name.sigterm")" "$grace" "$name" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); sig = int(sys.argv[2]); grace = int(sys.argv[3]); name = sys.argv[4]
jobs = d["jobs"]
before = [j for j in jobs if j["submitted"] < sig]
after = [j for j in jobs if j["submitted"] >= sig]
fails = 0
def check(cond, desc, detail=""):
    global fails
    print(("ok: " if cond else "not ok: ") + f"{name}: {desc}" + ("" if cond or not detail else f": {detail}"))
    fails += 0 if cond else 1
from collections import Counter
print(f"# {name}: accepted before SIGTERM {len(before)}: {dict(Counter(j['status'] for j in before))}; "
      f"after: {len(after)}; refused: {dict(Counter(r['code'] for r in d['refused']))}")
check(len(before) >= 4, "jobs were in flight at SIGTERM", len(before))
hung = [j for j in jobs if j["status"] == "rpc:DEADLINE_EXCEEDED"]
check(not hung, "no AwaitProof hung", hung[:3])
final = ("COMPLETED", "CANCELLED", "FAILED")
# Accepted before the signal: a final status; an RPC error only for awaits the server could not
# take any more (UNAVAILABLE / CANCELLED), never a hang.
bad = [j for j in before if j["status"] not in final and j["status"] not in ("rpc:UNAVAILABLE", "rpc:CANCELLED")]
check(not bad, "every job accepted before SIGTERM got an answer", bad[:3])
longj = [j for j in before if j.get("long")]
if grace < 10 and longj:
    check(longj[0]["status"] == "CANCELLED", "the long job still running after the grace period is CANCELLED", longj[0])
if grace >= 30:
    notdone = [j for j in before if j["status"] != "COMPLETED"]
    check(not notdone, "with a long grace every accepted job COMPLETED (drained)", notdone[:3])
check(all(r["code"] in ("UNAVAILABLE", "CANCELLED") for r in d["refused"]), "new submits after SIGTERM are refused as UNAVAILABLE", d["refused"][:3])
sys.exit(1 if fails else 0)
PY
            rc=$?
            [ $rc = 0 ] || fails=$((fails + 1))
        fi
    fi
    check "$name: cuzk-bench batch: every Prove answered (COMPLETED and valid, CANCELLED, or refused)" \
        python3 - "$T/$name.batch.json" "$grace" <<'PY'
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1])); grace = int(sys.argv[2])
p = d["proofs"]
c = Counter(x["status"] for x in p)
print(f"#   batch: {dict(c)}, client_valid {d['client_valid']}")
allowed = {"COMPLETED", "RPC_ERROR"} | ({"CANCELLED"} if grace < 30 else set())
# A refusal is UNAVAILABLE, or CANCELLED for a call that gRPC's shutdown cancelled before it was
# matched to a request slot: then the daemon never saw it, so it has no job id (the refused
# submits above accept both codes the same way).
def refused(x):
    e = x.get("error", "")
    return e.startswith("UNAVAILABLE") or (e.startswith("CANCELLED") and not x.get("job_id"))
bad = [x for x in p if x["status"] not in allowed or (x["status"] == "RPC_ERROR" and not refused(x))]
for x in bad[:5]:
    print("    ", x)
sys.exit(0 if len(p) == d["count"] and not bad and d["client_valid"] == c["COMPLETED"] else 1)
PY
}

run_case drain 60 0
# The long job must outlast the 2 s grace whatever the engine's throughput: 40 partitions once
# finished 1.55 s after SIGTERM with two synthesis workers (the auto default since bef8021).
run_case cut 2 400
finish
