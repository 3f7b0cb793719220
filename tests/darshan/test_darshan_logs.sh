#!/bin/sh
# Darshan logs read by every tool (issue 20), checked against what Darshan's
# own tools printed for the same logs: the fixtures of
# ../shared/fixtures/darshan (Darshan 3.5.0, log format 3.41; README.md
# there says how each was made) with darshan-parser's --base, --total and
# --perf outputs and darshan-dxt-parser's trace.
#   - every counter both formats define equals darshan-parser --base, and
#     every Darshan counter iolens lacks is in the dump under its name;
#   - totals equal --total (but the rank statistics, whose merge rules
#     differ: iolens-parser(1), --total);
#   - each module's agg_perf_by_slowest equals --perf's to 6 digits;
#   - BPS from the DXT fixture uses the union of its segments, computed
#     here from the log's bytes by an independent decoder that agrees with
#     darshan-dxt-parser's listing; without DXT, BPS is said to be not
#     available and the Intrepid fallback is given;
#   - the partial fixture is read and labelled partial in every output;
#   - damaged copies (truncated, flipped bytes) exit 2 with one line.
. "$IOLENS_SRCDIR/tests/integration/common.sh"
iolens_setup

# The fixtures live beside the project (../shared): look up from the
# source directory, so that a worktree deeper down finds them too.
FIX=${IOLENS_DARSHAN_FIXTURES:-}
if [ -z "$FIX" ]; then
    dir=$IOLENS_SRCDIR
    while [ "$dir" != "/" ] && [ -n "$dir" ]; do
        if [ -d "$dir/../shared/fixtures/darshan" ]; then
            FIX=$(cd "$dir/../shared/fixtures/darshan" && pwd)
            break
        fi
        dir=$(dirname "$dir")
    done
