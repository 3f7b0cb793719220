#!/bin/sh
# --nodes N (iolens-parser --perf, --json, --summary; iolens-report;
# iolens-export --sqlite; iolens-diff) on an iolens log of make_test_log
# (4 ranks, the log says 2 nodes; job bytes and slowest time read back
# from --perf without --nodes): MiB/s/CN is agg MiB/s / N, computed here,
# the header says where N came from, and a bad N is refused by every tool
# (usage: exit 1, the message first).  The Darshan fixtures' --nodes
# values are checked in tests/darshan/test_darshan_logs.sh.
. "$(dirname "$0")/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
P=$IOLENS_PARSER
BIN=$(dirname "$P")
LOG=$T/sim.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" "$LOG" || { fail "make_test_log"; finish; }

# The log's own figures, without --nodes.
"$P" --perf "$LOG" >"$T/perf0"
perf() { awk -F'\t' -v s="$2" -v m="$3" '$1 == s && $2 == m { print $3 }' "$1"; }
bytes=$(perf "$T/perf0" job bytes)
slowest=$(perf "$T/perf0" job slowest_time)
check_eq 4 "$(awk '/^# nprocs:/ {print $3}' "$T/perf0")" "the log's nprocs"
check_eq "# nnodes: 2" "$(grep '^# nnodes:' "$T/perf0")" "the log's nnodes, no source said"
check_eq "# perf compute nodes: 2" "$(grep '^# perf compute nodes' "$T/perf0")" "the log's count"
# MiB/s/CN for N nodes: job bytes / 2^20 / slowest time / N.
want() { awk -v b="$bytes" -v t="$slowest" -v n="$1" 'BEGIN {printf "%.6f", b / 1048576 / t / n}'; }
# Equal within the last printed digit (the slowest time is printed rounded).
near() {
    if awk -v a="$1" -v b="$2" 'BEGIN {d = a - b; exit !(d <= 2e-6 && d >= -2e-6)}'; then pass
    else fail "$3: expected $1, got '$2'"; fi
}
near "$(want 2)" "$(perf "$T/perf0" job mib_s_per_cn)" "MiB/s/CN over the log's 2 nodes"

for n in 1 3; do
    "$P" --perf --nodes "$n" "$LOG" >"$T/perf$n" 2>"$T/err"
    check_eq 0 "$?" "--perf --nodes $n: exit status"
    check_eq "# nnodes: $n (from --nodes; the log says 2)" "$(grep '^# nnodes:' "$T/perf$n")" \
        "--nodes $n overrides the log's count, and says so"
    check_eq "# perf compute nodes: $n (from --nodes)" \
        "$(grep '^# perf compute nodes' "$T/perf$n")" "--perf's nodes line, --nodes $n"
    near "$(want "$n")" "$(perf "$T/perf$n" job mib_s_per_cn)" "--perf job MiB/s/CN, --nodes $n"
    near "$(perf "$T/perf0" job agg_mib_s)" "$(perf "$T/perf$n" job agg_mib_s)" \
        "--nodes $n leaves agg MiB/s alone"
done

"$P" --json --nodes 3 "$LOG" >"$T/json"
check_eq "3 option 3 $(want 3)" "$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["job"]["nnodes"], j["job"]["nnodes_from"], j["perf"]["compute_nodes"],
      "%.6f" % j["perf"]["mib_s_per_cn"])' "$T/json")" "--json: nnodes, its source, MiB/s/CN"
"$P" --json "$LOG" | python3 -c '
import json, sys
print(json.load(sys.stdin)["job"]["nnodes_from"])' >"$T/from"
check_eq log "$(cat "$T/from")" "--json without --nodes: the log's count"

"$P" --summary --nodes 3 "$LOG" >"$T/sum"
check_eq "3 $(want 3)" "$(awk -F'\t' '!/^#/ {print $5, $9}' "$T/sum")" \
    "--summary: nnodes and MiB/s/CN columns"

