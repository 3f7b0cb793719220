/* Built with -O2 -D_FORTIFY_SOURCE=2 (Makefile.am).  The lengths and the
 * open flags come from the command line, so the compiler cannot prove
 * them safe and emits the checked entry points: __open_2, __openat_2,
 * __read_chk, __pread_chk, __fprintf_chk, __fgets_chk and __fread_chk
 * (test_fortify.sh verifies with nm that they are referenced).
 *
 * It also leaves the compiler free to rewrite: printf and vprintf become
 * __printf_chk and __vprintf_chk, getline the inline call of __getdelim;
 * and through the builtins (the checked fprintf is not folded), gcc's
 * own rewriting: fprintf(stdout, "\n") becomes fputc, printf("ok\n")
 * puts and printf("!") putchar.
 *
 * usage: prog_fortify IN OUT LEN
 *   reads IN (LEN bytes at a time until end of file, then one pread of
 *   LEN at 5000), then writes three lines to OUT with fprintf, rewinds
 *   and reads them back with fgets, then hits end of file with fread.
 *   Then reads stdin with getline to its end, and writes "len LEN\n"
 *   (printf), "n=3\n" (vprintf), "\n" (fputc), "ok\n" (puts) and "!"
 *   (putchar) to stdout. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int vpr(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int ret = vprintf(format, ap);
    va_end(ap);
    return ret;
}

/* getline to the end of stdin, then the three stdout writes. */
static int std_streams(size_t len)
{
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0)
        ;
    free(line);
    if (printf("len %d\n", (int)len) < 0 || vpr("%s=%d\n", "n", 3) < 0) {
        perror("stdout");
        return 1;
    }
    /* gcc rewrites only when the result is unused. */
    __builtin_fprintf(stdout, "\n");
    __builtin_printf("ok\n");
    __builtin_printf("!");
    return ferror(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s IN OUT LEN\n", argv[0]);
        return 2;
    }
    /* Neither bounded nor constant as far as the compiler can tell (a
     * range check here would let it prove the calls safe and drop the
     * checked forms); the test passes a LEN below 4096. */
    size_t len = (size_t)atol(argv[3]);
    char buf[4096];
    volatile int open_flags = O_RDONLY;
    int flags = open_flags;

    int fd = open(argv[1], flags);
    int fd2 = openat(AT_FDCWD, argv[1], flags);
    if (fd < 0 || fd2 < 0) {
        perror("open");
        return 1;
    }
    ssize_t n;
    while ((n = read(fd, buf, len)) > 0)
        ;
    if (n < 0 || pread(fd, buf, len, 5000) != (ssize_t)len) {
        perror("read");
        return 1;
    }
    close(fd);
    close(fd2);

    FILE *f = fopen(argv[2], "w+");
    if (f == NULL) {
        perror("fopen");
        return 1;
    }
    for (int i = 1; i <= 3; i++)
        fprintf(f, "line %d\n", i);
    rewind(f);
    char line[4096];
    for (int i = 1; i <= 3; i++)
        if (fgets(line, (int)len, f) == NULL) {
            fprintf(stderr, "fgets failed\n");
            return 1;
        }
    if (fread(buf, 1, len, f) != 0 || !feof(f)) {
        fprintf(stderr, "fread did not hit end of file\n");
        return 1;
    }
    if (fclose(f) != 0)
        return 1;
    return std_streams(len);
}
