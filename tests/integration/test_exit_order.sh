#!/bin/sh
# What a process writes while it ends, after the program's own exit
# handlers, is in its log: a library's destructor that writes a file (as
# a C++ library's static destructors may), and the Fortran runtime, which
# writes out the units a program left open (Fortran needs no CLOSE) from
# its destructor.  libiolens's destructor runs before theirs; the log is
# written after every destructor.  The oracle is the files' own sizes.
. "$(dirname "$0")/common.sh"
iolens_setup
if [ -z "${IOLENS_CC:-}" ]; then
    echo "SKIP: needs \$IOLENS_CC"
    exit 77
fi

# ------------------------------------------ a library's destructor --
SRC=$IOLENS_SRCDIR/tests/integration/prog_exit_lib.c
mkdir "$T/lib" "$T/lib.logs"
if ! "$IOLENS_CC" -shared -fPIC -o "$T/lib/libexitlib.so" "$SRC" ||
    ! "$IOLENS_CC" -DEXIT_LIB_MAIN -o "$T/lib/exit_main" "$SRC" -L"$T/lib" -lexitlib \
        -Wl,-rpath,"$T/lib"; then
    fail "compiling $SRC"
    finish
fi
EXIT_LIB_FILE=$T/lib/at_exit.dat IOLENS_NONMPI=1 IOLENS_LOGFILE="$T/lib.logs/main.iolens" \
    LD_PRELOAD="$IOLENS_LIB" "$T/lib/exit_main"
check_eq 0 "$?" "exit status of exit_main"
check_eq 123 "$(wc -c <"$T/lib/at_exit.dat" | tr -d ' ')" "size of the destructor's file"
LOG=$T/lib.logs/main.iolens
require_log "$LOG"
expect_counters "$LOG" "$T/lib/at_exit.dat" <<END
POSIX_OPENS 1
POSIX_WRITES 3
POSIX_BYTES_WRITTEN 123
END
check_gt "$(counter "$LOG" "$T/lib/at_exit.dat" POSIX_F_CLOSE_END_TIMESTAMP)" 0 \
    "the destructor's close"

# ------------------------------------------- Fortran's open units --
if ! command -v gfortran >/dev/null 2>&1; then
    echo "note: no gfortran: the Fortran part is not run"
    finish
fi
mkdir "$T/f" "$T/f.logs"
if ! gfortran -o "$T/f/units" "$IOLENS_SRCDIR/tests/integration/prog_fortran_units.f90"; then
    fail "compiling prog_fortran_units.f90"
    finish
fi
out=$(IOLENS_NONMPI=1 IOLENS_LOGFILE="$T/f.logs/units.iolens" LD_PRELOAD="$IOLENS_LIB" \
    "$T/f/units" "$T/f")
check_eq 0 "$?" "exit status of prog_fortran_units"
check_eq " done" "$out" "output of prog_fortran_units"
check_eq 700 "$(wc -c <"$T/f/out.txt" | tr -d ' ')" "size of out.txt"
LOG=$T/f.logs/units.iolens
require_log "$LOG"
expect_counters "$LOG" "$T/f/out.txt" <<END
POSIX_OPENS 1
POSIX_BYTES_WRITTEN 700
END
check_eq 6 "$(base_of "$LOG" | awk -F'\t' '$1 == "POSIX" && $6 == "<STDOUT>" &&
    $4 == "POSIX_BYTES_WRITTEN" { print $5 }')" "bytes of \" done\" and its newline on stdout"
finish
