# SPDX-License-Identifier: Apache-2.0 OR MIT
# Sourced by every tests/daemon/t*.sh: a fresh temporary directory, daemons started in it and
# killed on exit, check helpers, the node client. Environment (set by run.sh, defaults for a
# direct run from the repository root): CUZK, BENCH (binaries), CUZK_TEST_SEED, KEEP=1 keeps the
# temporary directory, CUZK_TEST_BACKEND (the daemons' backend, cpu unless set: cuda on a GPU host).
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
CUZK=${CUZK:-build/bin/cuzk}
BENCH=${BENCH:-build/bin/cuzk-bench}
case $CUZK in /*) ;; *) CUZK=$ROOT/$CUZK ;; esac
case $BENCH in /*) ;; *) BENCH=$ROOT/$BENCH ;; esac
CLIENT=$ROOT/tests/interop/grpc_client.mjs
TEST=$(basename "$0" .sh)
T=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-$TEST.XXXXXX")
fails=0
DAEMONS="" # "name:pid" for every daemon started here
BG_PIDS="" # background clients, killed on exit
if [ -z "${CUZK_TEST_SEED:-}" ]; then
    CUZK_TEST_SEED=$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')
fi
export CUZK_TEST_SEED

cleanup() {
    for d in $DAEMONS; do
        pid=${d#*:}
        kill -0 "$pid" 2>/dev/null || continue
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    for p in ${BG_PIDS:-}; do kill "$p" 2>/dev/null; done
    if [ "${KEEP:-0}" = 1 ]; then echo "# kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

ok() { echo "ok: $*"; }
notok() {
    echo "not ok: $*"
    fails=$((fails + 1))
}
# check DESC command...: passes when the command succeeds.
check() {
    desc=$1
    shift
    if "$@"; then ok "$desc"; else notok "$desc"; fi
}
# expect CODE PATTERN DESC command...: exit code (nz = any non-zero) and output (stdout +
# stderr) must match.
expect() {
    want=$1 pat=$2 desc=$3
    shift 3
    out=$("$@" 2>&1)
    rc=$?
    good=1
    if [ "$want" = nz ]; then [ "$rc" != 0 ] || good=0; else [ "$rc" = "$want" ] || good=0; fi
    if [ $good = 0 ] || ! printf '%s\n' "$out" | grep -qE -- "$pat"; then
        notok "$desc: exit $rc (want $want), output must match /$pat/:"
        printf '%s\n' "$out" | tail -n 8 | sed 's/^/    /'
    else
        ok "$desc"
    fi
}
skip() {
    echo "# SKIP $TEST: $*"
    exit 77
}
# have_node: node is installed (CUZK_TEST_NO_NODE=1 pretends it is not, to try the skip paths).
have_node() { [ "${CUZK_TEST_NO_NODE:-0}" != 1 ] && command -v node >/dev/null 2>&1; }
need_node() {
    have_node || skip "node is needed for the gRPC client (tests/interop)"
    [ -d "$ROOT/tests/interop/node_modules/@grpc/grpc-js" ] ||
        { echo "not ok: tests/interop/node_modules lacks @grpc/grpc-js (run.sh runs npm ci)"; exit 1; }
}
# node_client COMMAND ADDR ARGS...: a scenario of tests/interop/grpc_client.mjs; its ok/not ok
# lines are ours.
node_client() {
    out=$(node "$CLIENT" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    n=$(printf '%s\n' "$out" | grep -c '^not ok')
    [ "$rc" = 0 ] || [ "$n" -gt 0 ] || { notok "node client $1 exited $rc"; return; }
    fails=$((fails + n))
}
# rpc ADDR METHOD [JSON]: one call through the node client; JSON response on stdout, exit 3 on a
# gRPC error (its JSON on stdout too).
rpc() { node "$CLIENT" call "$@"; }
# jget JSON PYEXPR: evaluates a Python expression over the parsed JSON `d`.
jget() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"; }

# free_port: a TCP port on 127.0.0.1 nobody listens on right now.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# start_daemon NAME [cuzk args...]: starts cuzk on unix://$T/NAME/cuzk.sock with its own cache
# and waits until it answers. Sets DDIR, DSOCK, DADDR, DPID, DLOG.
start_daemon() {
    name=$1
    shift
    DDIR=$T/$name
    mkdir -p "$DDIR/cache"
    DSOCK=$DDIR/cuzk.sock
    DADDR=unix://$DSOCK
    DLOG=$DDIR/daemon.log
    "$CUZK" --listen "$DADDR" --cache-dir "$DDIR/cache" --backend "${CUZK_TEST_BACKEND:-cpu}" "$@" >"$DLOG" 2>&1 &
    DPID=$!
    DAEMONS="$DAEMONS $name:$DPID"
    echo "# daemon $name: pid $DPID, $DADDR, args: $*"
    wait_ready "$DSOCK" "$DPID" "$DLOG" || { daemon_failed "daemon $name did not start"; exit 1; }
}

# wait_ready SOCKET PID LOG: the socket exists and a GetStatus (cuzk-bench status) succeeds.
wait_ready() {
    i=0
    while [ $i -lt 300 ]; do
        alive "$2" || return 1
        if [ -S "$1" ] && "$BENCH" status --addr "unix://$1" >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# daemon_failed MESSAGE: a failure with every daemon's log tail.
daemon_failed() {
    notok "$1"
    logs
}
logs() {
    for d in $DAEMONS; do
        n=${d%%:*}
        echo "---- $n: last lines of $T/$n/daemon.log"
        tail -n 40 "$T/$n/daemon.log" 2>/dev/null | sed 's/^/    /'
    done
}

# alive PID: running (a zombie, exited but not yet waited for, is not).
alive() {
    kill -0 "$1" 2>/dev/null || return 1
    st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ "$st" != Z ]
}

# stop_daemon PID [TIMEOUT_S]: SIGTERM, then waits (not in a subshell: wait needs the child).
# Sets STOP_RC (the exit code; 124 = still running at the timeout, then killed) and STOP_S.
stop_daemon() {
    t0=$(date +%s.%N)
    kill -TERM "$1" 2>/dev/null
    i=0
    lim=$((${2:-30} * 10))
    while alive "$1" && [ $i -lt $lim ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if alive "$1"; then
        kill -KILL "$1" 2>/dev/null
        wait "$1" 2>/dev/null
        STOP_RC=124
    else
        wait "$1" 2>/dev/null
        STOP_RC=$?
    fi
    STOP_S=$(python3 -c "import sys; print('%.1f' % ($(date +%s.%N) - $t0))")
}

# still_serving ADDR: the daemon answers GetStatus.
still_serving() { "$BENCH" status --addr "$1" >/dev/null 2>&1; }

# finish: the test's verdict (and the daemon logs when something failed).
finish() {
    if [ "$fails" -gt 0 ]; then
        echo "# $TEST: $fails check(s) failed (seed $CUZK_TEST_SEED)"
        logs
        exit 1
    fi
    echo "# $TEST: passed"
    exit 0
}

echo "# $TEST: seed $CUZK_TEST_SEED, tmp $T"
