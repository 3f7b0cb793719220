#!/bin/sh
# iolens-parser --total and --base read a log region by region
# (util/reader/reader_stream.c); IOLENS_PARSER_WHOLE_LOG=1 makes them read it whole
# (util/reader/reader.c), as every other mode does.  Both must print the same
# bytes and exit with the same status, on good multi-rank logs and on bad
# ones (one line on stderr, nothing on stdout, exit status 2).
. "$(dirname "$0")/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to edit logs"; exit 77; }
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL
MAKELOG=$IOLENS_TESTBIN/../bench/make_big_log

# Both readers on LOG in MODE: the same stdout, stderr and status.
same_both() {
    mode=$1
    log=$2
    "$IOLENS_PARSER" "$mode" "$log" >"$T/s.out" 2>"$T/s.err"
    s=$?
    IOLENS_PARSER_WHOLE_LOG=1 "$IOLENS_PARSER" "$mode" "$log" >"$T/w.out" 2>"$T/w.err"
    w=$?
    check_eq "$w" "$s" "exit status of $mode on $(basename "$log")"
    if cmp -s "$T/s.out" "$T/w.out"; then pass; else fail "stdout of $mode on $(basename "$log") differs"; fi
    if cmp -s "$T/s.err" "$T/w.err"; then pass; else fail "stderr of $mode on $(basename "$log") differs"; fi
}

# A log both readers read in both modes with status 0, whose --base
# output names N POSIX records: same_both_named LOG N WHAT.
same_both_named() {
    for mode in --total --base; do
        same_both "$mode" "$1"
        check_eq 0 "$s" "exit status of $mode $3"
    done
    check_eq "$2" "$(awk -F'\t' '$4 == "POSIX_OPENS" && $6 != "-"' "$T/s.out" | wc -l)" \
        "records named $3"
}

# A rejected log: in both modes exit 2, nothing on stdout, the one line
# "iolens-parser: LOG: REASON", and the same as the whole-log reader's.
expect_rejected() {
    log=$1
    reason=$2
    for mode in --total --base; do
        same_both "$mode" "$log"
        check_eq 2 "$s" "exit status of $mode on $(basename "$log")"
        check_eq 0 "$(wc -c <"$T/s.out")" "stdout bytes of $mode on $(basename "$log")"
        check_eq "iolens-parser: $log: $reason" "$(cat "$T/s.err")" \
            "message of $mode on $(basename "$log")"
    done
}

# --- good logs: the fixture's variants and multi-rank synthetic logs ----
n=0
for opts in "" "--hdf5 --intervals --intervals-extra --stdio-twin --odd-names" \
    "--markup-names --forked"; do
    n=$((n + 1))
    # shellcheck disable=SC2086  # the options are words
    IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" $opts "$T/fixture$n.iolens" ||
        fail "make_test_log $opts failed"
    for mode in --total --base; do
        same_both "$mode" "$T/fixture$n.iolens"
        check_eq 0 "$s" "exit status of $mode on fixture $n"
    done
done
# Records not a multiple of the ranks; many ranks.
"$MAKELOG" "$T/big7.iolens" 3001 7 || fail "make_big_log 7 ranks failed"
"$MAKELOG" "$T/big64.iolens" 6400 64 || fail "make_big_log 64 ranks failed"
for log in "$T/big7.iolens" "$T/big64.iolens"; do
    for mode in --total --base; do
        same_both "$mode" "$log"
        check_eq 0 "$s" "exit status of $mode on $(basename "$log")"
    done
done
# Exact values of the streamed totals (3001 records of 16 + i % 64 writes
# of 4096 + (i % 7) * 512 bytes).
"$IOLENS_PARSER" --total "$T/big7.iolens" >"$T/total"
check_eq "total_POSIX_OPENS: 3001" "$(grep '^total_POSIX_OPENS:' "$T/total")" "opens"
check_eq "total_POSIX_WRITES: $(awk 'BEGIN { for (i = 0; i < 3001; i++) s += 16 + i % 64; print s }')" \
    "$(grep '^total_POSIX_WRITES:' "$T/total")" "writes"
check_eq "total_POSIX_BYTES_WRITTEN: $(awk 'BEGIN { for (i = 0; i < 3001; i++) s += (16 + i % 64) * (4096 + (i % 7) * 512); print s }')" \
    "$(grep '^total_POSIX_BYTES_WRITTEN:' "$T/total")" "bytes written"
# The access-size table over every record (7 sizes, each record's writes
# of one size; the totals add the records' tuples block by block of rows
# and region by region): the 4 with the most writes, and "more exist".
awk 'BEGIN { for (i = 0; i < 3001; i++) c[4096 + (i % 7) * 512] += 16 + i % 64
             for (s in c) print c[s], s }' | sort -nr | head -n 4 >"$T/sizes"
