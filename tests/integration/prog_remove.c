/* remove and renameat2, which glibc's remove and coreutils' mv use
 * (test_remove.sh).
 *
 * usage: prog_remove DIR
 *   DIR/a, DIR/b and DIR/c are made (a write of 1 byte each) and DIR/sub
 *   a directory; remove(DIR/a) removes a file; remove(DIR/sub) a
 *   directory; remove(DIR/missing) fails with ENOENT;
 *   renameat2(DIR/b, DIR/c, RENAME_NOREPLACE) fails with EEXIST;
 *   renameat2(DIR/b, DIR/d, RENAME_NOREPLACE) renames.
 * Exit status 0, or the step that went wrong. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

static int make(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    return fd >= 0 && write(fd, "x", 1) == 1 && close(fd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 9;
    char a[4096], b[4096], c[4096], d[4096], sub[4096], missing[4096];
    snprintf(a, sizeof a, "%s/a", argv[1]);
    snprintf(b, sizeof b, "%s/b", argv[1]);
    snprintf(c, sizeof c, "%s/c", argv[1]);
    snprintf(d, sizeof d, "%s/d", argv[1]);
    snprintf(sub, sizeof sub, "%s/sub", argv[1]);
    snprintf(missing, sizeof missing, "%s/missing", argv[1]);
    if (make(argv[1], "a") != 0 || make(argv[1], "b") != 0 || make(argv[1], "c") != 0 ||
        mkdir(sub, 0755) != 0)
        return 1;
    if (remove(a) != 0 || remove(sub) != 0)
        return 2;
    errno = 0;
    if (remove(missing) != -1 || errno != ENOENT)
        return 3;
    errno = 0;
    if (renameat2(AT_FDCWD, b, AT_FDCWD, c, RENAME_NOREPLACE) != -1 || errno != EEXIST)
        return 4;
    if (renameat2(AT_FDCWD, b, AT_FDCWD, d, RENAME_NOREPLACE) != 0)
        return 5;
    return access(a, F_OK) != 0 && access(sub, F_OK) != 0 && access(d, F_OK) == 0 ? 0 : 6;
}
