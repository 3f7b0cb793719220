#!/bin/sh
# iolens-export --hdf5 and --item-extract on make_test_log logs, whose
# access intervals (tests/integration/make_test_log.c, build_intervals and
# build_intervals_extra) give these series, on rank 0's clock:
#
#   rank 0 POSIX  [0.5, 1.0] read 1048576 B, 1 access; [1.0, 1.25] write
#                 524288 B, 2 accesses; [2.0, 2.5] write 262144 B, 1 access
#   rank 0 STDIO  [0.25, 0.375] read 100 B, 1 access
#   rank 1 POSIX  (clock offset +0.5) [1.0, 1.5] read 1048576 B, 2
#                 accesses; [2.5, 2.75] failed read 4096 B, 1 access
#   rank 2 (--intervals-extra, offset -0.25) POSIX [2.75, 3.0] merged
#                 read+write 1024 B, 2 accesses; [3.0, 3.125] write 2048 B,
#                 2 accesses.  MPIIO [2.75, 3.25] write 4096 B, 1 access;
#                 [3.5, 3.625] and [3.75, 3.875] reads of 512 B, 1 access each
#
# Bins of 1 s: the job runs 3.5 s, so 4 rows (time 0, 1, 2, 3).  An
# interval's bytes and accesses are spread over its bins in proportion to
# its time in each, rounded down, the last bin taking the rest:
#   rank 0 POSIX  bin 0: read 1048576 B, 1 read ([0.5, 1.0] ends on the
#                 bin boundary: all in bin 0); bin 1: written 524288, 2
#                 writes; bin 2: written 262144, 1 write
#   rank 1 POSIX  bin 1: read 1048576, 2 reads; bin 2: read 4096, 1 read
#   rank 2 POSIX  bin 2: read+write 1024 B, 2 accesses; bin 3: written
#                 2048, 2 writes
#   rank 2 MPIIO  [2.75, 3.25] halves: bin 2 written 2048 and 0 writes
#                 (floor(1 * 0.5)), bin 3 written 2048 and 1 write; bin 3
#                 also read 512 + 512 = 1024 B, 2 reads
#   Totals (4 ranks; ranks without accesses count as 0), POSIX of the
#   first log:
#     bin 0  bytes_read 0/262144/1048576/1048576 (min/avg/max/sum), reads
#            0/0.25/1/1
#     bin 1  bytes_read 0/262144/1048576/1048576, bytes_written
#            0/131072/524288/524288, reads 0/0.5/2/2, writes 0/0.5/2/2
#     bin 2  bytes_read 0/1024/4096/4096, bytes_written 0/65536/262144/262144,
#            reads 0/0.25/1/1, writes 0/0.25/1/1
#     bin 3  all 0
# --item-extract --bin 0.25, POSIX bytes_read: rank 0's [0.5, 1.0] halves
# into bins 0.5 and 0.75 (524288 each), rank 1's [1.0, 1.5] into 1.0 and
# 1.25, its [2.5, 2.75] all in 2.5; reads: rank 0's single read in 0.75
# (the last bin it spans), rank 1's two reads one in 1.0 and one in 1.25.
. "$(dirname "$0")/common.sh"

for var in IOLENS_BUILDDIR IOLENS_TESTBIN; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
EXPORT=$IOLENS_BUILDDIR/iolens-export
MAKE_LOG=$IOLENS_TESTBIN/integration/make_test_log
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL

A=$T/a.iolens
B=$T/b.iolens
C=$T/c.iolens
"$MAKE_LOG" --intervals "$A" || { fail "make_test_log A"; finish; }
"$MAKE_LOG" --forked --intervals --intervals-extra --hdf5 "$B" || { fail "make_test_log B"; finish; }
"$MAKE_LOG" --odd-names "$C" || { fail "make_test_log C"; finish; }
printf 'not a log\n' >"$T/bad.iolens"
JA=4242-1700000000
JB=4242-1700000000-pid4321

# Runs the exporter; sets rc, out (stdout) and err (stderr).
run() {
    "$EXPORT" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    out=$(cat "$T/out")
    err=$(cat "$T/err")
}

