#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The device calls of a CUZK_TIMING=1 log on one time axis (issue 4: do the two lanes overlap?).

Usage: scripts/gpu-timeline.py LOG [--all]
Reads the JSON timing lines that carry "lane" and "end_s" (src/gpu/shim.cu) and prints, for the
last proof in the log (from its last "ntt_h" line on; --all: every line), each call's lane, start
and end in ms from the first call's start, and its h2d / compute split. Other lines are ignored.
"""
import json
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    calls = []
    with open(args[0], errors="replace") as f:
        for line in f:
            if not line.startswith("{"):
                continue
            try:
                j = json.loads(line)
            except ValueError:
                continue
            if "end_s" in j and "lane" in j:
                calls.append(j)
    if not calls:
        sys.exit("no device timing lines with lane and end_s (run with CUZK_TIMING=1)")
    if "--all" not in sys.argv:
        starts = [i for i, c in enumerate(calls) if c["phase"] == "ntt_h"]
        if starts:
            calls = calls[starts[-1]:]
    t0 = min(c["end_s"] - c["ms"] / 1e3 for c in calls)
    busy = [0.0, 0.0]
    for c in sorted(calls, key=lambda c: c["end_s"] - c["ms"] / 1e3):
        s = (c["end_s"] - c["ms"] / 1e3 - t0) * 1e3
        busy[c["lane"] & 1] += c["ms"]
        print("%-20s lane %d %9.1f -> %9.1f ms  h2d %7.1f  compute %7.1f  2^%s" %
              (c["phase"], c["lane"], s, s + c["ms"], c.get("h2d_ms", 0), c.get("compute_ms", 0),
               c.get("log_n", "?")))
    end = max(c["end_s"] for c in calls)
    print("span %.1f ms; lane 0 busy %.1f ms, lane 1 busy %.1f ms" %
          ((end - t0) * 1e3, busy[0], busy[1]))


if __name__ == "__main__":
    main()
