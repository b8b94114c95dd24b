#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Test 10, a snarkjs circuit over the daemon: the circom chain64 circuit's .zkey registered in a
# config, a witness from fresh random inputs proved with `cuzk-bench single --wtns`, and the
# proof judged by `snarkjs groth16 verify` against cuzk's export of the verifying key (the
# daemon's 192-byte proof is turned into proof.json by the grpc-js client's `tojson`, with
# snarkjs's own curve code). Tampered inputs are rejected; a bad witness is refused.
. "$(dirname "$0")/lib.sh"
need_node
SNARKJS=tests/interop/node_modules/.bin/snarkjs
[ -x "$SNARKJS" ] && [ -d tests/interop/node_modules/ffjavascript ] || skip "snarkjs is not installed in tests/interop (npm ci)"
C=chain64
D=build/interop/$C
Z=$D/${C}_final.zkey
if [ ! -s "$Z" ] || [ ! -s "$D/${C}_js/$C.wasm" ]; then
    echo "# $Z missing: scripts/interop-snarkjs.sh --setup $C (cached in build/interop)"
    scripts/interop-snarkjs.sh "$BENCH" --setup $C '{"x0": "5", "k": "7"}' >"$T/setup.log" 2>&1 ||
        { notok "interop setup of $C"; tail -n 20 "$T/setup.log"; finish; }
fi
# Fresh random inputs for the witness.
x0=$((CUZK_TEST_SEED % 1000003 + 2))
k=$((CUZK_TEST_SEED / 7 % 999983 + 1))
printf '{"x0": "%s", "k": "%s"}\n' "$x0" "$k" >"$T/input.json"
echo "# witness inputs: x0=$x0 k=$k"
expect 0 '' "snarkjs wtns calculate" "$SNARKJS" wtns calculate "$D/${C}_js/$C.wasm" "$T/input.json" "$T/w.wtns"
cat >"$T/cuzk.toml" <<TOML
[[circuits]]
id = "$C"
zkey = "$ROOT/$Z"
TOML
start_daemon d --config "$T/cuzk.toml"
expect 0 'COMPLETED' "cuzk-bench single --circuit $C --wtns (client-side verified)" \
    "$BENCH" single --addr "$DADDR" --circuit $C --wtns "$T/w.wtns" \
    --proof-out "$T/proof.bin" --public-out "$T/public.inputs"
expect 0 '' "cuzk-bench export-vk-snarkjs" "$BENCH" export-vk-snarkjs --zkey "$Z" --out "$T/vk.json"
expect 0 '^wrote' "the daemon's proof as snarkjs JSON" \
    node "$CLIENT" tojson "$T/proof.bin" "$T/public.inputs" "$T/proof.json" "$T/public.json"
expect 0 'OK!' "snarkjs groth16 verify accepts the daemon's proof" \
    "$SNARKJS" groth16 verify "$T/vk.json" "$T/public.json" "$T/proof.json"
expect 0 '' "snarkjs groth16 prove (reference public.json)" \
    "$SNARKJS" groth16 prove "$Z" "$T/w.wtns" "$T/sj_proof.json" "$T/sj_public.json"
check "public inputs equal snarkjs's" python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
    "$T/public.json" "$T/sj_public.json"
python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); v[0]=str(int(v[0])+1); json.dump(v,open(sys.argv[2],"w"))' \
    "$T/public.json" "$T/bad_public.json"
expect 1 'Invalid' "snarkjs rejects the daemon's proof with a changed public input" \
    "$SNARKJS" groth16 verify "$T/vk.json" "$T/bad_public.json" "$T/proof.json"
# A witness that does not satisfy the circuit (last wire + 1): FAILED with a clear message.
python3 - "$T/w.wtns" "$T/bad.wtns" <<'PY'
import sys
r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
b = bytearray(open(sys.argv[1], "rb").read())
n = int.from_bytes(b[60:64], "little")
o = 76 + 32 * (n - 1)
b[o:o + 32] = ((int.from_bytes(b[o:o + 32], "little") + 1) % r).to_bytes(32, "little")
open(sys.argv[2], "wb").write(b)
PY
expect 1 'satisf' "a witness that does not satisfy the circuit: FAILED, says so" \
    "$BENCH" single --addr "$DADDR" --circuit $C --wtns "$T/bad.wtns"
# A witness of another circuit (chain64's own witness cut to fewer wires, rebuilt as a valid
# .wtns file): refused before anything is queued.
python3 - "$T/w.wtns" "$T/short.wtns" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
n = int.from_bytes(b[60:64], "little")
keep = n - 3
b[60:64] = keep.to_bytes(4, "little")
b[68:76] = (keep * 32).to_bytes(8, "little") # section 2 size
open(sys.argv[2], "wb").write(b[:76 + 32 * keep])
PY
expect nz 'nVars|wires|witness|size|length' "a witness of another circuit (fewer wires) is refused" \
    "$BENCH" single --addr "$DADDR" --circuit $C --wtns "$T/short.wtns"
expect 0 'COMPLETED' "the daemon still proves $C" \
    "$BENCH" single --addr "$DADDR" --circuit $C --wtns "$T/w.wtns"
finish
