#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# A short run of every libFuzzer driver (make fuzz), so that CI builds them and fuzzes each
# parser a little with a fresh random seed every time: each driver for FUZZ_SECONDS (default 10)
# from its seeds (build/fuzz/seeds, the fixtures, cuzk.example.toml; an empty corpus otherwise),
# in a corpus directory of its own. A crash, leak or broken contract fails the run; the input is
# kept under build/fuzz/artifacts and named in the output with the driver's seed.
# Usage: scripts/fuzz-smoke.sh   (env FUZZ_SECONDS, CUZK_FIXTURES). Exit 77 (skipped) without
# clang's libFuzzer.
set -eu
cd "$(dirname "$0")/.."
S=${FUZZ_SECONDS:-10}
F=${CUZK_FIXTURES:-../shared/fixtures}
command -v clang >/dev/null || { echo "fuzz-smoke: skipped (no clang)"; exit 77; }
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' |
    clang -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null ||
    { echo "fuzz-smoke: skipped (clang has no libFuzzer runtime)"; exit 77; }
make -s -j"$(nproc)" fuzz
B=build/fuzz
C=$(mktemp -d)
trap 'rm -rf "$C"' EXIT
mkdir -p "$B/artifacts"
seed_corpus() { # target -> $C/target, filled with what valid inputs we have
    d="$C/$1"
    mkdir -p "$d"
    [ -d "$B/seeds/$1" ] && cp "$B/seeds/$1"/* "$d/"
    case $1 in
    vk) cp "$F/filecoin/winning-post-2kib.vk" "$d/" ;;
    zkey | r1cs | wtns) cp "$F"/snarkjs/*."$1" "$d/" ;;
    toml) cp cuzk.example.toml "$d/" ;;
    snarkjs_json) # the first byte picks the reader: 0 proof, 1 public, 2 verification key
        for f in "$F"/snarkjs/*.proof_*.json; do { printf '\000'; cat "$f"; } > "$d/$(basename "$f")"; done
        for f in "$F"/snarkjs/*.public.json; do { printf '\001'; cat "$f"; } > "$d/$(basename "$f")"; done
        for f in "$F"/snarkjs/*.vk.json; do { printf '\002'; cat "$f"; } > "$d/$(basename "$f")"; done ;;
    esac
}
fail=0
for drv in "$B"/bin/fuzz_*; do
    t=${drv#"$B"/bin/fuzz_}
    seed_corpus "$t"
    log="$C/$t.log"
    if "$drv" -max_total_time="$S" -rss_limit_mb=4096 -timeout=30 -print_final_stats=1 \
        -artifact_prefix="$B/artifacts/$t-" "$C/$t" > "$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz-smoke: $t: $runs inputs, no failure ($(grep -m1 -o 'Seed: [0-9]*' "$log"))"
    else
        fail=1
        echo "fuzz-smoke: FAIL: $t ($(grep -m1 -o 'Seed: [0-9]*' "$log")):"
        grep -E 'ERROR|contract|SUMMARY|Test unit written' "$log" | head -n 8
    fi
done
[ $fail = 0 ] && echo "fuzz-smoke: passed" || exit 1
