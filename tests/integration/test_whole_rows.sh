#!/bin/sh
# A file's STDIO or POSIX row has all of its streams' or descriptors'
# calls or is absent, at every budget, and the totals stay exact
# (prog_whole_rows.c).
#
# Before: a file whose streams came back while the stream table was full
# kept a row of its first stream's calls only (1 open and 1 write of 2,
# mawk closing and reopening 3,000 outputs showed it on 20 rows at 2M),
# and a stream fdopen'd on a descriptor whose file had no room for a
# STDIO record was counted nowhere (2 of 3,000 fdopens lost at 2M).
. "$(dirname "$0")/common.sh"
iolens_setup

# Rows of LAYER (STDIO by default) under DIR/PREFIX whose OPENS, WRITES
# or BYTES_WRITTEN differ from the ones given.
short_rows() {
    base_of "$1" | awk -F'\t' -v d="$2/$3" -v o="$4" -v w="$5" -v b="$6" -v l="${7:-STDIO}" '
        $1 == l && index($6, d) == 1 &&
        (($4 == l "_OPENS" && $5 != o) || ($4 == l "_WRITES" && $5 != w) ||
         ($4 == l "_BYTES_WRITTEN" && $5 != b)) { bad[$6] = 1 }
        END { n = 0; for (f in bad) n++; print n }'
}

# Rows of LAYER (STDIO by default) of files under DIR/PREFIX.
rows() {
    base_of "$1" | awk -F'\t' -v d="$2/$3" -v l="${4:-STDIO}" '
        $1 == l && $4 == l "_OPENS" && index($6, d) == 1 { n++ } END { print n + 0 }'
}

# STDIO_OPENS + POSIX_OPENS of <other files>: what the header's folded
# opens must be.
other_opens() {
    base_of "$1" | awk -F'\t' '$6 == "<other files>" &&
        ($4 == "STDIO_OPENS" || $4 == "POSIX_OPENS") { n += $5 } END { print n + 0 }'
}

files_of_size() {
    find "$1" -name "$2*" -size "$3"c | wc -l
}

