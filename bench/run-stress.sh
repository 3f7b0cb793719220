#!/bin/sh
# The budget under stress at full size: 10^6 files and
# 10^8 one-byte pwrites (10^8 access intervals offered to the store) under
# a 2 MiB budget, with the exact checks of
# tests/integration/test_budget_stress.sh (which runs 10^5 files and 10^6
# operations in make check):
#
#   bench/run-stress.sh BUILDDIR [NFILES [NOPS [MEMORY]]]
#
# Needs room for NFILES small files under /tmp (one block each: about
# 4 GiB for 10^6 files on most file systems).  Prints the run time, the
# budget figures, the folded-files estimate and its error, and the BPS
# error bound.
set -eu
build=$(cd "${1:?usage: run-stress.sh BUILDDIR [NFILES [NOPS [MEMORY]]]}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
IOLENS_LIB=$build/.libs/libiolens.so
IOLENS_PARSER=$build/iolens-parser
IOLENS_TESTBIN=$build/tests
STRESS_FILES=${2:-1000000}
STRESS_OPS=${3:-100000000}
STRESS_MEMORY=${4:-2M}
export IOLENS_LIB IOLENS_PARSER IOLENS_TESTBIN STRESS_FILES STRESS_OPS STRESS_MEMORY
(cd "$build" && make tests/integration/prog_stress >/dev/null)
echo "stress: $STRESS_FILES files, $STRESS_OPS operations, IOLENS_MEMORY=$STRESS_MEMORY"
exec sh "$src/tests/integration/test_budget_stress.sh"
