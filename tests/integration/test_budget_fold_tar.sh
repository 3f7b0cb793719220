#!/bin/sh
# Folding keeps totals exact, checked against strace.
# tar archives a tree of 10,180 small files of known sizes under budgets
# that fold most of them (the default 2M, 256K and 64K); in the same run
# strace -f -y sees every system call.  iolens traces only the tree
# (IOLENS_EXCLUDE=/, IOLENS_INCLUDE=tree), so the opens, reads, bytes read
# and stats strace shows on paths in the tree must equal iolens's totals.
# Then "memory needed" fed back as IOLENS_MEMORY must fold nothing.
. "$(dirname "$0")/common.sh"
iolens_setup
command -v strace >/dev/null 2>&1 || { echo "SKIP: no strace"; exit 77; }
command -v tar >/dev/null 2>&1 || { echo "SKIP: no tar"; exit 77; }
strace -f -qq -y -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here"; exit 77; }
# Only counts are compared, no times: it runs beside other tests.

tree=$T/tree
ndirs=100
per_dir=101
# File k (0 <= k < 10100) holds (k * 37) % 1000 bytes.
mkdir "$tree" || fail "cannot make $tree"
d=0
while [ $d -lt $ndirs ]; do
    mkdir "$tree/d$d"
    d=$((d + 1))
done
(cd "$T" && awk -v nd=$ndirs -v pd=$per_dir 'BEGIN {
    s = ""; for (k = 0; k < 1000; k++) s = s "x"
    for (d = 0; d < nd; d++) for (f = 0; f < pd; f++) {
        p = "tree/d" d "/f" f; printf "%s", substr(s, 1, (d * pd + f) * 37 % 1000) > p; close(p) } }')
# And a chain of 40 nested directories, two files of 123 bytes in each:
# tar holds a descriptor per level open at once, on numbers not used
# before, which the full budget has no descriptor state for.
depth=40
p=$tree/deep
l=0
while [ $l -lt $depth ]; do
    mkdir -p "$p" && printf '%123s' x >"$p/g1" && printf '%123s' y >"$p/g2"
    p=$p/l$l
    l=$((l + 1))
done
files=$((ndirs * per_dir + 2 * depth))
tree_bytes=$(awk -v n=$((ndirs * per_dir)) -v g=$((2 * depth * 123)) \
    'BEGIN { for (k = 0; k < n; k++) t += k * 37 % 1000; print t + g }')
check_eq "$files" "$(find "$tree" -type f | wc -l)" "files made"
check_eq "$tree_bytes" "$(find "$tree" -type f -exec cat {} + | wc -c)" "bytes made"

# iolens's totals over the traced files (the standard streams left out):
# opens, reads, bytes read, stats.
iolens_totals() {
    base_of "$1" | awk -F'\t' '$1 == "POSIX" && $6 !~ /^<STD/ { s[$4] += $5 }
        END { printf "%d %d %d %d\n", s["POSIX_OPENS"], s["POSIX_READS"],
              s["POSIX_BYTES_READ"], s["POSIX_STATS"] }'
}

# POSIX records of paths in the tree.
own_records() {
    base_of "$1" | awk -F'\t' -v r="$tree" '$1 == "POSIX" && $4 == "POSIX_STATS" &&
        ($6 == r || index($6, r "/") == 1) { n++ } END { print n + 0 }'
}

# Distinct paths tar touches in the tree: the files, the directories and
# the tree itself.
paths=$((files + ndirs + 1 + depth))

for budget in default 256K 64K; do
    log=$T/tar-$budget.iolens
    mem=
    [ "$budget" = default ] || mem="-E IOLENS_MEMORY=$budget"
    # shellcheck disable=SC2086
    (cd "$T" && strace -f -qq -y -o "$T/strace-$budget.txt" -E IOLENS_NONMPI=1 \
        -E IOLENS_EXCLUDE=/ -E IOLENS_INCLUDE="$tree" -E IOLENS_LOGFILE="$log" $mem \
        -E LD_PRELOAD="$IOLENS_LIB" tar cf "$T/out.tar" tree) ||
        fail "tar under strace at $budget exited with status $?"
    require_log "$log"
    oracle=$(awk -v root="$tree" -f "$(dirname "$0")/strace_totals.awk" "$T/strace-$budget.txt")
    got=$(iolens_totals "$log")
    echo "budget $budget: strace (opens reads bytes stats) $oracle, iolens $got," \
        "folded files $(header "$log" "folded files"), memory needed $(header "$log" "memory needed")"
    check_eq "$oracle" "$got" "opens reads bytes stats at $budget: strace vs. iolens"
    check_eq "$tree_bytes" "$(echo "$got" | cut -d' ' -f3)" "bytes read at $budget vs. the tree's size"
    check_gt "$(header "$log" "folded opens")" 0 "opens folded at $budget"
    # Folded files: every distinct path without a record of its own,
    # opened or only stat'ed; a HyperLogLog estimate, allowed 4 standard
    # errors (1.6% at 64K and above).
    own=$(own_records "$log")
    folded=$(header "$log" "folded files")
    check_le "$(awk -v f="$folded" -v e=$((paths - own)) 'BEGIN { d = f - e; if (d < 0) d = -d; print d / e }')" \
        0.065 "folded files at $budget ($folded) vs. paths without a record ($((paths - own)))"
done

# "memory needed" is a budget that folds nothing: fed back, the same
# archive keeps every path apart, with the same totals.
needed=$(header "$T/tar-64K.iolens" "memory needed")
log=$T/tar-needed.iolens
(cd "$T" && env IOLENS_NONMPI=1 IOLENS_EXCLUDE=/ IOLENS_INCLUDE="$tree" IOLENS_LOGFILE="$log" \
    IOLENS_MEMORY="$needed" LD_PRELOAD="$IOLENS_LIB" tar cf "$T/out.tar" tree) ||
    fail "tar at the needed budget $needed exited with status $?"
require_log "$log"
check_eq 0 "$(header "$log" "folded opens")" "folded opens at the needed budget $needed"
check_eq 0 "$(header "$log" "folded files")" "folded files at the needed budget $needed"
check_eq "$(iolens_totals "$T/tar-64K.iolens")" "$(iolens_totals "$log")" "totals at $needed vs. at 64K"
check_eq "$paths" "$(own_records "$log")" "paths with a record of their own at $needed"
check_le "$(header "$log" "memory used")" "$needed" "memory used within $needed"
finish
