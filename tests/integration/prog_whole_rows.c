/* Files that come back once the budget cannot keep their new stream or
 * descriptor apart: each file's row must have all of its calls or be
 * absent (test_whole_rows.sh).
 *
 * prog_whole_rows reopen DIR N HOLD
 *   1. a00000..: N files, each fopen "w", 10 bytes fwrite, fclose;
 *   2. p0..p4: 5 files, fopen "w", 10 bytes, held open;
 *   3. h00000..: HOLD files, fopen "w", 10 bytes, held open (they fill
 *      the table);
 *   4. the a files again: fopen "a", 10 bytes, fclose; the p files get
 *      a second stream (fopen "a", 10 bytes, held open), then 10 more
 *      bytes through the first one.
 *   Each a file: 2 opens, 2 writes, 20 bytes; each p file: 2 opens,
 *   3 writes, 30 bytes; each h file: 1, 1, 10.
 * prog_whole_rows fdopen DIR N
 *   N files d00000.., each open(2) then fdopen "w", 10 bytes, fclose:
 *   1 open, 1 write, 10 bytes each.
 * prog_whole_rows refdopen DIR N
 *   as sort does with its temporary files: N files e00000.., each
 *   open(2)ed (O_EXCL), fdopen "w", 10 bytes, fclose; then each again,
 *   open(2) read-only, fdopen "r", fread of its 10 bytes, fclose:
 *   2 opens, 10 bytes written, 10 bytes read each.
 * prog_whole_rows descriptors DIR HOLD, through open(2) and write(2):
 *   1. q0..q4: 5 files opened, 10 bytes written, closed; p0..p4: 5
 *      files opened for appending, 10 bytes written, held open;
 *   2. h00000..: HOLD files, 10 bytes each, held open (their state fills
 *      the budget);
 *   3. the q files again: open O_APPEND, 10 bytes, close; the p files
 *      get a second descriptor (open O_APPEND, 10 bytes, held open), then
 *      10 more bytes through the first one.
 *   Each q file: 2 opens, 2 writes, 20 bytes; each p file: 2 opens,
 *   3 writes, 30 bytes; each h file: 1, 1, 10.  Held descriptors are
 *   left open at exit.
 * prog_whole_rows descriptors DIR HOLD exec: the same, then DIR/junk
 *   (open, 4 bytes written, mode 0755, closed) is execve'd, which fails
 *   with ENOEXEC (the runtime writes a log before an exec and throws it
 *   away when the exec fails), then 10 more bytes go through each p
 *   file's first descriptor: 4 writes and 40 bytes each p file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HELD_TWICE 5

static const char ten[] = "0123456789";

static FILE *open_and_write(const char *dir, const char *name, long i, const char *mode)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%05ld", dir, name, i);
    FILE *f = fopen(path, mode);
    if (f == NULL || fwrite(ten, 1, 10, f) != 10) {
        perror(path);
        exit(1);
    }
    return f;
}

static void close_or_die(FILE *f)
{
    if (fclose(f) != 0) {
        perror("fclose");
        exit(1);
    }
}

static void reopen(const char *dir, long n, long hold)
{
    FILE *held = NULL;
    FILE *p[HELD_TWICE], *p_again[HELD_TWICE];
    for (long i = 0; i < n; i++)
        close_or_die(open_and_write(dir, "a", i, "w"));
    for (long i = 0; i < HELD_TWICE; i++)
        p[i] = open_and_write(dir, "p", i, "w");
    for (long i = 0; i < hold; i++)
        held = open_and_write(dir, "h", i, "w"); /* left open: exit flushes them */
    for (long i = 0; i < n; i++)
        close_or_die(open_and_write(dir, "a", i, "a"));
    for (long i = 0; i < HELD_TWICE; i++) {
        p_again[i] = open_and_write(dir, "p", i, "a");
        if (fwrite(ten, 1, 10, p[i]) != 10) {
            perror("fwrite");
            exit(1);
        }
        fflush(p[i]);
        fflush(p_again[i]);
    }
    (void)held;
}

