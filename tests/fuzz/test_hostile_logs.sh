#!/bin/sh
# Every mode of iolens-parser and every tool that reads logs, timed and
# measured (peak RSS, /usr/bin/time) on hostile logs, so none of them
# costs time or memory out of proportion to its size
# (tests/fuzz/make_hostile_log):
#   shared-ids   150000 per-rank records of one file: the per-record
#                sharing once walked every record of the same id for each
#                (quadratic: some 25 s for --json, 2 minutes for a 1 MB log)
#   huge-nprocs  a 300-byte log claiming 1414750021 ranks: the sharing
#                statistics once allocated and scanned 11 GB per rank
#   big-regions  three layer regions of 512 MiB (a 1.6 MB file): above the
#                default 1 GiB limit on a log's decompressed size, refused
#                in one line with status 2 (it once took 3 GB and a minute)
# Each run must take at most 10 s of CPU and 200 MB (the bounds are generous:
# the good runs take a second and a few MB; under the sanitizers, whose
# shadow memory and checks cost more, 40 s and 1000 MB).
. "$(dirname "$0")/../integration/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN IOLENS_BUILDDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time is not installed"; exit 77; }
command -v timeout >/dev/null || { echo "SKIP: timeout is not installed"; exit 77; }
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL
# Not run_alone: the bounds are on CPU time and peak memory, which the
# neighbouring tests do not change (the wall-clock timeout is 3 bounds).

max_s=10 max_kb=200000
if ldd "$IOLENS_PARSER" 2>/dev/null | grep -q -e libasan -e libubsan; then
    max_s=40 max_kb=1000000
fi
B=$IOLENS_BUILDDIR
make=$IOLENS_TESTBIN/fuzz/make_hostile_log
"$make" shared-ids 150000 "$T/shared-ids.iolens" || fail "make_hostile_log shared-ids"
"$make" huge-nprocs "$T/huge-nprocs.iolens" || fail "make_hostile_log huge-nprocs"
"$make" big-regions 3 512 "$T/big-regions.iolens" || fail "make_hostile_log big-regions"
head -c 32 /dev/urandom >"$T/key"

# Runs a command (killed after 3 bounds), checks its status, CPU time
# (user + system: the machine may be shared) and peak memory:
# measure EXPECTED_STATUS LABEL COMMAND...
measure() {
    expect=$1 label=$2
    shift 2
    timeout -s KILL $((3 * max_s)) /usr/bin/time -f '%U %S %M' -o "$T/time" "$@" \
        >"$T/out" 2>"$T/err"
    status=$?
    check_eq "$expect" "$status" "exit status of $label"
    # The last line: time puts "Command exited with ..." before it.
    set -- $(tail -n 1 "$T/time" 2>/dev/null)
    case ${1:-} in
    [0-9]*) secs=$(awk -v u="$1" -v s="$2" 'BEGIN { print u + s }') kb=$3 ;;
    *) secs=$((3 * max_s)) kb=killed ;;
    esac
    echo "$label: status $status, $secs s CPU, $kb KB"
    check_le "$secs" "$max_s" "CPU seconds of $label"
    [ "$kb" = killed ] || check_le "$kb" "$max_kb" "peak KB of $label"
}

modes="--base --total --file --stack --perf --patterns --csv --bps --json --timeseries
       --summary --advice"
for shape in shared-ids huge-nprocs big-regions; do
    log=$T/$shape.iolens
    want=0
    [ "$shape" = big-regions ] && want=2
    for mode in $modes; do
        measure "$want" "iolens-parser $mode on $shape" "$IOLENS_PARSER" $mode "$log"
    done
    measure "$want" "iolens-report on $shape" "$B/iolens-report" "$log" -o "$T/report.html"
    # (no access intervals in these logs: "no time series", status 2)
    measure 2 "iolens-export --item-extract on $shape" "$B/iolens-export" --item-extract \
        --series=POSIX --data=bytes_read_write -o "$T/item.csv" "$log"
    measure "$want" "iolens-diff on $shape" "$B/iolens-diff" "$log" "$log"
    measure "$want" "iolens-anonymize on $shape" "$B/iolens-anonymize" --key-file "$T/key" \
        "$log" "$T/anon.iolens"
    if [ -x "$B/iolens-export" ] && "$B/iolens-export" --help | grep -q -e --sqlite; then
        rm -f "$T/db.sqlite"
        measure "$want" "iolens-export --sqlite on $shape" "$B/iolens-export" \
            --sqlite "$T/db.sqlite" "$log"
    fi
