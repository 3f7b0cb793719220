# Sourced by the bench scripts.  summary_row ITEM VALUE UNIT TARGET adds a
# row to the summary table bench/run prints at the end: appended, tab-
# separated, to the file IOLENS_BENCH_SUMMARY names (nothing when it is
# unset, as when a script runs alone).  TARGET is "<= N", ">= N" or "-".
summary_row() {
    if [ -n "${IOLENS_BENCH_SUMMARY:-}" ]; then
        printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$IOLENS_BENCH_SUMMARY"
    fi
}
