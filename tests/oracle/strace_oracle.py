#!/usr/bin/python3
"""Compares iolens's counters with what strace saw in the same run.

Usage: strace_oracle.py --strace FILE --logdir DIR --parser IOLENS_PARSER
                        [--include P,...] [--exclude P,...] [--preload LIBS]
                        [--name LABEL]

FILE is the output of `strace -f -qq -y -o FILE -e trace=... CMD` where CMD
ran with LD_PRELOAD=libiolens.so and IOLENS_LOGDIR=DIR (every regular file
in DIR but the runtime's temporary ones is a log of that run).  --include
and --exclude are the run's IOLENS_INCLUDE and IOLENS_EXCLUDE.

What is compared.  Only the files iolens traces (man/iolens.7, WHAT IS
TRACED): absolute paths outside the excluded prefixes (the default list, or
--exclude) unless an --include prefix matches, never the log directory,
not the libraries of LD_PRELOAD (--preload: the dynamic loader reads them before
iolens exists), and always the standard streams, <STDIN>, <STDOUT> and <STDERR>: the
descriptors 0, 1 and 2 a process image starts with (execve resets them,
fork inherits them; an open, dup or close onto 0-2 ends that).

iolens interposes on the C library's functions, strace sees system calls,
so the rule is per file:

 * A stdio file is one that iolens has a STDIO record of with opens, reads,
   writes, seeks or flushes (the standard streams included).  The C library
   makes its system calls itself, buffered, unseen by the POSIX wrappers:
   strace's bytes read and written must equal POSIX + STDIO bytes, and its
   opens POSIX + STDIO opens.  Other counts do not compare call for call.
 * Any other file: every system call on it was a call of the program's to a
   POSIX function iolens wraps, so opens, reads, writes, bytes read, bytes
   written, stats and seeks must equal the POSIX record's, exactly.
   copy_file_range and sendfile count as one read of the source and one
   write of the destination (man/iolens.7), with the bytes on both.
 * Calls the C library makes inside functions iolens does not wrap are not
   the program's POSIX calls and are left out on both sides (shown as
   "libc-internal"): the open of opendir (flags exactly O_RDONLY|O_NONBLOCK|
   O_CLOEXEC|O_DIRECTORY) and the fstat it makes next on that descriptor,
   the fstat of fdopendir (an fstat followed at once by fcntl(F_GETFL) on
   the same descriptor), the stat of "/" that
   glibc's nss makes right after the stat of /etc/nsswitch.conf (getpwuid
   and the like).  getdents is counted by neither.
 * iolens's own calls are left out likewise: the fcntl(F_GETFL) and
   lseek(0, SEEK_CUR) with which it binds descriptors 0, 1 and 2 at the
   start of each process image, and everything on its log directory.
 * A failed call counts on neither side; a read of 0 bytes is a read.

Files that iolens folded into <other files> (budget full) are compared as
one group: the strace files iolens has no record of against that record,
with the stdio rule if the record has STDIO activity.  The totals compare
bytes and opens over everything.  Any difference fails.
"""

import argparse
import os
import re
import subprocess
import sys

DEFAULT_EXCLUDE = "/proc,/sys,/dev,/etc,/usr,/lib,/lib64,/bin,/sbin,/boot,/run"
STD_NAMES = ("<STDIN>", "<STDOUT>", "<STDERR>")
OTHER = "<other files>"
COUNTERS = ("opens", "reads", "writes", "bytes_read", "bytes_written", "stats", "seeks")
STDIO_COUNTERS = ("opens", "bytes_read", "bytes_written")
OPENDIR_FLAGS = {"O_RDONLY", "O_NONBLOCK", "O_CLOEXEC", "O_DIRECTORY"}

