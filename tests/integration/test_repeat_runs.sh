#!/bin/sh
# Runs of repeated reads and writes, and everything that ends one (another
# descriptor, a dup, reading after writing, a reopen, another size or
# alignment, a seek): every POSIX counter of each file against what the
# program says it did, by the counters' documented rules
# (repeat_runs_oracle.py), so that counting a repeat in a run never
# changes a count.
. "$(dirname "$0")/common.sh"
iolens_setup
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 is not installed"
    exit 77
fi

log=$T/r.iolens
mkdir "$T/d"
run_traced "$log" "$PROGS/prog_repeat_runs" "$T/d" >"$T/trace" ||
    fail "prog_repeat_runs exited with status $?"
require_log "$log"
if python3 "$IOLENS_SRCDIR/tests/integration/repeat_runs_oracle.py" "$T/trace" "$log.base" "$T/d" \
    >"$T/oracle" 2>&1; then
    pass
else
    fail "counters differ from the program's accesses: $(cat "$T/oracle")"
fi
check_eq 14 "$(grep -c '^open ' "$T/trace")" "opens the program made"
finish
