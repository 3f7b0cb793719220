#!/bin/sh
# iolens-anonymize: the output reads back, its totals and every counter
# are the input's, the same key gives the same bytes and another key other
# names, no original name is left anywhere in the output (its regions
# decompressed), and a bad key or input is one line and exit status 2.
. "$(dirname "$0")/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN IOLENS_BUILDDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
ANON=$IOLENS_BUILDDIR/iolens-anonymize
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL

in=$T/in.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" --hdf5 --intervals --intervals-extra \
    "$in" || fail "make_test_log failed"
printf 'a site secret of 32 bytes.......\n' >"$T/key1"
head -c 24 /dev/urandom >"$T/key2"

"$ANON" --key-file "$T/key1" "$in" "$T/out1.iolens" 2>"$T/err"
check_eq 0 "$?" "exit status of iolens-anonymize"
# make_test_log's log has one region of an unknown kind (99): left out.
check_eq "iolens-anonymize: $in: left out 1 region of a kind this tool does not know" \
    "$(cat "$T/err")" "stderr of iolens-anonymize"
"$IOLENS_PARSER" --base "$T/out1.iolens" >"$T/out1.base" 2>"$T/err"
check_eq 0 "$?" "the parser reads the anonymized log"
"$IOLENS_PARSER" --base "$in" >"$T/in.base"

# Totals: identical.
"$IOLENS_PARSER" --total "$in" | grep '^total_' >"$T/in.total"
"$IOLENS_PARSER" --total "$T/out1.iolens" | grep '^total_' >"$T/out1.total"
check_gt "$(wc -l <"$T/in.total")" 100 "total lines of the input"
if cmp -s "$T/in.total" "$T/out1.total"; then pass; else fail "totals differ: $(diff "$T/in.total" "$T/out1.total" | head -5)"; fi
# Every counter of every record (layer, rank, counter, value), the record
# ids and H5D_FILE_REC_ID aside: identical as a multiset.
records() { grep -v '^#' "$1" | awk -F'\t' '$4 != "H5D_FILE_REC_ID" { print $1, $2, $4, $5 }' | sort; }
records "$T/in.base" >"$T/in.rec"
records "$T/out1.base" >"$T/out1.rec"
check_gt "$(wc -l <"$T/in.rec")" 300 "counter lines of the input"
if cmp -s "$T/in.rec" "$T/out1.rec"; then pass; else fail "counters differ"; fi
# A dataset keeps naming its file: each nonzero H5D_FILE_REC_ID of the
# output is the (new) id of an H5F record, never an id of the input.
file_links() {
    awk -F'\t' '$1 == "H5F" { f[$3] = 1 }
        $4 == "H5D_FILE_REC_ID" && $5 != 0 { n++; if ($5 in f) ok++ }
        END { printf "%d %d\n", n, ok }' "$1"
}
check_eq "2 2" "$(file_links "$T/in.base")" "H5D records naming an H5F record, input"
check_eq "2 2" "$(file_links "$T/out1.base")" "H5D records naming an H5F record, anonymized"
in_ids=$(awk -F'\t' '$1 == "H5F" { print $3 }' "$T/in.base" | sort -u)
out_ids=$(awk -F'\t' '$1 == "H5F" { print $3 }' "$T/out1.base" | sort -u)
[ -n "$in_ids" ] && [ "$in_ids" != "$out_ids" ] || fail "H5F ids not rewritten"
# The header facts that are kept.
for key in nprocs nnodes pid start_time end_time run_time "iolens version" "mpi library" \
    "memory budget" "folded opens"; do
    a=$(grep "^# $key:" "$T/in.base")
    b=$(grep "^# $key:" "$T/out1.base")
    check_eq "$a" "$b" "header line '$key' after anonymizing"
done
# Hidden: user, uid, job id, executable and arguments, hosts, paths.
check_eq "# user: u" "$(grep '^# user:' "$T/out1.base" | cut -c1-9)" "user line"
case $(grep '^# user:' "$T/out1.base") in "# user: u"????????????????) pass ;; *) fail "user not a 16-digit hash" ;; esac
case $(grep '^# jobid:' "$T/out1.base") in "# jobid: j"????????????????) pass ;; *) fail "job id not hashed" ;; esac
[ "$(grep '^# uid:' "$T/out1.base")" != "# uid: 1000" ] || fail "uid kept"
pass
# The mounts keep their types and sizes; the points are hashed, the root kept.
check_eq "/ ext4 4096" "$(grep '^# mount: /	' "$T/out1.base" | cut -f1-3 | sed 's/^# mount: //; s/	/ /g')" "root mount"
check_eq "$(grep -c '^# mount:' "$T/in.base")" "$(grep -c '^# mount:' "$T/out1.base")" "mounts"

