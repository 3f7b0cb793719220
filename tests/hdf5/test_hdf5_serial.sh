#!/bin/sh
# Serial HDF5 (h5_prog.c, mode serial): exact H5F and H5D counters for
# 1-D and 2-D datasets, contiguous, chunked with deflate and compact,
# every selection kind, access shapes, reopening through H5Oopen, H5Dopen2
# and H5Dopen1; failed calls not counted; the dataset records link to the
# file record; IOLENS_DISABLE_LAYERS for the HDF5 layers.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/../mpi/mpiio_common.sh"
. "$(dirname "$0")/hdf5_common.sh"
hdf5_setup

run_serial
F=$DATA/serial.h5

# ------------------------------------------------------------- the file --
expect_counters "$LOG" "$F" <<END
H5F_OPENS 2
H5F_CREATES 1
H5F_FLUSHES 1
H5F_USE_MPIIO 0
H5F_COLL_METADATA 0
H5F_RANKS_OPENED 1
END
check_gt "$(counter "$LOG" "$F" H5F_F_META_TIME)" 0 "H5F_F_META_TIME"
check_le "$(counter "$LOG" "$F" H5F_F_OPEN_START_TIMESTAMP)" \
    "$(counter "$LOG" "$F" H5F_F_CLOSE_START_TIMESTAMP)" "H5F open start <= close start"
check_le "$(counter "$LOG" "$F" H5F_F_CLOSE_START_TIMESTAMP)" \
    "$(counter "$LOG" "$F" H5F_F_CLOSE_END_TIMESTAMP)" "H5F close start <= close end"

# --------------------------------------- /d1: 1-D contiguous, 100 ints --
# write all, read all, flush; reopened: a 20-int hyperslab at 10 read;
# opened a third time with H5Dopen1.  Shapes are right-aligned (as
# Darshan): a 1-D extent is in D5.
expect_counters "$LOG" "$F:/d1" <<END
H5D_OPENS 3
H5D_WRITES 1
H5D_READS 2
H5D_FLUSHES 1
H5D_BYTES_WRITTEN 400
H5D_BYTES_READ 480
H5D_RW_SWITCHES 1
H5D_ALL_SELECTS 2
H5D_REGULAR_HYPERSLAB_SELECTS 1
H5D_IRREGULAR_HYPERSLAB_SELECTS 0
H5D_POINT_SELECTS 0
H5D_COLL_ACCESSES 0
H5D_INDEP_ACCESSES 3
H5D_SIZE_WRITE_AGG_100_1K 1
H5D_SIZE_READ_AGG_0_100 1
H5D_SIZE_READ_AGG_100_1K 1
H5D_MAX_WRITE_TIME_SIZE 400
H5D_ACCESS_TOP_STATE 0
H5D_ACCESS1_ACCESS 400
H5D_ACCESS1_LENGTH_D1 0
H5D_ACCESS1_LENGTH_D4 0
H5D_ACCESS1_LENGTH_D5 100
H5D_ACCESS1_COUNT 2
H5D_ACCESS2_ACCESS 80
H5D_ACCESS2_LENGTH_D1 0
H5D_ACCESS2_LENGTH_D5 20
H5D_ACCESS2_COUNT 1
H5D_ACCESS3_ACCESS 0
H5D_ACCESS3_COUNT 0
H5D_DATASPACE_NDIMS 1
H5D_DATASPACE_NPOINTS 100
H5D_DATASPACE_DIM1 100
H5D_DATASPACE_DIM2 0
H5D_DATATYPE_SIZE 4
H5D_LAYOUT 1
H5D_CHUNK_NDIMS 0
H5D_CHUNK_DIM1 0
H5D_FILTERS 0
H5D_RANKS_OPENED 1
END
case $(counter "$LOG" "$F:/d1" H5D_MAX_READ_TIME_SIZE) in
    400 | 80) pass ;;
    *) fail "H5D_MAX_READ_TIME_SIZE of /d1 is not the size of one of its reads" ;;
esac