# ------------------------------------------------------- --item-extract --

run --item-extract --series=POSIX --data=bytes_read --bin 0.25 "$A"
check_eq 0 "$rc" "item-extract exit status"
check_eq "" "$err" "item-extract stderr"
expected="job,time,min,avg,max,sum,rank_of_min,rank_of_max,rank_0,rank_1,rank_2,rank_3
$JA,0.000000,0,0.000000,0,0,0,0,0,0,0,0
$JA,0.250000,0,0.000000,0,0,0,0,0,0,0,0
$JA,0.500000,0,131072.000000,524288,524288,1,0,524288,0,0,0
$JA,0.750000,0,131072.000000,524288,524288,1,0,524288,0,0,0
$JA,1.000000,0,131072.000000,524288,524288,0,1,0,524288,0,0
$JA,1.250000,0,131072.000000,524288,524288,0,1,0,524288,0,0
$JA,1.500000,0,0.000000,0,0,0,0,0,0,0,0
$JA,1.750000,0,0.000000,0,0,0,0,0,0,0,0
$JA,2.000000,0,0.000000,0,0,0,0,0,0,0,0
$JA,2.250000,0,0.000000,0,0,0,0,0,0,0,0
$JA,2.500000,0,1024.000000,4096,4096,0,1,0,4096,0,0
$JA,2.750000,0,0.000000,0,0,0,0,0,0,0,0
$JA,3.000000,0,0.000000,0,0,0,0,0,0,0,0
$JA,3.250000,0,0.000000,0,0,0,0,0,0,0,0"
check_eq "$expected" "$out" "item-extract POSIX bytes_read, bin 0.25"

run --item-extract --series=posix --data=reads --bin 0.25 -o "$T/reads.csv" "$A"
check_eq 0 "$rc" "item-extract -o exit status"
check_eq "" "$out" "item-extract -o: nothing on stdout"
check_eq "$JA,0.750000,0,0.250000,1,1,1,0,1,0,0,0" "$(sed -n 5p "$T/reads.csv")" \
    "reads: rank 0's read in its last bin"
check_eq "$JA,1.000000,0,0.250000,1,1,0,1,0,1,0,0 $JA,1.250000,0,0.250000,1,1,0,1,0,1,0,0" \
    "$(sed -n '6p;7p' "$T/reads.csv" | tr '\n' ' ' | sed 's/ $//')" "reads: rank 1's two reads split"
check_eq 15 "$(wc -l <"$T/reads.csv" | tr -d ' ')" "reads: header + 14 rows"

# Two jobs in one CSV, the MPI-IO series of the second: writes per 1 s bin.
run --item-extract --series=MPIIO --data=bytes_written "$A" "$B"
check_eq 0 "$rc" "item-extract two logs"
expected="job,time,min,avg,max,sum,rank_of_min,rank_of_max,rank_0,rank_1,rank_2,rank_3
$JA,0.000000,0,0.000000,0,0,0,0,0,0,0,0
$JA,1.000000,0,0.000000,0,0,0,0,0,0,0,0
$JA,2.000000,0,0.000000,0,0,0,0,0,0,0,0
$JA,3.000000,0,0.000000,0,0,0,0,0,0,0,0
$JB,0.000000,0,0.000000,0,0,0,0,0,0,0,0
$JB,1.000000,0,0.000000,0,0,0,0,0,0,0,0
$JB,2.000000,0,512.000000,2048,2048,0,2,0,0,2048,0
$JB,3.000000,0,512.000000,2048,2048,0,2,0,0,2048,0"
check_eq "$expected" "$out" "item-extract MPIIO bytes_written, two jobs"

# A bad log among good ones: exit 2, one line for it, the others exported.
run --item-extract --series=POSIX --data=writes "$A" "$T/bad.iolens" "$B"
check_eq 2 "$rc" "item-extract with a bad log: exit status"
check_eq 1 "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" "bad log: one stderr line"
case $err in "iolens-export: $T/bad.iolens: "*) pass ;; *) fail "bad log message: $err" ;; esac
check_eq 8 "$(printf '%s\n' "$out" | grep -c '^4242-')" "bad log: both good jobs' rows"
# A log without intervals has no time series.
run --item-extract --series=POSIX --data=writes "$C"
check_eq 2 "$rc" "item-extract, log without intervals"
check_eq "iolens-export: $C: the log has no access intervals (no time series)" "$err" \
    "no intervals message"
