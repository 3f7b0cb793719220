#!/bin/sh
# A setuid program linked with libiolens (iolens(7),
# SECURITY): run by an unprivileged user, it is not traced at all, whatever
# the IOLENS_* variables say, so that the user cannot make it write or
# replace a file as root.  The positive control is the same program run
# by root itself (no secure execution), which does log.
. "$(dirname "$0")/common.sh"
iolens_setup
if [ "$(id -u)" != 0 ]; then
    echo "SKIP: needs root, to make a setuid-root program"
    exit 77
fi
if [ -z "${IOLENS_CC:-}" ] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
    echo "SKIP: needs \$IOLENS_CC, setpriv and the user nobody"
    exit 77
fi
group=$(id -gn nobody)

# A world-readable directory of root's (the build tree may not be
# readable by nobody): the library and the program, built against it.
W=$T/w
mkdir -p "$W/lib" && chmod 755 "$T" "$W" "$W/lib"
cp "$(dirname "$IOLENS_LIB")/libiolens.so" "$W/lib/libiolens.so" && chmod 755 "$W/lib/libiolens.so"
if ! "$IOLENS_CC" -o "$W/prog" "$IOLENS_SRCDIR/tests/integration/prog_writes.c" \
    -L"$W/lib" -liolens -Wl,-rpath,"$W/lib"; then
    fail "cannot build prog_writes against libiolens"
    finish
fi
chown root:root "$W/prog" && chmod 4755 "$W/prog"

# Root's file and root's private directory.
printf 'root data\n' >"$W/rootfile" && chmod 644 "$W/rootfile"
mkdir "$W/rootdir" && chmod 700 "$W/rootdir"

# Runs the setuid program as nobody with the environment $@.
as_nobody() {
    setpriv --reuid=nobody --regid="$group" --clear-groups \
        env IOLENS_NONMPI=1 "$@" "$W/prog" "$W/data" >"$T/out" 2>"$T/err"
}

as_nobody IOLENS_LOGFILE="$W/rootfile"
check_eq 0 "$?" "exit status of the setuid program with IOLENS_LOGFILE"
check_eq 4096000 "$(stat -c %s "$W/data")" "bytes the setuid program wrote (it ran as root)"
check_eq "root data" "$(cat "$W/rootfile")" "root's file named by IOLENS_LOGFILE"
check_eq "-rw-r--r-- root" "$(stat -c '%A %U' "$W/rootfile")" "mode and owner of root's file"
check_eq "" "$(find "$W" -maxdepth 1 -name 'rootfile?*')" "files beside root's file"
check_eq "" "$(cat "$T/err")" "stderr of the setuid program"
rm -f "$W/data"

as_nobody IOLENS_LOGDIR="$W/rootdir" IOLENS_MEMORY=bad
check_eq 0 "$?" "exit status of the setuid program with IOLENS_LOGDIR"
check_eq "" "$(ls -A "$W/rootdir")" "files in root's directory named by IOLENS_LOGDIR"
check_eq "" "$(cat "$T/err")" "stderr of the setuid program with a bad IOLENS_MEMORY"
rm -f "$W/data"

# The control: root runs it (real and effective uid alike): traced.
env IOLENS_NONMPI=1 IOLENS_LOGFILE="$W/control.iolens" "$W/prog" "$W/data" ||
    fail "the program run by root exited with status $?"
require_log "$W/control.iolens"
check_eq 1000 "$(counter "$W/control.iolens" "$W/data" POSIX_WRITES)" \
    "POSIX_WRITES when root runs the program (the control)"
finish
