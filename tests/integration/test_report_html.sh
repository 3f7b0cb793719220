#!/bin/sh
# iolens-report on make_test_log logs (tests/integration/make_test_log.c).
#
# Part 1, without a browser (check_report_html.py): the page parses as
# well-formed HTML in UTF-8, loads nothing (no URL, no script, a CSP of
# default-src 'none'), has every section and chart, prints the --perf
# figures exactly as iolens-parser --perf does, escapes names, and its
# heat map holds exactly the bytes of the log's access intervals.  With
# --bins 7 the 3.5 s run has bins of 0.5 s, and the intervals (listed in
# test_export_hdf5.sh, on rank 0's clock) give these cells:
#   POSIX  rank 0: [0.5, 1.0] read 1048576 -> 0.5-1; [1.0, 1.25] 524288
#          -> 1-1.5; [2.0, 2.5] 262144 -> 2-2.5.  rank 1: [1.0, 1.5]
#          1048576 -> 1-1.5; [2.5, 2.75] 4096 -> 2.5-3.  rank 2: [2.75,
#          3.0] 1024 -> 2.5-3; [3.0, 3.125] 2048 -> 3-3.5
#   MPIIO  rank 2: [2.75, 3.25] 4096 halved -> 2048 in 2.5-3 and 3-3.5;
#          reads of 512 at 3.5 and 3.75 -> 1024 in 3.5-4
#   STDIO  rank 0: [0.25, 0.375] 100 -> 0-0.5
# The error paths: exit 1 usage, 2 unreadable log, 3 unwritable output,
# and a failed run leaves an existing report as it was.
#
# Part 2, in a real browser (Debian's chromium, headless): the page renders
# to a non-blank PNG, logs no console message (a CSP violation or a script
# error would be one; a deliberately bad page shows that the check sees
# them), and the DOM after load has every chart's svg.  Skipped, saying so,
# when /usr/bin/chromium is missing.
. "$(dirname "$0")/common.sh"

for var in IOLENS_BUILDDIR IOLENS_TESTBIN IOLENS_PARSER IOLENS_SRCDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
REPORT=$IOLENS_BUILDDIR/iolens-report
MAKE_LOG=$IOLENS_TESTBIN/integration/make_test_log
CHECK="python3 $IOLENS_SRCDIR/tests/integration/check_report_html.py"
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL

FULL=$T/full.iolens
PLAIN=$T/plain.iolens
"$MAKE_LOG" --intervals --intervals-extra --hdf5 --odd-names --markup-names --stdio-twin "$FULL" ||
    { fail "make_test_log full"; finish; }
"$MAKE_LOG" "$PLAIN" || { fail "make_test_log plain"; finish; }

# Runs iolens-report; sets rc and err (stderr).
run() {
    "$REPORT" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    err=$(cat "$T/err")
}

# ------------------------------------------------------------ the page --

run --bins 7 "$FULL" -o "$T/full.html"
check_eq 0 "$rc" "report exit status"
check_eq "" "$err" "report stderr"
check_eq "" "$(ls "$T" | grep '\.tmp\.')" "no temporary file left"
check_eq ok "$($CHECK structure "$T/full.html")" "well-formed and self-contained"
check_eq "" "$($CHECK ids "$T/full.html" summary cost heatmap sizes patterns bps advice \
    job-table perf-table cost-chart heatmap-POSIX heatmap-STDIO heatmap-MPIIO sizes-POSIX \
    sizes-MPIIO sizes-H5D sharing-table pattern-table file-sharing-table top-files \
    bps-chart bps-table)" "every section, table and chart"
# make_test_log writes no call sites: the sites section says so.
check_eq "" "$($CHECK ids "$T/full.html" sites no-sites)" "the sites section and its note"
check_eq 0 "$(grep -c '<table id="sites-table">' "$T/full.html")" "no sites table without sites"

