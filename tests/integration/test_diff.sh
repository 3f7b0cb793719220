#!/bin/sh
# iolens-diff: exact per-layer deltas between two make_test_log fixtures
# and between two traced runs of prog_advice (1 MiB in 1-byte writes
# against one 1 MiB write), the pattern and sharing change lines,
# --fail-if-slower both ways (and at its boundary), and the error paths.
. "$(dirname "$0")/common.sh"
iolens_setup
DIFF=$(dirname "$IOLENS_PARSER")/iolens-diff
MAKE_LOG=$IOLENS_TESTBIN/integration/make_test_log
[ -x "$DIFF" ] || { fail "$DIFF does not exist"; finish; }

# Each expected line must be in the output, exactly.
expect_lines() {
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        if grep -Fxq -- "$line" "$1"; then pass; else fail "$2: no line '$line'"; fi
    done
}

tab=$(printf '\t')
# Rows are written with '|' for the tabs.
rows() { tr '|' "$tab"; }

# --- fixtures ---------------------------------------------------------
if ! "$MAKE_LOG" "$T/a.iolens" || ! "$MAKE_LOG" --hdf5 --intervals --stdio-twin "$T/b.iolens"; then
    fail "make_test_log"
    finish
fi
"$DIFF" "$T/a.iolens" "$T/b.iolens" >"$T/ab" 2>"$T/err"
check_eq 0 "$?" "diff a b: exit status"
check_eq "" "$(cat "$T/err")" "diff a b: stderr"
# (expect_lines reads a file, not a pipe: a pipeline's subshell would lose
# its pass and fail counts.)
rows <<END >"$T/ab.expected"
# iolens-diff: B compared with A
# A: $T/a.iolens
# A nprocs: 4 nnodes: 2 run_time: 3.500000
# layer|metric|A|B|delta|delta_pct
job|compute_nodes|2|4|+2|+100.00%
job|bytes_read|10550|14198|+3648|+34.58%
job|writes|1002|1010|+8|+0.80%
job|union_mib_s|nan|2.161158|nan|nan
POSIX|bytes_read|10250|13898|+3648|+35.59%
POSIX|bytes_written|4089032|4093128|+4096|+0.10%
POSIX|time_meta|0.072500|0.135000|+0.062500|+86.21%
POSIX|bps|nan|3342.222222|nan|nan
STDIO|bytes_written|0|50|+50|n/a
STDIO|bytes_read|300|300|+0|+0.00%
H5D|records|0|3|+3|n/a
H5D|bytes_written|0|3200|+3200|n/a
H5F|opens|0|2|+2|n/a
sharing|job|rank-0|rank-0
only_in_B|H5D|-1|/scratch/run/field.h5:/grid/temp
only_in_B|POSIX|-1|/scratch/run/field.h5
only_in_B|STDIO|0|/scratch/run/out.dat
END
expect_lines "$T/ab" "diff a b" <"$T/ab.expected"
check_eq 15 "$(grep -c "^POSIX$tab" "$T/ab")" "POSIX rows"
check_eq 0 "$(grep -c '^only_in_A' "$T/ab")" "only_in_A lines"

# A log against itself: every delta zero, nothing changed.
"$DIFF" --fail-if-slower 0 "$T/a.iolens" "$T/a.iolens" >"$T/aa"
check_eq 0 "$?" "diff a a --fail-if-slower 0"
check_eq "" "$(awk -F'\t' '$1 !~ /^#/ && NF == 6 && $6 != "+0.00%" && $6 != "nan"' "$T/aa")" \
    "diff a a: non-zero deltas"
check_eq "sharing${tab}job${tab}rank-0${tab}rank-0" "$(awk '$1 !~ /^#/ && NF != 6' "$T/aa")" \
    "diff a a: change lines"

# --fail-if-slower at its boundary: B -> A lowers agg MiB/s by 0.19%
# (2.003631 to 1.999829) with the same slowest time.
"$DIFF" --fail-if-slower 0.18 "$T/b.iolens" "$T/a.iolens" >"$T/ba"
check_eq 1 "$?" "diff b a --fail-if-slower 0.18"
check_eq "# fail-if-slower 0.18: slowest_time +0.00%, agg_mib_s -0.19%: B is slower" \
    "$(tail -1 "$T/ba")" "verdict at 0.18"
