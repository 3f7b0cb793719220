/* Where a log goes and how it gets there (man iolens(7), LOG SAFETY):
 * the log's directory is opened once, without following a symbolic
 * link, and checked; the temporary file is created in it and renamed to
 * a name that nothing holds yet.  Nothing that exists, be it another
 * process's log, a user's file, a device or a planted symbolic link, is
 * ever replaced, followed or truncated. */
#ifndef IOLENS_LOG_PLACE_H
#define IOLENS_LOG_PLACE_H

#include <limits.h>
#include <stddef.h>

#include "core/fd_room.h"

/* Tries of new names when the wanted one is taken, before giving up. */
#define IOLENS_LOG_NAME_TRIES 8

/* How the names after the first are made. */
enum iolens_log_naming {
    /* A name built by iolens with this process's token in it
     * (iolens_log_token): the first try may replace this process's own
     * earlier log there (a signal, then exit); later tries add
     * "-<random>" before ".iolens". */
    IOLENS_NAMING_TOKEN,
    /* IOLENS_LOGFILE: the exact name, then "<name>.<pid>", then
     * "<name>.<pid>-<random>"; an existing file is never replaced. */
    IOLENS_NAMING_EXACT,
    /* IOLENS_LOGFILE in a forked child: starts at "<name>.<pid>". */
    IOLENS_NAMING_EXACT_CHILD,
    /* The one name given, replacing what is there without following it:
     * for tools that write a log where their user said
     * (iolens_log_write_file), never for the runtime. */
    IOLENS_NAMING_REPLACE,
};

struct iolens_log_place {
    int dirfd;                /* the directory, O_PATH|O_DIRECTORY|O_NOFOLLOW */
    char dir[PATH_MAX];       /* its path, for messages */
    char name[NAME_MAX + 1];  /* the first name wanted in it */
    enum iolens_log_naming naming;
    long pid;                 /* the traced process's */
    int mkdir_failed;         /* open: the directory could not be made */
    struct iolens_fd_room fd_room; /* descriptors out: the limit raised until close */
};

/* This process's random token (8 hex digits) for log names: made at the
 * start and again in a forked child, so that nobody can know a log's name
 * before it exists. */
const char *iolens_log_token(void);
void iolens_log_token_renew(void);

/* Opens the directory of path (the last '/' splits directory and name)
 * into *p.  make_dir: a missing directory is created (one level) with
 * mode 0700; *created tells if it was (may be NULL).  Refused: a symbolic
 * link, not a directory, a directory of another user that others may
 * write unless it is sticky.  Returns 0, or -1 with the reason in err.
 * A process that has used up its descriptors still gets its log: room is
 * made for the directory and the temporary file (core/fd_room.h) and
 * given back by iolens_log_place_close. */
int iolens_log_place_open(struct iolens_log_place *p, const char *path,
                          enum iolens_log_naming naming, long pid, int make_dir, int *created,
                          char *err, size_t errsz);
void iolens_log_place_close(struct iolens_log_place *p);

/* Creates a new temporary file in the directory
 * ("<name>.tmp-<pid>-<random>", name into tmp) with
 * O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600 (making room for it in a process
 * out of descriptors, as iolens_log_place_open does for the directory).
 * Returns the descriptor, or -1 with errno set. */
int iolens_log_place_temp(struct iolens_log_place *p, char *tmp, size_t tmpsz);

/* Renames the temporary file tmp to the first free name (see enum
 * iolens_log_naming), at most IOLENS_LOG_NAME_TRIES names.  The full path
 * published goes to path (also on failure: the last name tried).
 * Returns 0, or -1 with the reason in err (tmp is left for the caller to
 * remove). */
int iolens_log_place_publish(const struct iolens_log_place *p, const char *tmp, char *path,
                             size_t pathsz, char *err, size_t errsz);

/* Removes the temporary file tmp. */
void iolens_log_place_discard(const struct iolens_log_place *p, const char *tmp);

/* "<dir>/<name>" into out. */
void iolens_log_place_path(const struct iolens_log_place *p, const char *name, char *out,
                           size_t outsz);

#endif
