/* Where the runtime's one-line messages go (man iolens(7), LOG SAFETY):
 * standard error, or, once the program has closed it (coreutils close it
 * in an atexit handler, before the log is written), a copy of it taken at
 * the start; never a file the program opened and got descriptor 2 for. */
#ifndef IOLENS_STDERR_COPY_H
#define IOLENS_STDERR_COPY_H

/* Notes which file fd 2 is (none, if it is closed), and takes the copy
 * of it (F_DUPFD_CLOEXEC, high up), unless fd 2 is a pipe or a socket: a
 * copy would keep its write end open, and a reader waiting for
 * end-of-file (the parent of a daemon that closed its standard error)
 * would wait as long as the process lives. */
void iolens_stderr_copy_take(void);

/* The program has put a file at fd 2 on purpose (dup2, dup3, a dup or
 * F_DUPFD that returned 2, freopen of stderr): that file is its standard
 * error from now on. */
void iolens_stderr_adopt(void);

/* The descriptor for a message now: 2 while it is the file noted as
 * standard error; else the copy while it still refers to the file fd 2
 * was at the start (a program may have closed it or put another file at
 * its number); else -1.  A file the program opened after closing fd 2
 * (open returns the lowest free descriptor) is its data, not its
 * standard error. */
int iolens_stderr_fd(void);

/* Writes line (one whole message, newline included) to standard error,
 * or to the copy of it, through the real write: how every runtime message
 * goes out, never through the wrappers.  Nothing if write cannot be
 * resolved or neither descriptor is there.  Never raises SIGPIPE, and
 * keeps errno. */
void iolens_real_say(const char *line);

#endif