fi
if [ -z "$FIX" ] || [ ! -f "$FIX/serial-dd.darshan" ]; then
    echo "SKIP: no Darshan fixtures (../shared/fixtures/darshan above $IOLENS_SRCDIR)"
    exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 (the comparison with darshan-parser's output) is missing"
    exit 77
fi
CMP="python3 $IOLENS_SRCDIR/tests/darshan/darshan_compare.py"
P=$IOLENS_PARSER
LOGS="serial-dd ior-posix-fpp ior-mpiio-coll ior-mpiio-coll-bzip2 ior-hdf5 ior-posix-dxt"

# The rank statistics: --total computes them over the records (each
# record one rank), darshan-parser --total over its own merge.
rank_stats() {
    for L in POSIX MPIIO STDIO H5F H5D; do
        printf '%s ' "${L}_FASTEST_RANK" "${L}_FASTEST_RANK_BYTES" "${L}_SLOWEST_RANK" \
            "${L}_SLOWEST_RANK_BYTES" "${L}_F_FASTEST_RANK_TIME" "${L}_F_SLOWEST_RANK_TIME" \
            "${L}_F_VARIANCE_RANK_TIME" "${L}_F_VARIANCE_RANK_BYTES"
    done
}

# ------------------------------------------------------------ counters --
for n in $LOGS; do
    "$P" "$FIX/$n.darshan" >"$T/$n.base" 2>"$T/err"
    check_eq 0 "$?" "$n: exit status of --base"
    if out=$($CMP base "$FIX/$n.base.txt" "$T/$n.base" 2>&1); then pass; else
        fail "$n --base against darshan-parser: $out"; fi
    "$P" --total "$FIX/$n.darshan" >"$T/$n.total" 2>"$T/err"
    check_eq 0 "$?" "$n: exit status of --total"
    # shellcheck disable=SC2046
    if out=$($CMP total "$FIX/$n.total.txt" "$T/$n.total" $(rank_stats) 2>&1); then pass; else
        fail "$n --total against darshan-parser: $out"; fi
    check_eq "# log format: darshan 3.41 (a Darshan log)" "$(head -n 1 "$T/$n.base")" \
        "$n: the header names the format"
done
# The counters both define really were compared (the helper counts them).
check_eq 373 "$($CMP base "$FIX/ior-posix-fpp.base.txt" "$T/ior-posix-fpp.base")" \
    "ior-posix-fpp: darshan-parser's counter lines, all compared"
check_eq "not in a Darshan log" \
    "$(awk -F'\t' '$1 == "POSIX" && $4 == "POSIX_PAT_STRIDE" {print $5; exit}' "$T/serial-dd.base")" \
    "a counter Darshan lacks says so"
check_eq "total_POSIX_RANKS_OPENED: not in a Darshan log" \
    "$(grep '^total_POSIX_RANKS_OPENED:' "$T/serial-dd.total")" "and so does its total"
check_eq 0 "$(awk -F'\t' '$4 == "POSIX_FILENOS" {print $5; exit}' "$T/serial-dd.base")" \
    "a counter iolens lacks is kept under Darshan's name"
check_eq "total_POSIX_MMAPS: -1" "$(grep '^total_POSIX_MMAPS:' "$T/ior-posix-fpp.total")" \
    "a counter Darshan did not monitor (-1) totals -1, as darshan-parser's"

# ---------------------------------------------------------------- perf --
# darshan-parser --perf prints one agg_perf_by_slowest per module section.
for n in $LOGS; do
    "$P" --perf "$FIX/$n.darshan" >"$T/$n.perf"
    awk '/^# [A-Z-]+ module data/ {m = $2; sub(/-/, "", m)}
         /agg_perf_by_slowest:/ {print m, $3}' "$FIX/$n.perf.txt" >"$T/$n.want"
    [ -s "$T/$n.want" ] || fail "$n: no agg_perf_by_slowest in $n.perf.txt"
    while read -r layer want; do
        got=$(awk -F'\t' -v l="$layer" '$1 == l && $2 == "agg_mib_s" {print $3}' "$T/$n.perf")
        check_eq "$want" "$got" "$n: $layer agg_perf_by_slowest"
    done <"$T/$n.want"
done

# --------------------------------------------------------------- nodes --
# MiB/s/CN: Darshan logs no node count, so without DXT host names it is
# '-' and the header says how to get it; --nodes N gives it, each module's
# agg_perf_by_slowest (darshan-parser --perf) over N.
n=ior-mpiio-coll
check_eq "# nnodes: not in a Darshan log (MiB/s/CN needs --nodes N)" \
    "$(grep '^# nnodes:' "$T/$n.perf")" "$n: without --nodes the header says how to get it"
check_eq - "$(awk -F'\t' '$1 == "POSIX" && $2 == "mib_s_per_cn" {print $3}' "$T/$n.perf")" \
    "$n: no MiB/s/CN without --nodes"
for nodes in 1 2; do
    "$P" --perf --nodes "$nodes" "$FIX/$n.darshan" >"$T/$n.nodes$nodes" 2>"$T/err"
    check_eq 0 "$?" "$n --perf --nodes $nodes: exit status"
    check_eq "# nnodes: $nodes (from --nodes)" "$(grep '^# nnodes:' "$T/$n.nodes$nodes")" \
        "$n --nodes $nodes: the header says where the count came from"
    while read -r layer agg; do
        want=$(awk -v a="$agg" -v n="$nodes" 'BEGIN {printf "%.6f", a / n}')
        got=$(awk -F'\t' -v l="$layer" '$1 == l && $2 == "mib_s_per_cn" {print $3}' \
            "$T/$n.nodes$nodes")
        if awk -v a="$want" -v b="$got" 'BEGIN {d = a - b; exit !(b != "" && d <= 1e-6 && d >= -1e-6)}'
        then pass; else fail "$n --nodes $nodes: $layer MiB/s/CN: expected $want, got '$got'"; fi
    done <"$T/$n.want"
done
check_eq "2 option" "$("$P" --json --nodes 2 "$FIX/$n.darshan" | python3 -c '
import json, sys
j = json.load(sys.stdin)["job"]
print(j["nnodes"], j["nnodes_from"])')" "$n --json --nodes 2: nnodes and its source"
check_eq "none" "$("$P" --json "$FIX/$n.darshan" | python3 -c '
import json, sys
print(json.load(sys.stdin)["job"]["nnodes_from"])')" "$n --json: no node count"
check_eq "dxt_hosts" "$("$P" --json "$FIX/ior-posix-dxt.darshan" | python3 -c '
import json, sys
print(json.load(sys.stdin)["job"]["nnodes_from"])')" "DXT: the count from its host names"

# ----------------------------------------------------------------- BPS --
# The union of the DXT segments' times, decoded here from the log's own
# bytes (zlib streams back to back, a 104-byte record head, 40-byte
# segments) and checked against darshan-dxt-parser's listing (offsets and
# lengths exact, times as it rounds them to 4 decimals).
python3 - "$FIX/ior-posix-dxt.darshan" "$FIX/ior-posix-dxt.dxt.txt" >"$T/dxt.union" <<'PY' ||
import struct, sys, zlib
log = open(sys.argv[1], 'rb').read()
off, length = struct.unpack_from('<QQ', log, 32 + 16 * (1 + 10))   # DXT_POSIX is module 10
raw, rest = b'', log[off:off + length]
while rest:
    z = zlib.decompressobj()
    raw += z.decompress(rest)
    rest = z.unused_data
segs, at = [], 0
while at < len(raw):
    rank = struct.unpack_from('<q', raw, at + 8)[0]
    w, r = struct.unpack_from('<qq', raw, at + 88)
    for i in range(w + r):
        o, n, s, e = struct.unpack_from('<qqdd', raw, at + 104 + 40 * i)
        segs.append((rank, 'write' if i < w else 'read', o, n, s, e))
    at += 104 + 40 * (w + r)
listed = []
for line in open(sys.argv[2]):
    f = line.split()
    if f and f[0] == 'X_POSIX':
        listed.append((int(f[1]), f[2], int(f[4]), int(f[5]), float(f[6]), float(f[7])))
if len(listed) != len(segs):
    sys.exit('segments: %d decoded, %d listed' % (len(segs), len(listed)))
for a, b in zip(sorted(segs), sorted(listed)):
    if a[:4] != b[:4] or abs(a[4] - b[4]) > 5.1e-5 or abs(a[5] - b[5]) > 5.1e-5:
        sys.exit('segment differs: %r %r' % (a, b))
union, reach = 0.0, 0.0
for s, e in sorted((s[4], s[5]) for s in segs):
    if e > reach:
        union += e - max(s, reach)
        reach = e
print('%d %d %.6f %.12f' % (len(segs), sum(s[3] for s in segs), union, union))
PY
    fail "the DXT oracle: $(cat "$T/dxt.union")"
read -r nseg nbytes union union_full <"$T/dxt.union"
check_eq 256 "$nseg" "DXT segments decoded and listed"
"$P" --bps "$FIX/ior-posix-dxt.darshan" >"$T/dxt.bps"
row() { awk -F'\t' -v m="$2" '$1 == "POSIX" && $2 == "*" && $3 == m {print $4}' "$1"; }
check_eq "$nseg" "$(row "$T/dxt.bps" accesses)" "BPS accesses are the DXT segments"
check_eq "$nbytes" "$(row "$T/dxt.bps" bytes)" "BPS bytes are the segments' lengths"
check_eq "$union" "$(row "$T/dxt.bps" time)" "BPS time is the union of the segments"
bps=$(awk -v b="$nbytes" -v t="$union_full" 'BEGIN {printf "%.0f", b / 512 / t}')
check_eq "$bps" "$(row "$T/dxt.bps" bps | awk '{printf "%.0f", $1}')" \
    "BPS: 512-byte blocks over the union"
# Without DXT: no BPS, the Intrepid fallback instead (--perf's figure).
"$P" --bps "$FIX/ior-mpiio-coll.darshan" >"$T/coll.bps"
grep -q '^# bps: not available: this Darshan log has no DXT trace' "$T/coll.bps" ||
    fail "BPS not available without DXT"
"$P" --perf "$FIX/ior-mpiio-coll.darshan" >"$T/coll.perf"
check_eq "$(awk -F'\t' '$1 == "MPIIO" && $2 == "fallback_mib_s" {print $3}' "$T/coll.perf")" \
    "$(awk -F'\t' '$1 == "MPIIO" && $2 == "fallback_mib_s" {print $3}' "$T/coll.bps")" \
    "the fallback bandwidth given instead"

# ------------------------------------------------------------- partial --
p="$FIX/serial-partial.darshan"
"$P" "$p" >"$T/partial.base" 2>"$T/err"
check_eq 0 "$?" "the partial log is read"
if out=$($CMP base "$FIX/serial-partial.show-incomplete.txt.gz" "$T/partial.base" 2>&1); then
    pass; else fail "partial --base against darshan-parser --show-incomplete: $out"; fi
"$P" --total "$p" >"$T/partial.total"
# shellcheck disable=SC2046
if out=$($CMP total "$FIX/serial-partial.show-incomplete.total.txt" "$T/partial.total" \
    $(rank_stats) 2>&1); then pass; else fail "partial --total: $out"; fi
label="# partial: yes (Darshan ran out of records in POSIX: files it did not record are missing)"
for m in base total file stack perf patterns bps advice; do
    check_eq 1 "$("$P" --$m "$p" | grep -cxF "$label")" "--$m labels the partial log"
done
"$P" --json "$p" >"$T/partial.json"
check_eq "True POSIX darshan 3.41 3.5.0" "$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["job"]
print(j["partial"], j["partial_modules"], j["source"], j["darshan_version"])' "$T/partial.json")" \
    "--json: partial, its module, the source and Darshan's version"
"$P" --summary "$p" "$FIX/serial-dd.darshan" >"$T/sum"
check_eq "darshan 3.41 partial|darshan 3.41" \
    "$(awk -F'\t' '!/^#/ {printf "%s%s", s, $NF; s = "|"}' "$T/sum")" "--summary's source column"

# -------------------------------------------------- a mixed directory --
mkdir "$T/mixed"
"$IOLENS_TESTBIN/integration/make_test_log" "$T/mixed/a.iolens" || fail "make_test_log"
cp "$FIX/ior-posix-dxt.darshan" "$T/mixed/b.log"    # the name says nothing
"$P" --summary "$T/mixed/a.iolens" "$T/mixed/b.log" >"$T/mixed.sum" 2>"$T/err"
check_eq 0 "$?" "--summary over an iolens and a Darshan log"
check_eq "iolens 3|darshan 3.41" "$(awk -F'\t' '!/^#/ {printf "%s%s", s, $NF; s = "|"}' \
    "$T/mixed.sum")" "each row says which runtime wrote its log"

# --------------------------------------------------------- other tools --
BIN=$(dirname "$IOLENS_PARSER")
"$BIN/iolens-report" -o "$T/partial.html" "$p" 2>"$T/err"
check_eq 0 "$?" "iolens-report on a Darshan log"
grep -q '<p class="note">Read from a Darshan log, format 3.41 (Darshan 3.5.0)' "$T/partial.html" ||
    fail "iolens-report names the Darshan log"
grep -q '<strong>Partial log</strong>' "$T/partial.html" || fail "iolens-report labels it partial"
if command -v sqlite3 >/dev/null 2>&1 && "$BIN/iolens-export" --help 2>&1 | grep -q sqlite; then
    "$BIN/iolens-export" --sqlite "$T/db.sqlite" "$p" "$T/mixed/a.iolens" \
        "$FIX/ior-hdf5.darshan" 2>"$T/err"
    check_eq 0 "$?" "iolens-export --sqlite of Darshan and iolens logs"
    check_eq "29954|darshan 3.41|0|1791.066058;30009|darshan 3.41|1|1.386506;4242|iolens 3|0|" \
        "$(sqlite3 "$T/db.sqlite" "SELECT jobid, source, partial,
            ifnull(printf('%.6f', agg_mib_s), '') FROM jobs ORDER BY jobid" | tr '\n' ';' |
            sed 's/;$//; s/|[0-9.]*$/|/')" "the jobs rows say which runtime wrote each log"
