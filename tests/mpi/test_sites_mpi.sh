#!/bin/sh
# Call sites under MPI (sites_prog.c): the POSIX writes ROMIO makes beneath
# MPI_File_write_at_all belong to the program's line that called it, not
# to a line inside the MPI library, at 1 and 4 ranks; and a POSIX file all
# 4 ranks write from two lines keeps, in its one shared record, the job's
# sites with exact calls and bytes (the ranks load the program at other
# addresses: sites are module offsets), reduced at MPI_Finalize into the
# one region of the rank that writes the record; and the STDIO record
# only rank 0 has of a file the others share through POSIX keeps its
# sites, whichever rank writes it.  addr2line (binutils) is the oracle of
# the lines; tests/integration/log_sites shows the log's sites as stored.
. "$(dirname "$0")/../integration/common.sh"
iolens_setup
for var in IOLENS_MPICC IOLENS_MPIEXEC IOLENS_SRCDIR; do
    eval "value=\${$var:-}"
    if [ -z "$value" ]; then
        echo "SKIP: $var is not set (needs mpicc and mpiexec, run through make check)"
        exit 77
    fi
done
if ! command -v addr2line >/dev/null 2>&1; then
    echo "SKIP: needs addr2line"
    exit 77
fi
unset LD_PRELOAD
SRC=$IOLENS_SRCDIR/tests/mpi/sites_prog.c
PROG=$T/sites_prog
"$IOLENS_MPICC" -g -O0 "$SRC" -o "$PROG" || { fail "compiling sites_prog.c"; finish; }

line_of() {
    echo "sites_prog.c:$(grep -n "SITE $1 \*/" "$SRC" | cut -d: -f1)"
}
# "bytes ops site" of FILE's POSIX record(s)
sites() {
    "$IOLENS_PARSER" --sites "$1" | awk -F'\t' -v f="$2" '$1 == "POSIX" && $7 == f { print $3, $4, $6 }'
}
where() {
    off=${1##*+0x}
    addr2line -e "$PROG" "$(printf '0x%x' $((0x$off - 1)))" | sed 's/ (discriminator.*//; s|.*/||'
}
# The site's line, whether the parser resolved it or printed module+0xOFFSET.
line_in() {
    case $1 in
    *+0x*) where "$1" ;;
    *) echo "$1" | sed 's/^[^(]*(//; s/)$//; s|.*/||' ;;
    esac
}
sum_counter() {
    base_of "$1" | awk -F'\t' -v f="$2" -v c="$3" '
        $1 !~ /^#/ && $6 == f && $4 == c { s += $5; n++ }
        END { if (n == 0) print "<none>"; else print s }'
}

for n in 1 4; do
    RUN=$T/run$n
    mkdir -p "$RUN/data" "$RUN/logs"
    mpi_run -n "$n" -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$RUN/logs" \
        "$PROG" "$RUN/data" >"$RUN/out" || fail "sites_prog on $n ranks exited with an error"
    LOG=$(ls "$RUN"/logs/*.iolens 2>/dev/null | head -n 1)
    [ -n "$LOG" ] || { fail "no log at $n ranks"; continue; }
    require_log "$LOG"

    # Beneath MPI_File_write_at_all: one site, the program's line, with
    # every POSIX write of the file (however many ROMIO made).
    c=$(sites "$LOG" "$RUN/data/coll")
    check_eq 1 "$(echo "$c" | grep -c .)" "sites of coll's POSIX writes, $n ranks"
    check_eq "$(sum_counter "$LOG" "$RUN/data/coll" POSIX_BYTES_WRITTEN)" \
        "$(echo "$c" | cut -d' ' -f1)" "bytes of coll's site, $n ranks"
    check_eq "$(sum_counter "$LOG" "$RUN/data/coll" POSIX_WRITES)" \
        "$(echo "$c" | cut -d' ' -f2)" "writes of coll's site, $n ranks"
    check_eq $((2 * 4096 * n)) "$(echo "$c" | cut -d' ' -f1)" "coll's bytes, $n ranks"
    check_eq "$(line_of coll)" "$(line_in "$(echo "$c" | cut -d' ' -f3-)")" \
        "line of the writes beneath MPI_File_write_at_all, $n ranks"

    # Rank 0's STDIO record of each mixed file: 3 fwrites of 50 bytes
    # from its line, as rank 0 made them, wherever the file is written.
    for k in 0 1 2 3 4 5 6 7; do
        m=$("$IOLENS_PARSER" --sites "$LOG" | awk -F'\t' -v f="$RUN/data/mixed$k" \
            '$1 == "STDIO" && $7 == f { print $2, $3, $4, $6 }')
        check_eq "0 150 3" "$(echo "$m" | cut -d' ' -f1-3)" "mixed$k's STDIO sites, $n ranks"
        check_eq "$(line_of mixed)" "$(line_in "$(echo "$m" | cut -d' ' -f4-)")" \
            "line of mixed$k's fwrites, $n ranks"
    done

    p=$(sites "$LOG" "$RUN/data/posix")
    calls1=$((n * (n + 1) / 2))
    check_eq "$((100 * calls1)) $calls1
$((20 * n)) $((2 * n))" "$(echo "$p" | cut -d' ' -f1-2)" "posix's sites: bytes, calls, $n ranks"
    check_eq "$(line_of posix1)" "$(line_in "$(echo "$p" | sed -n 1p | cut -d' ' -f3-)")" \
        "line of posix's first site, $n ranks"
    check_eq "$(line_of posix2)" "$(line_in "$(echo "$p" | sed -n 2p | cut -d' ' -f3-)")" \
        "line of posix's second site, $n ranks"
done
# At 4 ranks posix is one shared record (rank -1).
check_eq "-1 -1" "$("$IOLENS_PARSER" --sites "$LOG" | awk -F'\t' -v f="$RUN/data/posix" \
    '$1 == "POSIX" && $7 == f { print $2 }' | tr '\n' ' ' | sed 's/ $//')" "ranks of posix's sites at 4 ranks"
# ... whose sites the log holds once, reduced: two entries (the two lines,
# with every rank's calls), both in the region of one rank, not one pair
# per rank.
stored=$("$IOLENS_TESTBIN/integration/log_sites" "$LOG" | awk -v f="$RUN/data/posix" \
    '$2 == 16 && $3 == f { print $1, $6, $7 }')
check_eq 2 "$(echo "$stored" | grep -c .)" "stored sites of posix at 4 ranks"
check_eq 1 "$(echo "$stored" | cut -d' ' -f1 | sort -u | grep -c .)" \
    "ranks whose regions hold posix's sites"
check_eq "1000 10
80 8" "$(echo "$stored" | cut -d' ' -f2- | sort -k2,2nr -k1,1nr | awk '{ print $2, $1 }')" \
    "stored posix sites: bytes and calls over the job"
finish
