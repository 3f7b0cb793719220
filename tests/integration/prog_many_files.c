/* Creates, writes 10 bytes to, and closes N files (default 100000) in
 * directory DIR: run under a tiny IOLENS_MEMORY, most of them are folded
 * into <other files> (test_budget_fold.sh).  With HELD, it then opens
 * HELD more files (DIR/h000000...) all at once, writes 1000 bytes to each
 * and closes them: descriptors opened once the budget is full, on numbers
 * not used before, whose writes must still be counted. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_all_held(const char *dir, long held)
{
    static char block[1000];
    memset(block, 'h', sizeof block);
    int *fds = calloc((size_t)held, sizeof *fds);
    char path[4096];
    if (fds == NULL)
        return 1;
    for (long i = 0; i < held; i++) {
        snprintf(path, sizeof path, "%s/h%06ld", dir, i);
        fds[i] = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fds[i] < 0) {
            perror(path);
            return 1;
        }
    }
    for (long i = 0; i < held; i++)
        if (write(fds[i], block, sizeof block) != (ssize_t)sizeof block) {
            perror("write");
            return 1;
        }
    for (long i = 0; i < held; i++)
        if (close(fds[i]) != 0) {
            perror("close");
            return 1;
        }
    free(fds);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s DIR [N [HELD]]\n", argv[0]);
        return 2;
    }
    long n = argc >= 3 ? atol(argv[2]) : 100000;
    long held = argc == 4 ? atol(argv[3]) : 0;
    char path[4096];
    for (long i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/f%06ld", argv[1], i);
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0) {
            perror(path);
            return 1;
        }
        if (write(fd, "0123456789", 10) != 10 || close(fd) != 0) {
            perror(path);
            return 1;
        }
    }
    return held > 0 ? write_all_held(argv[1], held) : 0;
}
