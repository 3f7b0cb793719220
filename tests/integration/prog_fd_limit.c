/* A program that uses up its descriptors (test_log_safety.sh).
 *   prog_fd_limit DIR [CMD ARG...]
 * Writes 100 bytes to DIR/data, then opens DIR/data for reading until
 * open fails, and prints "<opens that succeeded> <errno name>".  Then
 * execs CMD if one is given (keeping every descriptor), else exits 0. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/data", argv[1]);
    char buf[100];
    memset(buf, 'd', sizeof buf);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf || close(fd) != 0)
        return 1;
    long opened = 0;
    while (open(path, O_RDONLY) >= 0)
        opened++;
    printf("%ld %s\n", opened, errno == EMFILE ? "EMFILE" : strerror(errno));
    fflush(stdout);
    if (argc > 2) {
        execvp(argv[2], argv + 2);
        return 127;
    }
    return 0;
}
