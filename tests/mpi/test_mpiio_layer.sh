#!/bin/sh
# The MPI-IO layer's bookkeeping driven directly (tests/mpi/mpiio_layer_test.c):
# completions out of issue order, a request value reused before the old
# request was settled, a full pending-request table, split collectives,
# views, hints, close, reset and folding into <other files>, with exact
# counters and times.  Linked with the build tree's libiolens-core.a; run
# as a one-rank MPI job with the runtime itself disabled.
. "$(dirname "$0")/../integration/common.sh"
iolens_setup
for var in IOLENS_MPICC IOLENS_MPIEXEC IOLENS_BUILDDIR IOLENS_SRCDIR; do
    eval "value=\${$var:-}"
    if [ -z "$value" ]; then
        echo "SKIP: $var is not set (needs mpicc and mpiexec, run through make check)"
        exit 77
    fi
done
core=$IOLENS_BUILDDIR/.libs/libiolens-core.a
if ! nm "$core" 2>/dev/null | grep -q ' T iolens_mpiio_open$'; then
    echo "SKIP: $core has no MPI-IO layer (built without MPI)"
    exit 77
fi
unset LD_PRELOAD

if ! "$IOLENS_MPICC" -std=gnu11 -Wall -Wextra -Werror \
    -include "$IOLENS_BUILDDIR/build_config.h" -I"$IOLENS_SRCDIR/include" \
    -I"$IOLENS_SRCDIR" -I"$IOLENS_SRCDIR/lib" "$IOLENS_SRCDIR/tests/mpi/mpiio_layer_test.c" "$core" \
    -lz -lm -ldl -lpthread -o "$T/mpiio_layer_test"; then
    fail "compiling tests/mpi/mpiio_layer_test.c against $core"
    finish
fi
if IOLENS_DISABLE=1 mpi_run -n 1 "$T/mpiio_layer_test" >"$T/out" 2>&1; then
    pass
else
    fail "mpiio_layer_test"
fi
cat "$T/out"
grep -q '^PASS: ' "$T/out" || fail "mpiio_layer_test did not report PASS"
finish
