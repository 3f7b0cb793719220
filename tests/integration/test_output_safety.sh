#!/bin/sh
# Every tool that writes a file (iolens-report -o, iolens-export
# --item-extract -o, --hdf5 and --sqlite, iolens-anonymize OUT) writes it
# through util/output/out_file.c, so it never follows a planted link:
#   - a symlink planted at the temporary name the tool once used
#     (OUT.tmp.PID) is not followed: its target is untouched;
#   - strace (an oracle not ours) shows the temporary created with
#     O_CREAT|O_EXCL|O_NOFOLLOW beside OUT and renamed onto OUT (HDF5: in a
#     mkdtemp directory; SQLite: the new database created empty with
#     O_EXCL|O_NOFOLLOW before SQLite opens it, so concurrent imports land);
#   - a name that is not a regular file (a symlink to /dev/null, a FIFO)
#     is written in place and stays what it was; - is standard output;
#   - a failed run leaves an existing OUT as it was and no temporary;
#   - OUT that is the log being read (the same file under any name) is
#     refused, and the log stays as it was.
. "$(dirname "$0")/common.sh"

for var in IOLENS_TESTBIN IOLENS_BUILDDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL
B=$IOLENS_BUILDDIR
log=$T/good.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" --intervals "$log" ||
    fail "make_test_log failed"
head -c 32 /dev/urandom >"$T/key"
have_sqlite=0 have_hdf5=0
"$B/iolens-export" --sqlite "$T/probe.db" "$log" 2>/dev/null && have_sqlite=1
"$B/iolens-export" --hdf5 "$T/probe.h5" "$log" 2>/dev/null && have_hdf5=1

# The command line of each tool writing OUT.
tool_cmd() {
    case $1 in
    report) echo "$B/iolens-report $log -o $2" ;;
    item) echo "$B/iolens-export --item-extract --series=POSIX --data=bytes_written -o $2 $log" ;;
    anonymize) echo "$B/iolens-anonymize --key-file $T/key $log $2" ;;
    sqlite) echo "$B/iolens-export --sqlite $2 $log" ;;
    hdf5) echo "$B/iolens-export --hdf5 $2 $log" ;;
    esac
}
tools="report item anonymize"
[ "$have_sqlite" = 1 ] && tools="$tools sqlite"
[ "$have_hdf5" = 1 ] && tools="$tools hdf5"

for tool in $tools; do
    out=$T/$tool.out
    rm -f "$out"
    # 1. A symlink at OUT.tmp.PID, the pid the tool will have (exec keeps
    #    the shell's): the old name.  Its target must stay as it was.
    echo "precious" >"$T/victim"
    # shellcheck disable=SC2016
    sh -c 'ln -s "$1" "$2.tmp.$$" && exec $3' sh "$T/victim" "$out" "$(tool_cmd "$tool" "$out")" \
        >/dev/null 2>&1
    check_eq 0 "$?" "exit status of $tool with a planted symlink"
    check_eq "precious" "$(cat "$T/victim")" "the planted symlink's target after $tool"
    [ -f "$out" ] && [ ! -L "$out" ] || fail "$tool did not write $out as a regular file"
    rm -f "$out".tmp.*
    check_eq "" "$(ls "$T" | grep -e '\.tmp' || true)" "temporaries left by $tool"

    # 2. strace: the temporary is made O_EXCL|O_NOFOLLOW beside OUT and
    #    renamed onto it (for HDF5 and SQLite, inside a mkdtemp directory).
    if command -v strace >/dev/null 2>&1; then
        rm -f "$out"
        # (LeakSanitizer cannot run under ptrace: off for this run)
        # shellcheck disable=SC2046
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o "$T/strace" -e trace=openat,open,rename,renameat,renameat2,mkdir \
            $(tool_cmd "$tool" "$out") >/dev/null 2>&1
        check_eq 0 "$?" "exit status of $tool under strace"
        case $tool in
        hdf5)
            grep -q "mkdir(\"$out.tmpdir-" "$T/strace" || fail "$tool: no private directory"
            grep -q "rename.*\"$out.tmpdir-[A-Za-z0-9]*/new\", .*\"$out\"" "$T/strace" ||
                fail "$tool: no rename onto $out" ;;
        sqlite)   # created empty, O_EXCL|O_NOFOLLOW, before SQLite opens it
            line=$(grep "openat(AT_FDCWD, \"$out\", .*O_CREAT" "$T/strace" | head -n 1)
            for flag in O_EXCL O_NOFOLLOW; do
                echo "$line" | grep -q "$flag" || fail "$tool: $out created without $flag: $line"
            done ;;
        *)
            line=$(grep "openat(AT_FDCWD, \"$out.tmp-" "$T/strace" | head -n 1)
            for flag in O_CREAT O_EXCL O_NOFOLLOW; do
                echo "$line" | grep -q "$flag" || fail "$tool: temporary opened without $flag: $line"
            done
            grep -q "rename.*\"$out.tmp-[0-9a-f]\{16\}\", .*\"$out\"" "$T/strace" ||
                fail "$tool: no rename of the temporary onto $out" ;;
        esac
        [ "$tool" = sqlite ] || ! grep -q "openat(AT_FDCWD, \"$out\", .*O_CREAT" "$T/strace" ||
            fail "$tool: opened $out itself with O_CREAT"
    fi
