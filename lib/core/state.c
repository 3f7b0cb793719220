/* Process-wide state (state.h). */
#include "core/state.h"

#include <stdio.h>

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
