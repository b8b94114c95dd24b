#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Interoperability with snarkjs 0.7.6 and circom 2.2.3 (circom2 0.2.23) on bls12381
# (facts/formats.md section 5). For each circuit in tests/interop: compile with circom, compute the
# witness, set up a zkey (powers of tau 2^12 made once and cached in build/interop, phase 2 with a
# contribution and a beacon), then check:
#   cuzk proves from .zkey + .wtns and `snarkjs groth16 verify` accepts;
#   snarkjs proves and `cuzk-bench verify-snarkjs` accepts; cuzk's verification_key.json export
#   is byte-identical to snarkjs's;
#   a tampered proof (changed coordinate) and a changed public input are rejected by both;
#   a witness that does not satisfy the circuit: cuzk exits 1 with a clear error and writes no file.
# Usage: scripts/interop-snarkjs.sh [path/to/cuzk-bench] [--setup NAME INPUT_JSON]. Exit 0 all
# passed, 1 failures, 77 skipped (no node/npm).
set -u
cd "$(dirname "$0")/.."
BENCH=${1:-build/bin/cuzk-bench}
ID=tests/interop
W=build/interop # relative: circom2 (WASI) only sees the working directory's tree
NM=$ID/node_modules
SNARKJS=$NM/.bin/snarkjs
POWER=12
fails=0

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "# SKIP interop-snarkjs: node and npm are needed (Debian: apt-get install nodejs npm)"
    exit 77
fi
[ -x "$BENCH" ] || { echo "interop-snarkjs: $BENCH not built"; exit 1; }
mkdir -p "$W"
# Checked zkey loads record their keys in a record of this run, not in the user's cache.
export CUZK_CHECK_CACHE="$W/checked-points"
rm -f "$CUZK_CHECK_CACHE"
if [ ! -x "$SNARKJS" ] || [ ! -x "$NM/.bin/circom2" ] || [ ! -d "$NM/circomlib" ]; then
    echo "# npm ci in $ID (snarkjs 0.7.6, circom2 0.2.23, circomlib 2.0.5)"
    (cd "$ID" && npm ci --no-audit --no-fund) >"$W/npm.log" 2>&1 || {
        echo "interop-snarkjs: npm ci failed:"; tail -n 20 "$W/npm.log"; exit 1; }
fi

# must DESC command...: a preparation step; stops the script when it fails.
must() {
    desc=$1
    shift
    if ! "$@" >"$W/step.log" 2>&1; then
        echo "not ok: $desc failed: $*"
        tail -n 20 "$W/step.log" | sed 's/^/    /'
        exit 1
    fi
}

# expect CODE PATTERN DESC command...: exit code and output (stdout + stderr) must match.
expect() {
    want=$1 pat=$2 desc=$3
    shift 3
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || ! printf '%s\n' "$out" | grep -qE "$pat"; then
        echo "not ok: $desc: exit $rc (want $want), output must match /$pat/:"
        printf '%s\n' "$out" | tail -n 6 | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok: $desc"
    fi
}

check() {
    desc=$1
    shift
    if "$@"; then echo "ok: $desc"; else echo "not ok: $desc"; fails=$((fails + 1)); fi
}

PTAU=$W/pot${POWER}_final.ptau
if [ ! -s "$PTAU" ]; then
    echo "# powers of tau 2^$POWER: done once and cached in $PTAU (about 2-3 minutes on 2 cores)"
    must "ptau new" "$SNARKJS" powersoftau new bls12381 "$POWER" "$W/pot_0000.ptau"
    must "ptau contribute" "$SNARKJS" powersoftau contribute "$W/pot_0000.ptau" \
        "$W/pot_0001.ptau" --name="cuzk interop" -e="cuzk interop entropy"
    must "ptau prepare phase2" "$SNARKJS" powersoftau prepare phase2 "$W/pot_0001.ptau" \
        "$PTAU.tmp"
    mv "$PTAU.tmp" "$PTAU"
    rm -f "$W/pot_0000.ptau" "$W/pot_0001.ptau"
fi

