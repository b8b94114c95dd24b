#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 11, the HTTP status server (daemon.status_listen, Curio's GET /status): 200 JSON with CORS
# whose fields agree with GetStatus and whose counters and queues move with proofs; HEAD; 404 for
# other paths; 405 for other methods; bad or busy addresses refuse to start naming the key; the
# port closes on SIGTERM.
. "$(dirname "$0")/lib.sh"

# http METHOD PATH [PORT]: prints the status code on the first line, then the body; the response
# headers (lower-case names) go to $T/headers as JSON. python3's urllib: no curl needed.
http() {
    python3 - "$1" "http://127.0.0.1:${3:-$PORT}$2" "$T/headers" <<'PY'
import json, sys, urllib.error, urllib.request
method, url, hfile = sys.argv[1:4]
req = urllib.request.Request(url, method=method, data=b"x=1" if method == "POST" else None)
try:
    r = urllib.request.urlopen(req, timeout=10)
    code, body, h = r.status, r.read(), r.headers
except urllib.error.HTTPError as e:
    code, body, h = e.code, e.read(), e.headers
with open(hfile, "w") as f:
    json.dump({k.lower(): v for k, v in h.items()}, f)
sys.stdout.write("%d\n%s" % (code, body.decode()))
PY
}
code_of() { printf '%s\n' "$1" | head -n 1; }
body_of() { printf '%s\n' "$1" | tail -n +2; }
hdr() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))' "$T/headers" "$1"; }
# status_get: GET /status body in $S (fails the test when not 200 JSON).
status_get() {
    r=$(http GET /status)
    S=$(body_of "$r")
    [ "$(code_of "$r")" = 200 ] && python3 -c 'import json,sys; json.loads(sys.argv[1])' "$S" 2>/dev/null
}

cat >"$T/cuzk.toml" <<TOML
[engine]
prover_workers = 1
synthesis_workers = 1

[[circuits]]
id = "demo"
builtin = "sha256-chain:1"

[[circuits]]
id = "slow"
builtin = "sha256-chain:2"
TOML

# ---- configuration: validated at load time, printed, off by default
expect 0 '^status_listen = ""$' "--print-config: status_listen is off by default" \
    "$CUZK" --print-config --cache-dir "$T/c"
expect 0 '^status_listen = "127.0.0.1:9821"  # command line$' "--print-config shows --status-listen" \
    "$CUZK" --print-config --cache-dir "$T/c" --status-listen 127.0.0.1:9821
expect 2 'daemon.status_listen: .*port' "a bad status_listen address: exit 2 naming the key" \
    "$CUZK" --status-listen nonsense --listen "unix://$T/x.sock" --cache-dir "$T/c"
printf '[daemon]\nstatus_listen = "unix:///tmp/s.sock"\n' >"$T/unix.toml"
expect 2 'unix.toml:2: daemon.status_listen: .*TCP' "a unix socket for status_listen: exit 2, file:line" \
    "$CUZK" --config "$T/unix.toml" --check-config
expect 2 'daemon.status_listen: .*also a daemon.listen' "status_listen = a gRPC address: exit 2" \
    "$CUZK" --check-config --listen 127.0.0.1:9820 --status-listen 127.0.0.1:9820

# ---- a daemon with the status server
PORT=$(free_port)
start_daemon d --config "$T/cuzk.toml" --status-listen "127.0.0.1:$PORT"
check "the log names the status address" grep -q "status server on http://127.0.0.1:$PORT/status" "$DLOG"
r=$(http GET /status)
check "GET /status: 200 (got $(code_of "$r"))" [ "$(code_of "$r")" = 200 ]
check "GET /status: Content-Type application/json (got $(hdr content-type))" [ "$(hdr content-type)" = application/json ]
check "GET /status: Access-Control-Allow-Origin * (got $(hdr access-control-allow-origin))" [ "$(hdr access-control-allow-origin)" = '*' ]
S=$(body_of "$r")
G=$("$BENCH" status --addr "$DADDR" --json 2>&1)
# shape.py: every field of the documented shape, with its type; prints what is wrong.
cat >"$T/shape.py" <<'PY'
import json, sys
d, g = json.loads(sys.argv[1]), json.loads(sys.argv[2])
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
isint = lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0
need(isint(d.get("uptime_secs")), "uptime_secs")
m = d.get("memory", {})
for k in ("total_bytes", "used_bytes", "available_bytes", "budget_bytes", "in_use_bytes",
          "in_flight_bytes", "scratch_bytes", "pce_bytes", "pinned_bytes", "pinned_limit_bytes"):
    need(isint(m.get(k)), "memory." + k)
