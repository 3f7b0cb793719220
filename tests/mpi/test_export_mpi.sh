#!/bin/sh
# iolens-export --hdf5 and --item-extract on a real 4-rank MPI job
# (tests/mpi/job_prog.c, mode "sharing"), all ranks on this one node.
# Rank R's POSIX writes (its stdout line goes through STDIO, whose flush
# the runtime does not see again at POSIX):
#   fpp.R     R + 1 writes of 1000 B        strided  4 writes of 4096 B
#   pair.P    1 write of 1000 * (R + 1) B    only0    rank 0: 4 writes of 512 B
# -> bytes 20432, 20384, 22384, 24384 (sum 87584, average 21896) and
#    writes 10, 7, 8, 9 (sum 34, average 8.5).
# STDIO: one fputs of "x\n" per rank: 2 bytes, 1 write each.
# With bins of 100 s the whole job is bin 0: one row per dataset.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup
EXPORT=$IOLENS_BUILDDIR/iolens-export
"$EXPORT" --hdf5 "$T/probe.h5" /nonexistent 2>"$T/probe.err"
if grep -q 'built without HDF5' "$T/probe.err" || ! command -v h5dump >/dev/null 2>&1; then
    echo "SKIP: iolens-export without HDF5, or no h5dump (hdf5-tools)"
    exit 77
fi

run_job 4 sharing
H=$T/job.h5
"$EXPORT" --hdf5 "$H" --bin 100 "$LOG" 2>"$T/err"
check_eq 0 "$?" "export exit status"
check_eq "" "$(cat "$T/err")" "export stderr"

dset() {
    h5dump -y -w 0 -d "$2" -o "$T/dump" "$1" >/dev/null 2>&1 || { echo "<no dataset $2>"; return; }
    sed 's/^ *//' "$T/dump" | tr -d '\n'
}
attr() {
    h5dump -y -w 0 -a "$2" "$1" 2>/dev/null | awk '
        /^   DATA \{/ { on = 1; next }
        on && /^   \}/ { exit }
        on { sub(/^ +/, ""); printf "%s", $0 }'
}

job=$(h5ls "$H" | awk '{ print $1 }')
check_eq 1 "$(printf '%s\n' "$job" | wc -l | tr -d ' ')" "one job group"
check_eq "\"$(dumped_str 0)\"" "$(attr "$H" "/$job/jobid")" "jobid attribute"
check_eq 4 "$(attr "$H" "/$job/nprocs")" "nprocs attribute"
check_eq 1 "$(attr "$H" "/$job/bins")" "one bin"
node=$(h5ls "$H/$job/Nodes" | awk '{ print $1 }')
check_eq 1 "$(printf '%s\n' "$node" | wc -l | tr -d ' ')" "one node"
check_eq "0, 1, 2, 3" "$(attr "$H" "/$job/Nodes/$node/ranks")" "the node's ranks"

r=0
for pair in "20432 10" "20384 7" "22384 8" "24384 9"; do
    check_eq "{0,0,${pair% *},0,0,${pair#* },0}" \
        "$(dset "$H" "/$job/Ranks/$r/Time Series/POSIX")" "rank $r POSIX series"
    check_eq "{0,0,2,0,0,1,0}" "$(dset "$H" "/$job/Ranks/$r/Time Series/STDIO")" \
        "rank $r STDIO series"
    r=$((r + 1))
done
check_eq "{0,0,87584,0,0,34,0}" "$(dset "$H" "/$job/Nodes/$node/Time Series/POSIX")" \
    "node POSIX series"
z="0,0,0,0"
check_eq "{0,$z,20384,21896,24384,87584,$z,$z,7,8.5,10,34,$z}" \
    "$(dset "$H" "/$job/Totals/POSIX")" "POSIX totals"

"$EXPORT" --item-extract --series=POSIX --data=bytes_written --bin 100 "$LOG" >"$T/csv" 2>"$T/err"
check_eq 0 "$?" "item-extract exit status"
check_eq "job,time,min,avg,max,sum,rank_of_min,rank_of_max,rank_0,rank_1,rank_2,rank_3
$job,0.000000,20384,21896.000000,24384,87584,1,3,20432,20384,22384,24384" "$(cat "$T/csv")" \
    "item-extract POSIX bytes_written"
finish
