#!/bin/sh
# iolens-parser --patterns on prog_patterns: one file per access pattern,
# each label checked with its parameters, and the job-level figures.
. "$(dirname "$0")/common.sh"
iolens_setup

log=$T/p.iolens
run_traced "$log" "$PROGS/prog_patterns" "$T" || fail "prog_patterns exited with status $?"
require_log "$log"
if ! "$IOLENS_PARSER" --patterns "$log" >"$T/out" 2>"$T/err"; then
    fail "iolens-parser --patterns: $(cat "$T/err")"
    finish
fi

# The record line of FILE at LAYER, without the file column.
line_of() {
    awk -F'\t' -v l="$1" -v f="$2" '
        $1 == l && $8 == f { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7; n++ }
        END { if (n == 0) print "<none>" }' "$T/out"
}

tab=$(printf '\t')
expect() {
    check_eq "$(printf '%s' "$2" | tr '|' "$tab")" "$(line_of POSIX "$T/$1")" "$1"
}
expect consecutive.dat "POSIX|0|1|consecutive|64|100.0|size=4096"
expect sequential.dat "POSIX|0|1|sequential|64|100.0|size=4096"
expect strided.dat "POSIX|0|1|strided|64|100.0|size=4096 stride=16384"
expect reverse.dat "POSIX|0|1|strided|32|100.0|size=4096 stride=-8192"
expect nested.dat "POSIX|0|1|nested-strided|64|100.0|size=1024 inner_stride=4096 \
inner_count=4 outer_stride=65536 outer_count=16"
# 32 of the 63 steps go forward past the previous end, the best any label
# fits (50.8%): random, with 49.2% fitting nothing.
expect random.dat "POSIX|0|1|random|64|49.2|size=4096"

# The detector counters behind two of the labels.
expect_counters "$log" "$T/nested.dat" <<END
POSIX_PAT_STEPS 63
POSIX_PAT_CONSEC 0
POSIX_PAT_SEQ 63
POSIX_PAT_STRIDE 4096
POSIX_PAT_STRIDE_STEPS 48
POSIX_PAT_INNER_STRIDE 4096
POSIX_PAT_INNER_COUNT 4
POSIX_PAT_OUTER_STRIDE 65536
POSIX_PAT_GROUPS 16
POSIX_PAT_GROUP_STEPS 63
END
expect_counters "$log" "$T/reverse.dat" <<END
POSIX_PAT_STEPS 31
POSIX_PAT_SEQ 0
POSIX_PAT_STRIDE -8192
POSIX_PAT_STRIDE_STEPS 31
POSIX_PAT_GROUPS 0
END

job() {
    awk -F'\t' -v m="$1" '
        $1 == "job" && $2 == m { print $3; n++ }
        END { if (n == 0) print "<none>" }' "$T/out"
}
check_eq "N:N" "$(job sharing)" "sharing of a one-process job"
check_eq "POSIX" "$(job sharing_layer)" "sharing layer"
check_eq 1 "$(job nprocs)" "nprocs"
# 64 * 4096 * 4 + 32 * 4096 + 64 * 1024 bytes, in 6 files all created.
check_eq 1245184 "$(job bytes)" "bytes"
check_eq 6 "$(job files)" "files"
check_eq 6 "$(job files_created)" "files created"
check_eq 6.000000 "$(job files_per_process)" "files per process"
check_eq 352 "$(job accesses)" "accesses"
check_eq 1245184.000000 "$(job data_per_process)" "data per process"
check_eq "4096${tab}288" "$(awk -F'\t' '$2 == "access_size_1" { print $3 "\t" $4 }' "$T/out")" \
    "most common access size"
check_eq "1024${tab}64" "$(awk -F'\t' '$2 == "access_size_2" { print $3 "\t" $4 }' "$T/out")" \
    "second access size"
# POSIX_SEQ_* (Darshan's rule): consecutive 63, sequential 63, strided 63,
# nested 63, random 32 sequential steps, and the first writes of reverse
# (at 31 * 8192) and random (at a block past 0) count too, as they start
# past byte 0, Darshan's last byte before any write: 286 of 352 accesses.
check_eq 81.250000 "$(job sequential_pct)" "sequential share"
check_eq 17.897727 "$(job consecutive_pct)" "consecutive share"

# The access sizes are exact (each record listed all of its values).
check_eq "exact" "$(awk -F'\t' '$2 == "access_size_counts" { print $3 }' "$T/out")" \
    "access size counts"
finish
