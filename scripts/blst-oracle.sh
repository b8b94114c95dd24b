#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# blst (supranational) as an outside oracle for the CPU MSMs and the pairing, and as the
# reference of issue 3's MSM target, measured in the same process as cuzk
# (tests/oracle/blst_oracle.c). blst's C sources come from the npm package @chainsafe/blst
# (0.2.11 bundles them; npm is the only registry CI reaches), fetched with `npm pack` (no install
# scripts run), checked against the pinned integrity hash, and built with blst's own build.sh
# for this CPU. Cached in $BUILD/blst.
#   scripts/blst-oracle.sh [check]              MSMs and pairings against blst (fresh seed)
#   scripts/blst-oracle.sh bench [ARGS...]      one-thread MSM times, e.g. --group g2 --log-n 16
#   scripts/blst-oracle.sh build                builds only (e.g. BUILD=build/gpu-port for another
#                                               host, with BLST_MARCH=x86-64-v3: blst's own -march)
# Exit 77 (skipped) when npm or the registry is not there.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
D=$BUILD/blst
PKG=@chainsafe/blst@0.2.11
TGZ=chainsafe-blst-0.2.11.tgz
SRI=sha512-URyOLq5GtxBoxibOnd2pgLydCy0UZzbiIIBcsRAvGxAsRzjZL04TsQfwRkz5aphU3a1ebeRoMmI/HHyMCiFSQg==
mode=${1:-check}
[ $# -gt 0 ] && shift

if [ ! -f "$D/package/blst/libblst.a" ]; then
    command -v npm >/dev/null || { echo "blst-oracle: skipped (no npm)"; exit 77; }
    mkdir -p "$D"
    if [ ! -f "$D/$TGZ" ]; then
        (cd "$D" && timeout 300 npm pack --silent "$PKG" >/dev/null 2>&1) || {
            rm -f "$D/$TGZ"
            echo "blst-oracle: skipped (npm pack $PKG failed: no registry?)"
            exit 77
        }
    fi
    got=$(python3 -c 'import base64, hashlib, sys
print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$D/$TGZ")
    if [ "$got" != "$SRI" ]; then
        echo "blst-oracle: FAIL: $D/$TGZ does not match the pinned integrity ($got)"
        rm -f "$D/$TGZ"
        exit 1
    fi
    rm -rf "$D/package"
    tar -xzf "$D/$TGZ" -C "$D" package/blst
    # blst's defaults plus -O2 and this CPU's instructions (mulx/adx where present), without
    # -Werror (a newer compiler's warnings are not ours to fix).
    (cd "$D/package/blst" && CFLAGS='-O2 -fno-builtin -fPIC -Wall -Wextra' ./build.sh \
        -march="${BLST_MARCH:-native}" >build.log 2>&1) || {
        echo "blst-oracle: FAIL: blst did not build"
        tail -n 20 "$D/package/blst/build.log"
        exit 1
    }
fi
make -s BUILD="$BUILD" BLST_DIR="$D/package/blst" "$BUILD/bin/cuzk-blst-oracle"
[ "$mode" = build ] && exit 0
exec "$BUILD/bin/cuzk-blst-oracle" "$mode" "$@"
