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
    # Here the CPU check of scripts/test-cli.sh (which needs an AVX-512 build under QEMU) can run
    # on the real CPU: every program must stop before main with a message naming what is
    # missing, exit 2, not die of SIGILL.
    for prog in cuzk-bench cuzk-test; do
        rc=0
        out=$("$B/bin/$prog" --help 2>&1) || rc=$?
        case "$rc:$out" in
        "2:$prog: this build of cuzk uses CPU instructions this CPU lacks ("*avx512ifma*) ;;
        *) echo "ifma-build: FAIL: $prog on this CPU without IFMA: exit $rc, '$out'"; exit 1 ;;
        esac
    done
    where="this CPU lacks IFMA: compiled, and its programs refuse this CPU with a clear message"
fi
echo "ifma-build: passed (library, tests and cuzk-bench built for sapphirerapids; $where)"
