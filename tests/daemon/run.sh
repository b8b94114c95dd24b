#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Daemon tests: the real `cuzk` binary on unix sockets and a loopback port, driven by cuzk-bench's
# client commands and an independent grpc-js client (tests/interop/grpc_client.mjs).
# Usage: tests/daemon/run.sh [path/to/cuzk [path/to/cuzk-bench]] [NAME...]
#   NAME selects tests by substring (e.g. wire, t04). Env: CUZK_TEST_SEED replays a run,
#   KEEP=1 keeps each test's temporary directory, DAEMON_TEST_TIMEOUT (seconds per test, 420),
#   CUZK_TEST_BACKEND (the daemons' backend; cpu unless set).
# Exit 0: all passed (tests needing node are skipped, exit 77 each, when node is missing);
# 1: a failure; 77: everything was skipped.
set -u
cd "$(dirname "$0")/../.." || exit 1
export CUZK=build/bin/cuzk BENCH=build/bin/cuzk-bench
# Arguments with a slash are the binaries, the rest select tests.
case ${1:-} in */*) CUZK=$1; shift ;; esac
case ${1:-} in */*) BENCH=$1; shift ;; esac
for b in "$CUZK" "$BENCH"; do
    [ -x "$b" ] || { echo "daemon tests: $b is not built"; exit 1; }
done
if [ -z "${CUZK_TEST_SEED:-}" ]; then
    CUZK_TEST_SEED=$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')
fi
export CUZK_TEST_SEED
echo "# daemon tests: $CUZK, $BENCH, seed $CUZK_TEST_SEED (replay: CUZK_TEST_SEED=$CUZK_TEST_SEED)"

# The grpc-js client's packages (pinned in tests/interop/package-lock.json).
if [ "${CUZK_TEST_NO_NODE:-0}" != 1 ] && command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 &&
    [ ! -d tests/interop/node_modules/@grpc/grpc-js ]; then
    echo "# npm ci in tests/interop (@grpc/grpc-js, @grpc/proto-loader)"
    mkdir -p build
    (cd tests/interop && npm ci --no-audit --no-fund) >build/daemon-npm.log 2>&1 || {
        echo "daemon tests: npm ci failed:"; tail -n 20 build/daemon-npm.log; exit 1; }
fi

passed="" failed="" skipped=""
start=$(date +%s)
for t in tests/daemon/t[0-9]*.sh; do
    name=$(basename "$t" .sh)
    if [ $# -gt 0 ]; then
        sel=0
        for want in "$@"; do case $name in *"$want"*) sel=1 ;; esac; done
        [ $sel = 1 ] || continue
    fi
    echo "# ==== $name"
    t0=$(date +%s)
    timeout -k 10 "${DAEMON_TEST_TIMEOUT:-420}" bash "$t"
    rc=$?
    dt=$(($(date +%s) - t0))
    case $rc in
    0) passed="$passed $name(${dt}s)" ;;
    77) skipped="$skipped $name" ;;
    124 | 137) echo "not ok: $name timed out after ${dt}s"; failed="$failed $name(timeout)" ;;
    *) failed="$failed $name(${dt}s)" ;;
    esac
done
echo "# daemon tests: $(($(date +%s) - start)) s; passed:${passed:- none}; skipped:${skipped:- none}; failed:${failed:- none}"
[ -n "$failed" ] && exit 1
[ -z "$passed" ] && exit 77
exit 0