# Unwritable CSV: exit 3, one line.
run --item-extract --series=POSIX --data=writes -o "$T/no/such/dir.csv" "$A"
check_eq 3 "$rc" "unwritable -o: exit status"
check_eq "iolens-export: $T/no/such/dir.csv: No such file or directory" "$err" "unwritable -o message"
if [ -w /dev/full ]; then
    "$EXPORT" --item-extract --series=POSIX --data=writes "$A" >/dev/full 2>"$T/err"
    check_eq 3 "$?" "stdout on /dev/full: exit status"
    check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stdout on /dev/full: one line"
fi

# ------------------------------------------------------------- usage --

usage_case() {
    what=$1
    shift
    run "$@"
    check_eq 1 "$rc" "usage: $what"
    case $err in "iolens-export: "*) pass ;; *) fail "usage: $what: message '$err'" ;; esac
}
usage_case "no mode" "$A"
usage_case "two modes" --hdf5 "$T/x.h5" --sqlite "$T/x.db" "$A"
usage_case "no log" --item-extract --series=POSIX --data=reads
usage_case "no --data" --item-extract --series=POSIX "$A"
usage_case "unknown series" --item-extract --series=NFS --data=reads "$A"
usage_case "unknown item" --item-extract --series=POSIX --data=power "$A"
usage_case "--bin 0" --item-extract --series=POSIX --data=reads --bin 0 "$A"
usage_case "--bin junk" --item-extract --series=POSIX --data=reads --bin 1s "$A"
usage_case "--series without --item-extract" --hdf5 "$T/x.h5" --series=POSIX "$A"
usage_case "--force without --hdf5" --item-extract --series=POSIX --data=reads --force "$A"
check_eq no "$(test -e "$T/x.h5" && echo yes || echo no)" "usage errors create no output"
run --help
check_eq 0 "$rc" "--help exit status"
case $out in "usage: iolens-export --hdf5"*) pass ;; *) fail "--help text: $out" ;; esac

# --------------------------------------------------------------- --hdf5 --

run --hdf5 "$T/probe.h5" "$A"
if [ "$rc" = 1 ] && [ "$err" = "iolens-export: --hdf5: this iolens-export was built without HDF5" ]; then
    echo "SKIP (part): built without HDF5"
    finish
fi
if ! command -v h5dump >/dev/null 2>&1; then
    echo "SKIP (part): no h5dump (Debian hdf5-tools; scripts/install-deps.sh)"
    finish
fi

# The values of a dataset, each element's fields on one line, e.g.
# "{0,1048576,...},{1,...}" (the leading blanks of h5dump's lines removed).
dset() {
    h5dump -y -w 0 -d "$2" -o "$T/dump" "$1" >/dev/null 2>&1 || { echo "<no dataset $2>"; return; }
    sed 's/^ *//' "$T/dump" | tr -d '\n'
}
# The value of an attribute ("4", "\"alice\"").
attr() {
    h5dump -y -w 0 -a "$2" "$1" 2>/dev/null | awk '
        /^   DATA \{/ { on = 1; next }
        on && /^   \}/ { exit }
        on { sub(/^ +/, ""); printf "%s", $0 }'
}
# The objects below a group, "name kind" sorted, one per line.
objects() {
    target=$1$2
    [ "$2" != / ] || target=$1
    h5ls "$target" 2>/dev/null | awk '{ k = $NF; $NF = ""; sub(/ +$/, ""); print $0 " " k }' | sort
}

H=$T/jobs.h5
run --hdf5 "$H" "$A" "$T/bad.iolens" "$B"
check_eq 2 "$rc" "hdf5 with a bad log: exit status"
check_eq 1 "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" "hdf5 bad log: one stderr line"
case $err in "iolens-export: $T/bad.iolens: "*) pass ;; *) fail "hdf5 bad log message: $err" ;; esac
check_eq "$JA Group
$JB Group" "$(objects "$H" /)" "two logs, two job groups"