# No original name anywhere: neither in the parser's output nor in any
# region's decompressed bytes.
for word in alice /opt/app sim "in put" node001 node002 scratch "home dir" out.dat ckpt.dat \
    cfg temp pressure .h5; do
    check_eq 0 "$(grep -c -F "$word" "$T/out1.base")" "'$word' in the anonymized log's --base output"
done
if command -v python3 >/dev/null 2>&1; then
    python3 - "$T/out1.iolens" >"$T/raw" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
count = struct.unpack_from("<I", data, 28)[0]
out = sys.stdout.buffer
for i in range(count):
    kind, ver, off, stored, raw, crc, comp = struct.unpack_from("<IIQQQII", data, 40 + 40 * i)
    out.write(zlib.decompress(data[off:off + stored]))
PY
    check_gt "$(wc -c <"$T/raw")" 5000 "decompressed bytes of the anonymized log"
    for word in alice /opt/app /bin/sim "in put" node00 scratch "home dir" out.dat ckpt.dat cfg; do
        check_eq 0 "$(grep -c -a -F "$word" "$T/raw")" "'$word' in the anonymized log's regions"
    done
fi

# The same key: the same bytes.  Another key: other names, same totals.
"$ANON" --key-file "$T/key1" "$in" "$T/again.iolens" 2>/dev/null
if cmp -s "$T/out1.iolens" "$T/again.iolens"; then pass; else fail "same key, different output"; fi
"$ANON" --key-file "$T/key2" "$in" "$T/out2.iolens" 2>/dev/null
check_eq 0 "$?" "exit status with the second key"
"$IOLENS_PARSER" --base "$T/out2.iolens" >"$T/out2.base"
names1=$(grep -v '^#' "$T/out1.base" | cut -f6 | sort -u)
names2=$(grep -v '^#' "$T/out2.base" | cut -f6 | sort -u)
check_eq "$(echo "$names1" | wc -l)" "$(echo "$names2" | wc -l)" "distinct names with either key"
check_eq 0 "$(printf '%s\n%s\n' "$names1" "$names2" | sort | uniq -d | grep -c '^/')" \
    "paths common to the two keys' outputs"
"$IOLENS_PARSER" --total "$T/out2.iolens" | grep '^total_' >"$T/out2.total"
if cmp -s "$T/in.total" "$T/out2.total"; then pass; else fail "totals differ with the second key"; fi

# ------------------------------------------------------------- failures --
expect_failure() { # STATUS MESSAGE ARGS...
    want=$1
    msg=$2
    shift 2
    rm -f "$T/bad-out.iolens"
    "$ANON" "$@" >"$T/out" 2>"$T/err"
    check_eq "$want" "$?" "exit status of iolens-anonymize $*"
    check_eq "$msg" "$(cat "$T/err")" "message of iolens-anonymize $*"
    check_eq 0 "$(wc -c <"$T/out")" "stdout of iolens-anonymize $*"
    [ -e "$T/bad-out.iolens" ] && fail "output written by a failed iolens-anonymize $*"
    check_eq 0 "$(ls "$T" | grep -c '\.tmp-')" "temporary files after iolens-anonymize $*"
}
expect_failure 2 "iolens-anonymize: key file $T/nokey: No such file or directory" \
    --key-file "$T/nokey" "$in" "$T/bad-out.iolens"
printf 'short\n' >"$T/short"
expect_failure 2 "iolens-anonymize: key file $T/short: 5 bytes, a key needs at least 16" \
    --key-file "$T/short" "$in" "$T/bad-out.iolens"
: >"$T/empty"
expect_failure 2 "iolens-anonymize: key file $T/empty: 0 bytes, a key needs at least 16" \
    --key-file "$T/empty" "$in" "$T/bad-out.iolens"
head -c 5000 /dev/zero >"$T/long"
expect_failure 2 "iolens-anonymize: key file $T/long: longer than 4096 bytes" \
    --key-file "$T/long" "$in" "$T/bad-out.iolens"
mkdir "$T/keydir"
expect_failure 2 "iolens-anonymize: key file $T/keydir: Is a directory" \
    --key-file "$T/keydir" "$in" "$T/bad-out.iolens"
head -c 100 "$in" >"$T/cut.iolens"
expect_failure 2 "iolens-anonymize: $T/cut.iolens: truncated: the region table ends past the end of the file" \
    --key-file "$T/key1" "$T/cut.iolens" "$T/bad-out.iolens"
expect_failure 2 "iolens-anonymize: $T/none.iolens: No such file or directory" \
    --key-file "$T/key1" "$T/none.iolens" "$T/bad-out.iolens"
"$ANON" "$in" "$T/bad-out.iolens" >"$T/out" 2>"$T/err"
check_eq 1 "$?" "exit status without --key-file"
check_eq 1 "$(grep -c '^usage: iolens-anonymize' "$T/err")" "usage line without --key-file"
finish