fi
# iolens-diff: Darshan's dd against iolens's dd of the same command.  A
# sanitized runtime cannot be preloaded into dd (the sanitizer's runtime
# must come first): make check-sanitize leaves this part to make check,
# which runs this test on the plain build.
if ldd "$IOLENS_LIB" 2>/dev/null | grep -q -e libasan -e libubsan -e libtsan; then
    echo "note: sanitized runtime: the traced dd and its diff run in make check only"
else
    mkdir "$T/dd"
    run_traced "$T/dd/dd.iolens" dd if=/dev/zero of="$T/dd/dd.out" bs=64k count=100 2>/dev/null
    "$BIN/iolens-diff" "$FIX/serial-dd.darshan" "$T/dd/dd.iolens" >"$T/dd.diff" 2>"$T/err"
    check_eq 0 "$?" "iolens-diff of a Darshan log and an iolens log"
    check_eq "# A source: darshan 3.41|# B source: iolens 3" \
        "$(grep '^# [AB] source:' "$T/dd.diff" | tr '\n' '|' | sed 's/|$//')" "iolens-diff names both sources"
    check_eq "6553600 6553600" \
        "$(awk -F'\t' '$1 == "POSIX" && $2 == "bytes_written" {print $3, $4}' "$T/dd.diff")" \
        "both runtimes saw dd write 6553600 bytes"
