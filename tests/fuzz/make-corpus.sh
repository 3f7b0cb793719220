#!/bin/sh
# Regenerates the seed corpus of tests/fuzz/corpus from make_test_log, after
# a change of the log format or of make_test_log's content:
#
#   tests/fuzz/make-corpus.sh BUILDDIR
#
#   valid.iolens             make_test_log --hdf5's log (every layer, the
#                            H5F and H5D regions included)
#   flipped-posix.iolens     one bit flipped inside the first POSIX region
#   flipped-table.iolens     one bit flipped in the region table (version
#                            field of the first entry)
#   truncated-region.iolens  the last 7 bytes cut off
#   truncated-table.iolens   the first 100 bytes (header, part of the table)
#   truncated-header.iolens  the first 30 bytes
#   text.txt                 not a log (kept as it is)
#   crash-empty-names.iolens, crash-empty-names-block.iolens
#                            libFuzzer finds (kept as they are): a names
#                            region with no entries before any other left
#                            the names arrays NULL, then offset (UBSan)
# and the hostile logs' regression seeds (tests/fuzz/make_hostile_log):
#   shared-ids.iolens        2000 per-rank records of one file (once
#                            quadratic in --json, --csv, iolens-report)
#   huge-nprocs.iolens       a job claiming 1414750021 ranks (once 11 GB)
#   big-regions.iolens       two layer regions of 513 MiB: more than the
#                            default 1 GiB limit, refused
#   extreme-counters.iolens  every counter INT64_MAX, every time 1e308
#   negative-counters.iolens every counter INT64_MIN: refused as damage
# logs with a sites region, kept as they are (traced runs of
# tests/integration/prog_sites, built with -g: 3 call sites):
#   sites.iolens             the sites region of version 1 (rows, ids)
#   sites-v2.iolens          of version 2 (names places, byte-planed columns)
# and two Darshan logs, kept as they are (copies of ../shared/fixtures/darshan's
# ior-posix-dxt.darshan and ior-mpiio-coll-bzip2.darshan, Darshan 3.5.0):
#   darshan-dxt.darshan      POSIX, STDIO, DXT_POSIX and HEATMAP, zlib
#   darshan-bzip2.darshan    POSIX, MPI-IO, STDIO and HEATMAP, bzip2
set -eu
build=${1:?usage: make-corpus.sh BUILDDIR}
dir=$(cd "$(dirname "$0")" && pwd)/corpus
valid=$dir/valid.iolens

rm -f "$valid"
IOLENS_DISABLE=1 "$build/tests/integration/make_test_log" --hdf5 "$valid"
chmod 0644 "$valid"
size=$(wc -c <"$valid")

# u32/u64 at a byte offset of the valid log.
u32() { od -An -t u4 -j "$1" -N 4 "$valid" | tr -d ' '; }
u64() { od -An -t u8 -j "$1" -N 8 "$valid" | tr -d ' '; }

# Copies the valid log to $1 with the byte at offset $2 xor-ed with $3.
flip() {
    byte=$(od -An -t u1 -j "$2" -N 1 "$valid" | tr -d ' ')
    new=$(printf '%03o' $((byte ^ $3)))
    cp "$valid" "$1"
    printf "\\$new" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# The first POSIX region (kind 16): flip a byte in the middle of it.
count=$(u32 28)
i=0
while [ "$i" -lt "$count" ]; do
    entry=$((40 + 40 * i))
    if [ "$(u32 "$entry")" = 16 ]; then
        offset=$(u64 $((entry + 8)))
        stored=$(u64 $((entry + 16)))
        flip "$dir/flipped-posix.iolens" $((offset + stored / 2)) 1
        break
    fi
    i=$((i + 1))
done
[ "$i" -lt "$count" ] || { echo "make-corpus.sh: no POSIX region" >&2; exit 1; }

flip "$dir/flipped-table.iolens" 44 16
head -c $((size - 7)) "$valid" >"$dir/truncated-region.iolens"
head -c 100 "$valid" >"$dir/truncated-table.iolens"
head -c 30 "$valid" >"$dir/truncated-header.iolens"
hostile=$build/tests/fuzz/make_hostile_log
"$hostile" shared-ids 2000 "$dir/shared-ids.iolens"
"$hostile" huge-nprocs "$dir/huge-nprocs.iolens"
"$hostile" big-regions 2 513 "$dir/big-regions.iolens"
"$hostile" extreme-counters "$dir/extreme-counters.iolens"
"$hostile" negative-counters "$dir/negative-counters.iolens"
chmod 0644 "$dir"/*.iolens
echo "corpus regenerated in $dir ($size-byte valid log)"