# setup_circuit NAME INPUT_JSON: compile, witness, zkey (cached while the sources are unchanged).
setup_circuit() {
    c=$1
    D=$W/$c
    mkdir -p "$D"
    printf '%s\n' "$2" > "$D/input.json"
    if [ ! -s "$D/$c.r1cs" ] || [ "$ID/$c.circom" -nt "$D/$c.r1cs" ] ||
        [ "$ID/chain.circom" -nt "$D/$c.r1cs" ]; then
        must "compile $c" sh -c "cd $ID && node_modules/.bin/circom2 $c.circom --r1cs --wasm \
            --sym --prime bls12381 -o ../../$D"
        rm -f "$D/${c}_final.zkey"
    fi
    must "witness $c" "$SNARKJS" wtns calculate "$D/${c}_js/$c.wasm" "$D/input.json" "$D/$c.wtns"
    must "wtns check $c" "$SNARKJS" wtns check "$D/$c.r1cs" "$D/$c.wtns"
    if [ ! -s "$D/${c}_final.zkey" ] || [ "$PTAU" -nt "$D/${c}_final.zkey" ]; then
        must "setup $c" "$SNARKJS" groth16 setup "$D/$c.r1cs" "$PTAU" "$D/${c}_0000.zkey"
        must "contribute $c" "$SNARKJS" zkey contribute "$D/${c}_0000.zkey" "$D/${c}_0001.zkey" \
            --name="c1" -e="cuzk interop zkey entropy"
        must "beacon $c" "$SNARKJS" zkey beacon "$D/${c}_0001.zkey" "$D/${c}_final.tmp.zkey" \
            0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 10 -n="Final Beacon"
        mv "$D/${c}_final.tmp.zkey" "$D/${c}_final.zkey"
        rm -f "$D/${c}_0000.zkey" "$D/${c}_0001.zkey"
    fi
    must "export vk $c" "$SNARKJS" zkey export verificationkey "$D/${c}_final.zkey" "$D/vk.json"
}

# tamper_proof IN OUT: flips a middle digit of pi_a's x coordinate.
tamper_proof() {
    python3 - "$1" "$2" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
x = p["pi_a"][0]
i = len(x) // 2
p["pi_a"][0] = x[:i] + ("1" if x[i] != "1" else "2") + x[i + 1:]
json.dump(p, open(sys.argv[2], "w"))
PY
}

# tamper_public IN OUT: adds one to the first public signal.
tamper_public() {
    python3 -c "import json,sys; v=json.load(open(sys.argv[1])); v[0]=str(int(v[0])+1); json.dump(v,open(sys.argv[2],'w'))" "$1" "$2"
}

# bad_witness IN OUT WIRE: adds one (mod r) to witness value WIRE (wtns v2: 76-byte header).
bad_witness() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
b = bytearray(open(sys.argv[1], "rb").read())
o = 76 + 32 * int(sys.argv[3])
v = (int.from_bytes(b[o:o + 32], "little") + 1) % r
b[o:o + 32] = v.to_bytes(32, "little")
open(sys.argv[2], "wb").write(b)
PY
}

