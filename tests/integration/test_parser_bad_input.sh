#!/bin/sh
# iolens-parser on input that is not a usable log: exactly one line on
# stderr naming the file and the reason, nothing on stdout, exit status 2.
# Usage errors exit 1, output errors exit 1.
. "$(dirname "$0")/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL

good=$T/good.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" "$good" || fail "make_test_log failed"
size=$(wc -c <"$good")

# Runs the parser on FILE in every mode; expects status 2, no output and
# the one stderr line "iolens-parser: FILE: REASON".
expect_rejected() {
    file=$1
    reason=$2
    for mode in --base --total --file; do
        "$IOLENS_PARSER" $mode "$file" >"$T/out" 2>"$T/err"
        status=$?
        check_eq 2 "$status" "exit status of $mode on $(basename "$file")"
        check_eq 0 "$(wc -c <"$T/out")" "stdout bytes of $mode on $(basename "$file")"
        check_eq 1 "$(wc -l <"$T/err")" "stderr lines of $mode on $(basename "$file")"
        check_eq "iolens-parser: $file: $reason" "$(cat "$T/err")" "message for $(basename "$file")"
    done
}

# Copy of the good log with the byte at OFFSET xor-ed with 1.
flip_byte() {
    cp "$good" "$2"
    chmod u+w "$2"
    old=$(od -An -tu1 -j "$1" -N1 "$good" | tr -d ' ')
    # shellcheck disable=SC2059  # the format is the octal escape
    printf "\\$(printf '%03o' $((old ^ 1)))" |
        dd of="$2" bs=1 seek="$1" conv=notrunc 2>/dev/null
}

# Copy of the good log with a little-endian uint32 VALUE at OFFSET.
set_u32() {
    cp "$good" "$3"
    chmod u+w "$3"
    v=$2
    # shellcheck disable=SC2059
    printf "\\$(printf '%03o' $((v & 255)))\\$(printf '%03o' $((v >> 8 & 255)))\\$(printf '%03o' $((v >> 16 & 255)))\\$(printf '%03o' $((v >> 24 & 255)))" |
        dd of="$3" bs=1 seek="$1" conv=notrunc 2>/dev/null
}

# The good log itself is accepted (so the rejections below mean something).
"$IOLENS_PARSER" "$good" >/dev/null 2>"$T/err"
check_eq 0 "$?" "exit status on the good log"

: >"$T/empty"
expect_rejected "$T/empty" "truncated: empty file"

awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", 1 + int(rand() * 255) }' >"$T/random"
expect_rejected "$T/random" "not an iolens log"

printf 'POSIX\t0\t1\tPOSIX_OPENS\t1\t/a\t/\text4\n' >"$T/text"
expect_rejected "$T/text" "not an iolens log"

head -c 20 "$good" >"$T/short-header"
expect_rejected "$T/short-header" "truncated: 20 bytes, shorter than the header"

head -c 100 "$good" >"$T/short-table"
expect_rejected "$T/short-table" "truncated: the region table ends past the end of the file"

head -c $((size - 1)) "$good" >"$T/truncated"
expect_rejected "$T/truncated" \
    "truncated: region 9 (MPIIO) ends past the end of the file ($((size - 1)) bytes)"

flip_byte $((size - 5)) "$T/crc-region"
expect_rejected "$T/crc-region" "CRC mismatch in region 9 (MPIIO)"

flip_byte 16 "$T/crc-header" # the flags
expect_rejected "$T/crc-header" "CRC mismatch in the header"

set_u32 8 4 "$T/version"
expect_rejected "$T/version" "unsupported format version 4 (this reader knows 3)"

set_u32 12 67305985 "$T/byte-order" # 0x04030201
expect_rejected "$T/byte-order" "unsupported byte order (mark 0x04030201)"

expect_rejected "$T/does-not-exist" "No such file or directory"
mkdir "$T/dir"
expect_rejected "$T/dir" "Is a directory"
if [ "$(id -u)" != 0 ]; then
    cp "$good" "$T/unreadable"
    chmod 000 "$T/unreadable"
    expect_rejected "$T/unreadable" "Permission denied"
fi