"$IOLENS_PARSER" --perf "$FULL" >"$T/perf.txt"
nperf=$(grep -vc '^#' "$T/perf.txt")
check_eq "ok $nperf" "$($CHECK perf "$T/full.html" "$T/perf.txt")" "summary figures as --perf prints them"

expected="rank 0, 0.5-1 s: 1048576 bytes (1 MiB)
rank 0, 1-1.5 s: 524288 bytes (512 KiB)
rank 0, 2-2.5 s: 262144 bytes (256 KiB)
rank 1, 1-1.5 s: 1048576 bytes (1 MiB)
rank 1, 2.5-3 s: 4096 bytes (4 KiB)
rank 2, 2.5-3 s: 1024 bytes (1 KiB)
rank 2, 3-3.5 s: 2048 bytes (2 KiB)"
check_eq "$expected" "$($CHECK titles "$T/full.html" heatmap-POSIX cell)" "POSIX heat map cells"
expected="rank 2, 2.5-3 s: 2048 bytes (2 KiB)
rank 2, 3-3.5 s: 2048 bytes (2 KiB)
rank 2, 3.5-4 s: 1024 bytes (1 KiB)"
check_eq "$expected" "$($CHECK titles "$T/full.html" heatmap-MPIIO cell)" "MPIIO heat map cells"
check_eq "rank 0, 0-0.5 s: 100 bytes (100 B)" \
    "$($CHECK titles "$T/full.html" heatmap-STDIO cell)" "STDIO heat map cells"

# Names: markup stays text, a stray byte shows as U+FFFD, a newline as
# its Control Picture (U+240A).  Compared as UTF-8 bytes.
top=$($CHECK text "$T/full.html" top-files)
markup=$(printf '/scratch/<b>x&amp;"y'"'"'</b>\357\277\275.dat')
bad=$(printf '/scratch/run/bad\357\277\275\357\277\275"q\\,x\342\220\212.dat')
case $top in *"$markup"*) pass ;; *) fail "markup name not shown as text: $top" ;; esac
case $top in *"$bad"*) pass ;; *) fail "invalid UTF-8 name not shown with U+FFFD" ;; esac
check_eq 0 "$(grep -c '<b>' "$T/full.html")" "no markup from a name in the page source"
grep -q '/scratch/&lt;b&gt;x&amp;amp;&quot;y&#39;&lt;/b&gt;' "$T/full.html" && pass ||
    fail "markup name escaped in the source"
check_eq 1 "$(grep -c 'data-code="RANK0_BOTTLENECK"' "$T/full.html")" "advice finding present"
check_eq "sharing class rank-0" \
    "$(grep -o '<td id="sharing-class">[^<]*' "$T/full.html" | sed 's/.*>/sharing class /')" \
    "sharing class"

# A log without intervals: no heat map or BPS chart, a note instead.
run "$PLAIN" -o "$T/plain.html"
check_eq 0 "$rc" "plain log exit status"
check_eq ok "$($CHECK structure "$T/plain.html")" "plain log page well-formed"
check_eq 1 "$(grep -c 'no access intervals: no time series' "$T/plain.html")" "heat map note"
check_eq 0 "$(grep -c 'id="heatmap-' "$T/plain.html")" "no heat map without intervals"
check_eq 0 "$(grep -c 'id="bps-chart"' "$T/plain.html")" "no BPS chart without intervals"

# Standard output.
"$REPORT" "$PLAIN" -o - >"$T/stdout.html"
check_eq 0 $? "-o - exit status"
cmp -s "$T/stdout.html" "$T/plain.html" && pass || fail "-o - writes the same page"

# ------------------------------------------------------------- errors --