done

# The refusal: one line naming the file, the bytes claimed, the limit and
# how to raise it; nothing on standard output.
"$IOLENS_PARSER" --total "$T/big-regions.iolens" >"$T/out" 2>"$T/err"
check_eq 2 "$?" "exit status of the refused log"
check_eq 0 "$(wc -c <"$T/out")" "stdout bytes of the refused log"
check_eq "iolens-parser: $T/big-regions.iolens: the log claims 1610612944 decompressed bytes, more than the limit of 1073741824 (IOLENS_MAX_LOG_SIZE)" \
    "$(cat "$T/err")" "the refusal's line"
# The arithmetic: a job region plus 3 * (a 16-byte head and (512 MiB - 16) / 16 records of 16 bytes).
job=$(( (1610612944 - 3 * 536870912) ))
check_le "$job" 1000 "bytes of the job region in the claim"
# The limit is the user's: above the claim, the log is read (here only
# --total, the cheapest pass over 1.5 GiB; below it, refused again).
IOLENS_MAX_LOG_SIZE=1K "$IOLENS_PARSER" --total "$T/shared-ids.iolens" >"$T/out" 2>"$T/err"
check_eq 2 "$?" "exit status of IOLENS_MAX_LOG_SIZE=1K"
grep -q "more than the limit of 1024 (IOLENS_MAX_LOG_SIZE)" "$T/err" || fail "1K limit: $(cat "$T/err")"
"$IOLENS_PARSER" --max-log-size 1K --total "$T/shared-ids.iolens" >"$T/out" 2>"$T/err"
check_eq 2 "$?" "exit status of --max-log-size 1K"
"$IOLENS_PARSER" --max-log-size 4M --total "$T/shared-ids.iolens" >"$T/out" 2>"$T/err"
check_eq 0 "$?" "exit status of --max-log-size 4M (the log claims 2.4 MB)"
IOLENS_MAX_LOG_SIZE=lots "$IOLENS_PARSER" --total "$T/shared-ids.iolens" >"$T/out" 2>"$T/err"
check_eq 2 "$?" "exit status of IOLENS_MAX_LOG_SIZE=lots"
check_eq 1 "$(wc -l <"$T/err")" "stderr lines of IOLENS_MAX_LOG_SIZE=lots"
"$IOLENS_PARSER" --max-log-size lots --total "$T/shared-ids.iolens" >"$T/out" 2>"$T/err"
check_eq 1 "$?" "exit status of --max-log-size lots (a usage error)"

# Right answers, not just fast ones: 150000 per-rank records of one file
# in a job of 150000 ranks: the file is shared by all of them.
"$IOLENS_PARSER" --csv "$T/shared-ids.iolens" >"$T/out"
check_eq 150001 "$(wc -l <"$T/out")" "CSV lines of shared-ids (a header and a row a record)"
check_eq 150000 "$(grep -c '^POSIX,,,7777777777777777,[0-9]*,150000,shared,' "$T/out")" \
    "rows of shared-ids shared by 150000 ranks"
# huge-nprocs: ranks 1414750020 and 1414750019 each moved 8192 bytes of
# their own and 4096 of the shared file (its fastest and slowest): 12288
# of the 24576, a tie the lower rank takes.
"$IOLENS_PARSER" --json "$T/huge-nprocs.iolens" >"$T/out"
check_eq '"sharing_top_rank":1414750019' "$(grep -o '"sharing_top_rank":[0-9]*' "$T/out")" \
    "huge-nprocs: the top rank"
check_eq '"sharing_top_rank_share":0.5' "$(grep -o '"sharing_top_rank_share":[0-9.]*' "$T/out")" \
    "huge-nprocs: the top rank's share"
finish