# ------------------ /g/d2: 2-D 20 x 30 doubles, chunks 5 x 10, deflate --
# writes: all (4800), a 4 x 6 hyperslab twice (192 each); reads: 3 points
# (24), an irregular hyperslab of 13 points in a 13 x 13 box (104), and
# after reopening through H5Oopen, all (4800).  Equal counts rank the
# larger size first (as Darshan); 2-D extents are in D4 and D5.
expect_counters "$LOG" "$F:/g/d2" <<END
H5D_OPENS 2
H5D_WRITES 3
H5D_READS 3
H5D_FLUSHES 0
H5D_BYTES_WRITTEN 5184
H5D_BYTES_READ 4928
H5D_RW_SWITCHES 1
H5D_ALL_SELECTS 2
H5D_REGULAR_HYPERSLAB_SELECTS 2
H5D_IRREGULAR_HYPERSLAB_SELECTS 1
H5D_POINT_SELECTS 1
H5D_INDEP_ACCESSES 6
H5D_SIZE_WRITE_AGG_100_1K 2
H5D_SIZE_WRITE_AGG_1K_10K 1
H5D_SIZE_READ_AGG_0_100 1
H5D_SIZE_READ_AGG_100_1K 1
H5D_SIZE_READ_AGG_1K_10K 1
H5D_ACCESS_TOP_STATE 0
H5D_ACCESS1_ACCESS 4800
H5D_ACCESS1_LENGTH_D1 0
H5D_ACCESS1_LENGTH_D3 0
H5D_ACCESS1_LENGTH_D4 20
H5D_ACCESS1_LENGTH_D5 30
H5D_ACCESS1_COUNT 2
H5D_ACCESS2_ACCESS 192
H5D_ACCESS2_LENGTH_D4 4
H5D_ACCESS2_LENGTH_D5 6
H5D_ACCESS2_COUNT 2
H5D_ACCESS3_ACCESS 104
H5D_ACCESS3_LENGTH_D3 0
H5D_ACCESS3_LENGTH_D4 13
H5D_ACCESS3_LENGTH_D5 13
H5D_ACCESS3_COUNT 1
H5D_ACCESS4_ACCESS 24
H5D_ACCESS4_LENGTH_D4 20
H5D_ACCESS4_LENGTH_D5 30
H5D_ACCESS4_COUNT 1
H5D_DATASPACE_NDIMS 2
H5D_DATASPACE_NPOINTS 600
H5D_DATASPACE_DIM1 20
H5D_DATASPACE_DIM2 30
H5D_DATASPACE_DIM3 0
H5D_DATATYPE_SIZE 8
H5D_LAYOUT 2
H5D_CHUNK_NDIMS 2
H5D_CHUNK_DIM1 5
H5D_CHUNK_DIM2 10
H5D_CHUNK_DIM3 0
H5D_FILTERS 1
END
d2() { counter "$LOG" "$F:/g/d2" "H5D_F_$1"; }
check_le "$(d2 OPEN_START_TIMESTAMP)" "$(d2 WRITE_START_TIMESTAMP)" "/g/d2 open <= first write"
check_le "$(d2 WRITE_START_TIMESTAMP)" "$(d2 WRITE_END_TIMESTAMP)" "/g/d2 first <= last write"
check_le "$(d2 WRITE_END_TIMESTAMP)" "$(d2 READ_START_TIMESTAMP)" "/g/d2 writes before reads"
check_le "$(d2 READ_START_TIMESTAMP)" "$(d2 READ_END_TIMESTAMP)" "/g/d2 first <= last read"
check_le "$(d2 READ_END_TIMESTAMP)" "$(d2 CLOSE_END_TIMESTAMP)" "/g/d2 last read <= close"
check_le "$(d2 MAX_READ_TIME)" "$(d2 READ_TIME)" "/g/d2 slowest read <= read time"
check_gt "$(d2 MAX_WRITE_TIME)" 0 "H5D_F_MAX_WRITE_TIME of /g/d2"

# ----------------- /c: compact, 10 shorts, H5Dcreate1; the anonymous one --
expect_counters "$LOG" "$F:/c" <<END
H5D_OPENS 1
H5D_WRITES 1
H5D_BYTES_WRITTEN 20
H5D_LAYOUT 0
H5D_DATATYPE_SIZE 2
H5D_DATASPACE_DIM1 10
END
expect_counters "$LOG" "$F:<anonymous>" <<END
H5D_OPENS 1
H5D_WRITES 1
H5D_BYTES_WRITTEN 400
H5D_LAYOUT 1
END

# ------ /l: made anonymous, written, linked (H5Olink), written twice more,
# let go with H5Idec_ref: every write and the one close are /l's, and the
# unlinked anonymous dataset above keeps its own record.
expect_counters "$LOG" "$F:/l" <<END
H5D_OPENS 1
H5D_WRITES 3
H5D_BYTES_WRITTEN 120
H5D_DATASPACE_DIM1 5
H5D_DATATYPE_SIZE 8
H5D_ALL_SELECTS 3
H5D_ACCESS1_ACCESS 40
H5D_ACCESS1_LENGTH_D5 5
H5D_ACCESS1_COUNT 3
H5D_ACCESS2_COUNT 0
END
check_gt "$(counter "$LOG" "$F:/l" H5D_F_CLOSE_END_TIMESTAMP)" 0 "/l closed (H5Idec_ref)"
check_le "$(counter "$LOG" "$F:/l" H5D_F_WRITE_END_TIMESTAMP)" \
    "$(counter "$LOG" "$F:/l" H5D_F_CLOSE_START_TIMESTAMP)" "/l last write <= close"

