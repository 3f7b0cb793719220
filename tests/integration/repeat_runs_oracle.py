#!/usr/bin/env python3
"""The POSIX counters of prog_repeat_runs's files, worked out from what the
program says it did, against iolens-parser --base.

    repeat_runs_oracle.py TRACE BASE DIR

TRACE is the program's stdout ("open FILE", "access FILE DESC KIND START
SIZE BUFADDR"), BASE the parser's --base output of its log, DIR the
directory the files are in.  The rules are the counters' documented ones
(log_format.h, iolens-counters(7)): Darshan's for CONSEC, SEQ and the
strides (against the last byte of the previous access of the same kind
to the file, 0 before the first and after each open), iolens's for the
PAT_* ones (against the previous access on the same open file
description).  Prints one line per mismatch and "checked N" at the end;
exits 1 on any mismatch."""
import collections
import sys

BIN_UPPER = [100, 1024, 10240, 102400, 1048576, 4194304, 10485760,
             104857600, 1073741824]
BIN_NAMES = ["0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M",
             "4M_10M", "10M_100M", "100M_1G", "1G_PLUS"]


def size_bin(size):
    for i, upper in enumerate(BIN_UPPER):
        if size <= upper:
            return BIN_NAMES[i]
    return BIN_NAMES[-1]


def read_base(path, directory):
    """{file name: {counter: value}} of the POSIX records under directory."""
    out = collections.defaultdict(dict)
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            col = line.rstrip("\n").split("\t")
            if len(col) < 6 or col[0] != "POSIX" or not col[5].startswith(directory + "/"):
                continue
            out[col[5][len(directory) + 1:]][col[3]] = col[4]
    return out


def expected_counters(trace, alignments):
    files = {}
    descs = {}
    for line in open(trace):
        w = line.split()
        if not w:
            continue
        if w[0] == "open":
            f = files.setdefault(w[1], {"c": collections.Counter(), "last": {"r": 0, "w": 0},
                                        "last_kind": None, "sizes": collections.Counter(),
                                        "strides": collections.Counter()})
            f["last"] = {"r": 0, "w": 0}
            continue
        name, desc, kind, start, size, buf = w[1], int(w[2]), w[3], int(w[4]), int(w[5]), int(w[6])
        f = files[name]
        c = f["c"]
        mem_align, file_align = alignments[name]
        verb = "READ" if kind == "r" else "WRITE"
        c["POSIX_READS" if kind == "r" else "POSIX_WRITES"] += 1
        c["POSIX_BYTES_READ" if kind == "r" else "POSIX_BYTES_WRITTEN"] += size
        key = "POSIX_MAX_BYTE_READ" if kind == "r" else "POSIX_MAX_BYTE_WRITTEN"
        if size > 0:
            c[key] = max(c[key], start + size - 1)
        c["POSIX_SIZE_%s_%s" % (verb, size_bin(size))] += 1
        if mem_align > 0 and buf % mem_align:
            c["POSIX_MEM_NOT_ALIGNED"] += 1
        if file_align > 0 and start % file_align:
            c["POSIX_FILE_NOT_ALIGNED"] += 1
        last = f["last"][kind]
        plural = "READS" if kind == "r" else "WRITES"
        if start == last + 1:
            c["POSIX_CONSEC_" + plural] += 1
        if start > last:
            c["POSIX_SEQ_" + plural] += 1
        if start > 0 and start > last and last != 0 and start - last - 1 > 0:
            f["strides"][start - last - 1] += 1
        f["last"][kind] = start + size - 1
        if f["last_kind"] is not None and f["last_kind"] != kind:
            c["POSIX_RW_SWITCHES"] += 1
        f["last_kind"] = kind
        if size > 0:
            f["sizes"][size] += 1
        prev = descs.get(desc)
        if prev is not None:
            c["POSIX_PAT_STEPS"] += 1
            if start == prev:
                c["POSIX_PAT_CONSEC"] += 1
            if start >= prev:
                c["POSIX_PAT_SEQ"] += 1
        descs[desc] = start + size
    return files


def top_table(values):
    """The (value, count) pairs of a top-4 table, when the 4 are certain."""
    ranked = values.most_common()
    if len(ranked) > 4 and ranked[3][1] == ranked[4][1]:
        ranked = [r for r in ranked if r[1] > ranked[3][1]]
    return sorted(ranked[:4])


def logged_table(got, prefix, value_name):
    pairs = []
    for i in range(1, 5):
        v = int(got.get("POSIX_%s%d_%s" % (prefix, i, value_name), "0"))
        n = int(got.get("POSIX_%s%d_COUNT" % (prefix, i), "0"))
        if n > 0:
            pairs.append((v, n))
    return sorted(pairs)


def main():
    trace, base, directory = sys.argv[1:4]
    got = read_base(base, directory)
    names = {line.split()[1] for line in open(trace) if line.startswith("open ")}
    alignments = {}
    for name in names:
        rec = got.get(name, {})
        alignments[name] = (int(rec.get("POSIX_MEM_ALIGNMENT", "0")),
                            int(rec.get("POSIX_FILE_ALIGNMENT", "0")))
    files = expected_counters(trace, alignments)
    bad = checked = 0
    counters = ["POSIX_READS", "POSIX_WRITES", "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN",
                "POSIX_MAX_BYTE_READ", "POSIX_MAX_BYTE_WRITTEN", "POSIX_CONSEC_READS",
                "POSIX_CONSEC_WRITES", "POSIX_SEQ_READS", "POSIX_SEQ_WRITES",
                "POSIX_RW_SWITCHES", "POSIX_MEM_NOT_ALIGNED", "POSIX_FILE_NOT_ALIGNED",
                "POSIX_PAT_STEPS", "POSIX_PAT_CONSEC", "POSIX_PAT_SEQ"]
    counters += ["POSIX_SIZE_%s_%s" % (v, b) for v in ("READ", "WRITE") for b in BIN_NAMES]
    for name in sorted(files):
        rec = got.get(name)
        if rec is None:
            print("%s: no POSIX record in the log" % name)
            bad += 1
            continue
        want = files[name]
        for counter in counters:
            checked += 1
            if int(rec.get(counter, "-1")) != want["c"][counter]:
                print("%s: %s is %s, expected %d" % (name, counter, rec.get(counter, "<none>"),
                                                     want["c"][counter]))
                bad += 1
        for prefix, value_name, values in (("ACCESS", "ACCESS", want["sizes"]),
                                           ("STRIDE", "STRIDE", want["strides"])):
            checked += 1
            expect = top_table(values)
            have = [p for p in logged_table(rec, prefix, value_name)
                    if p in expect or len(expect) == len(values)]
            if have != expect:
                print("%s: %s table is %s, expected %s" % (name, prefix, have, expect))
                bad += 1
    print("checked %d" % checked)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
