/* A program with no MPI library at its start that loads one later, the
 * way Python loads mpi4py (test_late_mpi.sh):
 *
 *   late_mpi_host PLUGIN PATH
 *
 * writes 10 bytes to PATH.before, then dlopens PLUGIN
 * (tests/mpi/late_mpi_plugin.c, linked against libmpi) with RTLD_LOCAL,
 * so that the MPI library is in no global scope, and runs its
 * late_mpi_run(PATH).  Not linked against MPI.  Exits with its status,
 * or 2 on an error (with a message). */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int write_before(const char *path)
{
    char name[4096];
    snprintf(name, sizeof name, "%s.before", path);
    int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "0123456789", 10) != 10 || close(fd) != 0) {
        perror(name);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PLUGIN PATH\n", argv[0]);
        return 2;
    }
    if (write_before(argv[2]) != 0)
        return 2;
    void *plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (plugin == NULL) {
        fprintf(stderr, "late_mpi_host: %s\n", dlerror());
        return 2;
    }
    int (*run)(const char *);
    *(void **)&run = dlsym(plugin, "late_mpi_run");
    if (run == NULL) {
        fprintf(stderr, "late_mpi_host: %s\n", dlerror());
        return 2;
    }
    return run(argv[2]);
}
