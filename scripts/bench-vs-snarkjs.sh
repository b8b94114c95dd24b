#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Timing comparison (issue 3): `cuzk-bench prove --zkey` vs `snarkjs groth16 prove` on the same
# .zkey and .wtns: the chain circuit x[i+1] = x[i]^2 + k, whole process against whole process
# (node start-up and file loading included for snarkjs; zkey loading, checks, self-verification
# and JSON output included for cuzk). Runs alternate between the tools; min and median of RUNS
# runs each (default 5).
# Usage: scripts/bench-vs-snarkjs.sh [path/to/cuzk-bench]   (env RUNS=N, THREADS=N, SIZE=12|16)
# env BASE=path/to/other/cuzk-bench adds that binary's --unchecked-subgroup runs to every round
#   (an A/B comparison in the same window); CHECKED=0 leaves out the checked-mode runs: one with
#   the subgroups tested at every run (--no-check-cache; 2-11 s at 2^16, by CPU), one with a
#   check cache of this run (the uncounted first run records the key, the others find it).
# SIZE=12 (default): 4,000 steps, N = 2^12 (tests/interop/chain4000.circom); the zkey and witness
#   come from scripts/interop-snarkjs.sh --setup (snarkjs powers of tau 2^12 cached in
#   build/interop, one zkey contribution and a beacon).
# SIZE=16: 65,000 steps, N = 2^16 (tests/interop/chain65000.circom). snarkjs needs ~45 minutes on
#   2 cores to prepare a power-16 ptau, so the ptau comes from `cuzk-bench gen-ptau` (random toxic
#   waste, seconds; for tests and benchmarks only), cached in build/interop/pot; then
#   `snarkjs groth16 setup` and one `zkey contribute` (a few minutes, cached while the inputs are
#   unchanged). Both proofs of the last round are checked by both verifiers.
set -eu
cd "$(dirname "$0")/.."
BENCH=${1:-build/bin/cuzk-bench}
RUNS=${RUNS:-5}
THREADS=${THREADS:-0}
BASE=${BASE:-}
CHECKED=${CHECKED:-1}
if [ -n "$BASE" ] && [ ! -x "$BASE" ]; then
    echo "bench-vs-snarkjs: BASE=$BASE is not executable"
    exit 2
fi
SIZE=${SIZE:-12}
SNARKJS=tests/interop/node_modules/.bin/snarkjs
case $SIZE in
12)
    C=chain4000
    D=build/interop/$C
    scripts/interop-snarkjs.sh "$BENCH" --setup "$C" '{"x0": "5", "k": "7"}'
    ;;
16)
    C=chain65000
    D=build/interop/$C
    PTAU=build/interop/pot/pot16_cuzk.ptau
    [ -x "$BENCH" ] || { echo "bench-vs-snarkjs: $BENCH not built"; exit 1; }
    [ -x "$SNARKJS" ] || (cd tests/interop && npm ci --no-audit --no-fund) || exit 1
    mkdir -p "$D" build/interop/pot
    # step DESC command...: timed, output kept in $D/step.log, stops on failure.
    step() {
        desc=$1
        shift
        t0=$(date +%s.%N)
        if ! "$@" >"$D/step.log" 2>&1; then
            echo "bench-vs-snarkjs: $desc failed: $*"
            tail -n 20 "$D/step.log"
            exit 1
        fi
        printf '# %s: %.2f s\n' "$desc" "$(echo "$(date +%s.%N) - $t0" | bc)"
    }
    if [ ! -s "$PTAU" ]; then
        step "cuzk-bench gen-ptau --power 16" "$BENCH" gen-ptau --power 16 --out "$PTAU"
        head -n 2 "$D/step.log"
    fi
    if [ ! -s "$D/$C.r1cs" ] || [ tests/interop/$C.circom -nt "$D/$C.r1cs" ] ||
        [ tests/interop/chain.circom -nt "$D/$C.r1cs" ]; then
        step "circom2 compile" sh -c "cd tests/interop && node_modules/.bin/circom2 $C.circom \
            --r1cs --wasm --sym --prime bls12381 -o ../../$D"
        rm -f "$D/${C}_final.zkey"
    fi
    echo '{"x0": "5", "k": "7"}' > "$D/input.json"
    step "snarkjs wtns calculate" "$SNARKJS" wtns calculate "$D/${C}_js/$C.wasm" "$D/input.json" \
        "$D/$C.wtns"
    step "snarkjs wtns check" "$SNARKJS" wtns check "$D/$C.r1cs" "$D/$C.wtns"
    if [ ! -s "$D/${C}_final.zkey" ] || [ "$PTAU" -nt "$D/${C}_final.zkey" ] ||
        [ "$D/$C.r1cs" -nt "$D/${C}_final.zkey" ]; then
        step "snarkjs groth16 setup" "$SNARKJS" groth16 setup "$D/$C.r1cs" "$PTAU" \
            "$D/${C}_0000.zkey"
        step "snarkjs zkey contribute" "$SNARKJS" zkey contribute "$D/${C}_0000.zkey" \
            "$D/${C}_final.tmp.zkey" --name="bench" -e="cuzk bench zkey entropy"
        mv "$D/${C}_final.tmp.zkey" "$D/${C}_final.zkey"
        rm -f "$D/${C}_0000.zkey"
    fi
    step "snarkjs zkey export verificationkey" "$SNARKJS" zkey export verificationkey \
        "$D/${C}_final.zkey" "$D/vk.json"
    ;;
*)
    echo "bench-vs-snarkjs: SIZE must be 12 or 16, got '$SIZE'"
    exit 2
    ;;
