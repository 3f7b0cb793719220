#!/bin/sh
# Darshan's counter meanings and exact top-4 tables: the IOR -z access
# order (16 transfers of 64 KiB in a shuffled order within each 1 MiB
# block, written with lseek + write, read back with pread), traced by
# iolens and by strace in the same run.  From strace's calls alone this
# script works out, by Darshan's rules, the consecutive and sequential
# counts, the highest bytes, and the exact histograms of access sizes and
# strides; iolens's POSIX counters must equal them, top four included, and
# say they are exact.  Then more distinct sizes than iolens keeps: the
# tables say they estimate, in the record, in --total and in --patterns.
. "$(dirname "$0")/common.sh"
iolens_setup
if ! command -v strace >/dev/null 2>&1; then
    echo "SKIP: strace is needed"
    exit 77
fi

data=$T/data
log=$T/x.iolens
# strace sets the runtime's environment for the program only.
traced_strace() {
    strace -f -y -s 0 -e trace=pread64,pwrite64,lseek,read,write -o "$T/strace" \
        -E IOLENS_NONMPI=1 -E IOLENS_LOGFILE="$log" -E LD_PRELOAD="$IOLENS_LIB" "$@"
}
if ! traced_strace "$PROGS/prog_ior_shuffle" "$data" 15 4 2>"$T/err"; then
    if grep -q 'PTRACE\|ptrace' "$T/err"; then
        echo "SKIP: strace cannot trace here"
        exit 77
    fi
    fail "prog_ior_shuffle under strace exited with status $?"
fi
require_log "$log"

# Darshan's rules on strace's calls of the data file (see iolens-log(5)):
# per kind, the last byte of the previous access, 0 at the start.  Prints
# "counter value" lines, "size count value" and "stride count value".
awk -v path="$data" '
    index($0, "(" ) == 0 || index($0, "<" path ">") == 0 { next }
    {
        line = $0
        sub(/^[0-9]+ +/, "", line)
        call = line
        sub(/\(.*/, "", call)
        ret = line
        sub(/.*\) += /, "", ret)
        if (ret !~ /^[0-9]+$/) next
        ret += 0
        args = line
        sub(/^[a-z0-9]+\(/, "", args)
        sub(/\) += [^)]*$/, "", args)
        n = split(args, a, ", ")
        if (call == "lseek") { pos = ret; next }
        if (call == "write" || call == "read") { start = pos; size = ret; pos += ret }
        else if (call == "pwrite64" || call == "pread64") { start = a[n] + 0; size = ret }
        else next
        k = call ~ /write/ ? "WRITES" : "READS"
        last = lastbyte[k] + 0
        consec[k] += start == last + 1
        seq[k] += start > last
        # a stride of 0 (consecutive) is not counted, as Darshan
        if (start > 0 && start > last && last != 0 && start - last - 1 > 0)
            strides[start - last - 1]++
        lastbyte[k] = start + size - 1
        if (size > 0) {
            sizes[size]++
            if (start + size - 1 > maxb[k]) maxb[k] = start + size - 1
        }
        ops[k]++
    }
    END {
        print "POSIX_WRITES", ops["WRITES"] + 0
        print "POSIX_READS", ops["READS"] + 0
        print "POSIX_CONSEC_WRITES", consec["WRITES"] + 0
        print "POSIX_CONSEC_READS", consec["READS"] + 0
        print "POSIX_SEQ_WRITES", seq["WRITES"] + 0
        print "POSIX_SEQ_READS", seq["READS"] + 0
        print "POSIX_MAX_BYTE_WRITTEN", maxb["WRITES"] + 0
        print "POSIX_MAX_BYTE_READ", maxb["READS"] + 0
        for (v in sizes) print "size", sizes[v], v
        for (v in strides) print "stride", strides[v], v
    }' "$T/strace" >"$T/truth"

grep '^POSIX_' "$T/truth" >"$T/expected"
# The top four of a histogram: by count, then by the larger value (as
# Darshan orders them); unused entries 0.  $1: size or stride, $2: the
# counter names' stem.
top4() {
    grep "^$1 " "$T/truth" | sort -k2,2nr -k3,3nr | head -n 4 |
        awk -v stem="$2" -v kind="$1" '
            { n++; v[n] = $3; c[n] = $2 }
            END {
                for (i = 1; i <= 4; i++) {
                    print "POSIX_" stem i "_" (kind == "size" ? "ACCESS" : "STRIDE"), v[i] + 0
                    print "POSIX_" stem i "_COUNT", c[i] + 0
                }
            }'
}
top4 size ACCESS >>"$T/expected"
top4 stride STRIDE >>"$T/expected"
# 0: every value listed, 1: more values exist (iolens keeps 32).
state_of() {
    n=$(grep -c "^$1 " "$T/truth")
    if [ "$n" -le 4 ]; then echo 0; else echo 1; fi
}
echo "POSIX_ACCESS_TOP_STATE $(state_of size)" >>"$T/expected"
echo "POSIX_STRIDE_TOP_STATE $(state_of stride)" >>"$T/expected"

# The premise: 64 writes and 64 reads, and more distinct strides than the
# old 8-value table held (it inflated and dropped counts then).
check_eq "POSIX_WRITES 64" "$(grep '^POSIX_WRITES ' "$T/truth")" "writes seen by strace"
check_eq "POSIX_READS 64" "$(grep '^POSIX_READS ' "$T/truth")" "reads seen by strace"
check_gt "$(grep -c '^stride ' "$T/truth")" 8 "distinct strides seen by strace"
expect_counters "$log" "$data" <"$T/expected"
check_eq "exact" "$("$IOLENS_PARSER" --patterns "$log" | awk -F'\t' '$2 == "access_size_counts" { print $3 }')" \
    "--patterns access_size_counts"

# More distinct sizes than iolens keeps: 31 sizes + 4096 (32 values) are
# still exact; 32 + 4096 (33) are estimates, and say so everywhere.
log32=$T/sizes32.iolens
run_traced "$log32" "$PROGS/prog_ior_shuffle" "$T/s32" 1 sizes 31 || fail "sizes 31 exited with status $?"
require_log "$log32"
expect_counters "$log32" "$T/s32" <<END
POSIX_ACCESS_TOP_STATE 1
POSIX_ACCESS1_ACCESS 4096
POSIX_ACCESS1_COUNT 50
POSIX_ACCESS2_ACCESS 130
POSIX_ACCESS2_COUNT 1
END
log33=$T/sizes33.iolens
run_traced "$log33" "$PROGS/prog_ior_shuffle" "$T/s33" 1 sizes 32 || fail "sizes 32 exited with status $?"
require_log "$log33"
expect_counters "$log33" "$T/s33" <<END
POSIX_ACCESS_TOP_STATE 2
POSIX_ACCESS1_ACCESS 4096
END
check_eq 2 "$(total "$log33" POSIX_ACCESS_TOP_STATE)" "total_POSIX_ACCESS_TOP_STATE of an estimate"
check_eq "estimate" "$("$IOLENS_PARSER" --patterns "$log33" | awk -F'\t' '$2 == "access_size_counts" { print $3 }')" \
    "--patterns access_size_counts of an estimate"
finish
