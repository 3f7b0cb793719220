#!/usr/bin/env python3
"""Compares iolens-parser's dump of a Darshan log with darshan-parser's.

usage: darshan_compare.py base  DARSHAN_BASE_TXT IOLENS_BASE_TXT
       darshan_compare.py total DARSHAN_TOTAL_TXT IOLENS_TOTAL_TXT [SKIP...]

base: every counter line darshan-parser printed (module, rank, record id,
counter, value) must be in iolens-parser's dump with the same value, under
the same counter name (iolens's own or, for a counter iolens lacks, kept
under Darshan's name), and every value iolens prints for a Darshan log must
be one darshan-parser printed or "not in a Darshan log".
total: every "total_<COUNTER>: value" both print must be equal, except the
counters named in SKIP (whose merge rules differ, as the test says why).
Prints the number of values compared; exits 1 on the first difference.
"""
import gzip
import sys

LAYER = {"MPI-IO": "MPIIO"}
MODULES = ("POSIX", "MPI-IO", "STDIO", "H5F", "H5D")


def lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            if not line.startswith("#") and line.strip():
                yield line.rstrip("\n")


def same(a, b):
    if a == b:
        return True
    try:  # a record id printed unsigned by one, signed by the other
        return int(a) % 2**64 == int(b) % 2**64
    except ValueError:
        return False


def base(dpath, ipath):
    want = {}
    for line in lines(dpath):
        f = line.split("\t")
        if len(f) < 5 or f[0] not in MODULES:
            continue
        want[(LAYER.get(f[0], f[0]), f[1], f[2], f[3])] = f[4]
    got = {}
    for line in lines(ipath):
        f = line.split("\t")
        if len(f) >= 5:
            got[(f[0], f[1], f[2], f[3])] = f[4]
    n = 0
    for key, value in want.items():
        if key not in got:
            sys.exit("missing from iolens-parser: %s = %s" % ("\t".join(key), value))
        if not same(got[key], value):
            sys.exit("differs: %s: darshan-parser %s, iolens-parser %s"
                     % ("\t".join(key), value, got[key]))
        n += 1
    for key, value in got.items():
        if key not in want and value != "not in a Darshan log":
            sys.exit("iolens-parser has a value darshan-parser lacks: %s = %s"
                     % ("\t".join(key), value))
    if n == 0:
        sys.exit("no counters compared")
    print(n)


def total(dpath, ipath, skip):
    def read(path):
        out = {}
        for line in lines(path):
            if line.startswith("total_") and ": " in line:
                k, v = line[len("total_"):].split(": ", 1)
                out[k] = v.strip()
        return out
    want, got = read(dpath), read(ipath)
    n = 0
    for k, v in want.items():
        if k in skip or k not in got or got[k] == "not in a Darshan log":
            continue
        if not same(got[k], v):
            sys.exit("total differs: %s: darshan-parser %s, iolens-parser %s" % (k, v, got[k]))
        n += 1
    if n == 0:
        sys.exit("no totals compared")
    print(n)


if __name__ == "__main__":
    if sys.argv[1] == "base":
        base(sys.argv[2], sys.argv[3])
    else:
        total(sys.argv[2], sys.argv[3], set(sys.argv[4:]))
