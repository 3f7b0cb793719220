#!/bin/sh
# A python3 script that does file I/O and forks worker processes
# (multiprocessing, fork start method, with its helper threads running):
# traced and untraced alike, and every forked worker leaves its own log.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3 || true)
if [ -z "$PYTHON" ]; then
    echo "SKIP: python3 is not installed"
    exit 77
fi

write_script() {
    cat >job.py <<'PY'
import hashlib, multiprocessing as mp, os, sys

def work(i):
    name = "part%02d.txt" % i
    with open(name, "w") as f:
        for k in range(2000):
            f.write("%d %d\n" % (i, k * k))
    with open(name, "rb") as f:
        return name, hashlib.sha256(f.read()).hexdigest()

if __name__ == "__main__":
    mp.set_start_method("fork")
    with mp.Pool(2) as pool:
        results = sorted(pool.map(work, range(8)))
    with open("summary.txt", "w") as out:
        for name, digest in results:
            out.write("%s %s\n" % (name, digest))
    with open("summary.txt") as f:
        sys.stdout.write(f.read())
    os.makedirs("sub", exist_ok=True)
    with open(os.path.join("sub", "bin.dat"), "wb") as f:
        f.write(bytes(range(256)) * 1000)
    print(os.path.getsize("sub/bin.dat"))
PY
}
transparent "python3 multiprocessing" write_script "$PYTHON -B job.py"
# The pool's workers are forked children: each writes its own log.
check_gt "$(ls "$LOGS" | grep -c '\.iolens$')" 2 "logs of python and its forked workers"
# sub/bin.dat, 256000 bytes, written once, by the main process.
check_eq 256000 "$(for l in "$LOGS"/*.iolens; do "$IOLENS_PARSER" --base "$l"; done |
    awk -F'\t' '$4 == "POSIX_BYTES_WRITTEN" && $6 ~ /\/sub\/bin\.dat$/ { s += $5 } END { print s + 0 }')" \
    "bytes of sub/bin.dat in the logs"
finish
