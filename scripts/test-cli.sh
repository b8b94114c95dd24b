#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Command-line contract of cuzk-bench: exit codes and output of the verify commands on the real
# WinningPoSt vector, tampered copies and malformed files, plus the benchmark commands' --json.
set -u
BENCH=${1:-build/bin/cuzk-bench}
FIX=${CUZK_FIXTURES:-../shared/fixtures}/filecoin
VK=$FIX/winning-post-2kib.vk
VEC=$FIX/winning-post-2kib-vector.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
# Checked zkey loads record their keys here, not in the user's cache (include/cuzk/check_cache.h).
export CUZK_CHECK_CACHE="$TMP/checked-points"

# expect CODE PATTERN -- command...: checks the exit code and that stdout+stderr match PATTERN.
expect() {
    want=$1 pat=$2
    shift 3
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ] || ! printf '%s\n' "$out" | grep -qE "$pat"; then
        echo "not ok: [$*] exit $rc (want $want), output must match /$pat/:"
        printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok: [$*] -> $rc"
    fi
}

# tamper FIELD OFFSET_CHARS: flips the lowest bit of the hex digit at OFFSET in FIELD.
tamper() {
    python3 - "$VEC" "$1" "$2" "$TMP/t.json" <<'PY'
import json, sys
src, field, off, dst = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
v = json.load(open(src))
h = v[field]
c = "%x" % (int(h[off], 16) ^ 1)
v[field] = h[:off] + c + h[off + 1:]
json.dump(v, open(dst, "w"))
PY
}

expect 0 '^valid$' -- "$BENCH" verify-winning-post --vk "$VK" --vector "$VEC"
for f in proof_bytes_hex:0 proof_bytes_hex:101 proof_bytes_hex:383 randomness_hex:0 \
         randomness_hex:61 sealed_cid_bytes_hex:3 sealed_cid_bytes_hex:20 sealed_cid_bytes_hex:79; do
    tamper "${f%%:*}" "${f##*:}"
    expect 1 '^invalid' -- "$BENCH" verify-winning-post --vk "$VK" --vector "$TMP/t.json"
done
# Malformed inputs: exit 2 with an error message.
head -c 1000 "$VK" > "$TMP/short.vk"
expect 2 'error: verifying key' -- "$BENCH" verify-winning-post --vk "$TMP/short.vk" --vector "$VEC"
expect 2 'cannot open' -- "$BENCH" verify-winning-post --vk "$TMP/missing.vk" --vector "$VEC"
printf '{"post_proof_type": 0' > "$TMP/bad.json"
expect 2 'not a JSON object' -- "$BENCH" verify-winning-post --vk "$VK" --vector "$TMP/bad.json"
python3 -c "import json,sys; v=json.load(open('$VEC')); v['proof_bytes_hex']=v['proof_bytes_hex'][:-2]; json.dump(v,open('$TMP/p.json','w'))"
expect 2 'proof_bytes_hex' -- "$BENCH" verify-winning-post --vk "$VK" --vector "$TMP/p.json"
python3 -c "import json,sys; v=json.load(open('$VEC')); del v['randomness_hex']; json.dump(v,open('$TMP/r.json','w'))"
expect 2 'lacks' -- "$BENCH" verify-winning-post --vk "$VK" --vector "$TMP/r.json"
expect 2 'required' -- "$BENCH" verify-winning-post --vk "$VK"
expect 2 'unknown command' -- "$BENCH" frobnicate
# Generic verify: the same proof through files.
python3 - "$VEC" "$TMP" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
open(sys.argv[2] + "/proof.bin", "wb").write(bytes.fromhex(v["proof_bytes_hex"]))
PY
"$BENCH" verify-winning-post --vk "$VK" --vector "$VEC" | grep '^leaf challenges:' | cut -d: -f2 |
    tr ' ' '\n' | grep . > "$TMP/leaves"
comm_r=$("$BENCH" verify-winning-post --vk "$VK" --vector "$VEC" | sed -n 's/^comm_r (LE): //p')
while read -r leaf; do
    echo "$comm_r"
    python3 -c "print(int($leaf).to_bytes(32,'little').hex())"
