#!/bin/sh
# remove and renameat2.  glibc's remove unlinks inside the library, where
# no wrapper sees it, and coreutils' mv renames with renameat2: before
# they were wrapped, neither counted.  See prog_remove.c for the calls.
. "$(dirname "$0")/common.sh"
iolens_setup

mkdir "$T/d" || fail "cannot make a directory"
log=$T/x.iolens
run_traced "$log" "$PROGS/prog_remove" "$T/d" || fail "prog_remove exited with status $?"
require_log "$log"
# A file removed counts as its unlink; a directory removed (rmdir, as
# unlinkat's AT_REMOVEDIR) and a failed remove count nothing; so does the
# renameat2 that EEXIST refused.
expect_counters "$log" "$T/d/a" <<END
POSIX_OPENS 1
POSIX_UNLINKS 1
END
check_eq "<none>" "$(counter "$log" "$T/d/sub" POSIX_UNLINKS)" "POSIX_UNLINKS of $T/d/sub"
check_eq "<none>" "$(counter "$log" "$T/d/missing" POSIX_UNLINKS)" "POSIX_UNLINKS of $T/d/missing"
expect_counters "$log" "$T/d/b" <<END
POSIX_RENAME_SOURCES 1
POSIX_RENAME_TARGETS 0
END
expect_counters "$log" "$T/d/c" <<END
POSIX_RENAME_TARGETS 0
END
expect_counters "$log" "$T/d/d" <<END
POSIX_RENAME_TARGETS 1
END
check_eq 1 "$(total "$log" POSIX_UNLINKS)" "total_POSIX_UNLINKS"

# A real program: mv renames with renameat2 (coreutils 9).  Oracle:
# strace, the successful rename calls of any form.
echo data >"$T/d/from"
run_traced "$T/mv.iolens" mv "$T/d/from" "$T/d/to" || fail "mv exited with status $?"
require_log "$T/mv.iolens"
expect_counters "$T/mv.iolens" "$T/d/from" <<END
POSIX_RENAME_SOURCES 1
END
expect_counters "$T/mv.iolens" "$T/d/to" <<END
POSIX_RENAME_TARGETS 1
END
if command -v strace >/dev/null 2>&1; then
    strace -f -qq -e trace=rename,renameat,renameat2 -o "$T/mv.strace" mv "$T/d/to" "$T/d/back" ||
        fail "mv under strace exited with status $?"
    check_eq 1 "$(grep -c ') = 0$' "$T/mv.strace")" "renames strace shows for mv"
fi
finish