if not bad:
    need(m["total_bytes"] > 0 and m["used_bytes"] + m["available_bytes"] == m["total_bytes"],
         "memory: used + available = total > 0")
    need(m["budget_bytes"] == g["memory_budget_bytes"], "memory.budget_bytes = GetStatus's")
    need(m["pinned_limit_bytes"] == g["pinned_memory_limit_bytes"], "pinned_limit = GetStatus's")
    need(m["pinned_bytes"] == g["pinned_memory_bytes"], "pinned_bytes = GetStatus's")
    need(m["in_use_bytes"] == m["pinned_bytes"] + m["in_flight_bytes"] + m["scratch_bytes"] +
         m["pce_bytes"], "in_use = pinned + in flight + scratch + pce")
    need(isinstance(d.get("allocations", {}).get("pce"), list), "allocations.pce")
    need(m["in_use_bytes"] == g["memory_in_use_bytes"] and
         m["in_flight_bytes"] == g["memory_in_flight_bytes"] and
         m["scratch_bytes"] == g["memory_scratch_bytes"], "memory = GetStatus's")
    need(m["budget_bytes"] != m["pinned_limit_bytes"] or m["budget_bytes"] == 0, "budget != pinned")
need(isinstance(d.get("gpu_workers"), list) and len(d["gpu_workers"]) >= len(g["gpus"]),
     "gpu_workers: at least one per GPU of GetStatus")
for w in d.get("gpu_workers", []):
    need(w.get("state") in ("idle", "proving") and "current_job" in w and "name" in w and
         "current_partition" in w and "busy_secs" in w and isint(w.get("scratch_bytes")) and
         w.get("gpu_ordinal") in [x["ordinal"] for x in g["gpus"]], "a gpu worker")
need(isinstance(d.get("pipelines"), list), "pipelines")
srs = d.get("allocations", {}).get("srs")
need(isinstance(srs, list) and sorted(s["circuit_id"] for s in srs) == ["demo", "slow"],
     "allocations.srs names the two circuits")
for s in srs or []:
    need(s.get("tier") in ("hot", "warm", "cold") and isint(s.get("bytes")) and
         isint(s.get("ref_count")) and
         s.get("evictable") is (s.get("tier") != "cold" and s.get("ref_count") == 0) and
         s.get("subgroups") in ("", "not-checked"), "an srs entry (builtin: subgroups not checked)")
c = d.get("counters", {})
for k, gk in (("total_completed", "total_proofs_completed"), ("total_failed", "total_proofs_failed"),
              ("total_cancelled", "total_proofs_cancelled")):
    need(isint(c.get(k)) and c[k] == g[gk], "counters.%s = GetStatus's" % k)
need(isint(c.get("queue_depth")), "counters.queue_depth")
need(isinstance(d.get("queues"), list), "queues")
print("; ".join(bad) if bad else "ok")
PY
shape=$(python3 "$T/shape.py" "$S" "$G" 2>&1)
check "GET /status: every field, agreeing with GetStatus ($shape)" [ "$shape" = ok ]
c0=$(jget "$S" 'd["counters"]["total_completed"]')
up0=$(jget "$S" 'd["uptime_secs"]')

r=$(http HEAD /status)
check "HEAD /status: 200 without a body ($(printf '%s' "$r" | wc -c) bytes)" [ "$r" = 200 ]
r=$(http GET "/status?pretty=1")
check "GET /status?query: 200" [ "$(code_of "$r")" = 200 ]
for p in / /metrics /status/ /statusx; do
    r=$(http GET "$p")
    check "GET $p: 404 (got $(code_of "$r"))" [ "$(code_of "$r")" = 404 ]