k=0
while read -r count size; do
    k=$((k + 1))
    check_eq "total_POSIX_ACCESS${k}_ACCESS: $size" \
        "$(grep "^total_POSIX_ACCESS${k}_ACCESS:" "$T/total")" "access size $k"
    check_eq "total_POSIX_ACCESS${k}_COUNT: $count" \
        "$(grep "^total_POSIX_ACCESS${k}_COUNT:" "$T/total")" "access count $k"
done <"$T/sizes"
check_eq 4 "$k" "access sizes computed"
check_eq "total_POSIX_ACCESS_TOP_STATE: 1" "$(grep '^total_POSIX_ACCESS_TOP_STATE:' "$T/total")" \
    "access table: exact, more sizes exist"
# A pipe (not a file pread can read): read whole, same output.
for mode in --total --base; do
    cat "$T/big7.iolens" | "$IOLENS_PARSER" "$mode" /dev/stdin >"$T/pipe.out" 2>&1
    check_eq 0 "$?" "exit status of $mode on a pipe"
    "$IOLENS_PARSER" "$mode" "$T/big7.iolens" >"$T/file.out"
    if cmp -s "$T/pipe.out" "$T/file.out"; then pass; else fail "$mode on a pipe differs"; fi
done
# Several logs, one after the other (a header each, a blank line between).
"$IOLENS_PARSER" --base "$T/big7.iolens" "$T/fixture1.iolens" >"$T/s.out"
IOLENS_PARSER_WHOLE_LOG=1 "$IOLENS_PARSER" --base "$T/big7.iolens" "$T/fixture1.iolens" >"$T/w.out"
if cmp -s "$T/s.out" "$T/w.out"; then pass; else fail "--base of two logs differs"; fi

# --- bad logs -----------------------------------------------------------
# edit.py LOG OUT ACTION: a copy of LOG edited through its region table
# (header 40 bytes, then 40-byte entries: kind, version, offset, stored,
# raw, crc, compression), the header CRC made right again.
cat >"$T/edit.py" <<'EOF'
import struct, sys, zlib
src, dst, action = sys.argv[1], sys.argv[2], sys.argv[3]
data = bytearray(open(src, 'rb').read())
count = struct.unpack_from('<I', data, 28)[0]
def desc(i):
    return list(struct.unpack_from('<IIQQQII', data, 40 + 40 * i))
def put(i, d):
    struct.pack_into('<IIQQQII', data, 40 + 40 * i, *d)
kinds = [desc(i)[0] for i in range(count)]
layer = [i for i in range(count) if kinds[i] == 16]   # POSIX
names = [i for i in range(count) if kinds[i] == 3]
def region_raw(i):
    d = desc(i)
    return i, bytearray(zlib.decompress(bytes(data[d[2]:d[2] + d[3]])))
def repack(i, raw):          # region i's content replaced by raw, at the end
    global data
    d = desc(i)
    packed = zlib.compress(bytes(raw))
    d[2], d[3], d[4], d[5] = len(data), len(packed), len(raw), zlib.crc32(packed)
    data += packed
    put(i, d)
