#!/bin/sh
# The shared-file reduction at MPI_Finalize, at 1, 2, 4 and 8 ranks, with
# every sharing class in one job (job_prog.c, mode "sharing"): file per
# process, one file shared by all ranks with strided blocks, files shared
# by pairs of ranks, rank-0-only I/O, and stdout written by every rank.
# Every byte and operation count is exact; the job leaves exactly one log.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup

# Rank of a record as the parser shows it: -1 for a file reduced over
# more than one rank, else the rank itself.
shared_rank() {
    if [ "$1" -gt 1 ]; then echo -1; else echo 0; fi
}

# The rank column of FILE's first record.
rank_of() {
    base_of "$LOG" | awk -F'\t' -v f="$1" '$6 == f { print $2; exit }'
}

for n in 1 2 4 8; do
    run_job $n sharing
    what="at $n ranks"

    # ------------------------------------------------ file per process --
    r=0
    while [ $r -lt $n ]; do
        f=$DATA/fpp.$r
        check_eq 1 "$(records_of "$LOG" "$f" POSIX)" "POSIX records of fpp.$r $what"
        check_eq "$r" "$(rank_of "$f")" "rank of fpp.$r $what"
        expect_counters "$LOG" "$f" <<END
POSIX_OPENS 1
POSIX_WRITES $((r + 1))
POSIX_BYTES_WRITTEN $(((r + 1) * 1000))
POSIX_MAX_BYTE_WRITTEN $(((r + 1) * 1000 - 1))
POSIX_RANKS_OPENED 1
POSIX_RANKS_IO 1
POSIX_FASTEST_RANK $r
POSIX_SLOWEST_RANK $r
POSIX_FASTEST_RANK_BYTES $(((r + 1) * 1000))
POSIX_F_VARIANCE_RANK_TIME 0.000000
POSIX_F_VARIANCE_RANK_BYTES 0.000000
END
        r=$((r + 1))
    done

    # ------------------------------- one file, strided blocks, all ranks --
    f=$DATA/strided
    check_eq 1 "$(records_of "$LOG" "$f" POSIX)" "one POSIX record of strided $what"
    check_eq "$(shared_rank $n)" "$(rank_of "$f")" "rank of the strided record $what"
    expect_counters "$LOG" "$f" <<END
POSIX_OPENS $n
POSIX_WRITES $((4 * n))
POSIX_BYTES_WRITTEN $((16384 * n))
POSIX_MAX_BYTE_WRITTEN $((16384 * n - 1))
POSIX_SIZE_WRITE_1K_10K $((4 * n))
POSIX_ACCESS1_ACCESS 4096
POSIX_ACCESS1_COUNT $((4 * n))
POSIX_ACCESS2_COUNT 0
POSIX_STRIDE1_STRIDE $((4096 * (n - 1)))
POSIX_STRIDE1_COUNT $(( n > 1 ? 3 * n : 0 ))
POSIX_STRIDE2_COUNT 0
POSIX_RANKS_OPENED $n
POSIX_RANKS_IO $n
POSIX_FASTEST_RANK_BYTES 16384
POSIX_SLOWEST_RANK_BYTES 16384
POSIX_F_VARIANCE_RANK_BYTES 0.000000
END
    fast=$(counter "$LOG" "$f" POSIX_FASTEST_RANK)
    slow=$(counter "$LOG" "$f" POSIX_SLOWEST_RANK)
    check_le 0 "$fast" "fastest rank of strided $what"
    check_le "$fast" $((n - 1)) "fastest rank of strided $what is a rank"
    check_le "$slow" $((n - 1)) "slowest rank of strided $what is a rank"
    check_le "$(counter "$LOG" "$f" POSIX_F_FASTEST_RANK_TIME)" \
        "$(counter "$LOG" "$f" POSIX_F_SLOWEST_RANK_TIME)" \
        "fastest <= slowest time of strided $what"

    # ------------------------------------------ files shared by pairs --
    p=0
    while [ $((2 * p)) -lt $n ]; do
        f=$DATA/pair.$p
        check_eq 1 "$(records_of "$LOG" "$f" POSIX)" "one POSIX record of pair.$p $what"
        if [ $n -gt 1 ]; then
            expect_counters "$LOG" "$f" <<END
