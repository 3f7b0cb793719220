/* Puts a file at descriptor 2 in one of the ways a program does, so that
 * test_log_safety can check where the runtime's exit message goes.
 *   prog_stderr_fd data PATH     closes 2, opens PATH (so it gets 2) and
 *                                writes "DATA" to it: a data file
 *   prog_stderr_fd dup2 PATH     makes PATH its stderr with dup2
 *   prog_stderr_fd freopen PATH  makes PATH its stderr with freopen
 * Exit status 0, or 1 if descriptor 2 is not where the mode put it. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int data_at_2(const char *path)
{
    close(2);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    return fd == 2 && write(fd, "DATA", 4) == 4 ? 0 : 1;
}

static int dup2_at_2(const char *path)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 3 || dup2(fd, 2) != 2)
        return 1;
    return close(fd) == 0 ? 0 : 1;
}

static int freopen_at_2(const char *path)
{
    return freopen(path, "w", stderr) != NULL && fileno(stderr) == 2 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    if (strcmp(argv[1], "data") == 0)
        return data_at_2(argv[2]);
    if (strcmp(argv[1], "dup2") == 0)
        return dup2_at_2(argv[2]);
    if (strcmp(argv[1], "freopen") == 0)
        return freopen_at_2(argv[2]);
    return 2;
}
