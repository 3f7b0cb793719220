/* The exec family under the runtime (test_exec.sh).
 *
 * usage: prog_exec HOW FIRST SECOND
 *   Writes 1000 bytes to FIRST in one write, then tries three execs that
 *   fail, each checked for its errno: a missing file (ENOENT), FIRST
 *   itself, not executable (EACCES), and SECOND.bad, executable but not a
 *   program (ENOEXEC).  Then 1 more byte to FIRST, and finally the exec
 *   named by HOW (execve, execv, execvp, execvpe, execl, execle, execlp,
 *   fexecve, execveat) of this program as "prog_exec - SECOND", which
 *   writes 500 bytes to SECOND in two writes and exits 0.
 * Exit status 3 if a failing exec did not fail as expected, 4 if the last
 * exec returned. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static int write_bytes(const char *path, size_t n, int flags)
{
    char buf[1000];
    memset(buf, 'e', sizeof buf);
    int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);
    if (fd < 0 || write(fd, buf, n) != (ssize_t)n || close(fd) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

static int second_stage(const char *second)
{
    if (write_bytes(second, 200, O_TRUNC) != 0 || write_bytes(second, 300, O_APPEND) != 0)
        return 1;
    return 0;
}

static int expect_failure(const char *path, int want_errno)
{
    char *argv[] = {(char *)path, NULL};
    errno = 0;
    execv(path, argv);
    if (errno != want_errno) {
        fprintf(stderr, "exec of %s: errno %d, expected %d\n", path, errno, want_errno);
        return -1;
    }
    return 0;
}

static int last_exec(const char *how, const char *self, const char *second)
{
    char *argv[] = {(char *)self, "-", (char *)second, NULL};
    if (strcmp(how, "execve") == 0)
        execve(self, argv, environ);
    else if (strcmp(how, "execv") == 0)
        execv(self, argv);
    else if (strcmp(how, "execvp") == 0)
        execvp(self, argv);
    else if (strcmp(how, "execvpe") == 0)
        execvpe(self, argv, environ);
    else if (strcmp(how, "execl") == 0)
        execl(self, self, "-", second, (char *)NULL);
    else if (strcmp(how, "execle") == 0)
        execle(self, self, "-", second, (char *)NULL, environ);
    else if (strcmp(how, "execlp") == 0)
        execlp(self, self, "-", second, (char *)NULL);
    else if (strcmp(how, "fexecve") == 0 || strcmp(how, "execveat") == 0) {
        int fd = open(self, O_RDONLY | O_CLOEXEC);
        if (how[1] == 'e')
            fexecve(fd, argv, environ);
        else
            execveat(fd, "", argv, environ, AT_EMPTY_PATH);
    }
    perror(how);
    return 4;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "-") == 0)
        return second_stage(argv[2]);
    if (argc != 4) {
        fprintf(stderr, "usage: %s HOW FIRST SECOND\n", argv[0]);
        return 2;
    }
    const char *first = argv[2], *second = argv[3];
    char bad[4096];
    snprintf(bad, sizeof bad, "%s.bad", second);
    if (write_bytes(first, 1000, O_TRUNC) != 0)
        return 1;
    int bad_fd = open(bad, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    if (bad_fd < 0 || write(bad_fd, "\001\002\003\004", 4) != 4 || close(bad_fd) != 0)
        return 1;
    if (expect_failure("/nonexistent/prog", ENOENT) != 0 || expect_failure(first, EACCES) != 0 ||
        expect_failure(bad, ENOEXEC) != 0)
        return 3;
    if (write_bytes(first, 1, O_APPEND) != 0)
        return 1;
    return last_exec(argv[1], argv[0], second);
}
