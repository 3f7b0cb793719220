/* Bytes moved by the stdio macros that glibc's <stdio.h> expands inline
 * in optimized builds (getc_unlocked and friends), mixed with calls iolens
 * wraps, on a file read, a file written, stdin and stdout.  Built with -O2
 * so that the macros really expand (test_inline_stdio.sh checks that no
 * call to them is left).
 *
 * Usage: prog_inline_stdio IN OUT <IN >STDOUT
 *        prog_inline_stdio --threads SHARED
 *        prog_inline_stdio --fcloseall OUT
 *   IN:  read to its end: fread 100, getc_unlocked 5000, fgetc_unlocked
 *        3000, fgets of at most 49 bytes, then getc_unlocked to the end
 *        (IN must have no newline in its first 8149 bytes).
 *   OUT: fputs 5, putc_unlocked 10000, fputc_unlocked 3000, fwrite 100,
 *        putc_unlocked 5000: 18105 bytes, closed with fclose.
 *   stdin: fread 10, then getchar_unlocked to the end.
 *   stdout: putchar_unlocked 9000, fputs 4, putc_unlocked 100,
 *        putchar_unlocked 1: 9105 bytes, left for exit to flush.
 * Prints on stderr "read N stdin M": the bytes it got itself.
 * With --threads: 4 threads write SHARED at once, each 3000 times fputs
 * 11 bytes and, under flockfile, putc_unlocked 5 bytes: 192000 bytes,
 * closed with fclose.
 * With --threads-calls: the same 4 threads and fputs, no inline macro
 * (test_threads.sh, which ThreadSanitizer runs: it cannot see flockfile
 * order the macros): 132000 bytes.
 * With --fcloseall: OUT gets fputs 2 bytes and putc_unlocked 100, and
 * fcloseall() flushes it: 102 bytes. */
#include <pthread.h>
#include <stdio.h> /* fgetc_unlocked: _GNU_SOURCE comes from build_config.h */
#include <string.h>

static long read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    char buf[100];
    long n = (long)fread(buf, 1, sizeof buf, f);
    for (int i = 0; i < 5000 && getc_unlocked(f) != EOF; i++)
        n++;
    for (int i = 0; i < 3000 && fgetc_unlocked(f) != EOF; i++)
        n++;
    if (fgets(buf, 50, f) != NULL)
        n += (long)strlen(buf);
    while (getc_unlocked(f) != EOF)
        n++;
    fclose(f);
    return n;
}

static int write_file(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    char block[100];
    memset(block, 'w', sizeof block);
    fputs("head\n", f);
    for (int i = 0; i < 10000; i++)
        putc_unlocked('x', f);
    for (int i = 0; i < 3000; i++)
        fputc_unlocked('y', f);
    fwrite(block, 1, sizeof block, f);
    for (int i = 0; i < 5000; i++)
        putc_unlocked('z', f);
    return fclose(f);
}

static long read_stdin(void)
{
    char buf[10];
    long n = (long)fread(buf, 1, sizeof buf, stdin);
    while (getchar_unlocked() != EOF)
        n++;
    return n;
}

static void write_stdout(void)
{
    for (int i = 0; i < 9000; i++)
        putchar_unlocked(i % 64 == 63 ? '\n' : 'o');
    fputs("mid\n", stdout);
    for (int i = 0; i < 100; i++)
        putc_unlocked('p', stdout);
    putchar_unlocked('\n');
}

static void *write_shared(void *arg)
{
    FILE *f = arg;
    for (int i = 0; i < 3000; i++) {
        fputs("0123456789\n", f);
        flockfile(f);
        for (int j = 0; j < 5; j++)
            putc_unlocked('u', f);
        funlockfile(f);
    }
    return NULL;
}

static void *write_shared_calls(void *arg)
{
    FILE *f = arg;
    for (int i = 0; i < 3000; i++)
        fputs("0123456789\n", f);
    return NULL;
}

static int write_shared_file(const char *path, void *(*worker)(void *))
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    pthread_t threads[4];
    for (int t = 0; t < 4; t++)
        if (pthread_create(&threads[t], NULL, worker, f) != 0)
            return -1;
    for (int t = 0; t < 4; t++)
        pthread_join(threads[t], NULL);
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: prog_inline_stdio IN OUT | --threads SHARED\n", stderr);
        return 2;
    }
    if (strcmp(argv[1], "--fcloseall") == 0) {
        FILE *f = fopen(argv[2], "w");
        if (f == NULL || fputs("ab", f) == EOF)
            return 1;
        for (int i = 0; i < 100; i++)
            putc_unlocked('x', f);
        return fcloseall() == 0 ? 0 : 1;
    }
    if (strcmp(argv[1], "--threads") == 0 || strcmp(argv[1], "--threads-calls") == 0) {
        int calls_only = strcmp(argv[1], "--threads-calls") == 0;
        if (write_shared_file(argv[2], calls_only ? write_shared_calls : write_shared) == 0)
            return 0;
        perror(argv[2]);
        return 1;
    }
    long got = read_file(argv[1]);
    if (write_file(argv[2]) != 0) {
        perror(argv[2]);
        return 1;
    }
    long got_stdin = read_stdin();
    write_stdout();
    fprintf(stderr, "read %ld stdin %ld\n", got, got_stdin);
    return 0;
}