fi

# -------------------------------------------------------------- a pipe --
# A Darshan log on a pipe (/dev/stdin): read whole, the same output as
# from the file in every mode, the streamed ones (--base, --total)
# included; a cut one on a pipe is refused as from a file.
for m in base total perf json; do
    "$P" --$m "$FIX/ior-posix-dxt.darshan" >"$T/file.$m" 2>&1
    # shellcheck disable=SC2002
    cat "$FIX/ior-posix-dxt.darshan" | "$P" --$m /dev/stdin >"$T/pipe.$m" 2>"$T/err"
    check_eq 0 "$?" "--$m of a Darshan log on a pipe: exit status"
    if [ "$m" = json ]; then    # the path is in the output
        sed 's|/dev/stdin|PATH|g' "$T/pipe.$m" >"$T/pipe.x"
        sed "s|$FIX/ior-posix-dxt.darshan|PATH|g" "$T/file.$m" >"$T/file.x"
    else
        cp "$T/pipe.$m" "$T/pipe.x" && cp "$T/file.$m" "$T/file.x"
    fi
    if cmp -s "$T/pipe.x" "$T/file.x"; then pass; else
        fail "--$m of a Darshan log: the pipe's output differs from the file's"; fi
done
check_eq "# log format: darshan 3.41 (a Darshan log)" "$(head -n 1 "$T/pipe.base")" \
    "--base on a pipe: read as a Darshan log"