# Job attributes.
for pair in "jobid \"4242\"" "user \"alice\"" "uid 1000" "exe \"/opt/app/bin/sim\"" \
    "args \"-n 4 in put.dat\"" "nprocs 4" "nnodes 4" "start 1700000000" "end 1700000003" \
    "runtime 3.5" "pid 4321" "iolens_version \"0.1.0-test\"" "bin_width 1" "bins 4" \
    "first_bin_time 0" "log_path \"$(cd "$T" && pwd -P)/a.iolens\""; do
    name=${pair%% *}
    check_eq "${pair#* }" "$(attr "$H" "/$JA/$name")" "attribute $name"
done
version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "${IOLENS_SRCDIR:-/nonexistent}/configure.ac" 2>/dev/null)
[ -z "$version" ] || check_eq "\"$version\"" "$(attr "$H" "/$JA/export_version")" "export_version"

# Layout of the first job.
check_eq "Files Dataset {4}
Nodes Group
Ranks Group
Totals Group" "$(objects "$H" "/$JA")" "job group content"
check_eq "node001 Group
node002 Group
node003 Group
node004 Group" "$(objects "$H" "/$JA/Nodes")" "one group per node"
check_eq "0 Group
1 Group
2 Group
3 Group" "$(objects "$H" "/$JA/Ranks")" "one group per rank"
check_eq "POSIX Dataset {4}
STDIO Dataset {4}" "$(objects "$H" "/$JA/Ranks/0/Time Series")" "rank 0's layers"
check_eq "POSIX Dataset {4}" "$(objects "$H" "/$JA/Ranks/1/Time Series")" "rank 1's layers"
check_eq "" "$(objects "$H" "/$JA/Ranks/3/Time Series")" "rank 3 did no I/O"
check_eq "POSIX Dataset {4}
STDIO Dataset {4}" "$(objects "$H" "/$JA/Totals")" "totals per layer"
check_eq '"node002"' "$(attr "$H" "/$JA/Ranks/1/node")" "rank 1's node"
check_eq '1' "$(attr "$H" "/$JA/Nodes/node002/ranks")" "node002's ranks"

# Time series values: time, bytes_read, bytes_written, bytes_read_write,
# reads, writes, accesses_read_write.
check_eq "{0,1048576,0,0,1,0,0}, {1,0,524288,0,0,2,0}, {2,0,262144,0,0,1,0}, {3,0,0,0,0,0,0}" \
    "$(dset "$H" "/$JA/Ranks/0/Time Series/POSIX")" "rank 0 POSIX series"
check_eq "{0,0,0,0,0,0,0}, {1,1048576,0,0,2,0,0}, {2,4096,0,0,1,0,0}, {3,0,0,0,0,0,0}" \
    "$(dset "$H" "/$JA/Ranks/1/Time Series/POSIX")" "rank 1 POSIX series"
check_eq "{0,100,0,0,1,0,0}, {1,0,0,0,0,0,0}, {2,0,0,0,0,0,0}, {3,0,0,0,0,0,0}" \
    "$(dset "$H" "/$JA/Ranks/0/Time Series/STDIO")" "rank 0 STDIO series"
check_eq "$(dset "$H" "/$JA/Ranks/1/Time Series/POSIX")" \
    "$(dset "$H" "/$JA/Nodes/node002/Time Series/POSIX")" "node002 = rank 1"
check_eq "{0,0,0,0,0,0,0}, {1,0,0,0,0,0,0}, {2,0,0,1024,0,0,2}, {3,0,2048,0,0,2,0}" \
    "$(dset "$H" "/$JB/Ranks/2/Time Series/POSIX")" "rank 2 POSIX series (second job)"
check_eq "{0,0,0,0,0,0,0}, {1,0,0,0,0,0,0}, {2,0,2048,0,0,0,0}, {3,1024,2048,0,2,1,0}" \
    "$(dset "$H" "/$JB/Ranks/2/Time Series/MPIIO")" "rank 2 MPIIO series (second job)"
