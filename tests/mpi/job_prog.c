/* MPI job for the life-cycle and sharing tests (test_job_*.sh).  Usage:
 *
 *   job_prog MODE DIR [ARG]
 *
 * Every access size is fixed, so every byte and operation count is known:
 *   sharing  all four sharing classes in one job:
 *            fpp.R      rank R alone: R + 1 write()s of 1000 bytes
 *            strided    every rank: 4 pwrite()s of 4096 bytes at blocks
 *                       i * N + R (i = 0 ... 3)
 *            pair.P     ranks 2P and 2P + 1: one pwrite() of
 *                       1000 * (R + 1) bytes at offset (R % 2) * 100000
 *            only0      rank 0 alone: 4 write()s of 512 bytes
 *            and "x\n" from every rank on stdout (fputs + fflush)
 *   before   I/O before MPI_Init (the rank taken from the launcher's
 *            PMI_RANK, OMPI_COMM_WORLD_RANK or PMIX_RANK):
 *            before.R   123 * (R + 1) bytes; before.shared 100 bytes at
 *            R * 100; after MPI_Finalize after.R (not traced)
 *   heavy K  every rank writes 512-byte blocks to heavy at its own
 *            offsets: rank K 20000 of them, the others 20 (MPI_Init_thread)
 *   noinit   links MPI but never calls MPI_Init: writes noinit (1000 bytes)
 *   nofinal  MPI_Init, writes nofinal.R, exits without MPI_Finalize
 *   files K  K files per rank (u.R.I, 64 bytes each) and 10 shared ones
 *   status K the "sharing" job, then exits with status K
 *   fork     every rank writes fork.R (1000 bytes), then forks three
 *            children: one writes ckpt.R (5000 bytes, as a checkpoint
 *            written in the background) and ends with exit(), one writes
 *            quick.R (300 bytes) and ends with _exit(), one writes
 *            term.R (700 bytes), is sent SIGTERM by the rank, which its
 *            handler notes, then writes 50 bytes more and ends with
 *            exit(); prints "R PID CHILD1 CHILD2 CHILD3" per rank
 * Exits 0, or 2 on a usage or I/O error (with a message). */
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char buf[100000];

static void die(const char *what, const char *path)
{
    fprintf(stderr, "job_prog: %s %s failed\n", what, path);
    exit(2);
}

static int open_or_die(const char *dir, const char *name, int flags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, flags, 0644);
    if (fd < 0)
        die("open", path);
    return fd;
}

static void write_or_die(int fd, size_t n)
{
    if (write(fd, buf, n) != (ssize_t)n)
        die("write", "");
}

static void pwrite_or_die(int fd, size_t n, off_t at)
{
    if (pwrite(fd, buf, n, at) != (ssize_t)n)
        die("pwrite", "");
}

static void close_or_die(int fd)
{
    if (close(fd) != 0)
        die("close", "");
}

static void sharing(const char *dir, int rank, int n)
{
    char name[64];
    snprintf(name, sizeof name, "fpp.%d", rank);
    int fd = open_or_die(dir, name, O_CREAT | O_WRONLY | O_TRUNC);
    for (int i = 0; i <= rank; i++)
        write_or_die(fd, 1000);
    close_or_die(fd);

    fd = open_or_die(dir, "strided", O_CREAT | O_WRONLY);
    for (int i = 0; i < 4; i++)
        pwrite_or_die(fd, 4096, (off_t)(i * n + rank) * 4096);
    close_or_die(fd);

    snprintf(name, sizeof name, "pair.%d", rank / 2);
    fd = open_or_die(dir, name, O_CREAT | O_WRONLY);
    pwrite_or_die(fd, 1000 * (size_t)(rank + 1), (off_t)(rank % 2) * 100000);
    close_or_die(fd);

    if (rank == 0) {
        fd = open_or_die(dir, "only0", O_CREAT | O_WRONLY | O_TRUNC);
        for (int i = 0; i < 4; i++)
            write_or_die(fd, 512);
        close_or_die(fd);
    }
    fputs("x\n", stdout);
    fflush(stdout);
}

static void heavy(const char *dir, int rank, int slow)
{
    int blocks = rank == slow ? 20000 : 20;
    int fd = open_or_die(dir, "heavy", O_CREAT | O_WRONLY);
    for (int i = 0; i < blocks; i++)
        pwrite_or_die(fd, 512, ((off_t)rank * 20000 + i) * 512);
    close_or_die(fd);
}

static void many_files(const char *dir, int rank, int k)
{
    char name[64];
    for (int i = 0; i < k; i++) {
        snprintf(name, sizeof name, "u.%d.%d", rank, i);
        int fd = open_or_die(dir, name, O_CREAT | O_WRONLY | O_TRUNC);
        write_or_die(fd, 64);
        close_or_die(fd);
    }
    for (int i = 0; i < 10; i++) {
        snprintf(name, sizeof name, "s.%d", i);
        int fd = open_or_die(dir, name, O_CREAT | O_WRONLY);
        pwrite_or_die(fd, 64, (off_t)rank * 64);
        close_or_die(fd);
    }
}

/* Before MPI_Init the rank is known only from the launcher: MPICH's Hydra
 * says PMI_RANK, Open MPI OMPI_COMM_WORLD_RANK (and PMIx PMIX_RANK). */
