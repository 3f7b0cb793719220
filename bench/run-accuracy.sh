#!/bin/sh
# iolens against iolens-pio-perf: for each API and transfer size, the
# benchmark's bandwidth of each phase (bytes over t_all, first access of
# any rank to the end of the last, summed over the iterations) next to the
# one iolens derives from the log (bytes over the union of the access
# intervals at the API's layer: iolens-parser --bps's read_time and
# write_time lines), and their difference in percent.
#   sh bench/run-accuracy.sh BUILDDIR [NPROCS] [FILE_SIZE] [ITERATIONS]
# Defaults: 4 processes, 1G, 3 iterations; transfers 256K to 4M.  Data in
# a directory under TMPDIR (/tmp; not /dev/shm, which iolens does not
# trace by default: /dev is excluded).
set -eu
B=${1:?usage: run-accuracy.sh BUILDDIR [NPROCS] [FILE_SIZE] [ITERATIONS]}
B=$(cd "$B" && pwd)
NP=${2:-4}
SIZE=${3:-1G}
ITERS=${4:-3}
# The launcher the build was configured with (its -genv is MPICH's), not
# whichever mpiexec the system's alternatives point to (Open MPI's, once
# its packages are installed).
MPIEXEC=${MPIEXEC:-$(sed -n 's/^MPIEXEC = //p' "$B/Makefile" 2>/dev/null)}
MPIEXEC=${MPIEXEC:-$(command -v mpiexec)}
W=$(mktemp -d "${TMPDIR:-/tmp}/iolens-accuracy.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
apis="r:posix:POSIX m:mpiio:MPIIO"
grep -q '^#define IOLENS_HAVE_HDF5 1' "$B/build_config.h" && apis="$apis H:phdf5:H5D"
printf '%-6s %-6s %-5s %10s %12s %12s %8s\n' api xfer op phase_s bench_MiB/s iolens_MiB/s diff_%
for x in 256K 1M 4M; do
    for a in $apis; do
        flag=${a%%:*}; rest=${a#*:}; key=${rest%%:*}; layer=${rest#*:}
        rm -rf "$W/logs" "$W/data"; mkdir -p "$W/logs" "$W/data"
        "$MPIEXEC" -n "$NP" -genv LD_PRELOAD "$B/.libs/libiolens.so" -genv IOLENS_LOGDIR "$W/logs" \
            "$B/iolens-pio-perf" -p "$NP" -P "$NP" -x "$x" -X "$x" -f "$SIZE" -i "$ITERS" \
            -"$flag" --json --dir "$W/data" >"$W/out"
        "$B/iolens-parser" --bps "$W/logs"/*.iolens >"$W/phases"
        for op in write read; do
            python3 - "$W/out" "$W/phases" "$key" "$layer" "$op" "$ITERS" "$x" <<'PY'
import json, sys
out, phases, key, layer, op, iters, x = sys.argv[1:]
rec = [r for r in map(json.loads, open(out)) if r["api"] == key and r["op"] == op][0]
span = rec["t_all"] * int(iters)
data = rec["bytes"] * int(iters)
union = [float(f[3]) for f in (l.rstrip("\n").split("\t") for l in open(phases))
         if f[:3] == [layer, "*", op + "_time"]][0]
bench, lens = data / 2**20 / span, data / 2**20 / union
print("%-6s %-6s %-5s %10.3f %12.1f %12.1f %8.2f" % (key, x, op, span, bench, lens,
      100 * (lens - bench) / bench))
PY
        done
    done
done
