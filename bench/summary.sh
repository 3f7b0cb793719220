# Sourced by the bench scripts: the rows of the summary table bench/run
# prints at the end, the figure and spread of repeated measurements, and
# the one place that decides whether a figure meets its target.
#
# summary_row ITEM VALUE UNIT TARGET [SPREAD [FLOOR]]
#   Appends a row, tab-separated, to the file IOLENS_BENCH_SUMMARY names
#   (nothing when it is unset, as when a script runs alone).  TARGET is
#   "<= N", ">= N" or "-".  SPREAD is "MIN..MAX" over the runs or pairs
#   (summary_stats prints it), "-" for one measurement.  FLOOR is the least
#   value the quantity can take: 0 for a cost added by tracing, 1 for a
#   traced/untraced ratio; "-" (the default) for none.
#
# summary_verdict VALUE TARGET [FLOOR]
#   Prints the verdict of the "met" column:
#     "no figure"            VALUE is missing, empty or not a number;
#     "noise, not measured"  VALUE is "noise" or below FLOOR: a negative
#                            added cost, a traced/untraced ratio below 1,
#                            is the machine's noise, never a target met;
#     "-"                    no target;
#     "yes" or "NO"          against TARGET ("bad target" if malformed).
#
# summary_stats FORMAT
#   Reads one figure a line (one per run, or per pair of runs) and prints
#   "VALUE SPREAD": the median and "MIN..MAX", each formatted with the
#   printf FORMAT.  A line "noise" is a pair whose figure cannot be had
#   (a ratio of added costs whose base is not positive); it counts in no
#   median, and when such pairs are half or more of them the value is
#   "noise".  No numeric line at all: "- -".
#
# summary_print FILE
#   Prints the table of FILE's rows with their verdicts.

# The verdict in awk, shared by summary_verdict and summary_print.
SUMMARY_AWK_VERDICT='
function is_number(v) {
    return v ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/
}
function verdict(v, t, floor,  a, n) {
    if (v == "noise") return "noise, not measured"
    if (!is_number(v)) return "no figure"
    if (is_number(floor) && v + 0 < floor + 0) return "noise, not measured"
    if (t == "-" || t == "") return "-"
    n = split(t, a, " ")
    if (n != 2 || !is_number(a[2])) return "bad target"
    if (a[1] == "<=") return (v + 0 <= a[2] + 0) ? "yes" : "NO"
    if (a[1] == ">=") return (v + 0 >= a[2] + 0) ? "yes" : "NO"
    return "bad target"
}'

summary_row() {
    if [ -n "${IOLENS_BENCH_SUMMARY:-}" ]; then
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "${2:-}" "$3" "$4" "${5:--}" "${6:--}" \
            >>"$IOLENS_BENCH_SUMMARY"
    fi
}

summary_verdict() {
    awk -v v="${1:-}" -v t="${2:--}" -v f="${3:--}" "$SUMMARY_AWK_VERDICT"'
        BEGIN { print verdict(v, t, f) }'
}

summary_stats() {
    awk -v fmt="$1" "$SUMMARY_AWK_VERDICT"'
        $1 == "noise" { noise++; next }
        is_number($1) { v[++n] = $1 + 0 }
        END {
            if (n == 0) { print (noise > 0 ? "noise -" : "- -"); exit }
            for (i = 2; i <= n; i++)            # insertion sort: a few dozen figures
                for (j = i; j > 1 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
            m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
            spread = sprintf(fmt "..", v[1]) sprintf(fmt, v[n])
            if (2 * noise >= n + noise) print "noise", spread
            else print sprintf(fmt, m), spread
        }'
}

summary_print() {
    awk -F'\t' "$SUMMARY_AWK_VERDICT"'
        BEGIN { printf "%-66s %12s %-21s %-12s %-12s %s\n", "item", "measured", "spread",
                "unit", "target", "met" }
        { printf "%-66s %12s %-21s %-12s %-12s %s\n", $1, ($2 == "" ? "-" : $2),
                ($5 == "" ? "-" : $5), $3, $4, verdict($2, $4, $6) }' "$1"
}