done
r=$(http POST /status)
check "POST /status: 405 (got $(code_of "$r")), Allow: GET, HEAD (got $(hdr allow))" \
    [ "$(code_of "$r") $(hdr allow)" = "405 GET, HEAD" ]
r=$(http DELETE /status)
check "DELETE /status: 405 (got $(code_of "$r"))" [ "$(code_of "$r")" = 405 ]

# ---- counters and queues move with proofs
seed=$((CUZK_TEST_SEED % 1000000007))
expect 0 'COMPLETED' "a proof of demo" "$BENCH" single --addr "$DADDR" --circuit demo --seed "$seed"
status_get || notok "GET /status after a proof"
check "total_completed went up by one ($c0 -> $(jget "$S" 'd["counters"]["total_completed"]'))" \
    [ "$(jget "$S" 'd["counters"]["total_completed"]')" = $((c0 + 1)) ]
demo=$(jget "$S" '[s for s in d["allocations"]["srs"] if s["circuit_id"] == "demo"][0]')
check "demo is loaded after its proof, with bytes, idle and evictable ($demo)" \
    python3 -c 'import ast,sys; s=ast.literal_eval(sys.argv[1]); sys.exit(not (s["tier"] != "cold" and s["bytes"] > 0 and s["ref_count"] == 0 and s["evictable"]))' "$demo"
# synthesis.pce (on by default): demo's PCE is extracted after its first partition.
pce=""
for _ in $(seq 1 200); do
    status_get || break
    pce=$(jget "$S" '[(p["circuit_id"], p["state"], p["bytes"], p["bytes"] == d["memory"]["pce_bytes"], p["extract_ms"] > 0, p["error"]) for p in d["allocations"]["pce"]]')
    case "$pce" in *"'ready'"*) break ;; esac
    sleep 0.1
done
check "allocations.pce: demo's PCE ready after its first proof, its bytes = memory.pce_bytes ($pce)" \
    python3 -c 'import ast,sys; p=ast.literal_eval(sys.argv[1]); sys.exit(not (len(p) == 1 and p[0][0] == "demo" and p[0][1] == "ready" and p[0][2] > 0 and p[0][3] and p[0][4] and p[0][5] is None))' "$pce"
check "pinned_bytes = the HOT sets' bytes > 0, in_use_bytes = pinned_bytes + scratch_bytes + pce_bytes (> 0 after a proof) when idle ($(jget "$S" 'd["memory"]'))" \
    [ "$(jget "$S" 'd["memory"]["pinned_bytes"] == sum(s["bytes"] for s in d["allocations"]["srs"] if s["tier"] == "hot") > 0 and d["memory"]["scratch_bytes"] > 0 and d["memory"]["in_flight_bytes"] == 0 and d["memory"]["in_use_bytes"] == d["memory"]["pinned_bytes"] + d["memory"]["scratch_bytes"] + d["memory"]["pce_bytes"]')" = True ]
# Two jobs of the slow circuit on one prover: the queue shows them while they run.
ja=$("$BENCH" submit --addr "$DADDR" --circuit slow --seed "$seed" --partitions 4 --json | jget "$(cat)" 'd["job_id"]')
jb=$("$BENCH" submit --addr "$DADDR" --circuit slow --seed $((seed + 9)) --json | jget "$(cat)" 'd["job_id"]')
seen=""
pl=""
for _ in $(seq 1 100); do
    status_get || break
    seen=$(jget "$S" '[(q["kind"], q["pending"], q["in_progress"], d["counters"]["queue_depth"]) for q in d["queues"]]')
    pl=$(jget "$S" '[(p["job_id"], p["proof_kind"], p["outcome"], p["total_partitions"], [x["state"] for x in p["partitions"]]) for p in d["pipelines"]]')
    [ "$seen" != "[]" ] && [ "$pl" != "[]" ] && break
    sleep 0.1
