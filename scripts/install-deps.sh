#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Installs the Debian packages cuzk needs when they are missing (as root); does nothing otherwise.
set -e
PKGS="build-essential git python3 pkg-config libssl-dev libcjson-dev libgmp-dev libgrpc-dev libprotobuf-c-dev protobuf-c-compiler libmicrohttpd-dev qemu-user clang libclang-rt-dev"
# node + npm drive the snarkjs/circom interoperability tests; take Debian's when none is present.
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || PKGS="$PKGS nodejs npm"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing packages:$missing (run as root, or install them with apt-get)" >&2
    exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
apt-get install -y -qq --no-install-recommends $missing