size=$(wc -c <"$FIX/ior-posix-dxt.darshan")
head -c $((size - 1)) "$FIX/ior-posix-dxt.darshan" >"$T/cut.darshan"
for m in base total perf; do
    # shellcheck disable=SC2002
    cat "$T/cut.darshan" | "$P" --$m /dev/stdin >/dev/null 2>"$T/err"
    check_eq 2 "$?" "--$m of a cut Darshan log on a pipe: exit status"
    check_eq 1 "$(wc -l <"$T/err")" "--$m of a cut Darshan log on a pipe: one line"
    grep -q "^iolens-parser: /dev/stdin: truncated Darshan log" "$T/err" ||
        fail "--$m of a cut Darshan log on a pipe is called truncated: $(cat "$T/err")"
done
# More on a pipe than a log within the limit can hold: refused, one line,
# before it is all read (the limit's eighth and 1 MiB more at most).  The
# bytes begin as a log does: anything else is refused at its first bytes.
{ printf 'IOLENS\r\n'; head -c 3000000 /dev/zero; } |
    IOLENS_MAX_LOG_SIZE=1M "$P" --base /dev/stdin >/dev/null 2>"$T/err"
check_eq 2 "$?" "a pipe beyond the limit: exit status"
check_eq "iolens-parser: /dev/stdin: more than 2228224 bytes arrived, more than a log within the limit can hold (IOLENS_MAX_LOG_SIZE)" \
    "$(cat "$T/err")" "a pipe beyond the limit: the line"

# -------------------------------------------------------------- damage --
size=$(wc -c <"$FIX/ior-posix-dxt.darshan")
n=0
for cut in 8 20 100 1327 1400 2000 3000 $((size - 1)); do
    n=$((n + 1))
    head -c "$cut" "$FIX/ior-posix-dxt.darshan" >"$T/cut$n.darshan"
done
# Flipped bytes: in the map, the job record, the names, POSIX, DXT.
for at in 40 1400 1600 1700 3000 4000; do
    n=$((n + 1))
    python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[int(sys.argv[2])] ^= 0x5a
open(sys.argv[3], "wb").write(d)' "$FIX/ior-posix-dxt.darshan" "$at" "$T/cut$n.darshan"
done
for f in "$T"/cut*.darshan; do
    for m in base total perf json summary; do
        "$P" --$m "$f" >/dev/null 2>"$T/err"
        check_eq 2 "$?" "--$m exit status on $(basename "$f")"
        check_eq 1 "$(wc -l <"$T/err")" "--$m: one line on stderr for $(basename "$f")"
    done
done
"$P" "$T/cut5.darshan" 2>&1 >/dev/null | grep -q "truncated Darshan log" ||
    fail "a cut Darshan log is called truncated"
finish
