#!/bin/sh
# Fastest and slowest rank and the variances of a shared file when one rank
# is made slower on purpose: in job_prog.c's "heavy" mode rank K writes
# 20000 blocks of 512 bytes and every other rank 20, all to one file.
#
# Bytes are exact, so their variance is checked exactly against a hand
# computation.  Times are measured, so the time variance is checked
# against what the log itself says about the ranks: at 2 ranks the two
# per-rank times are the fastest and the slowest one; at 3 the third is
# the total (read + write + metadata time of the reduced record) minus
# those two; at 4 and 8 it must lie between the bounds any population
# variance with that minimum and maximum obeys:
#   (max - min)^2 / (2n) <= variance <= (max - min)^2 / 4.
# Values come from log_dump (full precision), not the parser (6 decimals).
# The log stores times on a 2^-30 s grid (lib/log/log_regions.c) but the
# variance as computed, so the time checks allow a relative 1e-6.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup

value() {
    dumped POSIX "$DATA/heavy" "$1" | awk '{ print $2 }'
}

# check_close EXPECTED ACTUAL RELATIVE_TOLERANCE WHAT
check_close() {
    if awk -v e="$1" -v a="$2" -v t="$3" 'BEGIN {
            d = e - a; if (d < 0) d = -d; m = e < 0 ? -e : e
            exit !(d <= t * m || d < 1e-300) }'; then
        pass
    else
        fail "$4: expected $1, got $2"
    fi
}

for case in "2 1" "3 0" "4 2" "8 5"; do
    # shellcheck disable=SC2086  # two numbers
    set -- $case
    n=$1
    k=$2
    run_job "$n" heavy "$k"
    what="at $n ranks, rank $k slow"
    f=$DATA/heavy
    check_eq 1 "$(records_of "$LOG" "$f" POSIX)" "one POSIX record of heavy $what"
    expect_counters "$LOG" "$f" <<END
POSIX_OPENS $n
POSIX_WRITES $((20000 + 20 * (n - 1)))
POSIX_BYTES_WRITTEN $((512 * (20000 + 20 * (n - 1))))
POSIX_RANKS_OPENED $n
POSIX_RANKS_IO $n
POSIX_SLOWEST_RANK $k
POSIX_SLOWEST_RANK_BYTES 10240000
POSIX_FASTEST_RANK_BYTES 10240
END
    fast=$(value POSIX_FASTEST_RANK)
    if awk -v f="$fast" -v k="$k" -v n="$n" '
            BEGIN { exit !(f ~ /^[0-9]+$/ && f != k && f < n) }'; then
        pass
    else
        fail "fastest rank '$fast' $what"
    fi

    # Bytes: n - 1 ranks with 10240, one with 10240000.
    expected=$(awk -v n="$n" 'BEGIN {
        small = 10240; big = 10240000; m = ((n - 1) * small + big) / n
        printf "%.17g", ((n - 1) * (small - m) ^ 2 + (big - m) ^ 2) / n }')
    check_close "$expected" "$(value POSIX_F_VARIANCE_RANK_BYTES)" 1e-12 \
        "variance of per-rank bytes $what"

    tmin=$(value POSIX_F_FASTEST_RANK_TIME)
    tmax=$(value POSIX_F_SLOWEST_RANK_TIME)
    var=$(value POSIX_F_VARIANCE_RANK_TIME)
    total=$(awk -v r="$(value POSIX_F_READ_TIME)" -v w="$(value POSIX_F_WRITE_TIME)" \
        -v m="$(value POSIX_F_META_TIME)" 'BEGIN { printf "%.17g", r + w + m }')
    check_gt "$tmin" 0 "fastest rank's time $what"
    check_gt "$tmax" "$tmin" "slowest rank's time above the fastest's $what"
    case $n in
        2)
            expected=$(awk -v a="$tmin" -v b="$tmax" 'BEGIN { printf "%.17g", ((b - a) / 2) ^ 2 }')
            check_close "$expected" "$var" 1e-6 "variance of per-rank time $what"
            sum=$(awk -v a="$tmin" -v b="$tmax" 'BEGIN { printf "%.17g", a + b }')
            check_close "$total" "$sum" 1e-6 "total time = fastest + slowest $what"
            ;;
        3)
            expected=$(awk -v a="$tmin" -v b="$tmax" -v s="$total" 'BEGIN {
                c = s - a - b; m = s / 3
                printf "%.17g", ((a - m) ^ 2 + (b - m) ^ 2 + (c - m) ^ 2) / 3 }')
            check_close "$expected" "$var" 1e-6 "variance of per-rank time $what"
            ;;
        *)
            low=$(awk -v a="$tmin" -v b="$tmax" -v n="$n" '
                BEGIN { printf "%.17g", (b - a) ^ 2 / (2 * n) }')
            high=$(awk -v a="$tmin" -v b="$tmax" 'BEGIN { printf "%.17g", (b - a) ^ 2 / 4 }')
            check_le "$low" "$var" "variance of per-rank time above its lower bound $what"
            check_le "$var" "$high" "variance of per-rank time below its upper bound $what"
            ;;
    esac
done
finish
