#!/bin/sh
# The job-level sharing class of iolens-parser --patterns, one 4-rank job
# per class (patterns_prog.c), and the MPI-IO strided label of a shared
# file, with its parameters.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup

# job_common.sh launches $JOB_PROG MODE DATA: our program instead.
JOB_PROG=$T/patterns_prog
if ! "$IOLENS_MPICC" -Wall -Wextra -Werror "$IOLENS_SRCDIR/tests/mpi/patterns_prog.c" \
    -o "$JOB_PROG"; then
    fail "compiling tests/mpi/patterns_prog.c with $IOLENS_MPICC"
    finish
fi

patterns() {
    if ! "$IOLENS_PARSER" --patterns "$LOG" >"$RUN/patterns" 2>"$RUN/patterns.err"; then
        fail "iolens-parser --patterns $LOG: $(cat "$RUN/patterns.err")"
        finish
    fi
}

job() {
    awk -F'\t' -v m="$1" '
        $1 == "job" && $2 == m { print $3; n++ }
        END { if (n == 0) print "<none>" }' "$RUN/patterns"
}

# The record line of FILE at LAYER, without the file column.
line_of() {
    awk -F'\t' -v l="$1" -v f="$2" '
        $1 == l && $8 == f { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7; n++ }
        END { if (n == 0) print "<none>" }' "$RUN/patterns"
}
tab=$(printf '\t')
row() {
    printf '%s' "$1" | tr '|' "$tab"
}

# ------------------------------------------------------------- N:N --
run_job 4 nn
patterns
check_eq "N:N" "$(job sharing)" "class of file-per-process"
check_eq 4 "$(job nprocs)" "nprocs"
check_eq $((4 * 8 * 65536)) "$(job bytes)" "bytes of file-per-process"
check_eq $((4 * 8 * 65536)) "$(job bytes_unique_files)" "bytes in unique files"
check_eq 4 "$(job files)" "files"
check_eq 1.000000 "$(job files_per_process)" "files per process"
check_eq 1.000000 "$(job files_created_per_process)" "files created per process"
check_eq 524288.000000 "$(job data_per_process)" "data per process"
# The first access on a descriptor is neither consecutive nor sequential.
check_eq 87.500000 "$(job consecutive_pct)" "consecutive share: 7 of 8 accesses per rank"
check_eq 87.500000 "$(job sequential_pct)" "sequential share"
r=0
while [ $r -lt 4 ]; do
    check_eq "$(row "POSIX|$r|1|consecutive|8|100.0|size=65536")" \
        "$(line_of POSIX "$DATA/own.$r")" "label of own.$r"
    r=$((r + 1))
done

# ------------------------------------------------------------- N:1 --
run_job 4 n1
patterns
check_eq "N:1" "$(job sharing)" "class of one shared file"
# The class is judged at the POSIX layer.  MPICH's ROMIO has every rank
# write its own blocks of the file written through a view (4 blocks a
# rank, collectively); Open MPI's OMPIO writes them from its aggregator
# ranks only, so those 16 blocks are not shared by all there.  Either
# way no byte is lost: the three kinds add up to the 20 blocks a rank.
if [ "$(mpi_flavour)" = openmpi ]; then
    check_eq $((4 * 16 * 65536)) "$(job bytes_shared_by_all)" "bytes shared by all"
else
    check_eq $((4 * 20 * 65536)) "$(job bytes_shared_by_all)" "bytes shared by all"
fi
check_eq $((4 * 20 * 65536)) \
    "$(($(job bytes_shared_by_all) + $(job bytes_shared_by_subset) + $(job bytes_unique_files)))" \
    "bytes shared by all, by a subset and unique, together"
check_eq 2 "$(job files)" "files"
# Each rank strided by 4 blocks; the shared record adds the 4 ranks' steps.
check_eq "$(row "MPIIO|-1|4|strided|64|100.0|size=65536 stride=262144")" \
    "$(line_of MPIIO "$DATA/shared")" "MPI-IO label of the shared file"
check_eq "60 60" "$(dumped MPIIO "$DATA/shared" MPIIO_PAT_STEPS | awk '{ print $2 }') $(
    dumped MPIIO "$DATA/shared" MPIIO_PAT_STRIDE_STEPS | awk '{ print $2 }')" \
    "MPI-IO steps of the shared file"
# The same layout through a file view: the individual file pointer's
# positions, mapped through the view, are the same byte offsets.
check_eq "$(row "MPIIO|-1|4|strided|16|100.0|size=65536 stride=262144")" \
    "$(line_of MPIIO "$DATA/viewed")" "MPI-IO label of the file written through a view"

# ------------------------------------------------------------- N:M --
run_job 4 nm
patterns
check_eq "N:M" "$(job sharing)" "class of files shared by pairs"
check_eq $((4 * 8 * 65536)) "$(job bytes_shared_by_subset)" "bytes shared by subsets"
check_eq 0.500000 "$(job files_per_process)" "files per process"
# Each rank skips its partner's blocks: stride 2 blocks, 7 steps per rank.
check_eq "$(row "POSIX|-1|2|strided|16|100.0|size=65536 stride=131072")" \
    "$(line_of POSIX "$DATA/pair.0")" "label of pair.0"

# ---------------------------------------------------------- rank-0 --
run_job 4 rank0
patterns
check_eq "rank-0" "$(job sharing)" "class of rank-0 I/O"
check_eq 0 "$(job top_rank)" "top rank"
check_eq $((64 * 65536 + 3 * 1000)) "$(job bytes)" "bytes of rank-0 I/O"
check_eq "$(row "POSIX|0|1|consecutive|64|100.0|size=65536")" \
    "$(line_of POSIX "$DATA/rank0")" "label of rank 0's file"
finish