"$DIFF" --fail-if-slower 0.19 "$T/b.iolens" "$T/a.iolens" >"$T/ba"
check_eq 0 "$?" "diff b a --fail-if-slower 0.19"
check_eq "# fail-if-slower 0.19: slowest_time +0.00%, agg_mib_s -0.19%: B is not slower" \
    "$(tail -1 "$T/ba")" "verdict at 0.19"

# --- two traced runs ----------------------------------------------------
mkdir -p "$T/run"
run_traced "$T/w1.iolens" "$PROGS/prog_advice" write1 "$T/run" || fail "prog_advice write1"
run_traced "$T/w1m.iolens" "$PROGS/prog_advice" write1m "$T/run" || fail "prog_advice write1m"
"$DIFF" "$T/w1m.iolens" "$T/w1.iolens" >"$T/w" 2>"$T/err"
check_eq 0 "$?" "diff w1m w1: exit status"
rows <<END >"$T/w.expected"
POSIX|records|1|1|+0|+0.00%
POSIX|bytes_written|1048576|1048576|+0|+0.00%
POSIX|writes|1|1048576|+1048575|+104857500.00%
POSIX|opens|1|1|+0|+0.00%
POSIX|reads|0|0|+0|+0.00%
sharing|job|N:N|N:N
pattern|POSIX|0|consecutive(size=1048576)|consecutive(size=1)|$T/run/diff.dat
END
expect_lines "$T/w" "diff w1m w1" <"$T/w.expected"
# 1-byte writes are slower: any sane threshold fails them, and the
# reverse comparison passes.
"$DIFF" --fail-if-slower 50 "$T/w1m.iolens" "$T/w1.iolens" >"$T/w"
check_eq 1 "$?" "1-byte writes slower by more than 50%"
tail -1 "$T/w" | grep -q '^# fail-if-slower 50: slowest_time +[0-9.]*%, agg_mib_s -[0-9.]*%: B is slower$' ||
    fail "verdict line: $(tail -1 "$T/w")"
"$DIFF" --fail-if-slower 50 "$T/w1.iolens" "$T/w1m.iolens" >"$T/w"
check_eq 0 "$?" "1 MiB writes are not slower"

# --- errors -------------------------------------------------------------
printf 'not a log' >"$T/garbage"
head -c 100 "$T/a.iolens" >"$T/short"
bad() {
    status=$1
    shift
    "$DIFF" "$@" >"$T/out" 2>"$T/err"
    check_eq "$status" "$?" "iolens-diff $*: exit status"
    check_eq "$expect" "$(head -1 "$T/err")" "iolens-diff $*: message"
}
expect="iolens-diff: $T/nosuch: No such file or directory"
bad 2 "$T/a.iolens" "$T/nosuch"
expect="iolens-diff: $T/garbage: $("$IOLENS_PARSER" "$T/garbage" 2>&1 >/dev/null | sed 's/^iolens-parser: [^:]*: //')"
bad 2 "$T/garbage" "$T/a.iolens"
expect="iolens-diff: $T/short: $("$IOLENS_PARSER" "$T/short" 2>&1 >/dev/null | sed 's/^iolens-parser: [^:]*: //')"
bad 2 "$T/a.iolens" "$T/short"
expect="iolens-diff: expected two LOG arguments, A and B"
bad 1 "$T/a.iolens"
bad 1 "$T/a.iolens" "$T/a.iolens" "$T/a.iolens"
expect="iolens-diff: --fail-if-slower wants a percentage >= 0, not 'ten'"
bad 1 --fail-if-slower ten "$T/a.iolens" "$T/a.iolens"
expect="iolens-diff: --fail-if-slower wants a percentage >= 0, not '-5'"
bad 1 --fail-if-slower -5 "$T/a.iolens" "$T/a.iolens"
expect="iolens-diff: unknown option '--nosuch'"
bad 1 --nosuch "$T/a.iolens" "$T/a.iolens"
check_eq "" "$(cat "$T/out")" "no output on a usage error"

finish
