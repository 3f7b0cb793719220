#!/bin/sh
# The runtime (lib/) never calls a function that iolens intercepts by its
# name: in the preloaded library such a call would bind to iolens's own
# wrapper, an arrow running from the core back up to the wrappers
# (ARCHITECTURE.md).  It calls the real one through IOLENS_REAL.  The
# wrappers may call each other (execl passes to the execv wrapper).
#
# Oracle: the symbols each runtime object leaves undefined (nm -u) against
# the one list of intercepted functions, IOLENS_REAL_CALLS in
# lib/core/real_calls.h.
. "$(dirname "$0")/common.sh"
iolens_setup

if ! command -v nm >/dev/null 2>&1; then
    echo "SKIP: nm (binutils) is not installed"
    exit 77
fi

sed -n '/^#define IOLENS_REAL_CALLS_POSIX(X)/,/^#define IOLENS_REAL_CALLS(X)/p' \
    "$IOLENS_SRCDIR/lib/core/real_calls.h" |
    sed -n 's/^ *X(\([a-z_0-9]*\),.*/\1/p' | sort -u >"$T/intercepted"
# The list must have been read: open, sigaction and execve are in it.
for name in open sigaction execve; do
    check_eq 1 "$(grep -cx "$name" "$T/intercepted")" "$name in the list of intercepted functions"
done

# The runtime's objects, as libtool built them for libiolens.so.
find "$IOLENS_BUILDDIR/lib" -path '*/.libs/*' -name '*.o' | sort >"$T/objects"
if [ "$(wc -l <"$T/objects")" -lt 20 ]; then
    fail "only $(wc -l <"$T/objects") runtime objects under $IOLENS_BUILDDIR/lib (expected at least 20)"
fi

: >"$T/by_name"
while read -r obj; do
    nm -u "$obj" | awk '{print $NF}' | sed 's/@.*//' | sort -u |
        comm -12 - "$T/intercepted" | sed "s|^|${obj#"$IOLENS_BUILDDIR"/}: |" >>"$T/by_name"
done <"$T/objects"
check_eq "" "$(cat "$T/by_name")" "intercepted functions the runtime calls by name"

# The check can fail: an object that calls fstat by name is caught.
printf '#include <sys/stat.h>\nint probe(int fd) { struct stat st; return fstat(fd, &st); }\n' \
    >"$T/probe.c"
if ${IOLENS_CC:-cc} -c -o "$T/probe.o" "$T/probe.c"; then
    check_eq fstat "$(nm -u "$T/probe.o" | awk '{print $NF}' | sed 's/@.*//' |
        comm -12 - "$T/intercepted")" "a probe object calling fstat by name"
else
    fail "compiling the probe object"
fi
finish