done < "$TMP/leaves" > "$TMP/inputs.txt"
expect 0 '^valid$' -- "$BENCH" verify --vk "$VK" --proof "$TMP/proof.bin" --inputs "$TMP/inputs.txt"
sed '2s/^../00/' "$TMP/inputs.txt" > "$TMP/inputs2.txt"
expect 1 '^invalid' -- "$BENCH" verify --vk "$VK" --proof "$TMP/proof.bin" --inputs "$TMP/inputs2.txt"
head -n 131 "$TMP/inputs.txt" > "$TMP/inputs3.txt"
expect 2 'need 132 inputs' -- "$BENCH" verify --vk "$VK" --proof "$TMP/proof.bin" --inputs "$TMP/inputs3.txt"
cat "$TMP/proof.bin" "$TMP/proof.bin" > "$TMP/proof2.bin"
cat "$TMP/inputs.txt" "$TMP/inputs.txt" > "$TMP/inputs4.txt"
expect 0 '^valid$' -- "$BENCH" verify --vk "$VK" --proof "$TMP/proof2.bin" --inputs "$TMP/inputs4.txt"
# gen-vanilla: synthetic PoSt vanilla proofs; the same seed gives the same file; usage errors.
expect 0 '^randomness [0-9a-f]{64}$' -- "$BENCH" gen-vanilla --post-proof 10 --seed 5 --out "$TMP/v1.json" --inputs "$TMP/v1.in"
expect 0 '"sectors":1' -- "$BENCH" gen-vanilla --post-proof 10 --seed 5 --sectors 1 --out "$TMP/v2.json" --json
"$BENCH" gen-vanilla --post-proof 10 --seed 5 --out "$TMP/v4.json" >/dev/null 2>&1
cmp -s "$TMP/v1.json" "$TMP/v4.json" || { echo "not ok: gen-vanilla --seed 5 twice differs"; fails=$((fails + 1)); }
[ "$(wc -l < "$TMP/v1.in")" = 22 ] || { echo "not ok: gen-vanilla --inputs: 22 lines expected"; fails=$((fails + 1)); }
expect 2 'usage' -- "$BENCH" gen-vanilla --post-proof 5
expect 2 'unknown RegisteredPoStProof 15' -- "$BENCH" gen-vanilla --post-proof 15 --out "$TMP/v3.json"
expect 2 'the partition has 2' -- "$BENCH" gen-vanilla --post-proof 5 --sectors 3 --out "$TMP/v3.json"
# gen-vanilla --update-proof: SnapDeals partition proofs (8 MiB: 4) and the comms; same seed, same file.
expect 0 '"partitions":4,"comm_r_old":"[0-9a-f]{64}"' -- "$BENCH" gen-vanilla --update-proof 1 --seed 5 --out "$TMP/s1.json" --inputs "$TMP/s1.in" --json
"$BENCH" gen-vanilla --update-proof 1 --seed 5 --out "$TMP/s2.json" >/dev/null 2>&1
cmp -s "$TMP/s1.json" "$TMP/s2.json" || { echo "not ok: gen-vanilla --update-proof --seed 5 twice differs"; fails=$((fails + 1)); }
[ "$(wc -l < "$TMP/s1.in")" = 16 ] || { echo "not ok: gen-vanilla --update-proof 1 --inputs: 16 lines expected"; fails=$((fails + 1)); }
expect 2 'RegisteredUpdateProof 5 is not known' -- "$BENCH" gen-vanilla --update-proof 5 --out "$TMP/s3.json"
expect 2 'usage' -- "$BENCH" gen-vanilla --update-proof 0 --post-proof 0 --out "$TMP/s3.json"
# gen-vanilla --seal-proof: a PoRep C1 (NI 2 KiB: 13 partitions x 39 inputs); same seed, same
# file; bincode only with --seal-proof; an unknown proof and a sector too large are refused.
expect 0 '"partitions":13,"comm_r":"[0-9a-f]{64}"' -- "$BENCH" gen-vanilla --seal-proof 15 --seed 5 --out "$TMP/c1.json" --inputs "$TMP/c1.in" --json
"$BENCH" gen-vanilla --seal-proof 15 --seed 5 --out "$TMP/c2.json" >/dev/null 2>&1
cmp -s "$TMP/c1.json" "$TMP/c2.json" || { echo "not ok: gen-vanilla --seal-proof --seed 5 twice differs"; fails=$((fails + 1)); }
[ "$(wc -l < "$TMP/c1.in")" = 507 ] || { echo "not ok: gen-vanilla --seal-proof 15 --inputs: 507 lines expected"; fails=$((fails + 1)); }
expect 0 'written to' -- "$BENCH" gen-vanilla --seal-proof 0 --seed 5 --bincode --out "$TMP/c1.bin"
expect 2 'usage' -- "$BENCH" gen-vanilla --post-proof 5 --bincode --out "$TMP/c3.json"
expect 2 'unknown RegisteredSealProof 20' -- "$BENCH" gen-vanilla --seal-proof 20 --out "$TMP/c3.json"
expect 2 'at most 262144 nodes' -- "$BENCH" gen-vanilla --seal-proof 8 --out "$TMP/c3.json"
# Every built-in circuit: setup -> prove twice (fresh r, s: different bytes) -> both verify
# with the written vk and public inputs; a changed input is rejected.
for spec in sha256-chain:1 poseidon-merkle:2 fil-post:5; do
    f=$(echo "$spec" | tr ':' '-')
    expect 0 'written' -- "$BENCH" setup --circuit "$spec" --out "$TMP/p"
    expect 0 'proof verified' -- "$BENCH" prove --params "$TMP/p" --circuit "$spec" --proof "$TMP/$f.1" --public "$TMP/$f.in"
    expect 0 'total' -- "$BENCH" prove --params "$TMP/p" --circuit "$spec" --mode pce --proof "$TMP/$f.2"
    if cmp -s "$TMP/$f.1" "$TMP/$f.2"; then
        echo "not ok: two proofs of $spec are identical (r, s not fresh)"
        fails=$((fails + 1))
    fi
    expect 0 '^valid$' -- "$BENCH" verify --vk "$TMP/p/$f.vk" --proof "$TMP/$f.1" --inputs "$TMP/$f.in"
    expect 0 '^valid$' -- "$BENCH" verify --vk "$TMP/p/$f.vk" --proof "$TMP/$f.2" --inputs "$TMP/$f.in"
    sed '1s/^./0/' "$TMP/$f.in" > "$TMP/$f.bad"
    cmp -s "$TMP/$f.in" "$TMP/$f.bad" && sed -i '1s/^./1/' "$TMP/$f.bad"
    expect 1 '^invalid' -- "$BENCH" verify --vk "$TMP/p/$f.vk" --proof "$TMP/$f.1" --inputs "$TMP/$f.bad"