POSIX_OPENS 2
POSIX_WRITES 2
POSIX_BYTES_WRITTEN $(((4 * p + 3) * 1000))
POSIX_MAX_BYTE_WRITTEN $((100000 + (2 * p + 2) * 1000 - 1))
POSIX_RANKS_OPENED 2
POSIX_RANKS_IO 2
POSIX_F_VARIANCE_RANK_BYTES 250000.000000
END
            case "$(counter "$LOG" "$f" POSIX_SLOWEST_RANK)" in
                $((2 * p)) | $((2 * p + 1))) pass ;;
                *) fail "the slowest rank of pair.$p $what is not one of its two ranks" ;;
            esac
        else
            expect_counters "$LOG" "$f" <<END
POSIX_OPENS 1
POSIX_BYTES_WRITTEN 1000
POSIX_RANKS_OPENED 1
END
        fi
        p=$((p + 1))
    done
    shared=$(base_of "$LOG" | awk -F'\t' -v d="$DATA/" '
        $1 == "POSIX" && $2 == -1 && index($6, d) == 1 { ids[$3] = 1 }
        END { n = 0; for (i in ids) n++; print n }')
    if [ $n -gt 1 ]; then
        check_eq $((1 + n / 2)) "$shared" "reduced POSIX records $what"
    else
        check_eq 0 "$shared" "reduced POSIX records $what"
    fi

    # -------------------------------------------------- rank 0 alone --
    f=$DATA/only0
    check_eq 1 "$(records_of "$LOG" "$f" POSIX)" "one POSIX record of only0 $what"
    check_eq 0 "$(rank_of "$f")" "rank of only0 $what"
    expect_counters "$LOG" "$f" <<END
POSIX_OPENS 1
POSIX_WRITES 4
POSIX_BYTES_WRITTEN 2048
POSIX_RANKS_OPENED 1
POSIX_FASTEST_RANK 0
END

    # --------------------------------------------- stdout, every rank --
    check_eq 1 "$(records_of "$LOG" "<STDOUT>" STDIO)" "one STDIO record of <STDOUT> $what"
    expect_counters "$LOG" "<STDOUT>" <<END
STDIO_WRITES $n
STDIO_BYTES_WRITTEN $((2 * n))
STDIO_RANKS_IO $n
END

    # ------------------------------------------- totals over the data --
    bytes=$(base_of "$LOG" | awk -F'\t' -v d="$DATA/" '
        $1 == "POSIX" && $4 == "POSIX_BYTES_WRITTEN" && index($6, d) == 1 { s += $5 }
        END { print s + 0 }')
    check_eq $((500 * n * (n + 1) + 16384 * n + 500 * n * (n + 1) + 2048)) "$bytes" \
        "POSIX bytes written to the data files $what"

    # ------------------------------------------------- the job record --
    check_eq "$n" "$(header "$LOG" nprocs)" "nprocs $what"
    check_eq 1 "$(header "$LOG" nnodes)" "nnodes $what"
    check_eq "$(hostname)" "$(dumped_str 4)" "host list $what"
    # What MPI_Get_library_version says, per MPI.
    case "$(mpi_flavour):$(dumped_str 6)" in
        mpich:MPICH\ Version:*) pass ;;
        openmpi:Open\ MPI\ v*) pass ;;
        *) fail "MPI library version $what: '$(dumped_str 6)'" ;;
    esac
    check_le "$(dumped_str 6 | wc -c)" 257 "MPI library version is at most 256 characters $what"
    check_eq "$n" "$(grep -c '^rank' "$DUMP")" "ranks region entries $what"
    # Per rank: names, POSIX, STDIO, MPIIO, intervals and call sites.
    check_eq $((3 + 6 * n)) "$(region_count "$LOG")" "regions in the log $what"

    # ------------------------------------- intervals and clock offsets --
    # One intervals region per rank, each with the clock offset to rank 0
    # measured at MPI_Init.  All ranks run on this one node and share its
    # clock, so every offset is 0 within its uncertainty (half the best
    # ping-pong round trip), give or take 10 us for reading the realtime
    # and monotonic clocks at each process start, which the log's time
    # axis is built on.  Every POSIX read and write (none fails here) is
    # one access interval.
    "$IOLENS_PARSER" --bps "$LOG" >"$T/bps" 2>&1 || fail "iolens-parser --bps $what"
    check_eq "$n" "$(grep -c '^# bps rank [0-9]*: clock offset' "$T/bps")" "clock offsets $what"
    check_eq "0.000000000 0.000000000" \
        "$(awk '$1 == "#" && $3 == "rank" && $4 == "0:" { print $7, $9 }' "$T/bps")" \
        "rank 0's clock offset and uncertainty $what"
    check_eq 0 "$(awk '$1 == "#" && $3 == "rank" && $6 == "offset" {
            o = $7 < 0 ? -$7 : $7
            if ($9 < 0 || o > $9 + 1e-5) bad++ }
        END { print bad + 0 }' "$T/bps")" "clock offsets within their uncertainty $what"
    check_eq $(($(total "$LOG" POSIX_READS) + $(total "$LOG" POSIX_WRITES))) \
        "$(awk '$1 == "POSIX" && $2 == "*" && $3 == "accesses" { print $4 }' "$T/bps")" \
        "POSIX access intervals $what"
    # Every rank's MPI_Init after the job start, its MPI_Finalize after
    # that, and the last MPI_Finalize is the job's end.
    start=$(dumped_job start)
    awk -F'\t' -v s="$start" -v e="$(dumped_job end)" '
        $1 == "rank" { if ($3 != 0 || $4 < s || $5 < $4 || $5 > e + 1e-6) bad++
                       if ($5 > last) last = $5 }
        END { exit !(bad == 0 && last > e - 1e-6) }' "$DUMP" ||
        fail "rank start/end times do not fit the job's $what"
    # Timestamps are seconds since the job start, on one time axis for all
    # ranks: rank r's file was written between its MPI_Init and its
    # MPI_Finalize (absolute times in the ranks region).
    awk -F'\t' -v s="$start" -v d="$DATA/" '
        $1 == "rank" { init[$2] = $4; fin[$2] = $5 }
        $1 == "rec" && $2 == "POSIX" && index($4, d "fpp.") == 1 {
            r = substr($4, length(d) + 5)
            if ($5 == "POSIX_F_OPEN_START_TIMESTAMP") open[r] = $6
            if ($5 == "POSIX_F_CLOSE_END_TIMESTAMP") close_[r] = $6 }
        END { for (r in init)
                  if (!(r in open) || s + open[r] < init[r] - 1e-3 ||
                      s + close_[r] > fin[r] + 1e-3)
                      bad++
              exit bad != 0 }' "$DUMP" ||
        fail "file-per-process times are not between their rank's MPI_Init and MPI_Finalize $what"
    check_le "$(counter "$LOG" "$DATA/strided" POSIX_F_CLOSE_END_TIMESTAMP)" \
        "$(dumped_job run_time)" "strided closed within the run $what"
    # No temporary file left behind (the parser's outputs are LOG.*).
    check_eq 0 "$(count_in "$LOGDIR" '*.tmp-*')" "temporary files left $what"
    case $(basename "$LOG") in
        *_job_prog_*.iolens) pass ;;
        *) fail "log name $(basename "$LOG") $what" ;;
    esac
