/* A program that enters a seccomp sandbox (test_sandbox.sh).
 *   prog_sandbox DIR prctl|libseccomp [term]
 * Writes 5 bytes to DIR/before, then installs a filter, through
 * prctl(PR_SET_SECCOMP) or libseccomp's seccomp_load (libseccomp.so.2 is
 * opened with dlopen; exit status 77 without it), under which opening,
 * renaming, linking, unlinking and making directories (and with "term",
 * changing a signal's disposition) kill the process (SIGSYS).  Prints
 * "sandboxed" and exits 0, or with "term" raises SIGTERM, whose default
 * action ends it. */
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const int denied[] = {SYS_openat, SYS_open, SYS_renameat2, SYS_rename, SYS_mkdir,
                             SYS_linkat, SYS_unlinkat, SYS_rt_sigaction};

static size_t ndenied(int term)
{
    return sizeof denied / sizeof denied[0] - (term ? 0 : 1);
}

static int with_prctl(int term)
{
    struct sock_filter f[2 + 2 * sizeof denied / sizeof denied[0]];
    size_t n = 0;
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    for (size_t i = 0; i < ndenied(term); i++) {
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)denied[i], 0, 1);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    }
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {(unsigned short)n, f};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                   prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0
               ? 0
               : 1;
}

/* libseccomp's API, declared here: its header may not be installed. */
#define ACT_ALLOW 0x7fff0000u
#define ACT_KILL_PROCESS 0x80000000u

static int with_libseccomp(int term)
{
    void *lib = dlopen("libseccomp.so.2", RTLD_NOW | RTLD_GLOBAL);
    if (lib == NULL)
        return 77;
    void *(*init)(uint32_t) = (void *(*)(uint32_t))dlsym(lib, "seccomp_init");
    int (*rule_add)(void *, uint32_t, int, unsigned, ...) =
        (int (*)(void *, uint32_t, int, unsigned, ...))dlsym(lib, "seccomp_rule_add");
    /* Through the global scope, as a call the program was linked with. */
    int (*load)(void *) = (int (*)(void *))dlsym(RTLD_DEFAULT, "seccomp_load");
    void *ctx = init != NULL ? init(ACT_ALLOW) : NULL;
    if (ctx == NULL || rule_add == NULL || load == NULL)
        return 1;
    for (size_t i = 0; i < ndenied(term); i++)
        if (rule_add(ctx, ACT_KILL_PROCESS, denied[i], 0) != 0)
            return 1;
    return load(ctx) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int term = argc > 3 && strcmp(argv[3], "term") == 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/before", argv[1]);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0 || write(fd, "hello", 5) != 5 || close(fd) != 0)
        return 1;
    int rc = strcmp(argv[2], "prctl") == 0 ? with_prctl(term) : with_libseccomp(term);
    if (rc != 0)
        return rc;
    printf("sandboxed\n");
    fflush(stdout);
    if (term)
        raise(SIGTERM);
    return 0;
}