done
# SnapDeals: its 2 KiB setup alone takes ~100 s on 2 cores, so no round trip here (tests/unit/
# test_fil_snap.c checks satisfaction); the published count and the id range.
expect 0 'constraints +1705039 \(\+5 input constraints' -- "$BENCH" synth-only --circuit fil-snap:0 \
    --mode full --repeat 1
expect 2 'argument 5 outside \[0, 4\]' -- "$BENCH" synth-only --circuit fil-snap:5 --mode keygen
# Partitions at once through one PCE (what an engine with 2 synthesis workers sustains).
expect 0 'parallel +2 at once: 4 partitions in' -- "$BENCH" synth-only --circuit poseidon-merkle:2 \
    --mode pce-ab --repeat 2 --threads 2 --parallel 2
expect 2 'usage' -- "$BENCH" synth-only --circuit poseidon-merkle:2 --mode keygen --parallel 2
# The engine's way of sharing the CPUs (products on one shared pool); only with --parallel.
expect 0 'products on one shared pool' -- "$BENCH" synth-only --circuit poseidon-merkle:2 \
    --mode pce-ab --repeat 1 --threads 2 --parallel 2 --shared
expect 2 'usage' -- "$BENCH" synth-only --circuit poseidon-merkle:2 --mode pce-ab --shared
# A PCE written to a file, then read back; a damaged one refused; the file only for PCE modes.
expect 0 'pce file +written to' -- "$BENCH" synth-only --circuit poseidon-merkle:2 --mode pce \
    --repeat 1 --pce-file "$TMP/pm.pce"