done

# --------------------------------- a rank's part in several regions --
# 9000 files a rank and 10 shared ones: each rank writes its names and
# POSIX records as regions of at most 8192 (lib/log/log_regions.h): 8192 and
# the rest, 9000 plus the shared records it reduced (their writer is
# picked by their id), 18010 - 2 * 8192 for both.  A region's record
# count is in its head (log_format.h); its size says nothing of it, since
# columns of zeros take no bytes.
run_job 2 files 9000 IOLENS_MEMORY=64M
what="(2 ranks, 9000 files each)"
region_sizes "$LOG" 16 >"$RUN/posix"
if command -v python3 >/dev/null; then
    check_eq "8192 8192 1626" "$(python3 - "$LOG" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
count = struct.unpack_from('<I', data, 28)[0]
n = []
for i in range(count):
    kind, version, off, stored = struct.unpack_from('<IIQQ', data, 40 + 40 * i)
    if kind == 16:
        n.append(struct.unpack_from('<Q', zlib.decompress(data[off:off + stored]), 8)[0])
print(n[0], n[2], n[1] + n[3])
PY
)" "records in the POSIX regions, in table order $what"
fi
check_eq 4 "$(wc -l <"$RUN/posix" | tr -d ' ')" "POSIX regions $what"
check_eq 4 "$(region_sizes "$LOG" 3 | wc -l | tr -d ' ')" "names regions $what"
# Per rank 2 names, 2 POSIX, 1 STDIO, 1 MPIIO, 1 intervals and 1 call-site
# region.
check_eq $((3 + 2 * 8)) "$(region_count "$LOG")" "regions in the log $what"
# The job-wide regions (JOB 1, MOUNTS 2, RANKS 4) head the table, then
# rank 0's part (names 3, POSIX 16 ..., intervals 5, call sites 6), then
# rank 1's.
check_eq "1 2 4 3 3 16 16 17 18 5 6 3 3 16 16 17 18 5 6" \
    "$(od -An -v -t u4 -j 40 -N $((19 * 40)) -w40 "$LOG" | awk '{ printf "%s%s", sep, $1; sep = " " }')" \
    "region kinds in table order $what"