done
check "queues while two jobs run: circuit:slow, 2 jobs, queue_depth = pending ($seen)" \
    python3 -c 'import ast,sys; q=ast.literal_eval(sys.argv[1]); sys.exit(not (len(q) == 1 and q[0][0] == "circuit:slow" and q[0][1] + q[0][2] == 2 and q[0][3] == q[0][1]))' "$seen"
check "pipelines while they run: job A alone (4 partitions, running), B (one partition) not listed ($pl)" \
    python3 -c 'import ast,sys; p=ast.literal_eval(sys.argv[1]); sys.exit(not (len(p) == 1 and p[0][0] == sys.argv[2] and p[0][1:4] == ("circuit:slow", "running", 4) and all(s in ("pending", "synthesizing", "synth_done", "gpu", "done") for s in p[0][4])))' "$pl" "$ja"
expect 0 'COMPLETED' "job A completes" "$BENCH" await --addr "$DADDR" --job "$ja"
expect 0 'COMPLETED' "job B completes" "$BENCH" await --addr "$DADDR" --job "$jb"
status_get || notok "GET /status after the slow jobs"
pl=$(jget "$S" '[(p["job_id"], p["outcome"], p["partitions_done"], [(x["index"], x["state"], x["synth_ms"] > 0, x["gpu_ms"] > 0) for x in p["partitions"]]) for p in d["pipelines"]]')
check "pipelines after the end: job A completed, 4 partitions done with their times ($pl)" \
    python3 -c 'import ast,sys; p=ast.literal_eval(sys.argv[1]); sys.exit(not (len(p) == 1 and p[0][:3] == (sys.argv[2], "completed", 4) and p[0][3] == [(i, "done", True, True) for i in range(4)]))' "$pl" "$ja"
G=$("$BENCH" status --addr "$DADDR" --json 2>&1)
gp=$(jget "$G" '([(p["job_id"], p["outcome"], p["partitions_done"], [(x["index"], x["state"], x["prove_ms"] > 0) for x in p["partitions"]]) for p in d["pipelines"]], [(w["worker_id"], w["gpu_ordinal"], w["current_job_id"]) for w in d["workers"]])')
check "GetStatus (extension fields): the same pipeline, and the CPU prover worker idle ($gp)" \
    python3 -c 'import ast,sys; p,w=ast.literal_eval(sys.argv[1]); sys.exit(not (p == [(sys.argv[2], "completed", 4, [(i, "done", True) for i in range(4)])] and w == [(0, -1, "")]))' "$gp" "$ja"
txt=$("$BENCH" status --addr "$DADDR" 2>&1)
check "cuzk-bench status prints the pipeline: $ja ... completed 4/4 ... dddd" \
    sh -c 'printf "%s\n" "$1" | grep -q "^  $2 circuit:slow completed 4/4, started .* ago: dddd$"' _ "$txt" "$ja"
check "total_completed counts all three proofs" [ "$(jget "$S" 'd["counters"]["total_completed"]')" = $((c0 + 3)) ]
check "queues are empty again" [ "$(jget "$S" 'd["queues"]')" = "[]" ]
check "uptime_secs does not go back ($up0 -> $(jget "$S" 'd["uptime_secs"]'))" \
    [ "$(jget "$S" 'd["uptime_secs"]')" -ge "$up0" ]

# ---- a busy status port: the second daemon refuses to start, naming key and address
mkdir -p "$T/second/cache"
expect 1 "daemon.status_listen '127.0.0.1:$PORT': cannot listen: Address already in use" \
    "a second daemon on a busy status port exits 1" \
    "$CUZK" --listen "unix://$T/second/cuzk.sock" --cache-dir "$T/second/cache" --backend cpu \
    --status-listen "127.0.0.1:$PORT"
check "the first daemon still answers /status" status_get

stop_daemon "$DPID" 30
check "SIGTERM: exit 0 (got $STOP_RC, ${STOP_S}s)" [ "$STOP_RC" = 0 ]
r=$(http GET /status 2>&1)
check "the status port is closed after the stop" [ "$(code_of "$r")" != 200 ]
finish