expect 0 'pce file +read ' -- "$BENCH" synth-only \
    --circuit poseidon-merkle:2 --mode pce --repeat 2 --pce-file "$TMP/pm.pce" --fresh-abc
expect 0 'a, b, c +fresh each repeat' -- "$BENCH" synth-only --circuit poseidon-merkle:2 \
    --mode full --repeat 1 --fresh-abc
head -c 100 "$TMP/pm.pce" > "$TMP/pm-short.pce"
expect 2 'pce load' -- "$BENCH" synth-only --circuit poseidon-merkle:2 --mode pce \
    --pce-file "$TMP/pm-short.pce"
expect 2 'usage' -- "$BENCH" synth-only --circuit poseidon-merkle:2 --mode full --pce-file "$TMP/x"
head -c 5000 "$TMP/p/sha256-chain-1.params" > "$TMP/p/trunc-1.params"
mkdir -p "$TMP/q" && cp "$TMP/p/trunc-1.params" "$TMP/q/sha256-chain-1.params"
expect 2 'error: .*params' -- "$BENCH" prove --params "$TMP/q" --circuit sha256-chain:1
expect 2 'unknown' -- "$BENCH" prove --params "$TMP/p" --circuit nosuch:1
# --params-checked tests a parameter set once (the check cache; the zkey cases are below).
mkdir -m 700 "$TMP/pc"
pcp() { "$BENCH" prove --params "$TMP/p" --circuit sha256-chain:1 "$@"; }
expect 0 "subgroups checked; recorded in $TMP/pc/rec" -- pcp --params-checked --check-cache "$TMP/pc/rec"
expect 0 "subgroups checked before: found in $TMP/pc/rec" -- pcp --params-checked --check-cache "$TMP/pc/rec"
expect 0 'subgroups checked;' -- pcp --params-checked --no-check-cache
expect 0 'subgroups not checked;' -- pcp --check-cache "$TMP/pc/rec"
# snarkjs keys: the CPU path, the backend in --json, the backend choices.
SJ=${CUZK_FIXTURES:-../shared/fixtures}/snarkjs
sjp() { "$BENCH" prove --zkey "$SJ/multiplier.zkey" --wtns "$SJ/multiplier.wtns" \
    --proof "$TMP/sj.proof.json" --public "$TMP/sj.public.json" "$@"; }
expect 0 '"backend":"cpu"' -- sjp --backend cpu --json
expect 0 '"backend":"cpu"' -- sjp --json
expect 2 "unknown backend 'gpu'" -- sjp --backend gpu
# The check cache: a key's subgroups are tested once, then found; the record must be private.
mkdir -m 700 "$TMP/cc" "$TMP/open" && chmod 777 "$TMP/open"
expect 0 "subgroups checked; recorded in $TMP/cc/rec" -- sjp --check-cache "$TMP/cc/rec"
expect 0 "subgroups checked before: found in $TMP/cc/rec" -- sjp --check-cache "$TMP/cc/rec"
expect 0 '"subgroups":"checked-before"' -- sjp --check-cache "$TMP/cc/rec" --json
expect 0 '\(subgroups checked\)' -- sjp --no-check-cache
expect 0 '\(subgroups not checked\)' -- sjp --unchecked-subgroup --check-cache "$TMP/cc/rec"
expect 0 '\(subgroups checked\)' -- env CUZK_CHECK_CACHE=off "$BENCH" prove \
    --zkey "$SJ/multiplier.zkey" --wtns "$SJ/multiplier.wtns" --proof "$TMP/sj.proof.json" \
    --public "$TMP/sj.public.json"
expect 0 'note: check cache not used \(.*may be written by others.*\); subgroups checked in full' \
    -- sjp --check-cache "$TMP/open/rec"
