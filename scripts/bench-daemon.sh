#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Issue 5 benchmark: proofs per minute through the daemon against in-process proving, same circuit,
# same parameter file, same CPU backend and threads, rounds alternating so that machine noise hits
# both alike. In-process: `cuzk-bench prove --params --repeat N` (per proof: synthesis + prove,
# parameters already loaded). Daemon: `cuzk-bench batch -c N -j J` over a unix socket against a
# daemon with the set preloaded (wall clock of the whole batch, gRPC and the client's own
# verification of every proof included). Also the daemon's resident memory idle (after preload)
# and its high-water mark under load (VmRSS / VmHWM).
# Usage: scripts/bench-daemon.sh [BIN_DIR]   env: CIRCUIT (sha256-chain:4), N (12), J (1),
#        ROUNDS (3)
set -eu
cd "$(dirname "$0")/.."
BIN=${1:-build/bin}
CIRCUIT=${CIRCUIT:-sha256-chain:4}
N=${N:-12}
J=${J:-1}
ROUNDS=${ROUNDS:-3}
T=$(mktemp -d /tmp/cuzk-bench-daemon.XXXXXX)
DPID=
cleanup() {
    [ -n "$DPID" ] && kill "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT INT TERM

"$BIN/cuzk-bench" setup --circuit "$CIRCUIT" --out "$T" >/dev/null
P="$T/$(echo "$CIRCUIT" | tr ':/' '--').params"
cat >"$T/cuzk.toml" <<EOF
[daemon]
listen = "unix://$T/cuzk.sock"
[engine]
backend = "cpu"
[[circuits]]
id = "bench"
builtin = "$CIRCUIT"
params = "$P"
EOF
"$BIN/cuzk" --config "$T/cuzk.toml" --cache-dir "$T/cache" 2>"$T/daemon.log" &
DPID=$!
ADDR="unix://$T/cuzk.sock"
i=0
until "$BIN/cuzk-bench" status --addr "$ADDR" >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -gt 120 ] && { cat "$T/daemon.log"; echo "daemon did not answer" >&2; exit 1; }
    sleep 0.5
done
"$BIN/cuzk-bench" preload --addr "$ADDR" --circuit bench >/dev/null
kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$DPID/status"; }
echo "circuit $CIRCUIT, N=$N proofs per round, batch concurrency J=$J, rounds $ROUNDS, $(nproc) CPUs"
echo "daemon idle after preload: VmRSS $(kb VmRSS) kB"
echo "round in_process_proofs_per_min daemon_proofs_per_min daemon/in_process load"
r=1
while [ $r -le "$ROUNDS" ]; do
    ms=$("$BIN/cuzk-bench" prove --params "$T" --circuit "$CIRCUIT" --repeat "$N" --json |
        python3 -c 'import json,sys; print(sum(json.loads(l)["synthesis_ms"] + json.loads(l)["total_ms"] for l in sys.stdin if l.startswith("{")))')
    dj=$("$BIN/cuzk-bench" batch --addr "$ADDR" --circuit bench -c "$N" -j "$J" --json)
    python3 - "$r" "$N" "$ms" "$dj" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import json, sys
r, n, ms, dj, load = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
d = json.loads(dj)
ok = d.get("completed", 0)
wall = d.get("total_time_s") or d.get("wall_s") or d.get("total_s")
ppm_d = d.get("proofs_per_min") or (ok * 60.0 / wall)
ppm_i = n * 60000.0 / ms
print(f"{r} {ppm_i:.1f} {ppm_d:.1f} {ppm_d / ppm_i:.3f} {load}  (daemon completed {ok}/{n})")
PY
    r=$((r + 1))
done
echo "daemon under load: VmHWM $(kb VmHWM) kB, VmRSS now $(kb VmRSS) kB"
kill -TERM "$DPID"
wait "$DPID" && echo "daemon exited 0" || { echo "daemon exit status $?"; exit 1; }
DPID=