# Every dataset record names its file's record; nothing else was counted
# (the group opened with H5Oopen, the failed open, read and file open).
file_id=$(record_id "$LOG" H5F "$F")
for d in /d1 /g/d2 /c /l "<anonymous>"; do
    check_eq "$file_id" "$(file_rec_id "$LOG" "$F:$d")" "H5D_FILE_REC_ID of $d"
done
check_eq 5 "$(base_of "$LOG" | awk -F'\t' '$1 == "H5D" { ids[$3] = 1 }
    END { n = 0; for (i in ids) n++; print n }')" "H5D records"
check_eq 1 "$(base_of "$LOG" | awk -F'\t' '$1 == "H5F" { ids[$3] = 1 }
    END { n = 0; for (i in ids) n++; print n }')" "H5F records"
check_eq "<none>" "$(counter "$LOG" "$F:/g" H5D_OPENS)" "a group opened with H5Oopen"
check_eq "<none>" "$(counter "$LOG" "$F:/missing" H5D_OPENS)" "a failed H5Dopen2"
# The POSIX layer underneath still sees the file.
check_gt "$(counter "$LOG" "$F" POSIX_BYTES_WRITTEN)" 5603 "POSIX bytes written under H5D's 5604"

# ------------------------------------------ HDF5's own error reports --
# iolens turns HDF5's error printing off for its questions only: a failed
# call of the program still prints HDF5's error stack, and is not counted.
run_one errors
E=$DATA/errors.h5
check_gt "$(grep -c 'H5Dopen2' "$ERR")" 0 "HDF5's error stack for the failed H5Dopen2"
# The handles closed again print HDF5's error stacks as untraced, and
# nothing of iolens's questions (asking a closed handle's references
# once printed a second stack before the program's own).
mkdir -p "$T/errors_plain"
"$H5_PROG" errors "$T/errors_plain" 2>"$T/errors_plain.err"
check_eq "$(cat "$T/errors_plain.err")" "$(cat "$ERR")" "h5_prog errors: stderr as untraced"
check_gt "$(grep -c 'H5Fclose\|H5Dclose\|H5Oclose\|H5Idec_ref' "$ERR")" 3 \
    "HDF5's error stacks of the closes again"
expect_counters "$LOG" "$E:/e" <<END
H5D_OPENS 1
H5D_WRITES 1
H5D_BYTES_WRITTEN 32
END
check_eq "<none>" "$(counter "$LOG" "$E:/missing" H5D_OPENS)" "the failed H5Dopen2"

# ---------------------------- an anonymous dataset open at the log, forked --
# The parent's log counts its create and write, the forked child's its
# own two writes (not the parent's), both in "<anonymous>".
new_run unclosed
if ! env LD_PRELOAD="$IOLENS_LIB" IOLENS_NONMPI=1 IOLENS_LOGDIR="$RUN/logs" \
    "$H5_PROG" unclosed "$DATA" >"$OUT" 2>"$ERR"; then
    fail "h5_prog unclosed exited with an error: $(cat "$ERR")"
