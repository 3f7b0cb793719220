/*
 * Facts about the job for the job record.  The command line is captured
 * once at start-up (before the program can rewrite its argv) into a fixed
 * buffer through the real system calls; a longer command line is cut at
 * JOBINFO_CMDLINE_MAX bytes.  The user and job id are looked up when the
 * log is written.
 */
#include "log/jobinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fd_room.h"
#include "core/real_calls.h"
#include "core/state.h"

#define JOBINFO_CMDLINE_MAX 4096
#define PWBUF_START 4096
#define PWBUF_MAX (1024 * 1024)

static char cmdline[JOBINFO_CMDLINE_MAX + 1]; /* +1: always NUL-terminated */
static size_t cmdline_len;
static bool cmdline_captured;

/* --------------------------------------------------------- command line -- */

void iolens_jobinfo_capture(void)
{
    cmdline_captured = true;
    cmdline_len = 0;
    cmdline[0] = '\0';
    if (IOLENS_REAL(open) == NULL || IOLENS_REAL(read) == NULL || IOLENS_REAL(close) == NULL)
        return;
    int fd = iolens_real_open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    while (cmdline_len < JOBINFO_CMDLINE_MAX) {
        ssize_t n = iolens_real_read(fd, cmdline + cmdline_len, JOBINFO_CMDLINE_MAX - cmdline_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        cmdline_len += (size_t)n;
    }
    iolens_real_close(fd);
    cmdline[cmdline_len] = '\0';
}

const char *iolens_jobinfo_exe(void)
{
    if (!cmdline_captured)
        iolens_jobinfo_capture();
    return cmdline;
}

/* argv[1..] NUL-separated, without the final terminator. */
const char *iolens_jobinfo_args(size_t *args_len)
{
    const char *exe = iolens_jobinfo_exe();
    size_t exe_len = strlen(exe);
    if (exe_len + 1 >= cmdline_len) {
        *args_len = 0;
        return "";
    }
    const char *args = cmdline + exe_len + 1;
    size_t len = cmdline_len - exe_len - 1;
    if (args[len - 1] == '\0')
        len--;
    *args_len = len;
    return args;
}

/* --------------------------------------------------------------- job id -- */

void iolens_jobinfo_jobid(char *out, size_t outsz)
{
    static const char *const vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "FLUX_JOB_ID"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v != NULL && v[0] != '\0') {
            snprintf(out, outsz, "%s", v);
            return;
        }
    }
    /* The traced process's pid (a snapshot copy written at a signal has its own). */
    long pid = iolens_runtime_pid();
    snprintf(out, outsz, "%ld", pid > 0 ? pid : (long)getpid());
}

long iolens_jobinfo_launcher_rank(void)
{
    static const char *const vars[] = {"PMI_RANK",     "PMIX_RANK",      "OMPI_COMM_WORLD_RANK",
                                       "SLURM_PROCID", "FLUX_TASK_RANK", "PALS_RANKID"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        if (v == NULL || v[0] == '\0')
            continue;
        long r = strtol(v, &end, 10);
        if (*end == '\0' && r >= 0)
            return r;
    }
    return -1;
}

/* ----------------------------------------------------------------- user -- */

/* Runs getpwnam_r (name != NULL) or getpwuid_r with a buffer that grows on
 * ERANGE; copies pw_name into out when the entry's uid is uid.  A process
 * out of descriptors (EMFILE) is given room for the lookup (fd_room.h). */
static bool passwd_lookup(const char *name, uid_t uid, char *out, size_t outsz)
{
    bool found = false;
    char stack_buf[PWBUF_START];
    char *buf = stack_buf;
    size_t bufsz = sizeof stack_buf;
    struct iolens_fd_room room = {0};
    for (;;) {
        struct passwd pw, *res = NULL;
        int e = name != NULL ? getpwnam_r(name, &pw, buf, bufsz, &res)
                             : getpwuid_r(uid, &pw, buf, bufsz, &res);
        if (e == EMFILE && iolens_fd_room_make(&room))
            continue;
        if (e == ERANGE && bufsz < PWBUF_MAX) {
            char *bigger = malloc(bufsz * 2);
            if (bigger == NULL)
                break;
            if (buf != stack_buf)
                free(buf);
            buf = bigger;
            bufsz *= 2;
            continue;
        }
        if (e == 0 && res != NULL && res->pw_uid == uid && res->pw_name != NULL) {
            snprintf(out, outsz, "%s", res->pw_name);
            found = true;
        }
        break;
    }
    iolens_fd_room_give_back(&room);
    if (buf != stack_buf)
        free(buf);
    return found;
}

void iolens_jobinfo_user(char *out, size_t outsz)
{
    uid_t uid = getuid();
    /* $USER / $LOGNAME are preferred (several names may share a uid) but
     * only when they really belong to this uid. */
    static const char *const vars[] = {"USER", "LOGNAME"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v != NULL && v[0] != '\0' && passwd_lookup(v, uid, out, outsz))
            return;
    }
    if (passwd_lookup(NULL, uid, out, outsz))
        return;
    snprintf(out, outsz, "%lu", (unsigned long)uid);
}