if action == 'crc':          # a byte of the second POSIX region flipped
    d = desc(layer[1])
    data[d[2] + d[3] // 2] ^= 1
    print(layer[1])
elif action == 'nonames':    # the last names region made an unknown kind
    d = desc(names[-1]); d[0] = 99; put(names[-1], d)
elif action == 'rotate':     # each rank's names region swapped for the next rank's
    ds = [desc(i) for i in names]
    for j, i in enumerate(names):
        put(i, ds[(j + 1) % len(names)])
elif action == 'twice':      # the last POSIX region is the first names region again
    put(layer[-1], desc(names[0]))
elif action == 'rank':       # record 1 of the second POSIX region has rank 5000
    i, raw = region_raw(layer[1])
    cc, fc, n = struct.unpack_from('<IIQ', raw, 0)
    ranks = 16 + 2 + cc + fc + 8 * n  # after the head, the column codes and the id planes
    for b in range(8):
        raw[ranks + b * n + 1] = (5000 >> (8 * b)) & 255
    repack(i, raw)
# Errors found while a region is decoded, as pairs EDIT INDEX (the index
# among the POSIX regions): 'fill' claims one record more than the region
# holds, 'counts' drops its last fcounter column.  Prints the message the
# first one in the log gives.
else:
    said = []
    edits = sys.argv[3:]
    for what, k in sorted(zip(edits[::2], map(int, edits[1::2])), key=lambda e: e[1]):
        i, raw = region_raw(layer[k])
        cc, fc, n = struct.unpack_from('<IIQ', raw, 0)
        codes = 2 + cc + fc          # a code byte per column after the head
        # 8 bytes a record for each column stored: all but those of code 4
        # (zero), which take none
        stored = sum(1 for k in range(codes) if raw[16 + k] != 4)
        if what == 'fill':
            struct.pack_into('<Q', raw, 8, n + 1)
            said.append('corrupt POSIX region: %d records of %d bytes do not fill %d bytes'
                        % (n + 1, 8 * stored, len(raw) - 16 - codes))
        else:
            struct.pack_into('<I', raw, 4, fc - 1)
            if raw[16 + codes - 1] != 4:
                del raw[len(raw) - 8 * n:]
            del raw[16 + codes - 1]
            said.append('corrupt POSIX region: %d+%d counters where an earlier one has %d+%d'
                        % (cc, fc - 1, cc, fc))
        repack(i, raw)
    print(said[0])
h = bytearray(data[:40]); struct.pack_into('<I', h, 32, 0)
crc = zlib.crc32(bytes(data[40:40 + 40 * count]), zlib.crc32(bytes(h)))
struct.pack_into('<I', data, 32, crc)
open(dst, 'wb').write(data)
EOF
big=$T/big7.iolens
size=$(wc -c <"$big")

head -c $((size - 1)) "$big" >"$T/truncated"
expect_rejected "$T/truncated" \
    "truncated: region 14 (POSIX) ends past the end of the file ($((size - 1)) bytes)"
head -c $((size / 2)) "$big" >"$T/half"
same_both --total "$T/half"
check_eq 2 "$s" "exit status on half a log"

region=$(python3 "$T/edit.py" "$big" "$T/crc" crc)
expect_rejected "$T/crc" "CRC mismatch in region $region (POSIX)"

python3 "$T/edit.py" "$big" "$T/twice" twice
expect_rejected "$T/twice" \
    "corrupt names region: id $(python3 -c '
print(min(0x9e3779b97f4a7c15 * (i + 1) % 2**64 for i in range(3001 // 7)))') named twice"

python3 "$T/edit.py" "$big" "$T/rank" rank
expect_rejected "$T/rank" "corrupt POSIX region: record $((3001 / 7 + 1)) has rank 5000 of 7"

# Errors met while the layer regions are decoded, which the streaming
# reader does ahead on a second thread (util/reader/reader_prefetch.c, two slots
# taken in turn): reported in table order, the first one only, with the
# whole-log reader's message.  The second POSIX region is the first the
# other slot decodes, so only the reader's own check of the counter counts
# can see its change; the third is decoded in the slot of the first.
for edit in "fill 3" "fill 6" "counts 1" "counts 2" "counts 1 fill 4" "fill 2 counts 5" \
    "fill 5 fill 6" "counts 6"; do
    # shellcheck disable=SC2086  # the edit is words
    said=$(python3 "$T/edit.py" "$big" "$T/decode" $edit)
    expect_rejected "$T/decode" "$said"
done

# Regions of 4500 records, read two ways.  Ordinary regions: inflated and
# checked ahead on the second thread, their records decoded on this one
# 1024 at a time.  Huge regions (IOLENS_PARSER_CHUNK_ABOVE lowered from
# 32 MiB to 1 MB so that a small log has them, 4 MB a region): checked
# whole, then decoded 4096 records at a time, on one thread.  Both: the
# same output and the same errors as the whole-log reader (a rank out of
# range in the second region, its record counted from the first; damage
# met while decoding).
"$MAKELOG" "$T/big2.iolens" 9000 2 || fail "make_big_log 2 ranks failed"
for chunk_above in "" 1000000; do
    how="regions of several chunks"
    if [ -n "$chunk_above" ]; then
        how="huge regions"
        IOLENS_PARSER_CHUNK_ABOVE=$chunk_above
        export IOLENS_PARSER_CHUNK_ABOVE
    fi
    same_both_named "$T/big2.iolens" 9000 "on $how"
    python3 "$T/edit.py" "$T/big2.iolens" "$T/rank2" rank
    expect_rejected "$T/rank2" "corrupt POSIX region: record 4501 has rank 5000 of 2"
    for edit in "fill 1" "counts 1"; do
        # shellcheck disable=SC2086  # the edit is words
        said=$(python3 "$T/edit.py" "$T/big2.iolens" "$T/decode2" $edit)
        expect_rejected "$T/decode2" "$said"
    done
    unset IOLENS_PARSER_CHUNK_ABOVE
done

# Every rank's records named by a names region that is not the one just
# before them: the names come from the id index of the whole log (sorted
# at the open) and must be the same as the whole-log reader's.
python3 "$T/edit.py" "$T/big64.iolens" "$T/rotated" rotate
same_both_named "$T/rotated" 6400 "with the names regions rotated"

# The names of the last rank gone (its region skipped as an unknown kind):
# not an error for the whole-log reader (the records print "-" for their
# name), nor here.
python3 "$T/edit.py" "$big" "$T/nonames" nonames
for mode in --total --base; do
    same_both "$mode" "$T/nonames"
    check_eq 0 "$s" "exit status of $mode without the last names region"
done
check_eq 1 "$(grep -c '^# unknown regions skipped: 1$' "$T/s.out")" "names region skipped"
check_eq "$((3001 - 3001 * 6 / 7))" \
    "$(awk -F'\t' '$4 == "POSIX_OPENS" && $6 == "-"' "$T/s.out" | wc -l)" "records without a name"

finish