fi
U=$DATA/unclosed.h5
got=$(for log in "$RUN"/logs/*.iolens; do
    "$IOLENS_PARSER" --base "$log" | awk -F'\t' -v f="$U:<anonymous>" '
        $1 == "H5D" && $6 == f { v[$4] = $5 }
        END { print v["H5D_OPENS"] + 0, v["H5D_WRITES"] + 0, v["H5D_BYTES_WRITTEN"] + 0 }'
done | LC_ALL=C sort | tr '\n' ';')
check_eq "0 2 24;1 1 12;" "$got" "<anonymous> opens, writes, bytes of the child; of the parent"

# -------------------- handles HDF5 closed by itself (H5F_CLOSE_STRONG) --
# 1500 datasets written and left open, closed by the file's H5Fclose,
# then each opened and read, left open again: 3000 handles that no call
# iolens wraps closed.  The handle table (2048 slots at the default
# budget) frees the dead handles' slots when it fills, and every read is
# counted (most records fold into <other files>: totals).
run_one strong
check_eq "" "$(cat "$ERR")" "stderr of h5_prog strong"
check_eq 1500 "$(total "$LOG" H5D_WRITES)" "H5D writes of the 1500 datasets"
check_eq 1500 "$(total "$LOG" H5D_READS)" "H5D reads of the 1500 datasets"
check_eq 3000 "$(total "$LOG" H5D_OPENS)" "H5D opens of the 1500 datasets"
check_eq 24000 "$(total "$LOG" H5D_BYTES_READ)" "H5D bytes read of the 1500 datasets"

# A close of a handle with another reference (H5Iinc_ref), as netCDF-4
# makes, only drops one: the handle stays open and its calls count.  /r:
# created and opened (H5Oopen), written 3 times and read twice, 16 bytes
# each, closed once each time (two more closes only dropped references).
# Before, the writes and reads after the first close were not counted.
run_one increfs
F=$DATA/increfs.h5
check_eq "" "$(cat "$ERR")" "stderr of h5_prog increfs"
expect_counters "$LOG" "$F:/r" <<END
H5D_OPENS 2
H5D_WRITES 3
H5D_READS 2
H5D_BYTES_WRITTEN 48
H5D_BYTES_READ 32
H5D_RW_SWITCHES 1
END
expect_counters "$LOG" "$F" <<END
H5F_CREATES 1
H5F_OPENS 1
END
# The file's one close (its first close's start) is its last H5Fclose,
# after the last read; /r's last close ends after it too.
check_le "$(counter "$LOG" "$F:/r" H5D_F_READ_END_TIMESTAMP)" \
    "$(counter "$LOG" "$F" H5F_F_CLOSE_START_TIMESTAMP)" "H5F close after the last read"
check_le "$(counter "$LOG" "$F:/r" H5D_F_READ_END_TIMESTAMP)" \
    "$(counter "$LOG" "$F:/r" H5D_F_CLOSE_END_TIMESTAMP)" "/r closed after its last read"

# Datasets opened through an object reference or by address: HDF5 knows
# no path for them, and iolens does not make it search the file for one;
# they count in <file>:<by reference>.  Opened by index in a group, they
# have their names.  Before, none of these reads was counted.
run_one references
F=$DATA/references.h5
check_eq "" "$(cat "$ERR")" "stderr of h5_prog references"
expect_counters "$LOG" "$F:<by reference>" <<END
H5D_OPENS 4
H5D_READS 4
H5D_BYTES_READ 64
H5D_WRITES 0
END
expect_counters "$LOG" "$F:/g/a" <<END
H5D_OPENS 2
H5D_WRITES 1
H5D_READS 1
H5D_BYTES_READ 16
END
for d in b c; do
    check_eq 1 "$(counter "$LOG" "$F:/g/$d" H5D_READS)" "H5D_READS of /g/$d (by index)"
done
check_eq 7 "$(total "$LOG" H5D_READS | awk '{ print $1 - 1 }')" \
    "H5D reads of the datasets (all but /refs's one)"

# ---------------------------------------------- IOLENS_DISABLE_LAYERS --
run_serial IOLENS_DISABLE_LAYERS=hdf5
F=$DATA/serial.h5
check_eq 0 "$(base_of "$LOG" | awk -F'\t' '$1 == "H5F" || $1 == "H5D"' | wc -l)" \
    "H5F/H5D lines with IOLENS_DISABLE_LAYERS=hdf5"
check_gt "$(counter "$LOG" "$F" POSIX_BYTES_WRITTEN)" 0 "POSIX with the HDF5 layers off"

run_serial IOLENS_DISABLE_LAYERS=h5d
F=$DATA/serial.h5
check_eq 0 "$(base_of "$LOG" | awk -F'\t' '$1 == "H5D"' | wc -l)" "H5D lines with h5d off"
check_eq 1 "$(counter "$LOG" "$F" H5F_CREATES)" "H5F_CREATES with h5d off"
check_eq 2 "$(counter "$LOG" "$F" H5F_OPENS)" "H5F_OPENS with h5d off"

run_serial IOLENS_DISABLE_LAYERS=h5f
F=$DATA/serial.h5
check_eq 0 "$(base_of "$LOG" | awk -F'\t' '$1 == "H5F"' | wc -l)" "H5F lines with h5f off"
check_eq 3 "$(counter "$LOG" "$F:/d1" H5D_OPENS)" "H5D_OPENS of /d1 with h5f off"

# ------------------------------------------- libhdf5.a (static linking) --
# Debian's h5pcc links libhdf5.a by default: its HDF5 calls are resolved
# inside the program and cannot be interposed.  The program must still run
# cleanly, with its POSIX I/O traced and no HDF5 record.
# (Compiled in $T: h5pcc leaves its h5_prog.o in the current directory.)
if command -v h5pcc >/dev/null 2>&1 &&
    (cd "$T" && h5pcc -Wall -Wextra -Werror "$IOLENS_SRCDIR/tests/hdf5/h5_prog.c" \
        -o "$T/h5_static") >"$T/cc-static.out" 2>&1 && ! ldd "$T/h5_static" | grep -q libhdf5; then
    H5_PROG=$T/h5_static
    run_serial
    F=$DATA/serial.h5
    check_eq 0 "$(base_of "$LOG" | awk -F'\t' '$1 == "H5F" || $1 == "H5D"' | wc -l)" \
        "H5F/H5D lines of a program linked with libhdf5.a"
    check_gt "$(counter "$LOG" "$F" POSIX_BYTES_WRITTEN)" 5603 \
        "POSIX bytes of a program linked with libhdf5.a"
fi

finish