OPENS = {"open", "openat", "creat", "openat2"}
READS = {"read", "pread64", "readv", "preadv", "preadv2"}
WRITES = {"write", "pwrite64", "writev", "pwritev", "pwritev2"}
STATS_PATH = {"stat", "lstat", "stat64", "lstat64"}
STATS_AT = {"newfstatat", "fstatat64", "statx"}
STATS_FD = {"fstat", "fstat64"}
SEEKS = {"lseek", "_llseek"}
FORKS = {"clone", "clone3", "fork", "vfork"}
DUPS = {"dup", "dup2", "dup3"}


def prefix_matches(path, prefixes):
    return any(p and (path == p or path.startswith(p.rstrip("/") + "/")) for p in prefixes)


class Scope:
    """The paths iolens traces."""

    def __init__(self, exclude, include, logdir, preload):
        self.preload = {os.path.normpath(p) for p in re.split(r"[ :]", preload) if p}
        self.exclude = [p for p in exclude.split(",") if p]
        self.include = [p for p in include.split(",") if p]
        self.logdir = os.path.normpath(os.path.abspath(logdir))

    def traced(self, name):
        if name in STD_NAMES:
            return True
        if not name.startswith("/"):
            return False  # pipe:[...], socket:[...], anon_inode:...
        if prefix_matches(name, [self.logdir]) or name in self.preload:
            return False
        return not prefix_matches(name, self.exclude) or prefix_matches(name, self.include)


def zero():
    return dict.fromkeys(COUNTERS, 0)


# ------------------------------------------------------------- strace --

LINE = re.compile(r"^(\d+) +(.*)$")
CALL = re.compile(r"^([a-z0-9_]+)\((.*)\) += (-?\d+|\?)(.*)$")
FD_ARG = re.compile(r"^(-?\d+|AT_FDCWD)(?:<(.*?)>)?$")
RET_PATH = re.compile(r"^<(.*)>")


def unescape(s):
    """strace's C-style string escapes, bytes read as UTF-8."""
    return bytes(s, "latin-1").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")


ARG = re.compile(r'\s*("(?:[^"\\]|\\.)*"(?:\.\.\.)?|\[[^\]]*\]|\{.*?\}|[^,"\[{]*?(?:<[^>]*>)?)\s*(?:,|$)')


def leading_args(args, k=3):
    """The first k comma-separated arguments (a struct argument may be cut
    short: only the arguments before it are used)."""
    out, pos = [], 0
    while len(out) < k and pos < len(args):
        m = ARG.match(args, pos)
        if not m or m.end() == pos:
            break
        out.append(m.group(1))
        pos = m.end()
    return out


def string_arg(arg):
    m = re.match(r'^"(.*)"(\.\.\.)?$', arg)
    return unescape(m.group(1)) if m else None


def fd_of(arg):
    m = FD_ARG.match(arg)
    if not m:
        return None, None
    fd = m.group(1)
    path = m.group(2)
    if path is not None:
        path = unescape(path)
        if path.endswith(" (deleted)"):
            path = path[: -len(" (deleted)")]
    return (None if fd == "AT_FDCWD" else int(fd)), path


def join_lines(lines):
    """Yields (pid, text) with <unfinished ...> calls joined to their resumption."""
    pending = {}
    for raw in lines:
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            continue
        pid, text = int(m.group(1)), m.group(2)
        if text.startswith("---") or text.startswith("+++"):
            continue
        if text.endswith("<unfinished ...>"):
            pending[pid] = text[: -len("<unfinished ...>")].rstrip()
            continue
        r = re.match(r"^<\.\.\. [a-z0-9_]+ resumed>(.*)$", text)
        if r:
            text = pending.pop(pid, "") + r.group(1)
        yield pid, text


def is_opendir_open(sc, args):
    """An open with exactly the flags of glibc's opendir."""
    if sc not in OPENS:
        return False
    flags = args[2] if sc == "openat" and len(args) > 2 else (args[1] if len(args) > 1 else "")
    return set(flags.split("|")) == OPENDIR_FLAGS