esac
echo "# load: $(uptime)"
python3 - "$BENCH" "$D" "$C" "$RUNS" "$THREADS" "$CHECKED" "$BASE" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
bench, d, c, runs, threads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
checked, base = sys.argv[6] != "0", sys.argv[7]
zkey, wtns = f"{d}/{c}_final.zkey", f"{d}/{c}.wtns"
snarkjs = "tests/interop/node_modules/.bin/snarkjs"
cmds = {
    "snarkjs groth16 prove": [snarkjs, "groth16", "prove", zkey, wtns, f"{d}/b_sj_proof.json",
                              f"{d}/b_sj_public.json"],
    # checked in full at every run, and checked once: later runs find the key in the cache
    "cuzk-bench prove --no-check-cache": [bench, "prove", "--zkey", zkey, "--wtns", wtns,
                                          "--proof", f"{d}/b_cz_proof.json", "--public",
                                          f"{d}/b_cz_public.json", "--threads", threads,
                                          "--no-check-cache", "--json"],
    "cuzk-bench prove": [bench, "prove", "--zkey", zkey, "--wtns", wtns, "--proof",
                         f"{d}/b_cc_proof.json", "--public", f"{d}/b_cc_public.json",
                         "--threads", threads, "--check-cache", f"{d}/checked-points", "--json"],
    "cuzk-bench prove --unchecked-subgroup": [bench, "prove", "--zkey", zkey, "--wtns", wtns,
                                              "--proof", f"{d}/b_cu_proof.json", "--public",
                                              f"{d}/b_cu_public.json", "--threads", threads,
                                              "--unchecked-subgroup", "--json"],
}
if not checked:
    del cmds["cuzk-bench prove"], cmds["cuzk-bench prove --no-check-cache"]
elif os.path.exists(f"{d}/checked-points"):
    os.remove(f"{d}/checked-points")  # run 0 (not counted) records the key
if base:
    cmds["BASE cuzk-bench prove --unchecked-subgroup"] = [
        base, "prove", "--zkey", zkey, "--wtns", wtns, "--proof", f"{d}/b_cb_proof.json",
        "--public", f"{d}/b_cb_public.json", "--threads", threads, "--unchecked-subgroup", "--json"]
times = {k: [] for k in cmds}
cpus = {k: [] for k in cmds}  # user + system CPU seconds of the process and its threads/children
phases = {k: [] for k in cmds}
# Each round runs snarkjs first, then the cuzk commands in an order rotated by one per round: every
# cuzk binary runs right after snarkjs in as many rounds as the others. (Alternating the whole
# list put the first cuzk command after snarkjs in every other round and BASE never, and the
# process right after snarkjs finds its fresh memory cold on this VM: msm_h +25 ms.)
cz = [n for n in cmds if n != "snarkjs groth16 prove"]
for i in range(runs + 1):  # run 0 warms the page cache and is not counted
    k = i % len(cz)
    for name in ["snarkjs groth16 prove"] + cz[k:] + cz[:k]:
        cmd = cmds[name]
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        dt = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        if out.returncode != 0:
            sys.exit(f"{name} failed ({out.returncode}): {out.stderr[-2000:]}")
        if i == 0:
            continue
        times[name].append(dt)
        cpus[name].append(cpu)
        if "cuzk" in name:
            phases[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
v = subprocess.run([snarkjs, "groth16", "verify", f"{d}/vk.json", f"{d}/b_cu_public.json",
                    f"{d}/b_cu_proof.json"], capture_output=True, text=True)
if v.returncode != 0:
    sys.exit("snarkjs does not accept cuzk's benchmark proof")
v = subprocess.run([bench, "verify-snarkjs", "--vk", f"{d}/vk.json", "--proof",
                    f"{d}/b_sj_proof.json", "--public", f"{d}/b_sj_public.json"],
                   capture_output=True, text=True)
if v.returncode != 0:
    sys.exit("cuzk-bench verify-snarkjs does not accept snarkjs's benchmark proof")
sj = statistics.median(times["snarkjs groth16 prove"])
print(f"circuit {c}: zkey {os.path.getsize(zkey)} bytes, {runs} runs each (wall time of the "
      "whole process, seconds)")
# CPU time is less sensitive than wall time to other processes on a shared machine.
sj_cpu = statistics.median(cpus["snarkjs groth16 prove"])
print("| command | min | median | max | snarkjs median / median | CPU s, median | snarkjs CPU / CPU |")
print("|---|---|---|---|---|---|---|")
for name, t in times.items():
    m, cm = statistics.median(t), statistics.median(cpus[name])
    print(f"| `{name}` | {min(t):.3f} | {m:.3f} | {max(t):.3f} | {sj / m:.1f}x | {cm:.2f} | "
          f"{sj_cpu / cm:.1f}x |")
for name, ph in phases.items():
    if not ph:
        continue
    keys = ["zkey_load_ms", "wtns_load_ms", "synthesis_ms", "ntt_h_ms", "msm_h_ms",
            "tail_msm_ms", "msm_b_g2_ms", "assemble_ms", "verify_ms", "total_ms", "command_ms"]
    med = {k: statistics.median(p[k] for p in ph) for k in keys}
    print(f"{name} (threads {ph[0]['threads']}), median ms: " +
          ", ".join(f"{k[:-3]} {med[k]:.1f}" for k in keys))
if base:  # the same rounds, paired: positive = this binary faster than BASE
    new, old = times["cuzk-bench prove --unchecked-subgroup"], times[
        "BASE cuzk-bench prove --unchecked-subgroup"]
    d = [1e3 * (o - n) for n, o in zip(new, old)]
    print(f"paired over {len(d)} rounds: BASE - this binary, median {statistics.median(d):+.1f} "
          f"ms; this binary faster in {sum(x > 0 for x in d)} of {len(d)}")
PY
echo "# load after: $(uptime)"