check_eq "MPIIO Dataset {4}
POSIX Dataset {4}" "$(objects "$H" "/$JB/Nodes/node003/Time Series")" "node003's layers"

# Totals: time, then min, avg, max, sum of each item in field order.
z="0,0,0,0"
check_eq "{0,0,262144,1048576,1048576,$z,$z,0,0.25,1,1,$z,$z}, \
{1,0,262144,1048576,1048576,0,131072,524288,524288,$z,0,0.5,2,2,0,0.5,2,2,$z}, \
{2,0,1024,4096,4096,0,65536,262144,262144,$z,0,0.25,1,1,0,0.25,1,1,$z}, \
{3,$z,$z,$z,$z,$z,$z}" "$(dset "$H" "/$JA/Totals/POSIX")" "POSIX totals"

# The file table: path, id, layer, rank, bytes read, bytes written, reads,
# writes, opens, read/write/meta time.
check_eq "{\"/scratch/run/out.dat\",1229782938247303441,POSIX,0,0,4088832,0,1000,1,0,1.25,0.01}, \
{\"/home dir/in put.dat\",2459565876494606882,POSIX,-1,10250,200,11,2,2,0.75,0.125,0.0625}, \
{\"/tmp/cfg	file.txt\",3689348814741910323,STDIO,0,300,0,3,0,1,0.05,0,0.02}, \
{\"/scratch/run/ckpt.dat\",6148914691236517205,MPIIO,-1,0,4194304,0,4,2,0,0.5,0.25}" \
    "$(dset "$H" "/$JA/Files")" "file table"
check_eq 10 "$(h5ls "$H/$JB/Files" | sed 's/.*{\([0-9]*\)}.*/\1/')" "second job's file table rows"

# Re-export: a job already there is kept (exit 0, a note); --force
# replaces it; a new job is added next to them.
run --hdf5 "$H" "$A"
check_eq 0 "$rc" "re-export: exit status"
check_eq "iolens-export: $A: job $JA is already in $H: kept (--force replaces it)" "$err" \
    "re-export note"
run --hdf5 "$H" --force --bin 2 "$A"
check_eq 0 "$rc" "re-export --force: exit status"
check_eq "2" "$(attr "$H" "/$JA/bin_width")" "--force replaced the group (bin 2)"
check_eq "{0,1048576,524288,0,1,2,0}, {2,0,262144,0,0,1,0}" \
    "$(dset "$H" "/$JA/Ranks/0/Time Series/POSIX")" "rank 0 POSIX series, bins of 2 s"
check_eq "$JA Group
$JB Group" "$(objects "$H" /)" "still two job groups"

# Names' bytes are kept as they are (not UTF-8, quotes, a newline).
run --hdf5 "$T/odd.h5" "$C"
check_eq 0 "$rc" "odd names export"
check_eq 1 "$(grep -c -a -F "$(printf '/scratch/run/bad\377\376"q\\,x')" "$T/odd.h5")" \
    "non-UTF-8 name bytes in the file"
check_eq 6 "$(h5ls "$T/odd.h5/$JA/Files" | sed 's/.*{\([0-9]*\)}.*/\1/')" "odd-names file rows"

# Output that cannot be written: exit 3, one line, nothing else touched.
run --hdf5 "$T/no/such/dir.h5" "$A"
check_eq 3 "$rc" "unwritable output: exit status"
check_eq "iolens-export: $T/no/such/dir.h5: No such file or directory" "$err" \
    "unwritable output message"
printf 'precious\n' >"$T/notes.txt"
run --hdf5 "$T/notes.txt" "$A"
check_eq 3 "$rc" "non-HDF5 output file: exit status"
check_eq "iolens-export: $T/notes.txt: exists and is not an HDF5 file (not overwritten)" "$err" \
    "non-HDF5 output message"
check_eq precious "$(cat "$T/notes.txt")" "non-HDF5 output left alone"
run --hdf5 "$T" "$A"
check_eq 3 "$rc" "directory as output: exit status"
check_eq 1 "$(printf '%s\n' "$err" | wc -l | tr -d ' ')" "directory as output: one line"

finish
