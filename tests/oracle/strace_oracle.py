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
   One exception, a bound instead of an equality: at a seek (fseek,
   rewind, fsetpos) the C library drops what it had read ahead and reads
   it again, so strace's bytes read may exceed POSIX + STDIO bytes by at
   most one buffer (the file's st_blksize, 8192 if it is gone) per STDIO
   seek, and never fall short of them.  (iolens counts what the program
   read, as Darshan does.)
   An fdopen is a STDIO open with no open system call: strace's side
   counts it as an open, seen as glibc's fcntl(fd, F_GETFL) followed at
   once by iolens's lseek(fd, 0, SEEK_CUR).  iolens makes the same pair
   when it takes up a fopen'd stream's descriptor at fileno(); a pair is
   taken for an fdopen when the descriptor's open had flags fopen never
   makes, or else when iolens's POSIX opens of the file equal the open
   system calls (every descriptor came from the program's open calls).
 * Any other file: every system call on it was a call of the program's to a
   POSIX function iolens wraps, so opens, reads, writes, bytes read, bytes
   written, stats and seeks must equal the POSIX record's, exactly.
   copy_file_range and sendfile count as one read of the source and one
   write of the destination (man/iolens.7), with the bytes on both.
 * Calls the C library makes inside functions iolens does not wrap are not
   the program's POSIX calls and are left out on both sides (shown as
   "libc-internal"): the open of opendir (flags exactly O_RDONLY|O_NONBLOCK|
   O_CLOEXEC|O_DIRECTORY) and the fstat it makes next on that descriptor,
   the open of "." (exactly openat(AT_FDCWD, ".", O_RDONLY)) with which
   fts_open keeps the working directory, when fts_read's opendir open
   follows at once,
   the fstat of fdopendir (an fstat followed at once by fcntl(F_GETFL) on
   the same descriptor), the stat of "/" that
   glibc's nss makes right after the stat of /etc/nsswitch.conf (getpwuid
   and the like).  getdents is counted by neither.
 * iolens's own calls are left out likewise: the fcntl(F_GETFL) and
   lseek(0, SEEK_CUR) with which it binds descriptors 0, 1 and 2 at the
   start of each process image (and any lseek(fd, 0, SEEK_CUR) right after
   an fcntl(fd, F_GETFL): see fdopen above), the lseek(fd, 0, SEEK_CUR)
   with which it asks where a write on an O_APPEND descriptor landed (right
   after that write, same descriptor), the fstat(2) of stderr_copy.c (a stat of
   descriptor 2 followed at once, in the same process, by iolens's
   fcntl(2, F_DUPFD_CLOEXEC, n), or, 2 being a pipe or socket, by its
   openat of "/proc/self/mounts"), and everything on its log directory.
 * A failed call counts on neither side; a read of 0 bytes is a read.

