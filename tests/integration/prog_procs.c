/* Processes made while traced (test_procs.sh).
 *
 * usage: prog_procs fork-busy DIR
 *   Writes 1000 bytes to DIR/shared.  4 threads then pread 1 byte of it
 *   as fast as they can, and open and close it every 8 reads, so that
 *   the runtime's locks are busy, while the main thread forks NFORK
 *   children one after the other.  Child i preads 10 bytes of
 *   DIR/shared 10 times through the inherited descriptor, writes 100
 *   bytes to DIR/child.<i> and exits (odd i with _exit).  Prints
 *   "<pid> <preads of the threads> <opens of the threads>".
 * usage: prog_procs spawn DIR SELF
 *   Writes 1000 bytes to DIR/parent, then runs SELF ("child FILE N")
 *   three ways, one after the other: posix_spawn (DIR/spawned, 300),
 *   vfork + execv (DIR/vforked, 400) and system() (DIR/system, 500);
 *   between the last two, a vfork child that just _exits, then 234 bytes
 *   written to DIR/parent-after.
 * usage: prog_procs exec DIR SELF
 *   Writes 100 bytes to DIR/before-exec, prints its pid, then execs
 *   SELF child DIR/exec 600.
 * usage: prog_procs quick-exit DIR
 *   Writes 100 bytes to DIR/before-quick-exit, registers a handler with
 *   at_quick_exit that writes 50 bytes to DIR/quick-exit-handler, and
 *   ends with quick_exit(5).
 * usage: prog_procs child FILE N
 *   Writes N bytes to FILE. */
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NFORK 50
#define NTHREADS 4

extern char **environ;

static char buf[1000];
static int shared_fd;
static atomic_int stop;

static void die(const char *what)
{
    perror(what);
    exit(1);
}

static void write_file(const char *path, size_t n)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, n) != (ssize_t)n || close(fd) != 0)
        die(path);
}

struct busy {
    const char *path;
    long reads, opens;
};

/* Reads, and opens and closes (which take the descriptor table's lock). */
static void *busy_reader(void *arg)
{
    struct busy *b = arg;
    char c;
    while (!atomic_load(&stop)) {
        if (pread(shared_fd, &c, 1, 0) != 1)
            return NULL;
        b->reads++;
        if (b->reads % 8 == 0) {
            int fd = open(b->path, O_RDONLY);
            if (fd < 0 || close(fd) != 0)
                return NULL;
            b->opens++;
        }
    }
    return NULL;
}

static int forked_child(const char *dir, int i)
{
    char path[4096];
    for (int k = 0; k < 10; k++)
        if (pread(shared_fd, buf, 10, 0) != 10)
            return 1;
    snprintf(path, sizeof path, "%s/child.%d", dir, i);
    write_file(path, 100);
    return 0;
}

static int fork_busy(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/shared", dir);
    shared_fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (shared_fd < 0 || write(shared_fd, buf, 1000) != 1000)
        die(path);
    pthread_t tid[NTHREADS];
    struct busy busy[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        busy[t] = (struct busy){path, 0, 0};
        if (pthread_create(&tid[t], NULL, busy_reader, &busy[t]) != 0)
            die("pthread_create");
    }
    for (int i = 0; i < NFORK; i++) {
        usleep(2000);
        pid_t pid = fork();
        if (pid < 0)
            die("fork");
        if (pid == 0) {
            /* Half end with _exit, which skips the destructors. */
            if (i % 2)
                _exit(forked_child(dir, i));
            exit(forked_child(dir, i));
        }
        int status;
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "child %d failed\n", i);
            return 1;
        }
    }
    atomic_store(&stop, 1);
    long reads = 0, opens = 0;
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(tid[t], NULL);
        reads += busy[t].reads;
        opens += busy[t].opens;
    }
    close(shared_fd);
    printf("%ld %ld %ld\n", (long)getpid(), reads, opens);
    return 0;
}

static int wait_ok(pid_t pid, const char *what)
{
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "%s failed\n", what);
        return 1;
    }
    return 0;
}

static int spawn_all(const char *dir, const char *self)
{
    char path[4096], arg[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/parent", dir);
    write_file(path, 1000);

    snprintf(arg, sizeof arg, "%s/spawned", dir);
    char *spawn_argv[] = {(char *)self, "child", arg, "300", NULL};
    pid_t pid;
    if (posix_spawn(&pid, self, NULL, NULL, spawn_argv, environ) != 0 || wait_ok(pid, "posix_spawn"))
        return 1;

    snprintf(arg, sizeof arg, "%s/vforked", dir);
    char *vfork_argv[] = {(char *)self, "child", arg, "400", NULL};
    pid = vfork();
    if (pid == 0) {
        execv(self, vfork_argv);
        _exit(127);
    }
    if (wait_ok(pid, "vfork"))
        return 1;

    /* A vfork child that ends at once, with _exit: it runs in this
     * process's memory, and must neither write a log nor stop tracing. */
    pid = vfork();
    if (pid == 0)
        _exit(0);
    if (wait_ok(pid, "bare vfork"))
        return 1;
    snprintf(path, sizeof path, "%s/parent-after", dir);
    write_file(path, 234);

    snprintf(cmd, sizeof cmd, "'%s' child '%s/system' 500", self, dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "system failed\n");
        return 1;
    }
    return 0;
}

static int exec_self(const char *dir, const char *self)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/before-exec", dir);
    write_file(path, 100);
    printf("%ld\n", (long)getpid());
    fflush(stdout);
    snprintf(path, sizeof path, "%s/exec", dir);
    execl(self, self, "child", path, "600", (char *)NULL);
    die("execl");
    return 1;
}

static char quick_exit_dir[4096];

static void quick_exit_handler(void)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/quick-exit-handler", quick_exit_dir);
    write_file(path, 50);
}

static int quick_exit_after_io(const char *dir)
{
    char path[4200];
    snprintf(quick_exit_dir, sizeof quick_exit_dir, "%s", dir);
    snprintf(path, sizeof path, "%s/before-quick-exit", dir);
    write_file(path, 100);
    if (at_quick_exit(quick_exit_handler) != 0)
        die("at_quick_exit");
    quick_exit(5);
}

int main(int argc, char **argv)
{
    memset(buf, 'p', sizeof buf);
    if (argc == 3 && strcmp(argv[1], "fork-busy") == 0)
        return fork_busy(argv[2]);
    if (argc == 4 && strcmp(argv[1], "spawn") == 0)
        return spawn_all(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "exec") == 0)
        return exec_self(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "quick-exit") == 0)
        return quick_exit_after_io(argv[2]);
    if (argc == 4 && strcmp(argv[1], "child") == 0) {
        write_file(argv[2], (size_t)atol(argv[3]));
        return 0;
    }
    fprintf(stderr, "usage: %s fork-busy DIR | spawn DIR SELF | exec DIR SELF | quick-exit DIR | "
            "child FILE N\n",
            argv[0]);
    return 2;
}
