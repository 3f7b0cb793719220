#!/bin/sh
# Decompression is bounded (util/reader/reader.c, inflate_region): a region whose
# stream expands past its declared raw size, one whose declared size is
# impossible for its stored bytes (above deflate's ~1032:1), and one above
# the 1 GiB cap are each rejected with one message and exit status 2,
# quickly and without allocating what the stream would expand to.  Every
# CRC is correct, so only the size checks stand in the way.
. "$(dirname "$0")/../integration/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to craft the logs"; exit 77; }
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
good=$T/good.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" "$good" || fail "make_test_log failed"

# bomb.py GOOD OUT MODE: replaces the first POSIX region (kind 16) by a
# zlib stream of 64 MiB of zeros (65 KiB stored) and declares its raw size
# per MODE: "small" 4096 (the stream is far longer), "ratio" 2000 times
# the stored size, "cap" 2 GiB; then fixes the region and header CRCs.
cat >"$T/bomb.py" <<'PY'
import struct, sys, zlib
good, out, mode = sys.argv[1:4]
data = bytearray(open(good, "rb").read())
count = struct.unpack_from("<I", data, 28)[0]
table = [list(struct.unpack_from("<IIQQQII", data, 40 + 40 * i)) for i in range(count)]
victim = next(i for i, t in enumerate(table) if t[0] == 16)
bomb = zlib.compress(bytes(64 << 20), 9)
raw = {"small": 4096, "ratio": 2000 * len(bomb), "cap": 2 << 30}[mode]
body = bytearray()
start = 40 + 40 * count
for i, t in enumerate(table):
    chunk = bomb if i == victim else bytes(data[t[2]:t[2] + t[3]])
    t[2] = start + len(body)
    t[3] = len(chunk)
    if i == victim:
        t[4] = raw
    t[5] = zlib.crc32(chunk) & 0xffffffff
    body += chunk
head = bytearray(data[:40])
struct.pack_into("<I", head, 32, 0)
packed = b"".join(struct.pack("<IIQQQII", *t) for t in table)
crc = zlib.crc32(bytes(head) + packed) & 0xffffffff
struct.pack_into("<I", head, 32, crc)
open(out, "wb").write(bytes(head) + packed + bytes(body))
print(victim, len(bomb))
PY

for mode in small ratio cap; do
    set -- $(python3 "$T/bomb.py" "$good" "$T/$mode.iolens" "$mode")
    region=$1
    stored=$2
    check_gt "$stored" 60000 "stored size of the bomb ($mode)"
    # (No ulimit -v here: it would stop AddressSanitizer under check-sanitize.)
    "$IOLENS_PARSER" --total "$T/$mode.iolens" >"$T/out" 2>"$T/err"
    check_eq 2 "$?" "exit status on the $mode bomb"
    check_eq 0 "$(wc -c <"$T/out")" "stdout on the $mode bomb"
    case $mode in
    small) reason="corrupt region $region (POSIX): does not decompress to its 4096 bytes" ;;
    ratio) reason="corrupt region $region (POSIX): raw size $((2000 * stored)) is impossible for $stored stored bytes" ;;
    cap) reason="corrupt region $region (POSIX): raw size 2147483648 is too large" ;;
    esac
    check_eq "iolens-parser: $T/$mode.iolens: $reason" "$(cat "$T/err")" "message on the $mode bomb"
done
finish
