#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 9, listeners: the unix socket is created mode 0600 (only the daemon's user may submit);
# a loopback TCP port (--listen 127.0.0.1:PORT) serves the same engine at the same time.
. "$(dirname "$0")/lib.sh"
PORT=$(free_port)
start_daemon d --listen "127.0.0.1:$PORT"
mode=$(stat -c %a "$DSOCK")
check "unix socket mode is 0600 (got $mode)" [ "$mode" = 600 ]
# gRPC may bind an IPv4-mapped IPv6 socket ([::ffff:127.0.0.1]); either way only loopback.
lst=$(ss -ltn 2>/dev/null | grep ":$PORT ")
if printf '%s' "$lst" | grep -qE "(^|[[:space:]])(127\.0\.0\.1|\[::ffff:127\.0\.0\.1\]):$PORT " &&
    ! printf '%s' "$lst" | grep -qE "(\*|0\.0\.0\.0|\[::\]):$PORT "; then
    ok "TCP listener bound to loopback only: $(printf '%s' "$lst" | awk '{print $4}' | tr '\n' ' ')"
else notok "TCP listener on 127.0.0.1:$PORT only: ${lst:-none}"; fi
seed=$((CUZK_TEST_SEED % 1000000007))
expect 0 'COMPLETED' "cuzk-bench single over TCP (client-side verified)" \
    "$BENCH" single --addr "127.0.0.1:$PORT" --circuit demo --seed "$seed" \
    --proof-out "$T/tcp.proof" --public-out "$T/tcp.inputs"
expect 0 'COMPLETED' "cuzk-bench single over the unix socket, same seed" \
    "$BENCH" single --addr "$DADDR" --circuit demo --seed "$seed" \
    --proof-out "$T/unix.proof" --public-out "$T/unix.inputs"
check "both listeners reach one engine: same public inputs for the same seed" cmp -s "$T/tcp.inputs" "$T/unix.inputs"
st=$("$BENCH" status --addr "127.0.0.1:$PORT" --json 2>&1)
n=$(printf '%s' "$st" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_proofs_completed"])' 2>&1)
check "GetStatus over TCP counts both proofs (got $n)" [ "$n" = 2 ]
if have_node; then
    r=$(rpc "127.0.0.1:$PORT" GetCircuitInfo '{"circuit_id":"demo"}')
    check "grpc-js over TCP: GetCircuitInfo demo" [ "$(jget "$r" 'd["circuit_id"]')" = demo ]
fi
# A second daemon may not take over a socket path that is in use.
mkdir -p "$T/second/cache"
"$CUZK" --listen "$DADDR" --cache-dir "$T/second/cache" --backend cpu >"$T/second.log" 2>&1 &
p2=$!
sleep 3
if alive "$p2"; then
    notok "a second daemon on the same socket path refuses to start"
    kill "$p2"
else
    wait "$p2"
    rc=$?
    check "a second daemon on the same socket path exits non-zero ($rc: $(tail -n 1 "$T/second.log"))" [ "$rc" != 0 ]
fi
check "the first daemon still serves on its socket" still_serving "$DADDR"
# A TCP port already taken: a clear error, not a silent start.
"$CUZK" --listen "127.0.0.1:$PORT" --cache-dir "$T/second/cache" --backend cpu >"$T/third.log" 2>&1 &
p3=$!
sleep 3
if alive "$p3"; then notok "a daemon on a busy TCP port refuses to start"; kill "$p3"; else
    wait "$p3"; rc=$?
    check "a daemon on a busy TCP port exits non-zero ($rc: $(tail -n 1 "$T/third.log"))" [ "$rc" != 0 ]
fi
stop_daemon "$DPID" 30
check "SIGTERM: exit 0 (got $STOP_RC)" [ "$STOP_RC" = 0 ]
check "the socket file is removed" [ ! -e "$DSOCK" ]
finish