run
check_eq 1 "$rc" "no arguments"
run "$FULL"
check_eq 1 "$rc" "no -o"
case $err in *"-o REPORT.html is required"*) pass ;; *) fail "no -o message: $err" ;; esac
run "$FULL" "$PLAIN" -o "$T/x.html"
check_eq 1 "$rc" "two logs"
run --bins 0 "$FULL" -o "$T/x.html"
check_eq 1 "$rc" "--bins 0"
run --bins 1001 "$FULL" -o "$T/x.html"
check_eq 1 "$rc" "--bins 1001"
run --advice-thresholds no_such_key=1 "$FULL" -o "$T/x.html"
check_eq 1 "$rc" "unknown advice threshold"
run --frobnicate "$FULL" -o "$T/x.html"
check_eq 1 "$rc" "unknown option"
check_eq no "$(test -e "$T/x.html" && echo yes || echo no)" "usage errors write nothing"
"$REPORT" --help >"$T/help" 2>&1
check_eq 0 $? "--help exit status"
grep -q '^usage: iolens-report' "$T/help" && pass || fail "--help prints the usage"

cp "$T/plain.html" "$T/keep.html"
run "$T/missing.iolens" -o "$T/keep.html"
check_eq 2 "$rc" "missing log"
printf 'not a log\n' >"$T/bad.iolens"
run "$T/bad.iolens" -o "$T/keep.html"
check_eq 2 "$rc" "not a log"
head -c 200 "$FULL" >"$T/short.iolens"
run "$T/short.iolens" -o "$T/keep.html"
check_eq 2 "$rc" "truncated log"
cmp -s "$T/keep.html" "$T/plain.html" && pass || fail "a bad log leaves the report as it was"

run "$FULL" -o "$T/no/such/dir/r.html"
check_eq 3 "$rc" "output directory missing"
case $err in *"$T/no/such/dir/r.html"*) pass ;; *) fail "unwritable output message: $err" ;; esac
run "$FULL" -o "$T"
check_eq 3 "$rc" "output is a directory"
check_eq "" "$(ls "$T" | grep '\.tmp\.')" "no temporary file left after a failure"
if [ -w /dev/full ]; then
    "$REPORT" "$FULL" -o - >/dev/full 2>/dev/null
    check_eq 3 $? "standard output full"
fi

# ------------------------------------------------------- real browser --

CHROMIUM=/usr/bin/chromium
if [ ! -x "$CHROMIUM" ]; then
    echo "SKIP (part 2 only): $CHROMIUM is missing; scripts/install-deps.sh installs it"
    finish
fi

# Runs headless chromium on PAGE with ARGS; its log goes to $T/chrome.log.
browse() {
    page=$1
    shift
    timeout 60 "$CHROMIUM" --headless --disable-gpu --no-sandbox --no-first-run \
        --user-data-dir="$T/profile" --enable-logging=stderr --v=0 "$@" "file://$page" \
        2>"$T/chrome.log"
}

cat >"$T/bad.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head>
<body><p>bad</p><script>console.error("boom")</script></body></html>
EOF
browse "$T/bad.html" --dump-dom >/dev/null
check_gt "$(grep -c ':CONSOLE' "$T/chrome.log")" 0 "the console check sees a bad page's errors"

browse "$T/full.html" --screenshot="$T/full.png" --window-size=1200,3000
check_eq 0 "$(grep -c ':CONSOLE' "$T/chrome.log")" "no console message for the report"
grep ':CONSOLE' "$T/chrome.log" | head -5
check_eq ok "$($CHECK png "$T/full.png" 1200 3000)" "screenshot of the report"

browse "$T/full.html" --dump-dom >"$T/dom.html"
check_eq 0 "$(grep -c ':CONSOLE' "$T/chrome.log")" "no console message while dumping the DOM"
check_eq "$($CHECK count "$T/full.html" svg)" "$($CHECK count "$T/dom.html" svg)" \
    "every svg is in the DOM after load"
check_eq "$($CHECK count "$T/full.html" rect)" "$($CHECK count "$T/dom.html" rect)" \
    "every chart element is in the DOM after load"
check_eq "" "$($CHECK ids "$T/dom.html" cost-chart heatmap-POSIX sizes-POSIX bps-chart \
    advice-table perf-table)" "charts and tables in the DOM"

finish
