#!/bin/sh
# Parked records are invisible in the log.  tar archives a tree of 300
# files of known sizes twice over (tar cf A tree tree: every file is
# stat'ed and opened twice, the second time after its record was parked,
# and read the first time; the second time tar stores a hard link to the
# first copy), then once more removing each file after archiving it
# (tar --remove-files: a third open and read, and an unlink, of records
# parked again meanwhile).  At a 256K budget, where 300 live POSIX records alone would take more than the
# budget (arithmetic below), nothing may fold; every counter but the times
# (and the sizes of the slowest calls, which follow the times) must be
# what a 64M budget, where nothing is parked, gives, and the opens, reads
# and bytes of each file what strace saw.
. "$(dirname "$0")/common.sh"
iolens_setup
command -v strace >/dev/null 2>&1 || { echo "SKIP: no strace"; exit 77; }
command -v tar >/dev/null 2>&1 || { echo "SKIP: no tar"; exit 77; }
strace -f -qq -y -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here"; exit 77; }

tree=$T/tree
files=300
bytes=$(awk 'BEGIN { for (k = 0; k < 300; k++) t += k * 53 % 3000 + 1; print t }')
# File k of 300 holds (k * 53) % 3000 + 1 bytes (tar opens no empty file).
make_tree() {
    rm -rf "$tree" && mkdir "$tree" "$tree/a" "$tree/b" "$tree/c" || fail "cannot make $tree"
    (cd "$tree" && awk 'BEGIN { s = ""; for (i = 0; i < 3000; i++) s = s "z"
        for (k = 0; k < 300; k++) { p = substr("abc", k % 3 + 1, 1) "/f" k
            printf "%s", substr(s, 1, k * 53 % 3000 + 1) > p; close(p) } }')
    check_eq "$bytes" "$(find "$tree" -type f -exec cat {} + | wc -c)" "bytes made"
}

# The rows of the tree's POSIX records in the logs of directory $1 (one
# log per process), as FILE COUNTER VALUE, summed over the logs.
rows_of() {
    for log in "$1"/*.iolens; do
        base_of "$log"
    done | awk -F'\t' -v r="$tree/" '$1 == "POSIX" && index($6, r) == 1 && $6 ~ /\/f[0-9]+$/ {
        s[$6 " " $4] += $5 } END { for (k in s) print k, s[k] }'
}

# The counters of the tree's files, times and the slowest calls' sizes
# left out, one line per file and counter, sorted.
counts_of() {
    rows_of "$1" | awk '$2 !~ /^POSIX_F_/ && $2 !~ /_TIME_SIZE$/' | sort
}

# The largest of a header line over the logs of directory $1.
header_max() {
    for log in "$1"/*.iolens; do
        header "$log" "$2"
    done | sort -n | tail -n 1
}

run_workload() { # BUDGET LOG
    make_tree
    (cd "$T" && strace -f -qq -y -o "$T/strace-$1.txt" -E IOLENS_NONMPI=1 \
        -E IOLENS_EXCLUDE=/ -E IOLENS_INCLUDE="$T" -E IOLENS_MEMORY="$1" \
        -E IOLENS_LOGDIR="$2" -E LD_PRELOAD="$IOLENS_LIB" \
        sh -c 'tar cf "$1/out.tar" tree tree && tar cf "$1/out2.tar" --remove-files tree' sh "$T") ||
        fail "tar at $1 exited with status $?"
    check_eq 3 "$(find "$2" -type f -name '*.iolens' | wc -l)" "logs of sh and the two tars at $1"
    for log in "$2"/*.iolens; do
        require_log "$log"
    done
}

mkdir "$T/big" "$T/small"
run_workload 64M "$T/big"
run_workload 256K "$T/small"

# 300 live POSIX records of 896 bytes (the size test_files_per_budget
# checks) would not fit in 256K: the run kept them apart by parking.
check_gt $((files * 896)) 262144 "300 live POSIX records against the 256K budget"
for b in big small; do
    check_eq 0 "$(header_max "$T/$b" "folded opens")" "folded opens at $b"
    check_eq 0 "$(header_max "$T/$b" "folded files")" "folded files at $b"
done
check_eq "$files" "$(rows_of "$T/small" | awk '$2 == "POSIX_OPENS" && $3 == 3 { n++ } END { print n + 0 }')" \
    "files opened three times with a record of their own at 256K"
check_eq "$files" "$(rows_of "$T/small" | awk '$2 == "POSIX_UNLINKS" && $3 == 1 { n++ } END { print n + 0 }')" \
    "files unlinked once, counted in their own record at 256K"
counts_of "$T/big" >"$T/big.txt"
counts_of "$T/small" >"$T/small.txt"
check_gt "$(wc -l <"$T/big.txt")" $((files * 40)) "counter lines of the tree's files"
if ! cmp -s "$T/big.txt" "$T/small.txt"; then
    diff "$T/big.txt" "$T/small.txt" | head -20
    fail "counters at 256K (parked) differ from those at 64M"
fi

# strace's view of each file of the tree: opens, reads and bytes read,
# against iolens's at 256K.
strace_io_by_path "$T/strace-256K.txt" "$tree/" | awk '$1 ~ /\/f[0-9]+$/' | sort >"$T/strace.txt"
rows_of "$T/small" | awk '{ if ($2 == "POSIX_OPENS") o[$1] = $3; if ($2 == "POSIX_READS") n[$1] = $3
        if ($2 == "POSIX_BYTES_READ") b[$1] = $3 }
    END { for (p in o) printf "%s %d %d %d\n", p, o[p], n[p], b[p] }' | sort >"$T/iolens.txt"
check_eq "$files" "$(wc -l <"$T/strace.txt")" "files strace saw opened"
if ! cmp -s "$T/strace.txt" "$T/iolens.txt"; then
    diff "$T/strace.txt" "$T/iolens.txt" | head -20
    fail "opens, reads and bytes per file: strace vs. iolens at 256K"
fi
check_eq "$((2 * bytes))" "$(awk '{ t += $4 } END { print t }' "$T/iolens.txt")" \
    "bytes read: the tree's, twice"
finish
