#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# snarkjs keys on a CUDA host (issue 4): `cuzk-bench prove --zkey` on the CPU backend (all cores)
# and on the cuda backend, K proofs each in one process (the first pays the device's start-up),
# then the same key through a cuzk daemon with GPU workers (`cuzk-bench single --wtns`, every
# proof verified by the client; the daemon's CUZK_TIMING lines name the worker's backend).
# Proofs go to $OUT/zkey for `snarkjs groth16 verify` on a machine with node.
# Keys below 2^CUZK_SNARKJS_GPU_MIN_LOG are proved on the daemon's CPU pool (env
# CUZK_ZKEY_GPU_MIN_LOG changes that).
# Usage: scripts/gpu-zkey.sh ZKEY WTNS [NAME]   env: BIN (build/gpu-carry/bin), OUT (gpu-out),
#   K (proofs per backend, 3), DBACKEND (the daemon's backend, cuda)
set -u
Z=$1
W=$2
NAME=${3:-$(basename "$Z" .zkey)}
BIN=${BIN:-build/gpu-carry/bin}
OUT=${OUT:-gpu-out}
K=${K:-3}
D=$OUT/zkey/$NAME
mkdir -p "$D"
T=$(mktemp -d /tmp/cuzk-zkey.XXXXXX)
DPID=
cleanup() {
    [ -n "$DPID" ] && kill -KILL "$DPID" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail=0

"$BIN/cuzk-bench" export-vk-snarkjs --zkey "$Z" --out "$D/vk.json" >/dev/null || exit 1
# cpu-pairs: the CPU prover's earlier order (pairs of one-thread G1 MSMs), for comparison.
for v in cpu cpu-pairs cuda; do
    be=${v%-pairs}
    pairs=0
    [ "$v" = cpu-pairs ] && pairs=1
    if CUZK_ZKEY_G1_PAIRS=$pairs "$BIN/cuzk-bench" prove --zkey "$Z" --wtns "$W" --backend $be --threads 0 --repeat "$K" \
        --unchecked-subgroup --json --proof "$D/$v.proof.json" --public "$D/$v.public.json" \
        >"$D/$v.json" 2>"$D/$v.err" &&
        "$BIN/cuzk-bench" verify-snarkjs --vk "$D/vk.json" --proof "$D/$v.proof.json" \
            --public "$D/$v.public.json" | grep -q '^valid$'; then
        echo "ok - $NAME: prove --zkey --backend $be (CUZK_ZKEY_G1_PAIRS=$pairs), $K proofs, last verified"
    else
        echo "not ok - $NAME: prove --zkey --backend $be (CUZK_ZKEY_G1_PAIRS=$pairs)"
        fail=1
    fi
    cat "$D/$v.err"
    # Per proof: total and the phases (ms).
    python3 - "$D/$v.json" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    if line.startswith("{"):
        j = json.loads(line)
        print("  %s repeat %d: total %.1f ms (synthesis %.1f, ntt_h %.1f, msm_h %.1f, tail_msm %.1f,"
              " msm_b_g2 %.1f, assemble %.1f, verify %.1f); zkey_load %.1f, command %.1f" % (
              j["backend"], j["repeat"], j["total_ms"], j["synthesis_ms"], j["ntt_h_ms"],
              j["msm_h_ms"], j["tail_msm_ms"], j["msm_b_g2_ms"], j["assemble_ms"], j["verify_ms"],
              j["zkey_load_ms"], j["command_ms"]) + ("; key upload %.1f" % j["resident_ms"] if j["resident_ms"] else ""))
PY
done

# The daemon: one GPU, the key as a zkey circuit.
cat >"$T/cuzk.toml" <<EOF
[daemon]
listen = "unix://$T/cuzk.sock"
[engine]
backend = "${DBACKEND:-cuda}"
[[circuits]]
id = "$NAME"
zkey = "$(readlink -f "$Z")"
EOF
CUZK_TIMING=1 "$BIN/cuzk" --config "$T/cuzk.toml" --cache-dir "$T/cache" 2>"$D/daemon.log" &
DPID=$!
addr="unix://$T/cuzk.sock"
i=0
until "$BIN/cuzk-bench" status --addr "$addr" >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -gt 240 ] && { tail -20 "$D/daemon.log"; echo "not ok - daemon did not answer"; exit 1; }
    sleep 0.5
done
for k in $(seq 1 "$K"); do
    if "$BIN/cuzk-bench" single --addr "$addr" --circuit "$NAME" --wtns "$W" \
        --proof-out "$D/daemon.proof.bin" --public-out "$D/daemon.public.inputs" \
        >"$D/single.$k.log" 2>&1 && grep -q COMPLETED "$D/single.$k.log"; then
        echo "ok - $NAME: daemon proof $k (client-verified)"
    else
        echo "not ok - $NAME: daemon proof $k"
        tail -5 "$D/single.$k.log"
        fail=1
    fi
done
kill -TERM "$DPID" 2>/dev/null
wait "$DPID" 2>/dev/null
DPID=
# Which backend proved, and the phases of the last job.
python3 - "$D/daemon.log" <<'PY'
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{") and '"job"' in l]
jobs = collections.OrderedDict()
for r in rows:
    jobs.setdefault(r["job"], []).append(r)
for job, rs in jobs.items():
    be = sorted({r["backend"] for r in rs})
    print("  daemon job %s on %s: " % (job[:8], ",".join(be)) +
          ", ".join("%s %.1f" % (r["phase"], r["ms"]) for r in rs))
PY
exit $fail
