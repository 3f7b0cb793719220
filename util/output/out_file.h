/* Writing a tool's output file safely (every tool that writes a file
 * goes through this, so no tool can be led to overwrite a file it was not
 * asked to).  A regular file, or a name that does not
 * exist yet, is written to a new temporary file beside it, created with
 * O_CREAT|O_EXCL|O_NOFOLLOW under an unguessable name, and renamed onto
 * the name only when complete: a planted symlink is never followed, and a
 * failure leaves the old file as it was.  "-" is standard output.  An
 * existing file that is not a regular one (/dev/null, a FIFO, a terminal)
 * is written in place, never replaced. */
#ifndef IOLENS_OUT_FILE_H
#define IOLENS_OUT_FILE_H

#include <stdio.h>

struct iolens_out {
    FILE *fp;          /* where to write */
    char *path;        /* the name asked for */
    char *tmp;         /* the temporary name, NULL when written in place */
};

/* Opens the output for path (above).  0, or an errno value. */
int iolens_out_open(struct iolens_out *o, const char *path);
/* Flushes and closes the output and renames the temporary onto the name.
 * 0, or an errno value (then the temporary is removed). */
int iolens_out_commit(struct iolens_out *o);
/* Closes the output and removes the temporary, if any (a failed run). */
void iolens_out_abort(struct iolens_out *o);

/* The output path would replace one of the inputs[0..n) (the same
 * regular file, by device and inode, whatever the names: the name path
 * itself, as iolens_out_open replaces it, against each input as it is
 * read): its index, else -1.  The tools refuse to write over a log they
 * read, which would be gone once the output is renamed onto it. */
int iolens_out_replaces_input(const char *path, const char *const *inputs, int n);

/* For libraries that open files by name (HDF5, SQLite): a new directory
 * beside path, made with mkdtemp (mode 0700: nobody else can plant or
 * replace a name in it), and in *file the name of a file inside it for the
 * library to create.  iolens_out_dir_commit renames that file onto path
 * and removes the directory; iolens_out_dir_abort removes both.  0, or an
 * errno value. */
struct iolens_out_dir {
    char *dir, *file, *path;
};
int iolens_out_dir_open(struct iolens_out_dir *d, const char *path);
int iolens_out_dir_commit(struct iolens_out_dir *d);
void iolens_out_dir_abort(struct iolens_out_dir *d);

#endif