check_eq 18010 "$(base_of "$LOG" | awk -F'\t' -v d="$DATA/" '$1 == "POSIX" &&
    $4 == "POSIX_OPENS" && index($6, d) == 1 { f[$6] = 1 } END { n = 0; for (k in f) n++; print n }')" \
    "files with a POSIX record $what"
check_eq 2 "$(counter "$LOG" "$DATA/s.9" POSIX_OPENS)" "POSIX_OPENS of shared s.9 $what"
check_eq $((18020 * 64)) "$(total "$LOG" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN $what"
check_eq 18020 "$(total "$LOG" POSIX_OPENS)" "total_POSIX_OPENS $what"

# The records name their files by place in their rank's names block
# (log_format.h); a record that names the entry of the one before it again
# is damage: one line, exit status 2, in every mode, streaming or not.
if command -v python3 >/dev/null; then
    said=$(python3 - "$LOG" "$RUN/twice.iolens" <<'PY'
import struct, sys, zlib
data = bytearray(open(sys.argv[1], 'rb').read())
count = struct.unpack_from('<I', data, 28)[0]
desc = lambda i: list(struct.unpack_from('<IIQQQII', data, 40 + 40 * i))
i = [k for k in range(count) if desc(k)[0] == 16][0]    # rank 0's first POSIX region
d = desc(i)
raw = bytearray(zlib.decompress(bytes(data[d[2]:d[2] + d[3]])))
cc, fc, n = struct.unpack_from('<IIQ', raw, 0)
ids = 16 + 2 + cc + fc                                  # the head, a code byte a column
assert raw[16] == 3                                     # IOLENS_COL_NAME_PLACE
place = sum(raw[ids + b * n] << (8 * b) for b in range(8))
for b in range(8):
    raw[ids + b * n + 1] = raw[ids + b * n]             # record 1 := record 0's place
packed = zlib.compress(bytes(raw))
d[2], d[3], d[4], d[5] = len(data), len(packed), len(raw), zlib.crc32(packed)
data += packed
struct.pack_into('<IIQQQII', data, 40 + 40 * i, *d)
h = bytearray(data[:40]); struct.pack_into('<I', h, 32, 0)
struct.pack_into('<I', data, 32, zlib.crc32(bytes(data[40:40 + 40 * count]), zlib.crc32(bytes(h))))
open(sys.argv[2], 'wb').write(data)
print('corrupt POSIX region: record 1 names entry %d after entry %d' % (place, place))
PY
)
    for mode in --base --total --file; do
        "$IOLENS_PARSER" $mode "$RUN/twice.iolens" >"$RUN/out" 2>"$RUN/err"
        check_eq 2 "$?" "exit status of $mode on a repeated place"
        check_eq 0 "$(wc -c <"$RUN/out" | tr -d ' ')" "stdout bytes of $mode on a repeated place"
        check_eq "iolens-parser: $RUN/twice.iolens: $said" "$(cat "$RUN/err")" \
            "the line of $mode on a repeated place"
    done
fi
finish
