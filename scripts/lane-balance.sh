#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# How evenly the two lanes of a two-thread snarkjs proof end (src/groth16/prove_zkey.c), for
# A/B runs of CUZK_LANE_SPLIT (the last G1 job's points per task) in one window: rounds
# alternate the values; per value the median gap between the lanes' ends (CUZK_LANE_TRACE=1
# lines), the median time from the first lane's entry into the last job to the last lane's end,
# and the median proof total. Needs the 2^16 key of `SIZE=16 scripts/bench-vs-snarkjs.sh`.
# Usage: scripts/lane-balance.sh [path/to/cuzk-bench]   (env RUNS=N (default 12),
#        SPLITS="1 2" values to compare, C=chain65000 key directory under build/interop)
# The CPU backend always (a GPU host's `auto` would prove 2^16 on the device).
set -eu
cd "$(dirname "$0")/.."
BENCH=${1:-build/bin/cuzk-bench}
RUNS=${RUNS:-12}
SPLITS=${SPLITS:-1 2}
C=${C:-chain65000}
D=build/interop/$C
[ -s "$D/${C}_final.zkey" ] || { echo "lane-balance: no $D/${C}_final.zkey (run SIZE=16 scripts/bench-vs-snarkjs.sh)"; exit 1; }
echo "# load: $(uptime)"
python3 - "$BENCH" "$D" "$C" "$RUNS" $SPLITS <<'PY'
import json, os, statistics, subprocess, sys
bench, d, c, runs, splits = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
res = {s: [] for s in splits}
for r in range(runs + 1):  # round 0 warms the page cache and is not counted
    for s in (splits if r % 2 == 0 else splits[::-1]):
        env = dict(os.environ, CUZK_LANE_TRACE="1", CUZK_LANE_SPLIT=s)
        o = subprocess.run([bench, "prove", "--zkey", f"{d}/{c}_final.zkey", "--wtns",
                            f"{d}/{c}.wtns", "--proof", f"{d}/lb_proof.json", "--public",
                            f"{d}/lb_public.json", "--unchecked-subgroup", "--threads", "2",
                            "--backend", "cpu", "--json"], capture_output=True, text=True, env=env)
        if o.returncode != 0:
            sys.exit(f"cuzk-bench failed: {o.stderr[-2000:]}")
        ev = [json.loads(x) for x in o.stderr.splitlines() if x.startswith('{"lane"')]
        if not ev:
            sys.exit("no lane lines on stderr: not the two-lane CPU prover?")
        ends = [e["t_ms"] for e in ev if e["event"] == "end"]
        last = [e for e in ev if e["event"] == "in"][-1]["msm"]
        first_in = min(e["t_ms"] for e in ev if e["event"] == "in" and e["msm"] == last)
        if len(ends) != 2:
            sys.exit(f"expected two lane ends, got {ends}")
        if r:
            total = json.loads(o.stdout.strip().splitlines()[-1])["total_ms"]
            res[s].append((abs(ends[0] - ends[1]), max(ends) - first_in, total))
print("| CUZK_LANE_SPLIT | end gap, median (ms) | last job, first in .. last end, median (ms) | total, median (ms) | gaps (ms) |")
print("|---|---:|---:|---:|---|")
for s, x in res.items():
    print(f"| {s} | {statistics.median(a for a, _, _ in x):.1f} | "
          f"{statistics.median(b for _, b, _ in x):.1f} | {statistics.median(t for _, _, t in x):.1f} | "
          f"{', '.join(str(round(a)) for a, _, _ in x)} |")
PY
echo "# load after: $(uptime)"
