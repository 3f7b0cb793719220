/* The compute-node count a tool was told (--nodes N, reader.h).  A Darshan
 * log has no node count and an iolens log's may not be the one the user
 * wants MiB/s per compute node over (nodes allocated, not nodes used), so
 * the tool's figure is handed to every log it reads. */
#include <string.h>

#include "reader/reader_internal.h"

static uint32_t chosen_nodes;   /* 0: not given */

void iolens_log_set_nodes(uint32_t nodes) { chosen_nodes = nodes; }

int iolens_log_parse_nodes(const char *s, uint32_t *nodes)
{
    if (s == NULL || *s == '\0')
        return -1;
    uint64_t v = 0;
    for (const char *p = s; *p != '\0'; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > IOLENS_MAX_NODES)
            return -1;
    }
    if (v == 0)
        return -1;
    *nodes = (uint32_t)v;
    return 0;
}

void rd_apply_nodes(struct iolens_log *log) { log->nodes_given = chosen_nodes; }