class StraceCounts:
    def __init__(self, scope):
        self.scope = scope
        self.files = {}
        self.internal = zero()
        self.std = {}  # pid -> {fd: <STD...>}
        self.last = {}  # pid -> (syscall, fd, file) of the previous call, for fdopendir
        self.errors = []
        self.processes = 1
        self.execs = 0

    def bump(self, name, counter, value=1):
        if name is None or not self.scope.traced(name):
            return
        self.files.setdefault(name, zero())[counter] += value

    def std_of(self, pid):
        return self.std.setdefault(pid, {0: STD_NAMES[0], 1: STD_NAMES[1], 2: STD_NAMES[2]})

    def name_of(self, pid, fd, path):
        if fd is not None and fd in self.std_of(pid):
            return self.std_of(pid)[fd]
        return path

    def at_path(self, dirarg, patharg):
        fd, dirpath = fd_of(dirarg)
        name = string_arg(patharg)
        if name is None:
            return None
        if name.startswith("/"):
            return os.path.normpath(name)
        if dirpath is None or not dirpath.startswith("/"):
            return None
        return os.path.normpath(os.path.join(dirpath, name))

    def read_file(self, fname):
        with open(fname, encoding="latin-1") as f:
            for pid, text in join_lines(f):
                m = CALL.match(text)
                if m:
                    self.call(pid, m.group(1), leading_args(m.group(2)), m.group(3), m.group(4), m.group(2))

    def call(self, pid, sc, args, ret, after, raw):
        prev = self.last.get(pid)
        self.last[pid] = (sc, args, ret)
        ok = ret != "?" and int(ret) >= 0
        if sc in FORKS:
            # With -f the child's first calls may come before this line:
            # then it has its own state already.
            if ok and int(ret) > 0 and int(ret) not in self.std:
                self.std[int(ret)] = dict(self.std_of(pid))
                if "CLONE_THREAD" not in raw:
                    self.processes += 1
            return
        if not ok:
            return
        n = int(ret)
        if sc == "execve":
            self.std.pop(pid, None)
            self.execs += 1
        elif sc in OPENS:
            m = RET_PATH.match(after.strip())
            path = unescape(m.group(1)) if m else None
            self.std_of(pid).pop(n, None)
            if is_opendir_open(sc, args):
                self.internal["opens"] += 1
            else:
                self.bump(path, "opens")
        elif sc in READS or sc in WRITES:
            fd, path = fd_of(args[0])
            name = self.name_of(pid, fd, path)
            kind = "reads" if sc in READS else "writes"
            self.bump(name, kind)
            self.bump(name, "bytes_read" if kind == "reads" else "bytes_written", n)
        elif sc in ("copy_file_range", "sendfile", "sendfile64", "splice"):
            if sc.startswith("sendfile"):
                src, dst = fd_of(args[1]), fd_of(args[0])
            else:
                src, dst = fd_of(args[0]), fd_of(args[2])
            self.bump(self.name_of(pid, *src), "reads")
            self.bump(self.name_of(pid, *src), "bytes_read", n)
            self.bump(self.name_of(pid, *dst), "writes")
            self.bump(self.name_of(pid, *dst), "bytes_written", n)
        elif sc in STATS_PATH:
            name = string_arg(args[0])
            if name is not None and name.startswith("/"):
                self.bump(os.path.normpath(name), "stats")
            elif name is not None:
                self.errors.append("%s with a relative path and no directory: %s" % (sc, name))
        elif sc in STATS_FD or (sc in STATS_AT and string_arg(args[1]) == "" and "AT_EMPTY_PATH" in raw):
            fd, path = fd_of(args[0])
            if prev is not None and is_opendir_open(prev[0], prev[1]) and prev[2] == str(fd):
                self.internal["stats"] += 1  # opendir's own fstat of what it opened
            else:
                self.bump(self.name_of(pid, fd, path), "stats")
        elif sc in STATS_AT:
            name = self.at_path(args[0], args[1])
            if name == "/" and prev is not None and prev[0] in STATS_AT and \
                    string_arg(prev[1][1]) == "/etc/nsswitch.conf":
                self.internal["stats"] += 1  # glibc's nss checking for a chroot
            else:
                self.bump(name, "stats")
        elif sc in SEEKS and fd_of(args[0])[0] in (0, 1, 2) and args[1:3] == ["0", "SEEK_CUR"] and \
                prev is not None and prev[0] == "fcntl" and prev[1][:1] == args[:1] and \
                prev[1][1:2] == ["F_GETFL"]:
            self.internal["seeks"] += 1  # iolens's own start-up look at 0, 1 and 2
        elif sc in SEEKS:
            fd, path = fd_of(args[0])
            self.bump(self.name_of(pid, fd, path), "seeks")
        elif sc == "close":
            fd, _ = fd_of(args[0])
            self.std_of(pid).pop(fd, None)
        elif sc in DUPS or (sc == "fcntl" and len(args) > 1 and args[1].startswith("F_DUPFD")):
            old, _ = fd_of(args[0])
            std = self.std_of(pid)
            if old in std:
                std[n] = std[old]
            else:
                std.pop(n, None)
        if sc == "fcntl" and len(args) > 1 and args[1] == "F_GETFL" and prev is not None:
            self.undo_fdopendir_stat(pid, prev, args[0])

    def undo_fdopendir_stat(self, pid, prev, fdarg):
        """fdopendir's own fstat, just before its fcntl(F_GETFL) on the fd."""
        psc, pargs = prev[0], prev[1]
        if not pargs or pargs[0] != fdarg:
            return
        if psc in STATS_FD or (psc in STATS_AT and len(pargs) > 1 and string_arg(pargs[1]) == ""):
            fd, path = fd_of(fdarg)
            name = self.name_of(pid, fd, path)
            if name is not None and path is not None and self.scope.traced(name) and os.path.isdir(path):
                self.files[name]["stats"] -= 1
                self.internal["stats"] += 1


