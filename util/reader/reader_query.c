/* What a tool asks of a log once it is read: names of record ids, the
 * mount of a path, a layer and its records' counters, and the name of a
 * layer kind.  Counter names and descriptions are the layer descriptors'
 * own (format/record_merge.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "format/record_merge.h"
#include "reader/reader.h"

/* --------------------------------------------------------- layers -- */

const char *iolens_layer_name(uint32_t kind)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    return d ? d->name : NULL;
}

/* ----------------------------------------------------------- lookups -- */

const char *iolens_log_name_of(const struct iolens_log *log, uint64_t id)
{
    size_t lo = 0, hi = log->nnames;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (log->names[mid].id < id)
            lo = mid + 1;
        else if (log->names[mid].id > id)
            hi = mid;
        else
            return log->names[mid].name;
    }
    return NULL;
}

/* 1 if point is name or a parent directory of it ("/a" covers "/a/b",
 * not "/ab"). */
static bool covers(const char *point, const char *name)
{
    size_t len = strlen(point);
    while (len > 1 && point[len - 1] == '/')
        len--;
    if (len == 1 && point[0] == '/')
        return name[0] == '/';
    return strncmp(point, name, len) == 0 && (name[len] == '/' || name[len] == '\0');
}

const struct iolens_log_mount *iolens_log_mount_of(const struct iolens_log *log, const char *name)
{
    const struct iolens_log_mount *best = NULL;
    size_t best_len = 0;
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < log->nmounts; i++) {
        const struct iolens_log_mount *m = &log->mounts[i];
        size_t len = strlen(m->point);
        /* >=: a later mount on the same point hides the earlier one. */
        if (covers(m->point, name) && (best == NULL || len >= best_len)) {
            best = m;
            best_len = len;
        }
    }
    return best;
}

void iolens_log_record_load(const struct iolens_log_layer *L, uint64_t r,
                            const struct iolens_layer_desc *d, void *rec)
{
    uint32_t nc = L->counter_count < d->ncounters ? L->counter_count : d->ncounters;
    uint32_t nf = L->fcounter_count < d->nfcounters ? L->fcounter_count : d->nfcounters;
    if (nc < d->ncounters || nf < d->nfcounters) /* an older layout: the rest is 0 */
        memset(rec, 0, d->record_size);
    memcpy(rec, &L->id[r], 8);
    memcpy((char *)rec + 8, &L->rank[r], 8);
    if (nc > 0)
        memcpy(iolens_rec_counters(rec), &L->counters[r * L->counter_count], 8 * (size_t)nc);
    if (nf > 0)
        memcpy(iolens_rec_fcounters(d, rec), &L->fcounters[r * L->fcounter_count],
               8 * (size_t)nf);
}

const struct iolens_log_layer *iolens_log_layer_of(const struct iolens_log *log, uint32_t kind)
{
    for (size_t l = 0; l < log->nlayers; l++)
        if (log->layers[l].kind == kind)
            return &log->layers[l];
    return NULL;
}

int64_t iolens_log_counter(const struct iolens_log_layer *L, uint64_t r, int i)
{
    if (i < 0 || (uint32_t)i >= L->counter_count)
        return 0;
    return L->counters[r * L->counter_count + (uint32_t)i];
}

double iolens_log_fcounter(const struct iolens_log_layer *L, uint64_t r, int i)
{
    if (i < 0 || (uint32_t)i >= L->fcounter_count)
        return 0.0;
    return L->fcounters[r * L->fcounter_count + (uint32_t)i];
}

bool iolens_log_counter_absent(const struct iolens_log_layer *L, int i)
{
    return L->absent != NULL && i >= 0 && (uint32_t)i < L->counter_count && L->absent[i];
}

bool iolens_log_fcounter_absent(const struct iolens_log_layer *L, int i)
{
    return L->absent != NULL && i >= 0 && (uint32_t)i < L->fcounter_count &&
           L->absent[L->counter_count + (uint32_t)i];
}
