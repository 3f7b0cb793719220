/* Process-wide state (state.h). */
#include "core/state.h"

#include <stdio.h>
#include <unistd.h>

_Atomic int iolens_active;
__thread int iolens_in_runtime __attribute__((tls_model("initial-exec")));
unsigned iolens_layers_off;

static struct iolens_config config;
static long parent_pid;
static long self_pid;
static char hostname[256];

const struct iolens_config *iolens_runtime_config(void)
{
    return &config;
}

long iolens_runtime_parent_pid(void)
{
    return parent_pid;
}

long iolens_runtime_pid(void)
{
    return self_pid;
}

int iolens_in_vfork_child(void)
{
    if (iolens_in_runtime != IOLENS_GUARD_VFORK)
        return 0;
    if ((long)getpid() != self_pid)
        return 1;
    iolens_in_runtime = 0; /* the parent: its child has exec'd or exited */
    return 0;
}

int iolens_tracing_after_vfork(int layer)
{
    return !iolens_in_vfork_child() && iolens_tracing(layer);
}

const char *iolens_runtime_hostname(void)
{
    return hostname;
}

struct iolens_config *iolens_state_config(void)
{
    return &config;
}

void iolens_state_set_identity(long pid, long parent)
{
    self_pid = pid;
    parent_pid = parent;
}

void iolens_state_set_hostname(const char *name)
{
    snprintf(hostname, sizeof hostname, "%s", name);
}
