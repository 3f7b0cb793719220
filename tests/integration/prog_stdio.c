/* STDIO calls with exact expected counters (test_stdio.sh).
 *
 * usage: prog_stdio MAIN APPEND FDOPENED
 *   MAIN: written with fwrite (100), fprintf (7: "42 abc\n") and fputs
 *     (6), flushed, read back from 0 with fread (100), fscanf %d (2),
 *     fgets (5, then 6, then end of file), fseek to 6 before the end and
 *     fread (6), rewind, ftell; fsync through fileno; fclose.
 *   APPEND: opened twice in "a" mode, 10 bytes written each time.
 *   FDOPENED: open() + fdopen(), fputs 3 bytes, fclose; then a pipe
 *     reuses the descriptor number and is written to and read from, which
 *     must not count for FDOPENED.
 *   Finally 5 bytes ("done\n") go to stdout with fprintf. */
#include <fcntl.h>
#include <stdio.h>
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

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s MAIN APPEND FDOPENED\n", argv[0]);
        return 2;
    }
    if (main_file(argv[1]) || append_file(argv[2]) || fdopened_file(argv[3]))
        return 1;
    if (fprintf(stdout, "%s\n", "done") != 5)
        return 1;
    return 0;
}
