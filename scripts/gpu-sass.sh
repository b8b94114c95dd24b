#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# SASS opcode counts of the device field products (tools/sass/products.cu), unrolled and with the
# rows rolled by 3 (the MSM's form). Two steps, because the development machine's CUDA has nvcc
# but no cuobjdump:
#   scripts/gpu-sass.sh build    here: build/sass/products_r{0,3}.cubin (carry them)
#   scripts/gpu-sass.sh count    on a CUDA host: opcode counts per kernel (IMAD.WIDE, IMAD,
#                                IADD3.X, ... and TOTAL), one line each
set -u
D=build/sass
case ${1:-} in
build)
    mkdir -p "$D" || exit 1
    for r in 0 3; do
        "${NVCC:-nvcc}" -Iinclude -Isrc -std=c++17 -O3 -arch=sm_90 -cubin -diag-suppress 550 -DCUZK_GPU_MONT_ROLL=$r \
            -o "$D/products_r$r.cubin" tools/sass/products.cu || exit 1
    done
    ;;
count)
    CO=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
    [ -n "$CO" ] || { echo "gpu-sass: no cuobjdump"; exit 1; }
    for r in 0 3; do
        "$CO" -sass "$D/products_r$r.cubin" |
            awk -v R="roll=$r" '
                /Function :/ { fn = $3 }
                /^ +\/\*[0-9a-f]+\*\// {
                    op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op)
                    n = split(op, p, "."); base = p[1]
                    if (op ~ /^IMAD\.(WIDE|HI|X)/ || op ~ /^IADD3\.X/) base = p[1] "." p[2]
                    c[fn " " base]++; t[fn]++
                }
                END { for (k in c) print R, k, c[k]; for (f in t) print R, f, "TOTAL", t[f] }' |
            sort
    done
    ;;
*)
    echo "usage: scripts/gpu-sass.sh build|count"
    exit 2
    ;;
esac