# reopen N HOLD in BUDGET: N files written twice (the second time with
# the table full), 5 files with a second stream while the first is still
# open, HOLD files holding the table.
for spec in 64K:100:40 256K:300:150; do
    budget=${spec%%:*}
    rest=${spec#*:}
    n=${rest%:*}
    hold=${rest#*:}
    dir=$T/reopen$budget
    log=$T/reopen$budget.iolens
    mkdir "$dir" || fail "cannot make $dir"
    run_traced "$log" env IOLENS_MEMORY=$budget "$PROGS/prog_whole_rows" reopen "$dir" "$n" "$hold" ||
        fail "prog_whole_rows reopen in $budget exited with status $?"
    check_eq "$n" "$(files_of_size "$dir" a 20)" "files a* of 20 bytes, $budget"
    check_eq 5 "$(files_of_size "$dir" p 30)" "files p* of 30 bytes, $budget"
    check_eq "$hold" "$(files_of_size "$dir" h 10)" "files h* of 10 bytes, $budget"
    require_log "$log"
    opens=$((2 * n + 10 + hold))
    writes=$((2 * n + 15 + hold))
    check_eq $opens "$(total "$log" STDIO_OPENS)" "total_STDIO_OPENS, reopen in $budget"
    check_eq $writes "$(total "$log" STDIO_WRITES)" "total_STDIO_WRITES, reopen in $budget"
    check_eq $((10 * writes)) "$(total "$log" STDIO_BYTES_WRITTEN)" \
        "total_STDIO_BYTES_WRITTEN, reopen in $budget"
    check_eq 0 "$(short_rows "$log" "$dir" a 2 2 20)" "short STDIO rows of a* files, $budget"
    check_eq 0 "$(short_rows "$log" "$dir" p 2 3 30)" "short STDIO rows of p* files, $budget"
    check_eq 0 "$(short_rows "$log" "$dir" h 1 1 10)" "short STDIO rows of h* files, $budget"
    # At 64K the a* and p* files all came back when no table had room:
    # folded whole.  At 256K a second and third table keep them apart.
    kept=$n
    [ "$budget" = 64K ] && kept=0
    check_eq "$kept" "$(rows "$log" "$dir" a)" "STDIO rows of a* files, $budget"
    check_eq $((kept > 0 ? 5 : 0)) "$(rows "$log" "$dir" p)" "STDIO rows of p* files, $budget"
    check_eq "$(counter "$log" "<other files>" STDIO_OPENS)" "$(header "$log" "folded opens")" \
        "folded opens vs. STDIO_OPENS of <other files>, reopen in $budget"
done
check_gt "$(rows "$log" "$dir" h)" 50 "STDIO rows of h* files, 256K"

# fdopen N in BUDGET: 1 open, 1 write, 10 bytes a file, STDIO and POSIX
# rows alike.
for spec in 256K:1000 2M:3000; do
    budget=${spec%:*}
    n=${spec#*:}
    dir=$T/fdopen$budget
    log=$T/fdopen$budget.iolens
    mkdir "$dir" || fail "cannot make $dir"
    run_traced "$log" env IOLENS_MEMORY=$budget "$PROGS/prog_whole_rows" fdopen "$dir" "$n" ||
        fail "prog_whole_rows fdopen in $budget exited with status $?"
    check_eq "$n" "$(files_of_size "$dir" d 10)" "files d* of 10 bytes, $budget"
    require_log "$log"
    for c in OPENS WRITES; do
        check_eq "$n" "$(total "$log" STDIO_$c)" "total_STDIO_$c, fdopen in $budget"
    done
    check_eq $((10 * n)) "$(total "$log" STDIO_BYTES_WRITTEN)" \
        "total_STDIO_BYTES_WRITTEN, fdopen in $budget"
    check_eq "$n" "$(total "$log" POSIX_OPENS)" "total_POSIX_OPENS, fdopen in $budget"
    check_eq 0 "$(short_rows "$log" "$dir" d 1 1 10)" "short STDIO rows, fdopen in $budget"
    check_gt "$(rows "$log" "$dir" d)" $((n / 4)) "STDIO rows of d* files, fdopen in $budget"
    check_eq "$(other_opens "$log")" "$(header "$log" "folded opens")" \
        "folded opens vs. opens of <other files>, fdopen in $budget"
done
# refdopen N in BUDGET, as sort does with its temporary files: each file
# written through a stream fdopen'd on its open(2), then read through
# another.  When the POSIX layer counted the second descriptor in <other
# files>, the second stream went there too and the file's STDIO row kept
# the first stream's calls only (1 row of 61 at 64K; sort -T at 64K: 55
# rows of 58).
for spec in 64K:100 256K:1000; do
    budget=${spec%:*}
    n=${spec#*:}
    dir=$T/refdopen$budget
    log=$T/refdopen$budget.iolens
    mkdir "$dir" || fail "cannot make $dir"
    run_traced "$log" env IOLENS_MEMORY=$budget "$PROGS/prog_whole_rows" refdopen "$dir" "$n" ||
        fail "prog_whole_rows refdopen in $budget exited with status $?"
    check_eq "$n" "$(files_of_size "$dir" e 10)" "files e* of 10 bytes, $budget"
    require_log "$log"
    check_eq $((2 * n)) "$(total "$log" STDIO_OPENS)" "total_STDIO_OPENS, refdopen in $budget"
    check_eq $((10 * n)) "$(total "$log" STDIO_BYTES_WRITTEN)" \
        "total_STDIO_BYTES_WRITTEN, refdopen in $budget"
    check_eq $((10 * n)) "$(total "$log" STDIO_BYTES_READ)" "total_STDIO_BYTES_READ, refdopen in $budget"
    check_eq 0 "$(short_rows "$log" "$dir" e 2 1 10)" "short STDIO rows, refdopen in $budget"
    check_eq 0 "$(base_of "$log" | awk -F'\t' -v d="$dir/e" '$1 == "STDIO" && index($6, d) == 1 &&
        $4 == "STDIO_BYTES_READ" && $5 != 10 { n++ } END { print n + 0 }')" \
        "STDIO rows without their 10 bytes read, refdopen in $budget"
    check_gt "$(rows "$log" "$dir" e)" 50 "STDIO rows of e* files, refdopen in $budget"
    check_eq "$(other_opens "$log")" "$(header "$log" "folded opens")" \
        "folded opens vs. opens of <other files>, refdopen in $budget"
done

# descriptors HOLD in BUDGET: the POSIX layer.  A q* file comes back
# once its descriptor can get no state and is folded whole at its close;
# a p* file gets such a descriptor while another one of it is still open
# at exit, which was short before (1 open and 2 writes of 2 and 3).
for spec in 64K:300 256K:3000; do
    budget=${spec%:*}
    hold=${spec#*:}
    dir=$T/fds$budget
    log=$T/fds$budget.iolens
    mkdir "$dir" || fail "cannot make $dir"
    run_traced "$log" env IOLENS_MEMORY=$budget "$PROGS/prog_whole_rows" descriptors "$dir" "$hold" ||
        fail "prog_whole_rows descriptors in $budget exited with status $?"
    check_eq 5 "$(files_of_size "$dir" q 20)" "files q* of 20 bytes, $budget"
    check_eq 5 "$(files_of_size "$dir" p 30)" "files p* of 30 bytes, $budget"
    check_eq "$hold" "$(files_of_size "$dir" h 10)" "files h* of 10 bytes, $budget"
    require_log "$log"
    check_eq $((20 + hold)) "$(total "$log" POSIX_OPENS)" "total_POSIX_OPENS, $budget"
    check_eq $((25 + hold)) "$(total "$log" POSIX_WRITES)" "total_POSIX_WRITES, $budget"
    check_eq $((250 + 10 * hold)) "$(total "$log" POSIX_BYTES_WRITTEN)" \
        "total_POSIX_BYTES_WRITTEN, $budget"
    check_eq 0 "$(short_rows "$log" "$dir" q 2 2 20 POSIX)" "short POSIX rows of q* files, $budget"
    check_eq 0 "$(short_rows "$log" "$dir" p 2 3 30 POSIX)" "short POSIX rows of p* files, $budget"
    check_eq 0 "$(short_rows "$log" "$dir" h 1 1 10 POSIX)" "short POSIX rows of h* files, $budget"
    check_eq 0 "$(rows "$log" "$dir" p POSIX)" "POSIX rows of p* files, $budget"
    check_gt "$(rows "$log" "$dir" h POSIX)" 10 "POSIX rows of h* files, $budget"
    check_eq "$(counter "$log" "<other files>" POSIX_OPENS)" "$(header "$log" "folded opens")" \
        "folded opens vs. POSIX_OPENS of <other files>, $budget"
done

# The same at 64K, with an exec that fails (ENOEXEC) in between, then 10
# more bytes through each p* file's first descriptor.  The runtime writes
# the log before the exec, folding the p* files whole, and throws that
# log away when the exec fails: the descriptors must count where their
# records went.  Before they moved there, their 5 writes were lost.
dir=$T/exec
log=$T/exec.iolens
mkdir "$dir" || fail "cannot make $dir"
run_traced "$log" env IOLENS_MEMORY=64K "$PROGS/prog_whole_rows" descriptors "$dir" 300 exec ||
    fail "prog_whole_rows descriptors ... exec exited with status $?"
check_eq 5 "$(files_of_size "$dir" p 40)" "files p* of 40 bytes, after the failed exec"
require_log "$log"
check_eq 321 "$(total "$log" POSIX_OPENS)" "total_POSIX_OPENS, after the failed exec"
check_eq 331 "$(total "$log" POSIX_WRITES)" "total_POSIX_WRITES, after the failed exec"
check_eq 3304 "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN, after the failed exec"
check_eq 0 "$(rows "$log" "$dir" p POSIX)" "POSIX rows of p* files, after the failed exec"
check_eq "$(counter "$log" "<other files>" POSIX_OPENS)" "$(header "$log" "folded opens")" \
    "folded opens vs. POSIX_OPENS of <other files>, after the failed exec"
finish
