#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Compiles (does not run) the AVX-512 IFMA variant of the library, the tests and cuzk-bench, for
# a Sapphire Rapids-class CPU. The 8-lane code (src/field/fp_ifma*, the x8 MSM, NTT and subgroup
# paths) exists only where the compiler targets IFMA: on a development or CI host without it,
# every other build here (-march=native, x86-64-v3) leaves that code out, and this is what
# catches a change that no longer compiles there. On an IFMA host `make check` also runs it.
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build/ifma}
make -s BUILD="$B" CUDA=0 OPT='-O2 -march=sapphirerapids' -j"$(nproc)" \
    "$B/lib/libcuzk.a" "$B/bin/cuzk-test" "$B/bin/cuzk-bench"
# The build must really contain the 8-lane arithmetic (a macro test that silently failed would
# leave it out and pass).
nm "$B/lib/libcuzk.a" 2>/dev/null | grep -q ' T cuzk__fp52x8_mul$' ||
    { echo "ifma-build: FAIL: the IFMA build lacks the 8-lane Fp code"; exit 1; }
if grep -qw avx512ifma /proc/cpuinfo 2>/dev/null; then
    where="this CPU has IFMA: make check runs that code too"
else
    where="this CPU lacks IFMA: compiled only"
fi
echo "ifma-build: passed (library, tests and cuzk-bench built for sapphirerapids; $where)"
