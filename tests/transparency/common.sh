# Shared part of the transparency tests: a real,
# unmodified program must behave the same traced and untraced.  Sourced
# after tests/integration/common.sh by test_*.sh here.
#
#   need PROG...        skip (77), naming it, if a program is missing
#   transparent NAME SETUP CMD
#                       twice, in the same fresh directory $T/work made
#                       by the shell function SETUP: `sh -c CMD` untraced,
#                       then traced (LD_PRELOAD, IOLENS_NONMPI=1, logs in
#                       a directory of their own).  Checks the same exit
#                       status, the same stdout, the same files (types,
#                       names and sha256 of the tree, minus the paths
#                       matching $EXCLUDE, a grep -E pattern), no iolens
#                       message on stderr, and that the traced run left
#                       logs that all parse.  LOGS is the log directory.

need() {
    for prog in "$@"; do
        if ! command -v "$prog" >/dev/null 2>&1; then
            echo "SKIP: $prog is not installed"
            exit 77
        fi
    done
}

EXCLUDE=${EXCLUDE:-'^$'}

# Types and names of everything under the current directory, then the
# sha256 of every regular file, in a fixed order.
tree_digest() {
    find . -mindepth 1 -printf '%y %p\n' | LC_ALL=C sort | grep -Ev "$EXCLUDE"
    # One sha256sum for many files (not one each: the oracle's trees hold
    # 10,000 files); the same lines as sha256sum FILE, in the same order.
    find . -type f -print | LC_ALL=C sort | grep -Ev "$EXCLUDE" | tr '\n' '\0' |
        xargs -0 -r sha256sum
}

run_once() { # RUN SETUP CMD
    rm -rf "$T/work"
    mkdir "$T/work"
    if ! (cd "$T/work" && "$2"); then
        fail "setting up $1"
        finish
    fi
    if [ "$1" = plain ]; then
        (cd "$T/work" && sh -c "$3") >"$T/$1.out" 2>"$T/$1.err"
    else
        (cd "$T/work" && env IOLENS_NONMPI=1 IOLENS_LOGDIR="$LOGS" LD_PRELOAD="$IOLENS_LIB" \
            sh -c "$3") >"$T/$1.out" 2>"$T/$1.err"
    fi
    echo $? >"$T/$1.status"
    (cd "$T/work" && tree_digest) >"$T/$1.tree"
}

transparent() {
    name=$1
    LOGS=$T/logs
    rm -rf "$LOGS"
    mkdir "$LOGS"
    run_once plain "$2" "$3"
    run_once traced "$2" "$3"
    check_eq "$(cat "$T/plain.status")" "$(cat "$T/traced.status")" "exit status of $name"
    check_gt "$(wc -c <"$T/plain.out")" 0 "size of the stdout of $name"
    if cmp -s "$T/plain.out" "$T/traced.out"; then
        pass
    else
        fail "stdout of $name differs: $(diff "$T/plain.out" "$T/traced.out" | head -n 5)"
    fi
    if cmp -s "$T/plain.tree" "$T/traced.tree"; then
        pass
    else
        fail "files made by $name differ: $(diff "$T/plain.tree" "$T/traced.tree" | head -n 5)"
    fi
    check_eq "" "$(grep '^iolens:' "$T/traced.err")" "iolens messages on the stderr of $name"
    nlogs=$(ls "$LOGS" | grep -c '\.iolens$')
    check_gt "$nlogs" 0 "logs left by $name"
    for log in "$LOGS"/*.iolens; do
        [ -e "$log" ] || continue
        if ! "$IOLENS_PARSER" --total "$log" >"$log.total" 2>"$log.err"; then
            fail "log of $name does not parse: $log: $(cat "$log.err")"
        fi
    done
}

# Sum of total_COUNTER over the logs of the last run.
logs_total() {
    cat "$LOGS"/*.iolens.total | awk -v c="total_$1:" '$1 == c { s += $2 } END { print s + 0 }'
}
