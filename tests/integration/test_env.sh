#!/bin/sh
# The environment switches: IOLENS_DISABLE, IOLENS_NONMPI,
# IOLENS_DISABLE_LAYERS, IOLENS_EXCLUDE and IOLENS_INCLUDE.
. "$(dirname "$0")/common.sh"
iolens_setup

# No log unless opted in, none when disabled; the program runs either way.
for setting in "IOLENS_NONMPI=1 IOLENS_DISABLE=1" "IOLENS_DISABLE=0" "IOLENS_NONMPI=0"; do
    log=$T/none.iolens
    env $setting IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" "$PROGS/prog_writes" "$T/data" ||
        fail "prog_writes exited with status $? ($setting)"
    check_eq 4096000 "$(wc -c <"$T/data" | tr -d ' ')" "bytes the program wrote ($setting)"
    [ -e "$log" ] && fail "a log was written with $setting"
    pass
    rm -f "$log" "$T/data"
done
# The positive control: the same run with IOLENS_NONMPI=1 does log.
run_traced "$T/yes.iolens" IOLENS_DISABLE=0 "$PROGS/prog_writes" "$T/data" || fail "prog_writes exited with status $?"
require_log "$T/yes.iolens"
check_eq 1000 "$(counter "$T/yes.iolens" "$T/data" POSIX_WRITES)" "POSIX_WRITES with IOLENS_DISABLE=0"

# Layers: stdio off leaves only POSIX records and vice versa.
stdio_run() {
    rm -f "$T/s1" "$T/s2" "$T/s3" "$T/s4"
    # prog_stdio reads "QR" from stdin (see prog_stdio.c).
    printf QR | run_traced "$1" IOLENS_DISABLE_LAYERS="$2" "$PROGS/prog_stdio" \
        "$T/s1" "$T/s2" "$T/s3" "$T/s4" >/dev/null ||
        fail "prog_stdio exited with status $? (layers off: $2)"
    require_log "$1"
}
stdio_run "$T/nostdio.iolens" stdio
check_eq 0 "$(base_of "$T/nostdio.iolens" | grep -c '^STDIO')" "STDIO lines with stdio off"
check_eq 1 "$(counter "$T/nostdio.iolens" "$T/s3" POSIX_OPENS)" "POSIX_OPENS with stdio off"
stdio_run "$T/noposix.iolens" posix
check_eq 0 "$(base_of "$T/noposix.iolens" | grep -c '^POSIX')" "POSIX lines with posix off"
check_eq 1 "$(counter "$T/noposix.iolens" "$T/s1" STDIO_OPENS)" "STDIO_OPENS with posix off"
stdio_run "$T/both.iolens" "posix,stdio"
check_eq 0 "$(base_of "$T/both.iolens" | grep -c -e '^POSIX' -e '^STDIO')" "records with both layers off"

# Exclusions.  cat opens each file it is given; a traced one gets a record
# with POSIX_OPENS 1, an excluded one no record at all.
mkdir -p "$T/in" "$T/ex/keep" || fail "cannot make directories"
echo in >"$T/in/f"
echo ex >"$T/ex/f"
echo keep >"$T/ex/keep/f"
sys=/etc/passwd
cat_run() {
    log=$1
    shift
    run_traced "$log" "$@" cat "$sys" "$T/in/f" "$T/ex/f" "$T/ex/keep/f" >/dev/null ||
        fail "cat exited with status $? ($*)"
    require_log "$log"
}
opens() { counter "$1" "$2" POSIX_OPENS; }

# Defaults: /etc is excluded, the test directory is not.
cat_run "$T/default.iolens" IOLENS_NONMPI=1
check_eq "<none>" "$(opens "$T/default.iolens" "$sys")" "$sys by default"
check_eq 1 "$(opens "$T/default.iolens" "$T/in/f")" "$T/in/f by default"
check_eq 1 "$(opens "$T/default.iolens" "$T/ex/f")" "$T/ex/f by default"

# IOLENS_EXCLUDE replaces the defaults.
cat_run "$T/exclude.iolens" IOLENS_EXCLUDE="$T/ex"
check_eq 1 "$(opens "$T/exclude.iolens" "$sys")" "$sys with IOLENS_EXCLUDE=$T/ex"
check_eq 1 "$(opens "$T/exclude.iolens" "$T/in/f")" "$T/in/f with IOLENS_EXCLUDE=$T/ex"
check_eq "<none>" "$(opens "$T/exclude.iolens" "$T/ex/f")" "$T/ex/f with IOLENS_EXCLUDE=$T/ex"
check_eq "<none>" "$(opens "$T/exclude.iolens" "$T/ex/keep/f")" "$T/ex/keep/f with IOLENS_EXCLUDE=$T/ex"

# IOLENS_INCLUDE wins over an exclusion (and over the defaults).
cat_run "$T/include.iolens" IOLENS_EXCLUDE="$T/ex,/nothing" IOLENS_INCLUDE="$T/ex/keep,/etc"
check_eq "<none>" "$(opens "$T/include.iolens" "$T/ex/f")" "$T/ex/f with IOLENS_INCLUDE=$T/ex/keep"
check_eq 1 "$(opens "$T/include.iolens" "$T/ex/keep/f")" "$T/ex/keep/f with IOLENS_INCLUDE=$T/ex/keep"
check_eq 1 "$(opens "$T/include.iolens" "$sys")" "$sys with IOLENS_INCLUDE=/etc"

# Prefixes match whole components: excluding $T/e leaves $T/ex alone.
cat_run "$T/prefix.iolens" IOLENS_EXCLUDE="$T/e"
check_eq 1 "$(opens "$T/prefix.iolens" "$T/ex/f")" "$T/ex/f with IOLENS_EXCLUDE=$T/e"
finish
