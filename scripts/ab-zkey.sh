#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# A/B of two cuzk-bench binaries on one snarkjs key (no snarkjs runs, so many rounds fit in a
# window): rounds alternate the order, round 0 warms the page cache and is not counted; per
# binary the median wall time of the whole process, the median proof total and the medians of
# the phases (zkey load and the proof's), then the paired difference. Default key: the 2^16 chain of `SIZE=16 scripts/bench-vs-snarkjs.sh`.
# Usage: scripts/ab-zkey.sh A B   (env RUNS=N (default 16), C=chain65000 under build/interop,
#        THREADS=2, BACKEND=cpu)
set -eu
cd "$(dirname "$0")/.."
[ $# = 2 ] || { echo "usage: scripts/ab-zkey.sh path/to/cuzk-bench-A path/to/cuzk-bench-B"; exit 2; }
C=${C:-chain65000}
D=build/interop/$C
[ -s "$D/${C}_final.zkey" ] || { echo "ab-zkey: no $D/${C}_final.zkey (run SIZE=16 scripts/bench-vs-snarkjs.sh)"; exit 1; }
echo "# load: $(uptime)"
python3 - "$1" "$2" "$D" "$C" "${RUNS:-16}" "${THREADS:-2}" "${BACKEND:-cpu}" <<'PY'
import json, statistics, subprocess, sys, time
a, b, d, c, runs, threads, backend = sys.argv[1:8]
bins, res = [a, b], {a: [], b: []}
for r in range(int(runs) + 1):
    for x in (bins if r % 2 == 0 else bins[::-1]):
        t0 = time.perf_counter()
        o = subprocess.run([x, "prove", "--zkey", f"{d}/{c}_final.zkey", "--wtns", f"{d}/{c}.wtns",
                            "--proof", f"{d}/ab_proof.json", "--public", f"{d}/ab_public.json",
                            "--unchecked-subgroup", "--threads", threads, "--backend", backend,
                            "--json"], capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if o.returncode != 0:
            sys.exit(f"{x} failed: {o.stderr[-2000:]}")
        if r:
            res[x].append((dt * 1e3, json.loads(o.stdout.strip().splitlines()[-1])))
for x in bins:
    w = [t for t, _ in res[x]]
    print(f"{x}: wall median {statistics.median(w):.1f} ms (min {min(w):.1f}), total median "
          f"{statistics.median(j['total_ms'] for _, j in res[x]):.1f} ms")
    keys = ["zkey_load_ms", "synthesis_ms", "ntt_h_ms", "msm_h_ms", "tail_msm_ms", "msm_b_g2_ms"]
    print("  phase medians (ms): " + ", ".join(
        f"{k[:-3]} {statistics.median(j[k] for _, j in res[x]):.1f}" for k in keys))
p = [ya[0] - yb[0] for ya, yb in zip(res[a], res[b])]
print(f"paired A - B over {len(p)} rounds: median {statistics.median(p):+.1f} ms; B faster in "
      f"{sum(v > 0 for v in p)} of {len(p)}")
PY