"$BIN/iolens-report" --nodes 3 -o "$T/r.html" "$LOG" 2>"$T/err"
check_eq 0 "$?" "iolens-report --nodes: exit status"
grep -q '<th>Compute nodes</th><td>3 (from --nodes): ' "$T/r.html" ||
    fail "iolens-report: nodes from --nodes"
grep -q '<p class="note">Compute nodes: 3\.' "$T/r.html" || fail "iolens-report: perf note"

"$BIN/iolens-diff" --nodes 3 "$LOG" "$LOG" >"$T/diff" 2>"$T/err"
check_eq 0 "$?" "iolens-diff --nodes: exit status"
check_eq "# compute nodes: 3 for A and B (from --nodes)" "$(grep '^# compute nodes:' "$T/diff")" \
    "iolens-diff says where the count came from"
check_eq "3 3" "$(awk -F'\t' '$1 == "job" && $2 == "compute_nodes" {print $3, $4}' "$T/diff")" \
    "iolens-diff compute_nodes"
check_eq "$(want 3) $(want 3)" \
    "$(awk -F'\t' '$1 == "job" && $2 == "mib_s_per_cn" {print $3, $4}' "$T/diff")" \
    "iolens-diff MiB/s/CN"

if command -v sqlite3 >/dev/null 2>&1 && "$BIN/iolens-export" --help 2>&1 | grep -q sqlite &&
    "$BIN/iolens-export" --sqlite "$T/db" --nodes 3 "$LOG" 2>"$T/err"; then
    check_eq "3|$(want 3)" "$(sqlite3 "$T/db" "SELECT nnodes, printf('%.6f', mib_s_per_cn)
        FROM jobs")" "iolens-export --sqlite --nodes: the jobs row"
else
    echo "note: no SQLite (iolens-export --sqlite or sqlite3): its --nodes part skipped"
fi

# ------------------------------------------------------------ bad values --
# A usage error, as the tools' other bad option values: exit 1, the
# message first (the usage text follows it), nothing on stdout.
bad() {
    tool=$1 value=$2
    shift 2
    "$BIN/$tool" "$@" --nodes "$value" "$LOG" >"$T/out" 2>"$T/err"
    check_eq 1 "$?" "$tool --nodes '$value': exit status"
    check_eq "$tool: --nodes wants a whole number of compute nodes from 1 to 1000000, not '$value'" \
        "$(head -n 1 "$T/err")" "$tool --nodes '$value': the message"
    check_eq 0 "$(wc -c <"$T/out" | tr -d ' ')" "$tool --nodes '$value': no output"
}
for v in 0 -1 abc 1e99 "" 1000001 99999999999999999999 " 2" "2 " +2 0x10 2.0; do
    bad iolens-parser "$v" --perf
    bad iolens-report "$v" -o "$T/bad.html"
    bad iolens-diff "$v" "$LOG"
    bad iolens-export "$v" --sqlite "$T/bad.db"
done
check_eq no "$(test -e "$T/bad.html" || test -e "$T/bad.db" && echo yes || echo no)" \
    "a bad --nodes writes no file"
"$P" --perf --nodes 1000000 "$LOG" >/dev/null 2>&1
check_eq 0 "$?" "--nodes 1000000, the largest, is taken"
"$P" --base --nodes 2 "$LOG" >"$T/out" 2>"$T/err"
check_eq 1 "$?" "--nodes with --base: usage error"
check_eq "iolens-parser: --nodes goes with --perf, --json or --summary" "$(head -n 1 "$T/err")" \
    "--nodes with --base: the message"
"$BIN/iolens-export" --item-extract --series=POSIX --data=reads --nodes 2 "$LOG" >/dev/null 2>"$T/err"
check_eq 1 "$?" "iolens-export --nodes without --sqlite: usage error"
check_eq "iolens-export: --nodes goes with --sqlite" "$(head -n 1 "$T/err")" \
    "iolens-export --nodes without --sqlite: the message"
finish
