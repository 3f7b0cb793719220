/* The exec family: a successful exec replaces the program, and the
 * runtime's data with it, without any exit.  Each wrapper has the log
 * written first (lib/runtime.c) and, if the exec returns (it failed),
 * has it removed again so that the log at exit holds everything once. */
#include <limits.h>
#include <stdarg.h>
#include <unistd.h>

#include "core/real_calls.h"
#include "runtime.h"
#include "wrapper.h"

/* The most arguments execl and its siblings pass on; beyond, E2BIG. */
#define EXECL_MAX_ARGS 4096

IOLENS_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    char log[PATH_MAX];
    iolens_runtime_before_exec(path, log, sizeof log);
    int rc = IOLENS_REAL(execve)(path, argv, envp);
    iolens_runtime_exec_failed(log);
    return rc;
}

IOLENS_EXPORT int execv(const char *path, char *const argv[])
{
    char log[PATH_MAX];
    iolens_runtime_before_exec(path, log, sizeof log);
    int rc = IOLENS_REAL(execv)(path, argv);
    iolens_runtime_exec_failed(log);
    return rc;
}

/* A name without a slash is searched in PATH by the C library: the log is
 * written whatever the search will find. */
static const char *path_if_direct(const char *file)
{
    for (const char *c = file; *c != '\0'; c++)
        if (*c == '/')
            return file;
    return NULL;
}

IOLENS_EXPORT int execvp(const char *file, char *const argv[])
{
    char log[PATH_MAX];
    iolens_runtime_before_exec(path_if_direct(file), log, sizeof log);
    int rc = IOLENS_REAL(execvp)(file, argv);
    iolens_runtime_exec_failed(log);
    return rc;
}

IOLENS_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    char log[PATH_MAX];
    iolens_runtime_before_exec(path_if_direct(file), log, sizeof log);
    int rc = IOLENS_REAL(execvpe)(file, argv, envp);
    iolens_runtime_exec_failed(log);
    return rc;
}

IOLENS_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
    char log[PATH_MAX];
    iolens_runtime_before_exec(NULL, log, sizeof log);
    int rc = IOLENS_REAL(fexecve)(fd, argv, envp);
    iolens_runtime_exec_failed(log);
    return rc;
}

IOLENS_EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                           int flags)
{
    char log[PATH_MAX];
    iolens_runtime_before_exec(NULL, log, sizeof log);
    int rc = IOLENS_REAL(execveat)(dirfd, path, argv, envp, flags);
    iolens_runtime_exec_failed(log);
    return rc;
}

/* execl, execle and execlp take their arguments as a list ending with a
 * null pointer (execle then an environment): gathered into argv, then
 * the vector form runs, through its wrapper.  More than EXECL_MAX_ARGS
 * fails with E2BIG. */
enum list_exec { EXEC_PATH, EXEC_SEARCH, EXEC_WITH_ENV };

static int exec_list(enum list_exec form, const char *file, const char *arg0, va_list ap)
{
    char *argv[EXECL_MAX_ARGS];
    int n = 0;
    argv[n++] = (char *)arg0;
    while (argv[n - 1] != NULL) {
        if (n == EXECL_MAX_ARGS) {
            errno = E2BIG;
            return -1;
        }
        argv[n++] = va_arg(ap, char *);
    }
    switch (form) {
    case EXEC_PATH: return execv(file, argv);
    case EXEC_SEARCH: return execvp(file, argv);
    case EXEC_WITH_ENV: break;
    }
    return execve(file, argv, va_arg(ap, char *const *));
}

IOLENS_EXPORT int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int rc = exec_list(EXEC_PATH, path, arg, ap);
    va_end(ap);
    return rc;
}

IOLENS_EXPORT int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int rc = exec_list(EXEC_SEARCH, file, arg, ap);
    va_end(ap);
    return rc;
}

IOLENS_EXPORT int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int rc = exec_list(EXEC_WITH_ENV, path, arg, ap);
    va_end(ap);
    return rc;
}
