#!/bin/bash
# Device run driver (not part of the project; carried in .devbin).
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p "$O"
mkdir -p /tmp/deps
for f in .debs/*.deb; do dpkg -x "$f" /tmp/deps; done
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
{ ls -d /usr/include/cjson /usr/include/openssl /usr/include/gmp.h; nvidia-smi; head -2 /etc/os-release; ldd --version | head -1; nproc; grep -m1 'model name' /proc/cpuinfo; } > "$O/env.txt" 2>&1
B=.devbin
if ! $B/cuzk-bench info > "$O/info.txt" 2>&1; then
  echo "carried binary failed; building here" >> "$O/info.txt"
  export CPATH=/tmp/deps/usr/include LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu
  make -j16 BUILD=build/devb OPT="-O3 -march=native" build/devb/bin/cuzk-bench build/devb/bin/cuzk-test > "$O/build.txt" 2>&1
  B=build/devb/bin
  $B/cuzk-bench info >> "$O/info.txt" 2>&1
fi
date -u > "$O/tests.txt"
CUZK_TEST_NPOW=${NPOW:-22} timeout 240 $B/cuzk-test --filter="${TESTF:-gpu_[!m]*}" >> "$O/tests.txt" 2>&1
date -u >> "$O/tests.txt"
shift 0
for cmd in "$@"; do echo "### $cmd" >> "$O/bench.txt"; eval "timeout 200 $cmd" >> "$O/bench.txt" 2>&1; done
date -u >> "$O/bench.txt"