# ------------------------------------------------------------- iolens --

POSIX_MAP = {"POSIX_OPENS": "opens", "POSIX_READS": "reads", "POSIX_WRITES": "writes",
             "POSIX_BYTES_READ": "bytes_read", "POSIX_BYTES_WRITTEN": "bytes_written",
             "POSIX_STATS": "stats", "POSIX_SEEKS": "seeks"}
STDIO_MAP = {"STDIO_OPENS": "opens", "STDIO_BYTES_READ": "bytes_read",
             "STDIO_BYTES_WRITTEN": "bytes_written"}
STDIO_ACTIVE = {"STDIO_OPENS", "STDIO_READS", "STDIO_WRITES", "STDIO_SEEKS", "STDIO_FLUSHES",
                "STDIO_BYTES_READ", "STDIO_BYTES_WRITTEN"}  # bytes alone: inline getc/putc


def parser_unescape(s):
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), s)


def log_files(logdir):
    for entry in sorted(os.listdir(logdir)):
        path = os.path.join(logdir, entry)
        if os.path.isfile(path) and ".tmp-" not in entry:
            yield path


class IolensCounts:
    def __init__(self):
        self.posix = {}
        self.stdio = {}
        self.stdio_active = set()
        self.logs = 0
        self.errors = []

    def read_logs(self, parser, logdir):
        for log in log_files(logdir):
            r = subprocess.run([parser, "--base", log], capture_output=True, text=True,
                               encoding="utf-8", errors="replace")
            if r.returncode != 0:
                self.errors.append("iolens-parser --base %s: %s" % (log, r.stderr.strip()))
                continue
            self.logs += 1
            for line in r.stdout.splitlines():
                if line.startswith("#"):
                    continue
                col = line.split("\t")
                if len(col) < 6:
                    continue
                layer, counter, value, name = col[0], col[3], col[4], parser_unescape(col[5])
                if layer == "POSIX" and counter in POSIX_MAP:
                    self.posix.setdefault(name, zero())[POSIX_MAP[counter]] += int(value)
                elif layer == "STDIO":
                    if counter in STDIO_MAP:
                        self.stdio.setdefault(name, zero())[STDIO_MAP[counter]] += int(value)
                    if counter in STDIO_ACTIVE and int(value) != 0:
                        self.stdio_active.add(name)

    def names(self):
        return set(self.posix) | set(self.stdio)

    def view(self, name):
        """(counts, stdio?) of a file as the comparison rule sees it."""
        posix = self.posix.get(name, zero())
        if name not in self.stdio_active:
            return dict(posix), False
        stdio = self.stdio.get(name, zero())
        return {c: posix[c] + stdio[c] for c in COUNTERS}, True