expect 2 'exclude each other' -- sjp --check-cache "$TMP/cc/rec" --no-check-cache
# check-key: every check of a key and nothing else; a truncated key and bad usage exit 2.
expect 0 "valid: .* subgroups checked; recorded in $TMP/cc/k" -- \
    "$BENCH" check-key --zkey "$SJ/poseidon.zkey" --check-cache "$TMP/cc/k"
expect 0 '"subgroups":"checked-before"' -- \
    "$BENCH" check-key --zkey "$SJ/poseidon.zkey" --check-cache "$TMP/cc/k" --json
expect 0 "valid: .* subgroups checked before" -- \
    "$BENCH" check-key --params "$TMP/p/sha256-chain-1.params" --check-cache "$TMP/pc/rec"
head -c 5000 "$SJ/poseidon.zkey" > "$TMP/trunc.zkey"
expect 2 'error: .*truncated' -- "$BENCH" check-key --zkey "$TMP/trunc.zkey"
expect 2 'usage: cuzk-bench check-key' -- "$BENCH" check-key --zkey "$SJ/poseidon.zkey" --params x
if "$BENCH" info | grep -q '^backend cuda: compiled, [1-9]'; then
    expect 0 '"backend":"cuda"' -- sjp --backend cuda --json
else
    expect 2 'error: cuda backend' -- sjp --backend cuda
fi
# info and the benchmark commands' machine-readable output.
expect 0 'commit: ' -- "$BENCH" info
expect 0 '^cpu: compiled for: .*; this CPU: all present' -- "$BENCH" info
# On an older CPU (QEMU's Haswell: no AVX-512, no ADX) a -march=native build of an AVX-512 machine
# stops before main with a message naming what is missing, not with SIGILL (qemu-user from
# scripts/install-deps.sh; skipped where the build has no AVX-512, and for sanitizer builds, whose
# shadow memory QEMU's user mode cannot map).
if ldd "$BENCH" 2>/dev/null | grep -q libasan; then
    echo "skipped: the CPU check under qemu-x86_64 (a sanitizer build)"
elif command -v qemu-x86_64 >/dev/null && "$BENCH" info | grep -q '^cpu: compiled for: .*avx512f'; then
    expect 2 'cuzk-bench: this build of cuzk uses CPU instructions this CPU lacks \(.*avx512f' -- \
        qemu-x86_64 -cpu Haswell "$BENCH" info
else
    echo "skipped: the CPU check under qemu-x86_64 -cpu Haswell (no qemu-x86_64 or no AVX-512 build)"
fi
# The CPU check must itself run on any x86-64 CPU: no AVX/AVX-512 register in its object.
OBJ=$(dirname "$(dirname "$BENCH")")/obj/src/common/isa_check.o
if [ -f "$OBJ" ] && command -v objdump >/dev/null; then
    expect 1 '' -- sh -c "objdump -d '$OBJ' | grep -E '%[yz]mm'"
fi
# porep-shape: the worker modes are CUDA-only (a usage error elsewhere); a small CPU partition.
expect 2 'need --backend cuda and --mode prove' -- "$BENCH" porep-shape --backend cpu --continuous
expect 2 'need --backend cuda and --mode prove' -- "$BENCH" porep-shape --backend cpu --workers 2
expect 2 'no-prefetch needs --continuous' -- "$BENCH" porep-shape --backend cuda --no-prefetch
expect 0 'prove cpu +2\^10 rep 1:.*proofs \(same inputs, same r and s\): all equal' -- \
    sh -c "'$BENCH' porep-shape --backend cpu --scale 2^-17 --repeat 2 --threads 2 | tr '\n' ' '"
for cmd in field curve pairing; do
    expect 0 '"median_ns"' -- env CUZK_BENCH_ITERS=1 "$BENCH" "$cmd" --json --warmup=0 --filter='*_mul*'
done
[ "$fails" = 0 ] && echo "test-cli: all passed" || echo "test-cli: $fails failed"
[ "$fails" = 0 ]
