#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Timing comparison (issue 3): `cuzk-bench prove --zkey` vs `snarkjs groth16 prove` on the same
# .zkey and .wtns: the chain circuit x[i+1] = x[i]^2 + k with 4,000 steps (N = 2^12;
# tests/interop/chain4000.circom), whole process against whole process (node start-up and file
# loading included for snarkjs; zkey loading, checks, self-verification and JSON output included
# for cuzk). Runs alternate between the tools; min and median of RUNS runs each (default 5).
# Usage: scripts/bench-vs-snarkjs.sh [path/to/cuzk-bench]   (env RUNS=N, THREADS=N)
# The zkey and witness come from scripts/interop-snarkjs.sh --setup (powers of tau 2^12 cached in
# build/interop). A 2^16 comparison needs a power-16 ptau (prepare phase2 ~45 min on 2 cores): not
# done here.
set -eu
cd "$(dirname "$0")/.."
BENCH=${1:-build/bin/cuzk-bench}
RUNS=${RUNS:-5}
THREADS=${THREADS:-0}
C=chain4000
D=build/interop/$C
scripts/interop-snarkjs.sh "$BENCH" --setup "$C" '{"x0": "5", "k": "7"}'
python3 - "$BENCH" "$D" "$C" "$RUNS" "$THREADS" <<'PY'
import json, os, statistics, subprocess, sys, time
bench, d, c, runs, threads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
zkey, wtns = f"{d}/{c}_final.zkey", f"{d}/{c}.wtns"
snarkjs = "tests/interop/node_modules/.bin/snarkjs"
cmds = {
    "snarkjs groth16 prove": [snarkjs, "groth16", "prove", zkey, wtns, f"{d}/b_sj_proof.json",
                              f"{d}/b_sj_public.json"],
    "cuzk-bench prove": [bench, "prove", "--zkey", zkey, "--wtns", wtns, "--proof",
                         f"{d}/b_cz_proof.json", "--public", f"{d}/b_cz_public.json",
                         "--threads", threads, "--json"],
    "cuzk-bench prove --unchecked-subgroup": [bench, "prove", "--zkey", zkey, "--wtns", wtns,
                                              "--proof", f"{d}/b_cu_proof.json", "--public",
                                              f"{d}/b_cu_public.json", "--threads", threads,
                                              "--unchecked-subgroup", "--json"],
}
times = {k: [] for k in cmds}
phases = {k: [] for k in cmds}
for i in range(runs + 1):  # run 0 warms the page cache and is not counted
    for name, cmd in cmds.items():
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if out.returncode != 0:
            sys.exit(f"{name} failed ({out.returncode}): {out.stderr[-2000:]}")
        if i == 0:
            continue
        times[name].append(dt)
        if name.startswith("cuzk"):
            phases[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
v = subprocess.run([snarkjs, "groth16", "verify", f"{d}/vk.json", f"{d}/b_cz_public.json",
                    f"{d}/b_cz_proof.json"], capture_output=True, text=True)
if v.returncode != 0:
    sys.exit("snarkjs does not accept cuzk's benchmark proof")
sj = statistics.median(times["snarkjs groth16 prove"])
print(f"circuit {c}: zkey {os.path.getsize(zkey)} bytes, {runs} runs each (wall time of the "
      "whole process, seconds)")
print("| command | min | median | max | snarkjs median / median |")
print("|---|---|---|---|---|")
for name, t in times.items():
    m = statistics.median(t)
    print(f"| `{name}` | {min(t):.3f} | {m:.3f} | {max(t):.3f} | {sj / m:.1f}x |")
for name, ph in phases.items():
    if not ph:
        continue
    keys = ["zkey_load_ms", "wtns_load_ms", "synthesis_ms", "ntt_h_ms", "msm_h_ms",
            "tail_msm_ms", "msm_b_g2_ms", "assemble_ms", "verify_ms", "total_ms", "command_ms"]
    med = {k: statistics.median(p[k] for p in ph) for k in keys}
    print(f"{name} (threads {ph[0]['threads']}), median ms: " +
          ", ".join(f"{k[:-3]} {med[k]:.1f}" for k in keys))
PY
