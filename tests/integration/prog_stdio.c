/* STDIO calls with exact expected counters (test_stdio.sh).
 *
 * usage: prog_stdio MAIN APPEND FDOPENED CHARS
 *   MAIN: written with fwrite (100), fprintf (7: "42 abc\n") and fputs
 *     (6), flushed, read back from 0 with fread (100), fscanf %d (2),
 *     fgets (5, then 6, then end of file), fseek to 6 before the end and
 *     fread (6), rewind, ftell; fsync through fileno; fclose.
 *   APPEND: opened twice in "a" mode, 10 bytes written each time.
 *   FDOPENED: open() + fdopen(), fputs 3 bytes, fclose; then a pipe
 *     reuses the descriptor number and is written to and read from, which
 *     must not count for FDOPENED.
 *   CHARS ("w+"): the character, _unlocked and line functions, 22 bytes
 *     in 8 writes: fputc, putc, _IO_putc, fputc_unlocked, putc_unlocked
 *     ("abcde"), putw (4), fputs_unlocked ("fg\n"), fwrite_unlocked
 *     ("hijk\nxy;z\n"); fflush, rewind; then 14 reads, 36 bytes:
 *     fgetc, getc, _IO_getc, fgetc_unlocked, getc_unlocked (1 each),
 *     ungetc (not a read) and getc again (1), getw (4), fgetpos at 9,
 *     fgets_unlocked (3), getline (5), getdelim ';' (3), fread_unlocked
 *     (2 of 10), getc and getline at end of file (0 each), fsetpos back
 *     to 9, fgetpos64 and fsetpos64 there, getdelim ',' to the end (13).
 *   stdin: getchar and getchar_unlocked (1 each), getchar at end of
 *     file (0), when given "QR".
 *   Finally stdout gets fprintf "done\n" (5), printf "7\n" (2), vprintf
 *     "ab-3\n" (5), puts "hello" (6), putchar 'x' and putchar_unlocked
 *     '\n' (1 each), __printf_chk "5;" (2), __vprintf_chk "zz\n" (3):
 *     25 bytes in 8 writes.
 * Built with -fno-builtin -fno-inline (Makefile.am): every call is made
 * as written, none rewritten or inlined. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what)
{
    fprintf(stderr, "prog_stdio: %s failed\n", what);
    return 1;
}

static int main_file(const char *path)
{
    char buf[128];
    memset(buf, 's', sizeof buf);
    FILE *f = fopen(path, "w+");
    if (f == NULL)
        return fail("fopen");
    if (fwrite(buf, 1, 100, f) != 100)
        return fail("fwrite");
    if (fprintf(f, "%d %s\n", 42, "abc") != 7)
        return fail("fprintf");
    if (fputs("hello\n", f) == EOF)
        return fail("fputs");
    if (fflush(f) != 0)
        return fail("fflush");
    if (fseek(f, 0, SEEK_SET) != 0)
        return fail("fseek");
    if (fread(buf, 1, 100, f) != 100)
        return fail("fread");
    int value = 0;
    if (fscanf(f, "%d", &value) != 1 || value != 42)
        return fail("fscanf");
    char line[64];
    if (fgets(line, sizeof line, f) == NULL || strcmp(line, " abc\n") != 0)
        return fail("fgets 1");
    if (fgets(line, sizeof line, f) == NULL || strcmp(line, "hello\n") != 0)
        return fail("fgets 2");
    if (fgets(line, sizeof line, f) != NULL)
        return fail("fgets at end of file");
    if (fseek(f, -6, SEEK_END) != 0)
        return fail("fseek end");
    if (fread(buf, 1, 6, f) != 6)
        return fail("fread 6");
    rewind(f);
    if (ftell(f) != 0)
        return fail("ftell");
    if (fsync(fileno(f)) != 0)
        return fail("fsync");
    return fclose(f) == 0 ? 0 : fail("fclose");
}

static int append_file(const char *path)
{
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(path, "a");
        if (f == NULL || fwrite("0123456789", 1, 10, f) != 10 || fclose(f) != 0)
            return fail("append");
    }
    return 0;
}

static int fdopened_file(const char *path)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL || fputs("xyz", f) == EOF || fclose(f) != 0)
        return fail("fdopen");
    /* The pipe's read end takes the lowest free number: the one fclose
     * just freed. */
    int p[2];
    char in[2];
    if (pipe(p) != 0 || write(p[1], "ab", 2) != 2 || read(p[0], in, 2) != 2)
        return fail("pipe");
    if (p[0] != fd)
        fprintf(stderr, "prog_stdio: note: the pipe did not reuse descriptor %d\n", fd);
    close(p[0]);
    close(p[1]);
    return 0;
}