static int launcher_rank(void)
{
    static const char *const names[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *r = getenv(names[i]);
        if (r != NULL)
            return atoi(r);
    }
    return 0;
}

/* A child that writes name (bytes) and ends with exit() or _exit(). */
static pid_t child_writing(const char *dir, const char *name, size_t bytes, int quick)
{
    pid_t pid = fork();
    if (pid < 0)
        die("fork", name);
    if (pid > 0)
        return pid;
    int fd = open_or_die(dir, name, O_CREAT | O_WRONLY | O_TRUNC);
    write_or_die(fd, bytes);
    close_or_die(fd);
    if (quick)
        _exit(0);
    exit(0);
}

static volatile sig_atomic_t terminated;

static void on_term(int sig)
{
    (void)sig;
    terminated = 1;
}

/* A child that writes 700 bytes to name, says so on ready, waits for
 * SIGTERM, then writes 50 bytes more and ends with exit(). */
static pid_t child_terminated(const char *dir, const char *name, int ready)
{
    pid_t pid = fork();
    if (pid < 0)
        die("fork", name);
    if (pid > 0)
        return pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    int fd = open_or_die(dir, name, O_CREAT | O_WRONLY | O_TRUNC);
    write_or_die(fd, 700);
    if (write(ready, "r", 1) != 1)
        die("write", "ready pipe");
    while (!terminated)
        usleep(1000);
    write_or_die(fd, 50);
    close_or_die(fd);
    exit(0);
}

static void forks(const char *dir, int rank)
{
    char name[64];
    snprintf(name, sizeof name, "fork.%d", rank);
    int fd = open_or_die(dir, name, O_CREAT | O_WRONLY | O_TRUNC);
    write_or_die(fd, 1000);
    close_or_die(fd);
    snprintf(name, sizeof name, "ckpt.%d", rank);
    pid_t ckpt = child_writing(dir, name, 5000, 0);
    snprintf(name, sizeof name, "quick.%d", rank);
    pid_t quick = child_writing(dir, name, 300, 1);
    int ready[2];
    char r;
    if (pipe(ready) != 0)
        die("pipe", name);
    snprintf(name, sizeof name, "term.%d", rank);
    pid_t term = child_terminated(dir, name, ready[1]);
    if (read(ready[0], &r, 1) != 1 || kill(term, SIGTERM) != 0)
        die("kill", name);
    int status1 = 0, status2 = 0, status3 = 0;
    if (waitpid(ckpt, &status1, 0) != ckpt || waitpid(quick, &status2, 0) != quick ||
        waitpid(term, &status3, 0) != term || status1 != 0 || status2 != 0 || status3 != 0)
        die("waitpid", name);
    printf("%d %ld %ld %ld %ld\n", rank, (long)getpid(), (long)ckpt, (long)quick, (long)term);
    fflush(stdout);
}

static int before(int argc, char **argv, const char *dir)
{
    int prank = launcher_rank(), rank;
    char name[64];
    snprintf(name, sizeof name, "before.%d", prank);
    int fd = open_or_die(dir, name, O_CREAT | O_WRONLY | O_TRUNC);
    write_or_die(fd, 123 * (size_t)(prank + 1));
    close_or_die(fd);
    fd = open_or_die(dir, "before.shared", O_CREAT | O_WRONLY);
    pwrite_or_die(fd, 100, (off_t)prank * 100);
    close_or_die(fd);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != prank) {
        fprintf(stderr, "job_prog: the launcher's rank %d is not the MPI rank %d\n", prank, rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();

    snprintf(name, sizeof name, "after.%d", rank);
    fd = open_or_die(dir, name, O_CREAT | O_WRONLY | O_TRUNC);
    write_or_die(fd, 10);
    close_or_die(fd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: job_prog MODE DIR [ARG]\n");
        return 2;
    }
    const char *mode = argv[1], *dir = argv[2];
    int arg = argc > 3 ? atoi(argv[3]) : 0;
    memset(buf, 'x', sizeof buf);
    if (strcmp(mode, "before") == 0)
        return before(argc, argv, dir);
    if (strcmp(mode, "noinit") == 0) {
        int fd = open_or_die(dir, "noinit", O_CREAT | O_WRONLY | O_TRUNC);
        write_or_die(fd, 1000);
        close_or_die(fd);
        return 0;
    }

    int rank, n, provided;
    if (strcmp(mode, "heavy") == 0)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (strcmp(mode, "sharing") == 0 || strcmp(mode, "status") == 0) {
        sharing(dir, rank, n);
    } else if (strcmp(mode, "heavy") == 0) {
        heavy(dir, rank, arg);
    } else if (strcmp(mode, "files") == 0) {
        many_files(dir, rank, arg);
    } else if (strcmp(mode, "fork") == 0) {
        forks(dir, rank);
    } else if (strcmp(mode, "nofinal") == 0) {
        char name[64];
        snprintf(name, sizeof name, "nofinal.%d", rank);
        close_or_die(open_or_die(dir, name, O_CREAT | O_WRONLY | O_TRUNC));
        return 0;
    } else {
        fprintf(stderr, "job_prog: unknown mode %s\n", mode);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    return strcmp(mode, "status") == 0 ? arg : 0;
}