# ---------------------------------------------------------- comparing --

def add(a, b):
    return {c: a[c] + b[c] for c in COUNTERS}


def compare(label, mine, theirs, counters, diffs):
    for c in counters:
        if mine[c] != theirs[c]:
            diffs.append("%s %s: iolens %d, strace %d (%+d)" % (label, c, mine[c], theirs[c],
                                                               mine[c] - theirs[c]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--strace", required=True)
    ap.add_argument("--logdir", required=True)
    ap.add_argument("--parser", required=True)
    ap.add_argument("--include", default="")
    ap.add_argument("--exclude", default=None)
    ap.add_argument("--preload", default="")
    ap.add_argument("--name", default="run")
    a = ap.parse_args()

    scope = Scope(DEFAULT_EXCLUDE if a.exclude is None else a.exclude, a.include, a.logdir, a.preload)
    st = StraceCounts(scope)
    st.read_file(a.strace)
    io = IolensCounts()
    io.read_logs(a.parser, a.logdir)
    diffs = ["%s: %s" % (a.name, e) for e in st.errors + io.errors]
    if io.logs == 0:
        diffs.append("%s: no log in %s" % (a.name, a.logdir))

    named = io.names() - {OTHER}
    total_io, total_st = zero(), zero()
    for name in sorted(named | set(st.files)):
        if name == OTHER or name not in named:
            continue
        mine, is_stdio = io.view(name)
        theirs = st.files.get(name, zero())
        if not scope.traced(name):
            diffs.append("%s: iolens has a record of %s, which it should not trace" % (a.name, name))
        compare("%s: %s" % (a.name, name), mine, theirs, STDIO_COUNTERS if is_stdio else COUNTERS, diffs)
        total_io, total_st = add(total_io, mine), add(total_st, theirs)

    folded_st = zero()
    folded = sorted(set(st.files) - named)
    for name in folded:
        folded_st = add(folded_st, st.files[name])
    folded_io, folded_stdio = io.view(OTHER)
    if folded or any(folded_io.values()):
        compare("%s: %s (%d files strace saw that iolens does not name: %s)"
                % (a.name, OTHER, len(folded), ", ".join(folded[:3]) + (" ..." if len(folded) > 3 else "")),
                folded_io, folded_st, STDIO_COUNTERS if folded_stdio else COUNTERS, diffs)
    total_io, total_st = add(total_io, folded_io), add(total_st, folded_st)
    compare("%s: total" % a.name, total_io, total_st, STDIO_COUNTERS, diffs)

    for line in diffs:
        print("DIFF " + line)
    print("TABLE %-22s files %6d/%-6d read %11d/%-11d written %11d/%-11d reads %7d/%-7d "
          "writes %7d/%-7d opens %6d/%-6d stats %6d/%-6d diffs %d (iolens/strace; libc-internal "
          "opens %d stats %d; processes %d, execs %d, logs %d)" % (
              a.name, len(named) + (1 if any(folded_io.values()) else 0), len(st.files),
              total_io["bytes_read"], total_st["bytes_read"],
              total_io["bytes_written"], total_st["bytes_written"],
              total_io["reads"], total_st["reads"], total_io["writes"], total_st["writes"],
              total_io["opens"], total_st["opens"], total_io["stats"], total_st["stats"],
              len(diffs), st.internal["opens"], st.internal["stats"],
              st.processes, st.execs, io.logs))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
