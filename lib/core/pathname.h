/* Path normalization and the include/exclude prefix rules.  Pure string
 * functions: no system calls, so they are unit-testable and cheap. */
#ifndef IOLENS_PATHNAME_H
#define IOLENS_PATHNAME_H

#include <stddef.h>

/*
 * Writes the normalized absolute form of path into out (size outsz):
 * a relative path is joined to base (an absolute directory, normally the
 * cwd); repeated '/', "/./" and ".." components are cleaned lexically
 * (symbolic links are not resolved); no trailing '/' except for "/".
 * Returns the length written, or -1 if out is too small or path is empty.
 */
long iolens_path_normalize(const char *base, const char *path, char *out, size_t outsz);

/* A list of path prefixes, matched on component boundaries
 * ("/usr" matches "/usr" and "/usr/lib", not "/usrlocal"). */
#define IOLENS_MAX_PREFIXES 64
struct iolens_prefix_list {
    unsigned count;
    const char *prefix[IOLENS_MAX_PREFIXES];
    size_t len[IOLENS_MAX_PREFIXES];
};

/* Splits a comma-separated list into list, pointing into storage, which is
 * a writable copy owned by the caller.  Empty items are skipped; items
 * beyond IOLENS_MAX_PREFIXES are ignored.  Trailing '/' is dropped. */
void iolens_prefix_list_parse(struct iolens_prefix_list *list, char *storage);
void iolens_prefix_list_add(struct iolens_prefix_list *list, const char *prefix);
int iolens_prefix_list_match(const struct iolens_prefix_list *list, const char *abspath);

/* 1 if the normalized absolute path is one of the MPI library's own files,
 * never the program's (iolens(7), WHAT IS TRACED): anything under Open
 * MPI's session directory (a component "ompi.HOST.UID", in TMPDIR or
 * /tmp), the lock-test files Open MPI's MPI-IO puts beside a file it
 * opens ("NAME.locktest.N"), and the shared file pointer ROMIO (MPICH)
 * keeps hidden beside one (".NAME.shfp.N.M"). */
int iolens_path_is_mpi_own(const char *abspath);

#endif
