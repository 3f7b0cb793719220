# Shared part of the oracle tests: a real program
# runs traced by iolens under `strace -f` in the same run, and
# strace_oracle.py compares iolens's counters with the system calls strace
# saw (the rules are in its header).  Sourced after
# tests/integration/common.sh and tests/transparency/common.sh (need,
# tree_digest, EXCLUDE).
#
#   oracle_setup        need strace and python3, make $T
#   oracle_program NAME SETUP CMD
#                       CMD (a sh -c string) run in a fresh $T/work made by
#                       the shell function SETUP: untraced once, then under
#                       strace at each budget of $BUDGETS (default, 256K,
#                       64K), and at 64M (the union's reference) without
#                       strace.  Each run must give the same exit status,
#                       stdout and files as the untraced one, and each run
#                       under strace counters equal to strace's.  Then the
#                       union check (POSIX union time over access time,
#                       default budget under strace against 64M: a ratio,
#                       1 for one thread when exact, so the two runs' speeds
#                       cancel out) and the memory-needed check (the largest
#                       "memory needed" of the 64K run, fed back as the
#                       budget, folds nothing).  ORACLE_LOGS_default,
#                       ORACLE_LOGS_256K, ORACLE_LOGS_64K name each run's log
#                       directory, ORACLE_WORK_<budget> a copy of its work
#                       directory when ORACLE_KEEP_WORK=1.
#   logs_sum DIR LAYER COUNTER
#                       the sum of COUNTER over every record of LAYER in
#                       the logs of DIR

BUDGETS=${BUDGETS:-"default 256K 64K"}
# A traced program that hangs (a runtime bug) must not hang make check.
ORACLE_TIMEOUT=${ORACLE_TIMEOUT:-120}
ORACLE_TRACE=trace=open,openat,openat2,creat,read,pread64,readv,preadv,preadv2,write,pwrite64,writev,pwritev,pwritev2,copy_file_range,sendfile,splice,stat,lstat,fstat,newfstatat,statx,lseek,close,dup,dup2,dup3,fcntl,execve,clone,clone3,fork,vfork
PY=/usr/bin/python3

oracle_setup() {
    iolens_setup
    need strace timeout
    if [ ! -x "$PY" ]; then
        echo "SKIP: $PY is not installed"
        exit 77
    fi
    ORACLE_CHECKER=$IOLENS_SRCDIR/tests/oracle/strace_oracle.py
    # ORACLE_KEEP=1 keeps the traces and logs for a look afterwards.
    if [ "${ORACLE_KEEP:-0}" = 1 ]; then
        trap - EXIT
        echo "keeping $T"
    fi
}

# Every regular file of DIR but the runtime's temporary ones: logs are
# found by looking, never by predicting their names.
logs_in() {
    find "$1" -maxdepth 1 -type f ! -name '*.tmp-*' | LC_ALL=C sort
}

logs_sum() {
    for log in $(logs_in "$1"); do
        "$IOLENS_PARSER" --base "$log"
    done | awk -F'\t' -v l="$2" -v c="$3" '$1 == l && $4 == c { s += $5 } END { printf "%.0f\n", s }'
}

# Largest value of the header line "# NAME: n" over the logs of DIR.
logs_header_max() {
    for log in $(logs_in "$1"); do
        "$IOLENS_PARSER" --base "$log" | grep "^# $2: "
    done | awk '{ v = $NF + 0; if (v > m) m = v } END { printf "%.0f\n", m }'
}

# POSIX union time over the POSIX accesses' own time, summed over the logs
# of DIR (each process has its own union): 1 for one thread's accesses,
# which never overlap, when the union is exact.
union_ratio() {
    for log in $(logs_in "$1"); do
        "$IOLENS_PARSER" --bps "$log"
    done | awk -F'\t' '$1 == "POSIX" && $2 == "*" && $3 == "time" { t += $4 }
                       $1 == "POSIX" && $2 == "*" && $3 == "access_time" { d += $4 }
                       END { if (d > 0) printf "%.6f %.6f %.6f\n", t / d, t, d; else print "- 0 0" }'
}

oracle_fresh_work() { # SETUP
    rm -rf "$T/work"
    mkdir "$T/work"
    if ! (cd "$T/work" && "$1"); then
        fail "setting up $ORACLE_NAME"
        finish
    fi
}

# Runs CMD with iolens at BUDGET into the log directory DIR, under strace
# into DIR.strace when STRACE is 1.
oracle_run() { # BUDGET DIR STRACE SETUP CMD
    rm -rf "$2"
    mkdir "$2"
    oracle_fresh_work "$4"
    set -- "$1" "$2" "$3" "$4" "$5" IOLENS_NONMPI=1 IOLENS_LOGDIR="$2" LD_PRELOAD="$IOLENS_LIB"
    if [ "$1" != default ]; then
        set -- "$@" IOLENS_MEMORY="$1"
    fi
    run_budget=$1 run_dir=$2 run_strace=$3 run_cmd=$5
    shift 5
    if [ "$run_strace" = 1 ]; then
        opts=""
        for var in "$@"; do opts="$opts -E $var"; done
        # shellcheck disable=SC2086  # the -E options are words
        (cd "$T/work" && timeout "$ORACLE_TIMEOUT" strace -f --seccomp-bpf -qq -y \
            -o "$run_dir.strace" -e "$ORACLE_TRACE" $opts sh -c "$run_cmd") \
            >"$run_dir.out" 2>"$run_dir.err"
    else
        (cd "$T/work" && timeout "$ORACLE_TIMEOUT" env "$@" sh -c "$run_cmd") \
            >"$run_dir.out" 2>"$run_dir.err"
    fi
    echo $? >"$run_dir.status"
    (cd "$T/work" && tree_digest) >"$run_dir.tree"
}

