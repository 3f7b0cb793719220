#!/bin/sh
# Database import speed (make bench): iolens-export --sqlite of LOGS logs
# (default 10,000), each a job of its own written by bench/make_big_log
# --jobs (RECORDS POSIX records over RANKS ranks each, default 16 and 8),
# into a new database, then again into the full one (the re-import replaces
# every job's rows).  Prints the seconds and logs per second of both and
# checks the row counts.  Target: 10,000 logs in under 60 s.  A figure, not
# a test.
set -eu

BUILD=${1:?usage: run-import.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
EXPORT=$BUILD/iolens-export
MAKELOG=$BUILD/bench/make_big_log
LOGS=${LOGS:-10000}
RECORDS=${RECORDS:-16}
RANKS=${RANKS:-8}
for f in "$EXPORT" "$MAKELOG"; do
    if [ ! -x "$f" ]; then
        echo "run-import: $f is missing; run 'make bench' in the build directory" >&2
        exit 1
    fi
done
if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "run-import: the sqlite3 CLI (Debian package sqlite3) is needed to count the rows" >&2
    exit 1
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/iolens-import-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
"$MAKELOG" --jobs "$LOGS" "$WORK/job" "$RECORDS" "$RANKS"
DB=$WORK/jobs.db

# Seconds of one import of every log (the log names are passed at once:
# 10,000 short paths are far below ARG_MAX).
import_seconds() {
    start=$(date +%s.%N)
    # shellcheck disable=SC2046  # one argument per log
    if ! "$EXPORT" --sqlite "$DB" $(ls "$WORK"/job.*); then
        echo "run-import: iolens-export failed" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}

report() {
    awk -v what="$1" -v s="$2" -v n="$LOGS" -v r="$RECORDS" -v k="$RANKS" 'BEGIN {
        printf "import %-9s %d logs (%d records, %d ranks each): %.2f s, %.0f logs/s%s\n",
            what, n, r, k, s, n / s, (n >= 10000 && s >= 60) ? "  ABOVE THE 60 s TARGET" : ""
    }'
}

first=$(import_seconds)
again=$(import_seconds)
rows=$(sqlite3 "$DB" "SELECT (SELECT COUNT(*) FROM jobs) || ' ' || (SELECT COUNT(*) FROM files)")
if [ "$rows" != "$LOGS $((LOGS * RECORDS))" ]; then
    echo "run-import: expected $LOGS jobs and $((LOGS * RECORDS)) files, found $rows" >&2
    exit 1
fi
report new "$first"
report again "$again"
echo "database: $(du -k "$DB" | cut -f1) KiB for $LOGS jobs"
