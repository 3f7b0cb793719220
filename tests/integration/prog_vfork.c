/* A vfork child runs on its parent's memory until it execs or exits
 * (test_vfork.sh).  What it does to its descriptors and its SIGTERM
 * disposition must leave the parent's bookkeeping as it was.
 *
 * usage: prog_vfork FILE exec|exit|badexec|killed
 *   The parent opens FILE, writes 10 bytes and sets a SIGTERM handler.
 *   The child, as Python's subprocess does, dup2s FILE's descriptor onto
 *   its stdout and closes the rest (close, close_range), sets SIGTERM to
 *   SIG_IGN, then execs /bin/true (exec, untraced) or calls _exit (exit),
 *   or execs a path that does not exist and calls exit(), which runs the
 *   destructors on the parent's memory (badexec; undefined by POSIX, and
 *   common after an exec that failed), or sends itself SIGINT, whose
 *   default action ends it (killed).
 *   The parent then writes 20 bytes to FILE and 31 to its stdout, and
 *   reads back its SIGTERM disposition, which must still be its handler;
 *   after killed, it then sends itself SIGINT too.
 * Exit status 0, or the step that went wrong. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_term(int sig)
{
    (void)sig;
}

static void child(int fd, int do_exec, int bad_exec, int killed)
{
    if (dup2(fd, 1) != 1)
        _exit(20);
    close(fd);
    close_range(3, ~0U, 0);
    signal(SIGTERM, SIG_IGN);
    /* An empty environment: /bin/true runs untraced, and writes no log
     * that would take the parent's log's name. */
    char *no_env[] = {NULL};
    if (do_exec)
        execle("/bin/true", "true", (char *)NULL, no_env);
    if (killed)
        kill(getpid(), SIGINT);
    if (bad_exec) {
        execle("/nonexistent/prog_vfork", "prog", (char *)NULL, no_env);
        exit(0);
    }
    _exit(0);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 9;
    int do_exec = strcmp(argv[2], "exec") == 0, bad_exec = strcmp(argv[2], "badexec") == 0;
    int killed = strcmp(argv[2], "killed") == 0;
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "0123456789", 10) != 10)
        return 1;
    if (signal(SIGTERM, on_term) == SIG_ERR)
        return 2;
    /* A background job of a shell without job control starts with SIGINT
     * ignored: killed asks for its default action back. */
    if (killed && signal(SIGINT, SIG_DFL) == SIG_ERR)
        return 2;
    pid_t pid = vfork();
    if (pid == 0)
        child(fd, do_exec, bad_exec, killed);
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return 3;
    if (killed ? !WIFSIGNALED(status) || WTERMSIG(status) != SIGINT
               : !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 3;
    char line[31];
    memset(line, 'c', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    if (write(fd, "abcdefghijklmnopqrst", 20) != 20 || write(1, line, sizeof line) != 31)
        return 4;
    struct sigaction now;
    if (sigaction(SIGTERM, NULL, &now) != 0 || now.sa_handler != on_term)
        return 5;
    if (killed)
        kill(getpid(), SIGINT);
    return close(fd) == 0 ? 0 : 6;
}