oracle_program() { # NAME SETUP CMD
    ORACLE_NAME=$1
    echo "== $1: $3"
    start=$(date +%s)
    oracle_fresh_work "$2"
    (cd "$T/work" && timeout "$ORACLE_TIMEOUT" sh -c "$3") >"$T/$1.plain.out" 2>"$T/$1.plain.err"
    echo $? >"$T/$1.plain.status"
    (cd "$T/work" && tree_digest) >"$T/$1.plain.tree"
    check_eq 0 "$(cat "$T/$1.plain.status")" "exit status of $1 untraced ($(head -c 300 "$T/$1.plain.err"))"
    for budget in $BUDGETS 64M; do
        dir=$T/$1-$budget
        # The union's reference needs no strace: its check compares ratios.
        traced=1
        [ "$budget" = 64M ] && traced=0
        oracle_run "$budget" "$dir" $traced "$2" "$3"
        eval "ORACLE_LOGS_$budget=\$dir"
        if [ "${ORACLE_KEEP_WORK:-0}" = 1 ]; then
            rm -rf "$dir.work"
            cp -a "$T/work" "$dir.work"
            eval "ORACLE_WORK_$budget=\$dir.work"
        fi
        what="$1 at budget $budget"
        check_eq "$(cat "$T/$1.plain.status")" "$(cat "$dir.status")" "exit status of $what"
        if cmp -s "$T/$1.plain.out" "$dir.out"; then pass; else
            fail "stdout of $what differs: $(diff "$T/$1.plain.out" "$dir.out" | head -n 5)"
        fi
        if cmp -s "$T/$1.plain.tree" "$dir.tree"; then pass; else
            fail "files made by $what differ: $(diff "$T/$1.plain.tree" "$dir.tree" | head -n 5)"
        fi
        check_eq "" "$(grep '^iolens:' "$dir.err")" "iolens messages on the stderr of $what"
        [ $traced = 1 ] || continue
        if "$PY" "$ORACLE_CHECKER" --strace "$dir.strace" --logdir "$dir" \
            --parser "$IOLENS_PARSER" --preload "$IOLENS_LIB" --name "$1/$budget" >"$dir.oracle"; then
            pass
        else
            fail "$what: iolens and strace differ:"
            grep '^DIFF' "$dir.oracle" | head -n 40
        fi
        grep '^TABLE' "$dir.oracle" >>"$T/table"
    done
    oracle_union "$1" "$2" "$3"
    oracle_memory_needed "$1" "$2" "$3"
    echo "== $1: $(($(date +%s) - start)) s"
}

# The union at the default budget (store compacted when full) must be
# within 2% of the one at 64M (nothing compacted), both as a ratio to the
# accesses' own time so that two runs' speeds cancel out.
oracle_union() { # NAME SETUP CMD
    [ -d "$T/$1-default" ] || return 0
    set -- "$1" $(union_ratio "$T/$1-default") $(union_ratio "$T/$1-64M")
    echo "UNION $1: default union/access $2 (union $3 s, access $4 s); 64M $5 (union $6 s, access $7 s)"
    if [ "$2" = - ] || [ "$5" = - ]; then
        echo "note: $1 has no POSIX accesses with time; union check not applicable"
        return 0
    fi
    if awk -v a="$2" -v b="$5" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.02 * b) }'; then
        pass
    else
        fail "$1: union time over access time at the default budget $2, at 64M $5 (more than 2% apart)"
    fi
}

oracle_memory_needed() { # NAME SETUP CMD
    small_dir=$T/$1-64K
    [ -d "$small_dir" ] || return 0
    needed=$(logs_header_max "$small_dir" "memory needed")
    check_gt "$needed" 0 "memory needed of $1 at 64K"
    oracle_run "$needed" "$T/$1-needed" 0 "$2" "$3"
    folded=$(logs_header_max "$T/$1-needed" "folded opens")
    echo "MEMORY $1: memory needed at 64K $needed; folded opens when fed back: $folded"
    check_eq 0 "$folded" "folded opens of $1 with the budget its 64K run said it needed ($needed)"
    check_eq 0 "$(logs_header_max "$T/$1-needed" "folded files")" \
        "folded files of $1 with the budget its 64K run said it needed ($needed)"
}

oracle_table() {
    echo "-- iolens/strace, totals over the traced files of each run (reads, writes and stats"
    echo "   compare file by file only where no stdio stream was used: see strace_oracle.py) --"
    cat "$T/table" 2>/dev/null
}
