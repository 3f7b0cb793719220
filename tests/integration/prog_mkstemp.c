/* mkstemp and its siblings (test_mkstemp.sh): each makes a file in DIR,
 * writes to it and prints its name, one per line, in this order:
 *   mkstemp 100 bytes, mkstemp64 101, mkostemp (O_APPEND) 102,
 *   mkostemp64 103, mkstemps (suffix ".s") 104, mkstemps64 105,
 *   mkostemps (".os", O_CLOEXEC) 106, mkostemps64 107.
 * Then a template without XXXXXX, which must fail with EINVAL (exit 3).
 *
 * usage: prog_mkstemp DIR */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fill(int fd, const char *name, size_t n)
{
    char buf[200];
    memset(buf, 'm', sizeof buf);
    if (fd < 0 || write(fd, buf, n) != (ssize_t)n || close(fd) != 0) {
        perror(name);
        return -1;
    }
    printf("%s\n", name);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    char t[8][4096];
    const char *suffix[8] = {"", "", "", "", ".s", ".s", ".os", ".os"};
    for (int i = 0; i < 8; i++)
        snprintf(t[i], sizeof t[i], "%s/t%dXXXXXX%s", argv[1], i, suffix[i]);
    int rc = fill(mkstemp(t[0]), t[0], 100) | fill(mkstemp64(t[1]), t[1], 101) |
             fill(mkostemp(t[2], O_APPEND), t[2], 102) | fill(mkostemp64(t[3], 0), t[3], 103) |
             fill(mkstemps(t[4], 2), t[4], 104) | fill(mkstemps64(t[5], 2), t[5], 105) |
             fill(mkostemps(t[6], 3, O_CLOEXEC), t[6], 106) |
             fill(mkostemps64(t[7], 3, 0), t[7], 107);
    if (rc != 0)
        return 1;
    char bad[4096];
    snprintf(bad, sizeof bad, "%s/no-template", argv[1]);
    errno = 0;
    if (mkstemp(bad) != -1 || errno != EINVAL)
        return 3;
    return 0;
}