static void fdopen_each(const char *dir, long n)
{
    for (long i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/d%05ld", dir, i);
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (f == NULL || fwrite(ten, 1, 10, f) != 10) {
            perror(path);
            exit(1);
        }
        close_or_die(f);
    }
}

static FILE *fdopen_path(const char *dir, long i, int flags, const char *mode)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/e%05ld", dir, i);
    int fd = open(path, flags, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, mode) : NULL;
    if (f == NULL) {
        perror(path);
        exit(1);
    }
    return f;
}

static void refdopen(const char *dir, long n)
{
    char back[10];
    for (long i = 0; i < n; i++) {
        FILE *f = fdopen_path(dir, i, O_CREAT | O_EXCL | O_RDWR, "w");
        if (fwrite(ten, 1, 10, f) != 10) {
            perror("fwrite");
            exit(1);
        }
        close_or_die(f);
    }
    for (long i = 0; i < n; i++) {
        FILE *f = fdopen_path(dir, i, O_RDONLY, "r");
        if (fread(back, 1, sizeof back, f) != sizeof back || memcmp(back, ten, 10) != 0) {
            fprintf(stderr, "fread: short or wrong\n");
            exit(1);
        }
        close_or_die(f);
    }
}

static int open_and_put(const char *dir, const char *name, long i, int flags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%05ld", dir, name, i);
    int fd = open(path, flags, 0644);
    if (fd < 0 || write(fd, ten, 10) != 10) {
        perror(path);
        exit(1);
    }
    return fd;
}

static void put(int fd)
{
    if (write(fd, ten, 10) != 10) {
        perror("write");
        exit(1);
    }
}

/* An exec that fails after the runtime wrote its log for it. */
static void failed_exec(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/junk", dir);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0755);
    if (fd < 0 || write(fd, "junk", 4) != 4 || close(fd) != 0) {
        perror(path);
        exit(1);
    }
    char *args[] = {path, NULL};
    char *env[] = {NULL};
    execve(path, args, env);
    if (errno != ENOEXEC) {
        perror("execve");
        exit(1);
    }
}

static void descriptors(const char *dir, long hold, int exec_then_write)
{
    int p[HELD_TWICE];
    const int create = O_CREAT | O_WRONLY | O_TRUNC, append = O_WRONLY | O_APPEND;
    for (long i = 0; i < HELD_TWICE; i++) {
        close(open_and_put(dir, "q", i, create));
        p[i] = open_and_put(dir, "p", i, create | O_APPEND); /* the second one's bytes stay */
    }
    for (long i = 0; i < hold; i++)
        (void)open_and_put(dir, "h", i, create); /* left open */
    for (long i = 0; i < HELD_TWICE; i++) {
        close(open_and_put(dir, "q", i, append));
        (void)open_and_put(dir, "p", i, append); /* left open */
        put(p[i]);
    }
    if (!exec_then_write)
        return;
    failed_exec(dir);
    for (long i = 0; i < HELD_TWICE; i++)
        put(p[i]);
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "reopen") == 0) {
        reopen(argv[2], atol(argv[3]), atol(argv[4]));
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "fdopen") == 0) {
        fdopen_each(argv[2], atol(argv[3]));
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "refdopen") == 0) {
        refdopen(argv[2], atol(argv[3]));
        return 0;
    }
    if ((argc == 4 || (argc == 5 && strcmp(argv[4], "exec") == 0)) &&
        strcmp(argv[1], "descriptors") == 0) {
        descriptors(argv[2], atol(argv[3]), argc == 5);
        return 0;
    }
    fprintf(stderr, "usage: %s reopen DIR N HOLD | fdopen DIR N | refdopen DIR N | descriptors DIR HOLD [exec]\n",
            argv[0]);
    return 2;
}
