/* Calls after which iolens itself makes system calls, or counts an open
 * that makes none (test_oracle_own_calls.sh).
 *
 * usage: prog_own_calls FDOPENED FILENO APPENDED
 *   FDOPENED: open() + fdopen(), fputs 3 bytes, fclose (2 opens, 1 open
 *     system call).
 *   FILENO: fopen "w", fputs 4 bytes, fstat(fileno()), fclose.
 *   APPENDED: open O_APPEND, 2 writes of 5 bytes; then open without it,
 *     fcntl(F_SETFL, O_APPEND), 1 write of 5 bytes. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(const char *what)
{
    perror(what);
    return 1;
}

static int fdopened(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL || fputs("abc", f) < 0 || fclose(f) != 0)
        return fail("fdopen");
    return 0;
}

static int through_fileno(const char *path)
{
    struct stat st;
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs("abcd", f) < 0 || fstat(fileno(f), &st) != 0 || fclose(f) != 0)
        return fail("fileno");
    return 0;
}

static int appended(const char *path)
{
    int a = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0644);
    if (a < 0 || write(a, "01234", 5) != 5 || write(a, "56789", 5) != 5 || close(a) != 0)
        return fail("O_APPEND");
    int b = open(path, O_WRONLY);
    int flags = b >= 0 ? fcntl(b, F_GETFL) : -1;
    if (flags < 0 || fcntl(b, F_SETFL, flags | O_APPEND) != 0 || write(b, "abcde", 5) != 5 ||
        close(b) != 0)
        return fail("F_SETFL O_APPEND");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s FDOPENED FILENO APPENDED\n", argv[0]);
        return 2;
    }
    return fdopened(argv[1]) || through_fileno(argv[2]) || appended(argv[3]);
}