# --------------------------------------------------------- usage errors --
expect_usage_error() {
    "$IOLENS_PARSER" "$@" >"$T/out" 2>"$T/err"
    check_eq 1 "$?" "exit status of iolens-parser $*"
    check_eq 0 "$(wc -c <"$T/out")" "stdout bytes of iolens-parser $*"
    check_eq 1 "$(grep -c '^usage: iolens-parser' "$T/err")" "usage message of iolens-parser $*"
}
expect_usage_error
expect_usage_error --base
expect_usage_error --bogus "$good"
expect_usage_error --base --total "$good"
expect_usage_error --list-counters "$good"

# A batch: the bad log gets its one line, the good ones are still printed,
# and the status says a log was bad.
"$IOLENS_PARSER" --total "$good" "$T/missing.iolens" "$good" >"$T/out" 2>"$T/err"
check_eq 2 "$?" "exit status of a batch with one missing log"
check_eq 2 "$(grep -c "^# iolens log format version" "$T/out")" "both good logs of the batch are printed"
check_eq "iolens-parser: $T/missing.iolens: No such file or directory" "$(cat "$T/err")" \
    "the batch's one error line"
"$IOLENS_PARSER" --total "$good" >"$T/one"
"$IOLENS_PARSER" --total "$good" "$good" >"$T/two"
check_eq $(($(wc -l <"$T/one") * 2 + 1)) "$(wc -l <"$T/two")" \
    "two logs print twice the lines of one, with a blank line between"

"$IOLENS_PARSER" --help >"$T/out" 2>"$T/err"
check_eq 0 "$?" "exit status of --help"
check_eq 1 "$(grep -c '^usage: iolens-parser' "$T/out")" "--help prints the usage on stdout"
check_eq 0 "$(wc -c <"$T/err")" "--help writes nothing on stderr"

# Input that is not a log is refused at its first bytes, by every tool,
# however much follows: /dev/zero never ends (before, the tools read it up
# to the limit: 1.2 GB and 2 GB of memory with the default one).  A
# regular file larger than a log within the limit can be is refused from
# its size, before it is read.  The 1 MiB limit makes a tool that still
# read on say so in its message.
B=${IOLENS_BUILDDIR:?}
head -c 32 /dev/zero >"$T/key"
truncate -s 64M "$T/big.iolens" && printf 'IOLENS\r\n' | dd of="$T/big.iolens" conv=notrunc status=none ||
    fail "cannot make a 64 MiB sparse file"
# big_refused TOOL INPUT ARGS...: TOOL on INPUT exits 2 with one line.
big_refused() {
    tool=$1 input=$2
    shift 2
    IOLENS_MAX_LOG_SIZE=1M "$B/iolens-$tool" "$@" >"$T/out" 2>"$T/err" </dev/null
    check_eq 2 "$?" "exit status of iolens-$tool $* on $input"
    case $input:$tool:$1 in
    /dev/zero:*) reason="not an iolens log" ;;
    # --base reads a regular file with pread: its header, then stops
    *:parser:--base) reason="unsupported byte order (mark 0x00000000)" ;;
    *) reason="67108864 bytes, more than a log within the limit can hold (IOLENS_MAX_LOG_SIZE)" ;;
    esac
    check_eq "iolens-$tool: $input: $reason" "$(cat "$T/err")" "message of iolens-$tool $* on $input"
}
for input in /dev/zero "$T/big.iolens"; do
    big_refused parser "$input" --base "$input"
    big_refused parser "$input" --perf "$input"
    big_refused report "$input" -o "$T/r.html" "$input"
    big_refused diff "$input" "$input" "$good"
    big_refused anonymize "$input" --key-file "$T/key" "$input" "$T/anon.iolens"
    big_refused export "$input" --sqlite "$T/db.sqlite" "$input"
done
[ -e "$T/anon.iolens" ] && fail "iolens-anonymize left an output for a refused log"

# A full output device is an error, not a silent success.
if [ -w /dev/full ]; then
    "$IOLENS_PARSER" "$good" >/dev/full 2>"$T/err"
    check_eq 1 "$?" "exit status when stdout is full"
    check_eq 1 "$(grep -c '^iolens-parser: error writing output: ' "$T/err")" \
        "message when stdout is full"
fi

finish
