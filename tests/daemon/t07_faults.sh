#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 7, faults: malformed protobuf, unknown methods, Filecoin kinds (PoRep INVALID_ARGUMENT for
# a malformed C1 output; PoSt and SnapDeals UNIMPLEMENTED without a circuit, INVALID_ARGUMENT
# when malformed), bad requests; a message over daemon.max_message_size; corrupt parameter files
# (a clear error at preload, the daemon still proves "demo"); `cuzk --check-config`.
. "$(dirname "$0")/lib.sh"
HAVE_NODE=1
have_node || { HAVE_NODE=0; echo "# node missing: the gRPC-level fault checks are skipped"; }

# ---- configuration checking (no daemon) ----
expect 0 '' "cuzk --config cuzk.example.toml --check-config" "$CUZK" --config cuzk.example.toml --check-config
printf '[engine]\nprover_workers = 1\nno_such_key = 3\n' >"$T/unknown.toml"
expect nz 'no_such_key' "a config with an unknown key is refused and names the key" \
    "$CUZK" --config "$T/unknown.toml" --check-config
out=$("$CUZK" --config "$T/unknown.toml" --check-config 2>&1)
if printf '%s' "$out" | grep -qE '(line 3|:3[^0-9]|:3$)'; then ok "the message names line 3"
else notok "the message names line 3: $out"; fi
printf '[engine]\nprover_workers = "many"\n' >"$T/badtype.toml"
expect nz 'prover_workers' "a value of the wrong type is refused" "$CUZK" --config "$T/badtype.toml" --check-config
printf '[nosuchsection]\nx = 1\n' >"$T/badsect.toml"
expect nz 'nosuchsection' "an unknown section is refused" "$CUZK" --config "$T/badsect.toml" --check-config
printf '[[circuits]]\nid = "x"\nbuiltin = "no-such-circuit:1"\n' >"$T/badspec.toml"
expect nz 'no-such-circuit' "an unknown built-in circuit is refused" "$CUZK" --config "$T/badspec.toml" --check-config
printf '[engine\nprover_workers = 1\n' >"$T/syntax.toml"
expect nz "" "a TOML syntax error is refused" "$CUZK" --config "$T/syntax.toml" --check-config
expect nz 'nonexistent' "a missing config file is refused" "$CUZK" --config "$T/nonexistent.toml" --check-config

# ---- corrupt parameter files ----
start_daemon gen
expect 0 '' "preload demo (generates its test parameters)" "$BENCH" preload --addr "$DADDR" --circuit demo
GEN_PID=$DPID
PARAMS=$(find "$T/gen/cache" -name '*.params' | head -n 1)
if [ -z "$PARAMS" ]; then
    notok "the generated demo parameters are in the cache dir ($(ls "$T/gen/cache"))"
else
    size=$(stat -c %s "$PARAMS")
    head -c $((size / 2)) "$PARAMS" >"$T/truncated.params"
    # Same size, one point coordinate changed: decodes, but the point is not on the curve.
    python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[len(b)//2]^=0x5a; open(sys.argv[2],"wb").write(b)' \
        "$PARAMS" "$T/flipped.params"
    cp "$PARAMS" "$T/good.params"
    cat >"$T/corrupt.toml" <<TOML
[[circuits]]
id = "demo"
builtin = "sha256-chain:1"
params = "$T/good.params"

[[circuits]]
id = "truncated"
builtin = "sha256-chain:1"
params = "$T/truncated.params"

[[circuits]]
id = "flipped"
builtin = "sha256-chain:1"
params = "$T/flipped.params"

[[circuits]]
id = "missing"
builtin = "sha256-chain:1"
params = "$T/missing.params"
TOML
    # A snarkjs key cut short, when the interop files are there (make interop).
    Z=build/interop/multiplier/multiplier_final.zkey
    if [ -s "$Z" ]; then
        head -c $(($(stat -c %s "$Z") * 2 / 3)) "$Z" >"$T/truncated.zkey"
        printf '\n[[circuits]]\nid = "zkey-truncated"\nzkey = "%s"\n' "$T/truncated.zkey" >>"$T/corrupt.toml"
    fi
    stop_daemon "$GEN_PID" 30
    start_daemon corrupt --config "$T/corrupt.toml"
    if [ -s "$Z" ]; then
        expect 2 'truncat|past the end|section|short' "preload of a truncated .zkey: a clear error" \
            "$BENCH" preload --addr "$DADDR" --circuit zkey-truncated
    fi
    expect 2 'truncated|short|size|end of file|EOF' "preload of a truncated .params: a clear error" \
        "$BENCH" preload --addr "$DADDR" --circuit truncated
    expect 2 'curve|point|invalid|corrupt|canonical|subgroup' "preload of a .params with a changed point: a clear error" \
        "$BENCH" preload --addr "$DADDR" --circuit flipped
    expect 2 'missing.params|No such file|not found' "preload of a missing .params names the file" \
        "$BENCH" preload --addr "$DADDR" --circuit missing
    expect nz "" "a proof of the truncated circuit fails (not a crash)" \
        "$BENCH" single --addr "$DADDR" --circuit truncated
    check "the daemon is still up" alive "$DPID"
    expect 0 'COMPLETED' "the daemon still proves demo" "$BENCH" single --addr "$DADDR" --circuit demo
    if [ "$HAVE_NODE" = 1 ]; then
        st=$(rpc "$DADDR" GetStatus)
        tier=$(jget "$st" '[s["tier"] for s in d["loaded_srs"] if s["circuit_id"]=="truncated"]')
        check "the truncated circuit stays COLD ($tier)" [ "$tier" = "['COLD']" ]
    fi
fi

# ---- gRPC-level faults (node client) ----
if [ "$HAVE_NODE" = 1 ]; then
    need_node
    start_daemon faults
    node_client faults "$DADDR"
    check "the daemon survived the faults" alive "$DPID"
    printf '[daemon]\nmax_message_size = "1MiB"\n' >"$T/small.toml"
    start_daemon small --config "$T/small.toml"
    node_client oversize "$DADDR" 1048576
    check "the daemon survived the oversized message" alive "$DPID"
fi
finish