done

# 3. Not regular files: a symlink to /dev/null stays a symlink to it (the
#    old iolens-report replaced the name with a regular file; run as root
#    with -o /dev/null, /dev/null itself), and a FIFO gets the bytes.
for tool in report item anonymize; do
    ln -s /dev/null "$T/null"
    # shellcheck disable=SC2046
    $(tool_cmd "$tool" "$T/null") >/dev/null 2>&1
    check_eq 0 "$?" "exit status of $tool into a symlink to /dev/null"
    [ -L "$T/null" ] && [ "$(readlink "$T/null")" = /dev/null ] ||
        fail "$tool replaced the symlink to /dev/null"
    [ -c /dev/null ] || fail "/dev/null is no longer a character device after $tool"
    rm -f "$T/null"

    mkfifo "$T/fifo"
    cat "$T/fifo" >"$T/from-fifo" &
    reader=$!
    # shellcheck disable=SC2046
    $(tool_cmd "$tool" "$T/fifo") >/dev/null 2>&1
    check_eq 0 "$?" "exit status of $tool into a FIFO"
    wait "$reader"
    [ -p "$T/fifo" ] || fail "$tool replaced the FIFO"
    # shellcheck disable=SC2046
    $(tool_cmd "$tool" -) >"$T/from-stdout" 2>/dev/null
    check_eq 0 "$?" "exit status of $tool into -"
    if [ "$tool" = anonymize ]; then   # keyed, deterministic: the same bytes
        cmp -s "$T/from-fifo" "$T/from-stdout" || fail "$tool: the FIFO and - differ"
    else
        check_eq "$(wc -c <"$T/from-stdout")" "$(wc -c <"$T/from-fifo")" "$tool: bytes through the FIFO"
    fi
    check_gt "$(wc -c <"$T/from-stdout")" 100 "$tool: bytes written to -"
    rm -f "$T/fifo" "$T/from-fifo" "$T/from-stdout"
done

# 4. A failed run (an unreadable log) leaves OUT as it was, and nothing else.
echo "old report" >"$T/kept.html"
"$B/iolens-report" "$T/missing.iolens" -o "$T/kept.html" 2>/dev/null
check_eq 2 "$?" "exit status of iolens-report on a missing log"
check_eq "old report" "$(cat "$T/kept.html")" "OUT after a failed iolens-report"
# A directory that cannot be written: status 3 and one line, OUT untouched.
mkdir "$T/ro" && echo "old" >"$T/ro/out.html" && chmod 0555 "$T/ro"
if [ "$(id -u)" != 0 ]; then
    "$B/iolens-report" "$log" -o "$T/ro/out.html" 2>"$T/err"
    check_eq 3 "$?" "exit status of iolens-report into a read-only directory"
    check_eq 1 "$(wc -l <"$T/err")" "stderr lines into a read-only directory"
    check_eq "old" "$(cat "$T/ro/out.html")" "OUT in a read-only directory"
fi
chmod 0755 "$T/ro"

# 5. OUT that is the log being read (by its name, through a symlink to
#    it, or by a hard link) is refused: status 1, one line, the log as it
#    was.  OUT a symlink to the log is only a name, replaced: the log stays.
cp "$log" "$T/self.iolens"
ln -s "$T/self.iolens" "$T/self-link.iolens"
ln "$T/self.iolens" "$T/self-hard.iolens"
before=$(cksum <"$T/self.iolens")
for tool in report item anonymize; do
    for as in self.iolens self-hard.iolens; do
        # shellcheck disable=SC2046
        $(tool_cmd "$tool" "$T/$as" | sed "s|$log|$T/self-link.iolens|") >/dev/null 2>"$T/err"
        check_eq 1 "$?" "exit status of $tool writing over its log ($as)"
        check_eq 1 "$(wc -l <"$T/err" | tr -d ' ')" "stderr lines of $tool writing over its log ($as)"
        grep -q "$T/$as: is " "$T/err" || fail "$tool ($as): message '$(cat "$T/err")'"
        check_eq "$before" "$(cksum <"$T/self.iolens")" "the log after $tool refused to write over it ($as)"
    done
    # shellcheck disable=SC2046
    $(tool_cmd "$tool" "$T/self-link.iolens" | sed "s|$log|$T/self.iolens|") >/dev/null 2>&1
    check_eq 0 "$?" "exit status of $tool writing to a symlink to its log"
    [ -f "$T/self-link.iolens" ] && [ ! -L "$T/self-link.iolens" ] ||
        fail "$tool did not replace the symlink to its log"
    check_eq "$before" "$(cksum <"$T/self.iolens")" "the log after $tool replaced a symlink to it"
    rm -f "$T/self-link.iolens"
    ln -s "$T/self.iolens" "$T/self-link.iolens"
done
finish
