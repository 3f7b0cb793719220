/* A traced process forks; parent and child each write (test_fork.sh).
 *
 * usage: prog_fork A B
 *   parent: opens A, writes 1000 bytes, forks, waits, writes 500 more.
 *   child:  pwrites 100 bytes at 5000 through the inherited descriptor,
 *           creates B and writes 2000 bytes to it, exits normally.
 * The parent prints "<parent pid> <child pid>" on stdout. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char buf[2000];

static int child(int fd, const char *b)
{
    if (pwrite(fd, buf, 100, 5000) != 100)
        return 1;
    int fdb = open(b, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fdb < 0 || write(fdb, buf, 2000) != 2000 || close(fdb) != 0)
        return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s A B\n", argv[0]);
        return 2;
    }
    memset(buf, 'f', sizeof buf);
    int fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, 1000) != 1000) {
        perror("parent write");
        return 1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0)
        exit(child(fd, argv[2]));
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "child failed\n");
        return 1;
    }
    if (write(fd, buf, 500) != 500 || close(fd) != 0) {
        perror("parent write");
        return 1;
    }
    printf("%ld %ld\n", (long)getpid(), (long)pid);
    return 0;
}
