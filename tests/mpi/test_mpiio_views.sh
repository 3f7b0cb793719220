#!/bin/sh
# File views and hints (mpiio_prog.c, mode views): a set_view with a
# derived (vector) filetype, one with MPI_BYTE, an info object at open
# plus set_info, and set_size/preallocate (metadata time only).
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/mpiio_common.sh"
mpiio_setup

run_mpiio 1 views
expect_counters "$LOG" "$DATA/view.0" <<END
MPIIO_VIEWS 1
MPIIO_DERIVED_VIEWS 1
MPIIO_DERIVED_DATATYPES 0
MPIIO_HINTS 0
MPIIO_COLL_WRITES 1
MPIIO_BYTES_WRITTEN 32
MPIIO_ACCESS1_ACCESS 32
END
expect_counters "$LOG" "$DATA/view_named.0" <<END
MPIIO_VIEWS 1
MPIIO_DERIVED_VIEWS 0
MPIIO_HINTS 0
MPIIO_INDEP_OPENS 1
END
f=$DATA/hints.0
expect_counters "$LOG" "$f" <<END
MPIIO_INDEP_OPENS 1
MPIIO_HINTS 2
MPIIO_VIEWS 0
MPIIO_SYNCS 0
MPIIO_INDEP_WRITES 0
MPIIO_BYTES_WRITTEN 0
MPIIO_F_WRITE_TIME 0.000000
END
check_gt "$(counter "$LOG" "$f" MPIIO_F_META_TIME)" 0 "MPIIO_F_META_TIME of hints.0"
finish
