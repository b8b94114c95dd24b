#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Several GPUs through the daemon (issue 4, item 5): the same batch against a cuzk daemon on one
# GPU, then on all of them (`gpus.devices`), one prover worker set per ordinal. Per run: proofs
# per minute (`cuzk-bench batch`, every proof verified by the client) and how many partitions each
# device proved (the daemon's CUZK_TIMING lines name the worker, "cuda:N").
# Usage (on a CUDA host): scripts/gpu-multi.sh [BIN_DIR]   env: CIRCUIT (sha256-chain:16),
#   N (proofs per batch, 48), J (client concurrency, 8), WORKERS (prover workers per GPU, 2),
#   SYNTH (synthesis workers, 0 = the default), RUNS (device lists, "0" and then all GPUs;
#   e.g. RUNS="0 0,1:1" runs [0] then [0, 1] with 1 prover worker per GPU), ABC_POOL (true:
#   the a/b/c pool, memory.abc_pool; false: fresh a/b/c per partition), HROWS (precomputed
#   rows of the H query, gpus.h_precompute_rows; 0), STATUS_PORT (serve GET /status on
#   127.0.0.1:PORT and print its gpu_workers after the batch)
set -u
BIN=${1:-build/gpu-carry/bin}
CIRCUIT=${CIRCUIT:-sha256-chain:16}
N=${N:-48}
J=${J:-8}
WORKERS=${WORKERS:-2}
SYNTH=${SYNTH:-0}
T=$(mktemp -d /tmp/cuzk-multi.XXXXXX)
DPID=
cleanup() {
    [ -n "$DPID" ] && kill -KILL "$DPID" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT INT TERM

NGPU=$(nvidia-smi -L 2>/dev/null | wc -l)
echo "GPUs: $NGPU; circuit $CIRCUIT, $N proofs per batch, client concurrency $J, $WORKERS prover workers per GPU, $(nproc) CPUs"
nvidia-smi -L 2>/dev/null
t0=$(date +%s.%N)
"$BIN/cuzk-bench" setup --circuit "$CIRCUIT" --out "$T" >/dev/null || { echo "setup failed"; exit 1; }
echo "setup (test parameters): $(python3 -c "import time; print(round(time.time() - $t0, 1))") s"
P="$T/$(echo "$CIRCUIT" | tr ':/' '--').params"

run() { # $1 = devices list, e.g. "0" or "0, 1"; $2 = prover workers per GPU
    cat >"$T/cuzk.toml" <<EOF
[daemon]
listen = "unix://$T/cuzk.sock"
${STATUS_PORT:+status_listen = \"127.0.0.1:$STATUS_PORT\"}
[engine]
backend = "${BACKEND:-cuda}"
prover_workers = $2
synthesis_workers = $SYNTH
[memory]
abc_pool = ${ABC_POOL:-true}
[gpus]
devices = [$1]
h_precompute_rows = ${HROWS:-0}
[[circuits]]
id = "bench"
builtin = "$CIRCUIT"
params = "$P"
EOF
    CUZK_TIMING=1 "$BIN/cuzk" --config "$T/cuzk.toml" --cache-dir "$T/cache" 2>"$T/daemon.log" &
    DPID=$!
    local addr="unix://$T/cuzk.sock" i=0
    until "$BIN/cuzk-bench" status --addr "$addr" >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -gt 240 ] && { tail -20 "$T/daemon.log"; echo "daemon did not answer"; return 1; }
        sleep 0.5
    done
    "$BIN/cuzk-bench" preload --addr "$addr" --circuit bench >/dev/null || return 1
    # One warm-up batch (device state, resident parameter sets), then the timed one.
    "$BIN/cuzk-bench" batch --addr "$addr" --circuit bench -c "$J" -j "$J" >/dev/null || return 1
    : >"$T/daemon.log.timed"
    local before
    before=$(wc -l <"$T/daemon.log")
    "$BIN/cuzk-bench" batch --addr "$addr" --circuit bench -c "$N" -j "$J" --json >"$T/batch.json" ||
        { cat "$T/batch.json"; return 1; }
    tail -n +"$((before + 1))" "$T/daemon.log" >"$T/daemon.log.timed"
    python3 - "$1" "$T/batch.json" "$T/daemon.log.timed" <<'PY'
import json, sys, collections
devs, bj, log = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
per = collections.Counter()
for line in open(log):
    if line.startswith("{") and '"phase":"total"' in line:
        per[json.loads(line)["backend"]] += 1
ok = bj.get("completed", 0)
wall = bj.get("total_time_s") or bj.get("wall_s") or bj.get("total_s")
ppm = bj.get("proofs_per_min") or ok * 60.0 / wall
print(f"devices [{devs}]: {ok} proofs verified, {ppm:.1f} proofs/min; partitions per worker device: "
      + ", ".join(f"{k} {v}" for k, v in sorted(per.items())))
# Mean ms per phase and partition over the timed batch, all devices together.
sums, cnt = collections.defaultdict(float), collections.Counter()
for line in open(log):
    if line.startswith("{") and '"phase"' in line:
        d = json.loads(line)
        sums[d["phase"]] += d["ms"]
        cnt[d["phase"]] += 1
print("  mean ms per partition: " + "  ".join(f"{k} {sums[k] / cnt[k]:.1f}" for k in cnt))
PY
    "$BIN/cuzk-bench" status --addr "$addr" | grep -iE "gpu|cuda" | head -8
    [ -n "${STATUS_PORT:-}" ] && python3 -c "import json, urllib.request; \
print(json.dumps(json.load(urllib.request.urlopen('http://127.0.0.1:$STATUS_PORT/status'))['gpu_workers']))"
    # The set kept on the device at load, and a worker whose set could not stay there.
    grep -E "kept on the device|precomputed rows|rror" "$T/daemon.log" | head -5
    "$BIN/cuzk-bench" metrics --addr "$addr" | grep -E "^cuzk_(abc_pool|gpu_events_total|gpu_resident_bytes|gpu_h_precompute_rows)" || true
    kill -TERM "$DPID"
    wait "$DPID" && echo "daemon exited 0" || { echo "daemon exit status $?"; return 1; }
    DPID=
}

all=$(seq -s ',' 0 $((NGPU - 1)))
for r in ${RUNS:-0 $all}; do
    devs=${r%%:*}
    w=$WORKERS
    [ "$r" != "$devs" ] && w=${r#*:}
    [ "$NGPU" -eq 0 ] || [ "$(echo "$devs" | tr ',' '\n' | sort -n | tail -1)" -lt "$NGPU" ] || continue
    echo "== devices [$devs], $w prover workers per GPU"
    run "$(echo "$devs" | sed 's/,/, /g')" "$w" || exit 1
done
exit 0