Each process image is compared on its own, since each has its own log and
its own budget: strace's calls are split by pid, and by execve within a
pid (an image counts if the dynamic loader opened the --preload library in
it, or, for a fork's child, if it did in the parent); a pid's images are
paired in order with its logs in order of "start_time".  Where the numbers
differ (an image that wrote no log, like a fork's child that only exec'd)
the pid's images and logs are compared as one, with a NOTE line.  In each
image the files iolens folded into <other files> (budget full) are
compared as one group: the files strace saw in that image that its log
does not name against that log's record, with the stdio rule if the record
has STDIO activity.  (One process may fold a file that another names:
grouping over the whole run would be wrong.)  Each layer's records take
budget of their own, so a file with a record in one layer only, in a log
whose other layer's <other files> record has activity, joins that group
with its counts (its other layer's may sit there).  The totals compare bytes and
opens over everything.  Any difference fails.
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
# The open flags glibc's fopen can make (modes r, w, a, each with +, and
# the e and x letters): a descriptor opened otherwise is not a stream's.
FOPEN_FLAGS = {frozenset(base | extra)
               for base in ({"O_RDONLY"}, {"O_WRONLY", "O_CREAT", "O_TRUNC"},
                            {"O_WRONLY", "O_CREAT", "O_APPEND"}, {"O_RDWR"},
                            {"O_RDWR", "O_CREAT", "O_TRUNC"}, {"O_RDWR", "O_CREAT", "O_APPEND"})
               for extra in (set(), {"O_CLOEXEC"}, {"O_EXCL"}, {"O_CLOEXEC", "O_EXCL"})}
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


def is_fts_dot_open(sc, args):
    """The open with which glibc's fts_open keeps the working directory."""
    return sc == "openat" and len(args) > 2 and fd_of(args[0])[0] is None and \
        string_arg(args[1]) == "." and args[2] == "O_RDONLY"


class StraceCounts:
    def __init__(self, scope):
        self.scope = scope
        self.files = {}  # name -> counts, over the whole run
        self.image_files = {}  # image -> {name: counts}
        self.image = {}  # pid or tid -> image (process id, execs so far)
        self.loaded = {}  # image -> whether iolens runs in it
        self.order = []  # images in order of first sight
        self.internal = zero()
        self.pairs = {}  # image -> {name: [fdopens, fdopens or filenos]}
        self.fts_dot = {}  # pid -> path of its open of "." just before, if any
        self.fd_flags = {}  # pid -> {fd: flags of the open that made it}
        self.append = {}  # pid -> descriptors opened with O_APPEND
        self.std = {}  # pid -> {fd: <STD...>}
        self.last = {}  # pid -> (syscall, fd, file) of the previous call, for fdopendir
        self.errors = []
        self.processes = 1
        self.execs = 0

    def image_of(self, pid):
        if pid not in self.image:
            # The first process (strace's child before its execve) or a
            # child seen before its parent's clone returned.
            self.new_image(pid, (pid, 0), False)
        return self.image[pid]

    def new_image(self, pid, image, loaded):
        self.image[pid] = image
        self.loaded[image] = loaded
        self.order.append(image)

    def bump(self, name, counter, value=1):
        if name is None or not self.scope.traced(name):
            return
        self.files.setdefault(name, zero())[counter] += value
        image = self.image_of(self.pid)
        self.image_files.setdefault(image, {}).setdefault(name, zero())[counter] += value

    def std_of(self, pid):
        return self.std.setdefault(pid, {0: STD_NAMES[0], 1: STD_NAMES[1], 2: STD_NAMES[2]})

    def append_fds(self, pid):
        """The descriptors of pid opened with O_APPEND, or given it by
        fcntl(F_SETFL) (as far as seen)."""
        return self.append.setdefault(pid, set())

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

    def undo_fts_open(self, pid):
        """fts_open's open of "." (to come back to it), seen when fts_read's
        opendir follows at once."""
        name = self.fts_dot.pop(pid)
        if name is not None and self.scope.traced(name):
            self.files[name]["opens"] -= 1
            self.image_files[self.image_of(pid)][name]["opens"] -= 1
            self.internal["opens"] += 1

    def call(self, pid, sc, args, ret, after, raw):
        prev = self.last.get(pid)
        if prev is not None and not (prev[0] in OPENS and is_fts_dot_open(prev[0], prev[1])):
            self.fts_dot.pop(pid, None)
        self.last[pid] = (sc, args, ret)
        self.pid = pid
        parent = self.image_of(pid)
        ok = ret != "?" and int(ret) >= 0
        if sc in FORKS:
            # With -f the child's first calls may come before this line
            # (vfork: even its execve): then it has its own state already.
            if ok and int(ret) > 0 and int(ret) not in self.image:
                self.std[int(ret)] = dict(self.std_of(pid))
                self.append[int(ret)] = set(self.append_fds(pid))
                self.fd_flags[int(ret)] = dict(self.fd_flags.get(pid, {}))
            if ok and int(ret) > 0:
                child = int(ret)
                if "CLONE_THREAD" in raw:
                    self.image[child] = parent
                else:
                    self.processes += 1
                    # A fork's child runs the parent's program, iolens too.
                    if (child, 0) in self.loaded:
                        self.loaded[(child, 0)] = self.loaded[parent]
                    else:
                        self.new_image(child, (child, 0), self.loaded[parent])
            return
        if not ok:
            return
        n = int(ret)
        if sc == "execve":
            self.std.pop(pid, None)
            self.execs += 1
            # A new process image; iolens is in it if the dynamic loader
            # opens the preloaded library (seen below).
            self.new_image(pid, (parent[0], parent[1] + 1), False)
        elif sc in OPENS:
            m = RET_PATH.match(after.strip())
            path = unescape(m.group(1)) if m else None
            self.std_of(pid).pop(n, None)
            self.append_fds(pid).discard(n)
            if "O_APPEND" in raw:
                self.append_fds(pid).add(n)
            flags = args[2] if sc == "openat" and len(args) > 2 else (args[1] if len(args) > 1 else "")
            self.fd_flags.setdefault(pid, {})[n] = frozenset(flags.split("|"))
            if path is not None and os.path.normpath(path) in self.scope.preload:
                self.loaded[parent] = True
            if is_opendir_open(sc, args):
                self.internal["opens"] += 1
                if self.fts_dot.get(pid) is not None and prev is not None and prev[0] in OPENS:
                    self.undo_fts_open(pid)
            else:
                self.bump(path, "opens")
            if is_fts_dot_open(sc, args):
                self.fts_dot[pid] = path
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
        elif sc in SEEKS and args[1:3] == ["0", "SEEK_CUR"] and prev is not None and \
                prev[0] == "fcntl" and prev[1][:1] == args[:1] and prev[1][1:2] == ["F_GETFL"]:
            # iolens's own look at a descriptor's position after an F_GETFL:
            # its start-up binding of 0, 1 and 2; on another descriptor,
            # its fdopen wrapper after glibc's fdopen made the fcntl, or its
            # taking up of a stream's descriptor at fileno() (both calls
            # its own).  Which of the two is settled in compare_group.
            self.internal["seeks"] += 1
            fd, path = fd_of(args[0])
            name = self.name_of(pid, fd, path)
            if fd not in (0, 1, 2) and name is not None and self.scope.traced(name):
                pairs = self.pairs.setdefault(self.image_of(pid), {}).setdefault(name, [0, 0])
                flags = self.fd_flags.get(pid, {}).get(fd)
                pairs[0 if flags is not None and flags not in FOPEN_FLAGS else 1] += 1
        elif sc in SEEKS and args[1:3] == ["0", "SEEK_CUR"] and prev is not None and \
                (prev[0] in WRITES or prev[0] in ("copy_file_range", "sendfile", "splice")) and \
                prev[1][:1] == args[:1] and fd_of(args[0])[0] in self.append_fds(pid):
            self.internal["seeks"] += 1  # iolens asking where an O_APPEND write landed
        elif sc in SEEKS:
            fd, path = fd_of(args[0])
            self.bump(self.name_of(pid, fd, path), "seeks")
        elif sc == "close":
            fd, _ = fd_of(args[0])
            self.std_of(pid).pop(fd, None)
            self.append_fds(pid).discard(fd)
            self.fd_flags.get(pid, {}).pop(fd, None)
        elif sc in DUPS or (sc == "fcntl" and len(args) > 1 and args[1].startswith("F_DUPFD")):
            old, _ = fd_of(args[0])
            self.append_fds(pid).discard(n)
            if old in self.append_fds(pid):
                self.append_fds(pid).add(n)
            fd_flags = self.fd_flags.setdefault(pid, {})
            fd_flags.pop(n, None)
            if old in fd_flags:
                fd_flags[n] = fd_flags[old]
            std = self.std_of(pid)
            if old in std:
                std[n] = std[old]
            else:
                std.pop(n, None)
        if sc == "fcntl" and len(args) > 1 and args[1] == "F_SETFL":
            fd = fd_of(args[0])[0]
            if "O_APPEND" in raw:
                self.append_fds(pid).add(fd)
            else:
                self.append_fds(pid).discard(fd)
        if sc == "fcntl" and len(args) > 1 and args[1] == "F_GETFL" and prev is not None:
            self.undo_fdopendir_stat(pid, prev, args[0])
        if prev is not None and self.is_stderr_stat(prev) and (
                (sc == "fcntl" and fd_of(args[0])[0] == 2 and args[1:2] == ["F_DUPFD_CLOEXEC"]) or
                (sc == "openat" and len(args) > 1 and string_arg(args[1]) == "/proc/self/mounts")):
            self.undo_stderr_copy_stat(pid, prev)

    @staticmethod
    def is_stderr_stat(call):
        sc, args, ret = call
        return ret == "0" and bool(args) and fd_of(args[0])[0] == 2 and (
            sc in STATS_FD or (sc in STATS_AT and len(args) > 1 and string_arg(args[1]) == ""))

    def undo_stderr_copy_stat(self, pid, prev):
        """iolens's fstat(2) of stderr_copy.c, just before it dups 2 (or, 2
        being a pipe or socket, just before it reads /proc/self/mounts)."""
        fd, path = fd_of(prev[1][0])
        name = self.name_of(pid, fd, path)
        if name is not None and self.scope.traced(name):
            self.files[name]["stats"] -= 1
            self.image_files[self.image_of(pid)][name]["stats"] -= 1
            self.internal["stats"] += 1

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
                self.image_files[self.image_of(pid)][name]["stats"] -= 1
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


class IolensLog:
    """The counters of one log: one process image."""

    def __init__(self, path):
        self.path = path
        self.pid = None
        self.exe = "?"
        self.start = 0.0
        self.posix = {}
        self.stdio = {}
        self.stdio_active = set()
        self.stdio_seeks = {}

    def add_line(self, line):
        if line.startswith("# pid: "):
            self.pid = int(line.split()[-1])
        elif line.startswith("# exe: "):
            self.exe = os.path.basename(line[len("# exe: "):].split(" ")[0])
        elif line.startswith("# start_time: "):
            self.start = float(line.split()[2])
        if line.startswith("#"):
            return
        col = line.split("\t")
        if len(col) < 6:
            return
        layer, counter, value, name = col[0], col[3], col[4], parser_unescape(col[5])
        if layer == "POSIX" and counter in POSIX_MAP:
            self.posix.setdefault(name, zero())[POSIX_MAP[counter]] += int(value)
        elif layer == "STDIO":
            if counter in STDIO_MAP:
                self.stdio.setdefault(name, zero())[STDIO_MAP[counter]] += int(value)
            if counter in STDIO_ACTIVE and int(value) != 0:
                self.stdio_active.add(name)
            if counter == "STDIO_SEEKS":
                self.stdio_seeks[name] = self.stdio_seeks.get(name, 0) + int(value)


class IolensCounts:
    """The counters of a group of logs (one process image, or all)."""

    def __init__(self, logs):
        self.posix, self.stdio, self.stdio_active, self.stdio_seeks = {}, {}, set(), {}
        for log in logs:
            for name, n in log.stdio_seeks.items():
                self.stdio_seeks[name] = self.stdio_seeks.get(name, 0) + n
            for mine, theirs in ((self.posix, log.posix), (self.stdio, log.stdio)):
                for name, counts in theirs.items():
                    mine[name] = add(mine.get(name, zero()), counts)
            self.stdio_active |= log.stdio_active

    def names(self):
        return set(self.posix) | set(self.stdio)

    def view(self, name):
        """(counts, stdio?) of a file as the comparison rule sees it."""
        posix = self.posix.get(name, zero())
        if name not in self.stdio_active:
            return dict(posix), False
        stdio = self.stdio.get(name, zero())
        return {c: posix[c] + stdio[c] for c in COUNTERS}, True


def read_logs(parser, logdir, errors):
    logs = []
    for path in log_files(logdir):
        r = subprocess.run([parser, "--base", path], capture_output=True, text=True,
                           encoding="utf-8", errors="replace")
        if r.returncode != 0:
            errors.append("iolens-parser --base %s: %s" % (path, r.stderr.strip()))
            continue
        log = IolensLog(path)
        for line in r.stdout.splitlines():
            log.add_line(line)
        logs.append(log)
    return logs


# ---------------------------------------------------------- comparing --

def add(a, b):
    return {c: a[c] + b[c] for c in COUNTERS}


def buffer_size(name):
    """The C library's buffer for a stream on name: its st_blksize."""
    try:
        return os.stat(name).st_blksize or 8192
    except OSError:
        return 8192


def reread_slack(io, names):
    """The most bytes strace may read beyond iolens's on these stdio files:
    one buffer per STDIO seek (the header's exception)."""
    return sum(io.stdio_seeks.get(n, 0) * (buffer_size(n) if n != OTHER else 65536) for n in names)


def compare(label, mine, theirs, counters, diffs, slack=0):
    for c in counters:
        if c == "bytes_read" and slack > 0 and 0 <= theirs[c] - mine[c] <= slack:
            continue
        if mine[c] != theirs[c]:
            diffs.append("%s %s: iolens %d, strace %d (%+d)" % (label, c, mine[c], theirs[c],
                                                               mine[c] - theirs[c]))


def image_groups(st, logs):
    """(label, strace images, iolens logs) of each process image: a pid's
    images where iolens ran, in order, against its logs in order of start
    time.  Where their numbers differ (a log lost, or an image strace did
    not see whole) the pid's images and logs form one group, and a note
    says so: a lost log then shows as a difference all the same."""
    logs_of, images_of = {}, {}
    for log in sorted(logs, key=lambda l: l.start):
        logs_of.setdefault(log.pid, []).append(log)
    for image in st.order:
        if st.loaded[image]:
            images_of.setdefault(image[0], []).append(image)
        elif st.image_files.get(image):
            yield "pid %d image %d (no iolens)" % image, [image], []
    for pid in sorted(set(logs_of) | set(images_of), key=lambda p: (p is None, p or 0)):
        images, pid_logs = images_of.get(pid, []), logs_of.get(pid, [])
        if len(images) == len(pid_logs):
            for image, log in zip(images, pid_logs):
                yield "pid %d %s" % (pid, log.exe), [image], [log]
        else:
            print("NOTE pid %s: %d process images with iolens in the trace, %d logs: compared as one"
                  % (pid, len(images), len(pid_logs)))
            yield "pid %s" % pid, images, pid_logs


def with_fdopens(is_stdio, posix_opens, theirs, pairs):
    """strace's counts with the fdopens among a file's (or group's)
    F_GETFL + SEEK_CUR pairs counted as opens: a STDIO open each, with no
    open system call.  pairs is [sure, either]: a pair on a descriptor
    whose open had flags fopen never uses is an fdopen for sure; any other
    may also be iolens taking up a fopen'd stream's descriptor at fileno(),
    and counts as an fdopen only when every descriptor of the file came
    from the program's own open calls (iolens's POSIX opens equal the open
    system calls)."""
    if not is_stdio:
        return theirs
    sure, either = pairs
    opens = theirs["opens"] + sure
    if either and posix_opens == theirs["opens"]:
        opens += either
    return dict(theirs, opens=opens)


def half_folded(io, name):
    """A file with a record in one layer only, while the other layer's
    <other files> record has activity: its other layer's counts may sit
    in that record (each layer's records take budget of their own)."""
    in_posix, in_stdio = name in io.posix, name in io.stdio_active or name in io.stdio
    other_posix = any(io.posix.get(OTHER, zero()).values())
    other_stdio = OTHER in io.stdio_active
    return (in_posix and not in_stdio and other_stdio) or (in_stdio and not in_posix and other_posix)


def compare_group(label, scope, io, theirs_files, pairs, diffs):
    """Compares one group's files, each file iolens names against strace's
    counts of it, and the files strace saw that it does not name (with the
    half-folded ones) against its <other files> record.  Returns the
    group's (iolens, strace) totals and the slack of its bytes read (the
    header's exception for stdio seeks)."""
    named = io.names() - {OTHER}
    total_io, total_st, total_slack = zero(), zero(), 0
    merged = sorted(n for n in named if half_folded(io, n))
    for name in sorted(named - set(merged)):
        mine, is_stdio = io.view(name)
        theirs = with_fdopens(is_stdio, io.posix.get(name, zero())["opens"],
                              theirs_files.get(name, zero()), pairs.get(name, [0, 0]))
        if not scope.traced(name):
            diffs.append("%s: iolens has a record of %s, which it should not trace" % (label, name))
        slack = reread_slack(io, [name]) if is_stdio else 0
        compare("%s %s" % (label, name), mine, theirs, STDIO_COUNTERS if is_stdio else COUNTERS, diffs,
                slack)
        total_io, total_st, total_slack = add(total_io, mine), add(total_st, theirs), total_slack + slack
    folded = sorted(set(theirs_files) - named)
    folded_io, folded_stdio = io.view(OTHER)
    folded_posix_opens = io.posix.get(OTHER, zero())["opens"]
    for name in merged:
        mine, is_stdio = io.view(name)
        folded_io, folded_stdio = add(folded_io, mine), folded_stdio or is_stdio
        folded_posix_opens += io.posix.get(name, zero())["opens"]
    folded_st, npairs = zero(), [0, 0]
    for name in folded + merged:
        folded_st = add(folded_st, theirs_files.get(name, zero()))
        npairs = [a + b for a, b in zip(npairs, pairs.get(name, [0, 0]))]
    folded_st = with_fdopens(folded_stdio, folded_posix_opens, folded_st, npairs)
    folded_slack = reread_slack(io, [OTHER] + merged) if folded_stdio else 0
    if folded or any(folded_io.values()):
        compare("%s %s (%d files strace saw that iolens does not name: %s%s)"
                % (label, OTHER, len(folded), ", ".join(folded[:3]) + (" ..." if len(folded) > 3 else ""),
                   "; with %d named in one layer only: %s" % (len(merged), ", ".join(merged[:3]))
                   if merged else ""),
                folded_io, folded_st, STDIO_COUNTERS if folded_stdio else COUNTERS, diffs, folded_slack)
    return add(total_io, folded_io), add(total_st, folded_st), total_slack + folded_slack


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
    errors = []
    logs = read_logs(a.parser, a.logdir, errors)
    diffs = ["%s: %s" % (a.name, e) for e in st.errors + errors]
    if not logs:
        diffs.append("%s: no log in %s" % (a.name, a.logdir))

    total_io, total_st, total_slack = zero(), zero(), 0
    named_all, folded_any = set(), False
    for label, images, group_logs in image_groups(st, logs):
        io = IolensCounts(group_logs)
        theirs_files, pairs = {}, {}
        for image in images:
            for name, count in st.pairs.get(image, {}).items():
                pairs[name] = [a + b for a, b in zip(pairs.get(name, [0, 0]), count)]
            for name, counts in st.image_files.get(image, {}).items():
                theirs_files[name] = add(theirs_files.get(name, zero()), counts)
        mine, theirs, slack = compare_group("%s: %s" % (a.name, label), scope, io, theirs_files,
                                            pairs, diffs)
        total_io, total_st, total_slack = add(total_io, mine), add(total_st, theirs), total_slack + slack
        named_all |= io.names() - {OTHER}
        folded_any = folded_any or any(io.view(OTHER)[0].values())
    compare("%s: total" % a.name, total_io, total_st, STDIO_COUNTERS, diffs, total_slack)

    for line in diffs:
        print("DIFF " + line)
    print("TABLE %-22s files %6d/%-6d read %11d/%-11d written %11d/%-11d reads %7d/%-7d "
          "writes %7d/%-7d opens %6d/%-6d stats %6d/%-6d diffs %d (iolens/strace; libc-internal "
          "opens %d stats %d; processes %d, execs %d, logs %d)" % (
              a.name, len(named_all) + (1 if folded_any else 0), len(st.files),
              total_io["bytes_read"], total_st["bytes_read"],
              total_io["bytes_written"], total_st["bytes_written"],
              total_io["reads"], total_st["reads"], total_io["writes"], total_st["writes"],
              total_io["opens"], total_st["opens"], total_io["stats"], total_st["stats"],
              len(diffs), st.internal["opens"], st.internal["stats"],
              st.processes, st.execs, len(logs)))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