run_circuit() {
    c=$1
    D=$W/$c
    Z=$D/${c}_final.zkey
    echo "# $c"
    rm -f "$D"/cuzk_proof.json "$D"/cuzk_public.json "$D"/bad_*.json
    expect 0 '^wrote ' "$c: cuzk-bench prove" "$BENCH" prove --zkey "$Z" --wtns "$D/$c.wtns" \
        --proof "$D/cuzk_proof.json" --public "$D/cuzk_public.json" --check --r1cs "$D/$c.r1cs"
    expect 0 'OK!' "$c: snarkjs groth16 verify accepts cuzk's proof" "$SNARKJS" groth16 verify \
        "$D/vk.json" "$D/cuzk_public.json" "$D/cuzk_proof.json"
    expect 0 '^valid$' "$c: cuzk verify-snarkjs accepts cuzk's proof" "$BENCH" verify-snarkjs \
        --vk "$D/vk.json" --proof "$D/cuzk_proof.json" --public "$D/cuzk_public.json"
    must "snarkjs prove $c" "$SNARKJS" groth16 prove "$Z" "$D/$c.wtns" "$D/sj_proof.json" \
        "$D/sj_public.json"
    check "$c: public.json identical to snarkjs's" cmp -s "$D/sj_public.json" "$D/cuzk_public.json"
    expect 0 '^valid$' "$c: cuzk verify-snarkjs accepts snarkjs's proof" "$BENCH" verify-snarkjs \
        --vk "$D/vk.json" --proof "$D/sj_proof.json" --public "$D/sj_public.json"
    must "cuzk export-vk $c" "$BENCH" export-vk-snarkjs --zkey "$Z" --out "$D/cuzk_vk.json"
    check "$c: verification_key.json identical to snarkjs's" cmp -s "$D/vk.json" "$D/cuzk_vk.json"
    for who in sj cuzk; do
        tamper_proof "$D/${who}_proof.json" "$D/bad_proof.json"
        expect 1 '^invalid' "$c: cuzk rejects a tampered $who proof" "$BENCH" verify-snarkjs \
            --vk "$D/vk.json" --proof "$D/bad_proof.json" --public "$D/${who}_public.json"
        expect 1 'not valid|Invalid' "$c: snarkjs rejects a tampered $who proof" "$SNARKJS" \
            groth16 verify "$D/vk.json" "$D/${who}_public.json" "$D/bad_proof.json"
        if grep -q '"' "$D/${who}_public.json"; then
            tamper_public "$D/${who}_public.json" "$D/bad_public.json"
            expect 1 '^invalid' "$c: cuzk rejects a changed public input ($who)" "$BENCH" \
                verify-snarkjs --vk "$D/vk.json" --proof "$D/${who}_proof.json" \
                --public "$D/bad_public.json"
            expect 1 'Invalid' "$c: snarkjs rejects a changed public input ($who)" "$SNARKJS" \
                groth16 verify "$D/vk.json" "$D/bad_public.json" "$D/${who}_proof.json"
        fi
    done
    # A witness that does not satisfy the circuit (the last wire changed).
    nw=$(python3 -c "import sys; b=open(sys.argv[1],'rb').read(); print(int.from_bytes(b[60:64],'little'))" "$D/$c.wtns")
    bad_witness "$D/$c.wtns" "$D/bad.wtns" $((nw - 1))
    rm -f "$D/bad_out.json" "$D/bad_pub.json"
    expect 1 'does not satisfy' "$c: cuzk refuses an unsatisfied witness" "$BENCH" prove \
        --zkey "$Z" --wtns "$D/bad.wtns" --proof "$D/bad_out.json" --public "$D/bad_pub.json"
    check "$c: no output file for the unsatisfied witness" \
        test ! -e "$D/bad_out.json" -a ! -e "$D/bad_pub.json"
    check "$c: no temporary file left behind" \
        sh -c "! ls $D | grep -q '\.tmp\.'"
    expect 1 'does not satisfy constraint [0-9]+ of' "$c: --check names the failing constraint" \
        "$BENCH" prove --zkey "$Z" --wtns "$D/bad.wtns" --proof "$D/bad_out.json" \
        --public "$D/bad_pub.json" --check --r1cs "$D/$c.r1cs"
    expect 1 'WITNESS IS NOT CORRECT|not correct|Error|rror' "$c: snarkjs wtns check agrees" \
        "$SNARKJS" wtns check "$D/$c.r1cs" "$D/bad.wtns"
}

# --setup NAME INPUT_JSON: only prepare that circuit (used by scripts/bench-vs-snarkjs.sh).
if [ "${2:-}" = "--setup" ]; then
    setup_circuit "$3" "$4"
    echo "ready: $W/$3/${3}_final.zkey $W/$3/$3.wtns"
    exit 0
fi
setup_circuit multiplier '{"a": "3", "b": "11"}'
setup_circuit chain64 '{"x0": "5", "k": "7"}'
setup_circuit poseidon2 '{"inputs": ["1", "2"]}'
setup_circuit nopublic '{"a": "5", "b": "7"}'
for c in multiplier chain64 poseidon2 nopublic; do
    run_circuit "$c"
done
# A witness of another circuit: an input error (exit 2), not a proof.
expect 2 'nVars' "multiplier key with the chain64 witness" "$BENCH" prove \
    --zkey "$W/multiplier/multiplier_final.zkey" --wtns "$W/chain64/chain64.wtns" \
    --proof "$W/x.json" --public "$W/y.json"
[ "$fails" = 0 ] && echo "interop-snarkjs: all passed" || echo "interop-snarkjs: $fails failed"
[ "$fails" = 0 ]