/* The glibc 2.27 names of getc and putc (old binaries still call them). */
int _IO_getc(FILE *stream);
int _IO_putc(int c, FILE *stream);

static int write_chars(FILE *f)
{
    if (fputc('a', f) != 'a' || putc('b', f) != 'b' || _IO_putc('c', f) != 'c' ||
        fputc_unlocked('d', f) != 'd' || putc_unlocked('e', f) != 'e')
        return fail("character writes");
    if (putw(0x41424344, f) != 0)
        return fail("putw");
    if (fputs_unlocked("fg\n", f) == EOF)
        return fail("fputs_unlocked");
    if (fwrite_unlocked("hijk\nxy;z\n", 1, 10, f) != 10)
        return fail("fwrite_unlocked");
    return 0;
}

static int read_chars(FILE *f, fpos_t *at9)
{
    if (fgetc(f) != 'a' || getc(f) != 'b' || _IO_getc(f) != 'c' || fgetc_unlocked(f) != 'd' ||
        getc_unlocked(f) != 'e')
        return fail("character reads");
    if (ungetc('e', f) != 'e' || getc(f) != 'e')
        return fail("ungetc");
    if (getw(f) != 0x41424344)
        return fail("getw");
    if (fgetpos(f, at9) != 0)
        return fail("fgetpos");
    char line[64];
    if (fgets_unlocked(line, sizeof line, f) == NULL || strcmp(line, "fg\n") != 0)
        return fail("fgets_unlocked");
    char *buf = NULL;
    size_t cap = 0;
    if (getline(&buf, &cap, f) != 5 || strcmp(buf, "hijk\n") != 0)
        return fail("getline");
    if (getdelim(&buf, &cap, ';', f) != 3 || strcmp(buf, "xy;") != 0)
        return fail("getdelim");
    int ok = fread_unlocked(line, 1, 10, f) == 2 && getc(f) == EOF && getline(&buf, &cap, f) == -1;
    free(buf);
    return ok ? 0 : fail("reads at end of file");
}

static int chars_file(const char *path)
{
    FILE *f = fopen(path, "w+");
    if (f == NULL)
        return fail("fopen chars");
    fpos_t at9;
    fpos64_t at9_64;
    if (write_chars(f) || fflush(f) != 0)
        return 1;
    rewind(f);
    if (read_chars(f, &at9))
        return 1;
    if (fsetpos(f, &at9) != 0 || fgetpos64(f, &at9_64) != 0 || fsetpos64(f, &at9_64) != 0)
        return fail("fsetpos");
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n = getdelim(&buf, &cap, ',', f);
    free(buf);
    if (n != 13)
        return fail("getdelim to the end");
    return fclose(f) == 0 ? 0 : fail("fclose chars");
}

static int read_stdin(void)
{
    if (getchar() != 'Q' || getchar_unlocked() != 'R' || getchar() != EOF)
        return fail("stdin");
    return 0;
}

static int vpr(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int ret = vprintf(format, ap);
    va_end(ap);
    return ret;
}

/* The fortified entry points, called by name (prog_fortify gets them
 * from the headers; this glibc's vprintf never becomes __vprintf_chk). */
int __printf_chk(int flag, const char *format, ...);
int __vprintf_chk(int flag, const char *format, va_list ap);

static int vpr_chk(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int ret = __vprintf_chk(1, format, ap);
    va_end(ap);
    return ret;
}

static int write_stdout(void)
{
    if (fprintf(stdout, "%s\n", "done") != 5 || printf("%d\n", 7) != 2 ||
        vpr("%s-%d\n", "ab", 3) != 5 || puts("hello") == EOF || putchar('x') != 'x' ||
        putchar_unlocked('\n') != '\n' || __printf_chk(1, "%d;", 5) != 2 ||
        vpr_chk("%s\n", "zz") != 3)
        return fail("stdout");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s MAIN APPEND FDOPENED CHARS\n", argv[0]);
        return 2;
    }
    if (main_file(argv[1]) || append_file(argv[2]) || fdopened_file(argv[3]) ||
        chars_file(argv[4]) || read_stdin() || write_stdout())
        return 1;
    return 0;
}
