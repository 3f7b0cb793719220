#!/bin/sh
# Unmodified system binaries (cp, dd) traced: exact bytes.
. "$(dirname "$0")/common.sh"
iolens_setup

for tool in cp dd; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed"
        exit 77
    fi
done
src=$T/src
head -c 100000 /dev/urandom >"$src" || fail "cannot make the input"

# dd bs=4096: 24 full blocks, one of 1696, one 0-byte read at end of file.
log=$T/dd.iolens
run_traced "$log" dd if="$src" of="$T/dd_out" bs=4096 status=none || fail "dd exited with status $?"
require_log "$log"
expect_counters "$log" "$src" <<END
POSIX_OPENS 1
POSIX_READS 26
POSIX_BYTES_READ 100000
POSIX_MAX_BYTE_READ 99999
POSIX_CONSEC_READS 25
POSIX_SIZE_READ_0_100 1
POSIX_SIZE_READ_1K_10K 25
POSIX_WRITES 0
END
expect_counters "$log" "$T/dd_out" <<END
POSIX_OPENS 1
POSIX_WRITES 25
POSIX_BYTES_WRITTEN 100000
POSIX_MAX_BYTE_WRITTEN 99999
POSIX_CONSEC_WRITES 24
POSIX_ACCESS1_ACCESS 4096
POSIX_ACCESS1_COUNT 24
POSIX_ACCESS2_ACCESS 1696
POSIX_ACCESS2_COUNT 1
POSIX_READS 0
END

# dd with skip and seek: reads at 5000.., writes at 3000.., the output
# truncated at 3000 first.
log=$T/dd_seek.iolens
run_traced "$log" dd if="$src" of="$T/dd_seek_out" bs=1000 count=10 skip=5 seek=3 status=none ||
    fail "dd (skip/seek) exited with status $?"
require_log "$log"
expect_counters "$log" "$src" <<END
POSIX_READS 10
POSIX_BYTES_READ 10000
POSIX_MAX_BYTE_READ 14999
POSIX_CONSEC_READS 9
END
expect_counters "$log" "$T/dd_seek_out" <<END
POSIX_WRITES 10
POSIX_BYTES_WRITTEN 10000
POSIX_MAX_BYTE_WRITTEN 12999
POSIX_TRUNCATES 1
END

# cp copying through a buffer (read/write).
log=$T/cp.iolens
run_traced "$log" cp --reflink=never "$src" "$T/cp_out" || fail "cp exited with status $?"
require_log "$log"
check_eq 100000 "$(counter "$log" "$src" POSIX_BYTES_READ)" "POSIX_BYTES_READ of cp's source"
check_eq 100000 "$(counter "$log" "$T/cp_out" POSIX_BYTES_WRITTEN)" "POSIX_BYTES_WRITTEN of cp's copy"
check_eq 1 "$(counter "$log" "$T/cp_out" POSIX_OPENS)" "POSIX_OPENS of cp's copy"

# Plain cp: coreutils copies in the kernel (copy_file_range), which is
# counted too -- unless the file system clones the file (btrfs, xfs ...),
# in which case no byte moves at all.
case $(stat -f -c %T "$T") in
btrfs | xfs | bcachefs | ocfs2 | zfs) echo "note: $(stat -f -c %T "$T") may clone; plain cp not checked" ;;
*)
    log=$T/cp_plain.iolens
    run_traced "$log" cp "$src" "$T/cp_plain_out" || fail "cp exited with status $?"
    require_log "$log"
    check_eq 100000 "$(counter "$log" "$src" POSIX_BYTES_READ)" "POSIX_BYTES_READ of plain cp's source"
    check_eq 100000 "$(counter "$log" "$T/cp_plain_out" POSIX_BYTES_WRITTEN)" \
        "POSIX_BYTES_WRITTEN of plain cp's copy"
    ;;
esac
cmp -s "$src" "$T/cp_out" || fail "cp's copy differs from the source under tracing"
finish
