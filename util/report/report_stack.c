#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record_merge.h"
#include "format/sat_math.h"
#include "output/put_escaped.h"
#include "report/report_text.h"

/*
 * --stack: the layers of each file side by side.  One row per file path
 * (sorted by path), and for each of H5D, MPIIO, POSIX and STDIO that has a
 * region in the log three columns: bytes read, bytes written and I/O time
 * (read + write + metadata seconds), summed over the layer's records of
 * the file (every rank's, and the reduced record of a shared file).  H5D
 * records count for their file: the name of H5D_FILE_REC_ID, else the
 * dataset record's name up to its first ":/".  A layer with no record of
 * the file prints "-" in its columns.
 */
#define STACK_NKINDS IOLENS_NDATA_LAYERS

/* The data layers from the top of the I/O stack down: the libraries'
 * layers (not the job's base) from the last in the table, then the base
 * layers in table order (H5D, MPIIO, POSIX, STDIO).  Built once per
 * report (stack_order), read by position k. */
struct stack_order {
    const struct iolens_layer_desc *layer[STACK_NKINDS];
};

static void stack_order(struct stack_order *o)
{
    unsigned k = 0;
    for (unsigned i = STACK_NKINDS; i-- > 0;)
        if (!iolens_data_layer_at(i)->base)
            o->layer[k++] = iolens_data_layer_at(i);
    for (unsigned i = 0; i < STACK_NKINDS; i++)
        if (iolens_data_layer_at(i)->base)
            o->layer[k++] = iolens_data_layer_at(i);
}

/* One record's contribution to a file's row. */
struct stack_entry {
    char *file;            /* malloc'd */
    unsigned k;            /* position in the stack (struct stack_order) */
    int64_t bytes_read, bytes_written;
    double time;
};

struct stack_cell {
    bool present;
    int64_t bytes_read, bytes_written;
    double time;
};

/* The file name a record counts for, malloc'd (an unnamed record: its id). */
static char *stack_file_of(const struct iolens_log *log, const struct iolens_log_layer *L,
                           uint64_t r)
{
    const char *name = iolens_log_name_of(log, L->id[r]);
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    if (d != NULL && d->file_rec_id >= 0) {
        const char *file = NULL;
        if ((uint32_t)d->file_rec_id < L->counter_count)
            file = iolens_log_name_of(log, (uint64_t)iolens_log_counter(L, r, d->file_rec_id));
        if (file != NULL)
            return strdup(file);
        const char *sep = name != NULL ? strstr(name, ":/") : NULL;
        if (sep != NULL)
            return strndup(name, (size_t)(sep - name));
    }
    if (name != NULL)
        return strdup(name);
    char idbuf[32];
    snprintf(idbuf, sizeof idbuf, "%" PRIu64, L->id[r]);
    return strdup(idbuf);
}

/* Appends one entry per record of L to e (room for them is there). */
static int stack_add_layer(const struct iolens_log *log, const struct iolens_log_layer *L,
                           unsigned k, struct stack_entry *e, size_t *n)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    void *rec = malloc(d->record_size);
    if (rec == NULL)
        return -1;
    for (uint64_t r = 0; r < L->record_count; r++) {
        char *file = stack_file_of(log, L, r);
        if (file == NULL) {
            free(rec);
            return -1;
        }
        iolens_log_record_load(L, r, d, rec);
        const int64_t *c = iolens_rec_counters(rec);
        e[(*n)++] = (struct stack_entry){file, k, c[d->bytes_read], c[d->bytes_written],
                                         iolens_record_io_time(d, rec)};
    }
    free(rec);
    return 0;
}

static int by_file(const void *a, const void *b)
{
    return strcmp(((const struct stack_entry *)a)->file, ((const struct stack_entry *)b)->file);
}

static void print_stack_header(FILE *out, const struct stack_order *o,
                               const struct iolens_log_layer **layer)
{
    fputs("# <file>", out);
    for (unsigned k = 0; k < STACK_NKINDS; k++)
        if (layer[k] != NULL) {
            const char *n = o->layer[k]->name;
            fprintf(out, "\t%s_bytes_read\t%s_bytes_written\t%s_time", n, n, n);
        }
    fputc('\n', out);
}

static void print_stack_row(FILE *out, const char *file, const struct stack_cell *cell,
                            const struct iolens_log_layer **layer)
{
    iolens_put_escaped(out, file);
    for (unsigned k = 0; k < STACK_NKINDS; k++) {
        if (layer[k] == NULL)
            continue;
        if (cell[k].present)
            fprintf(out, "\t%" PRId64 "\t%" PRId64 "\t%.6f", cell[k].bytes_read,
                   cell[k].bytes_written, cell[k].time);
        else
            fputs("\t-\t-\t-", out);
    }
    fputc('\n', out);
}

/* Entries sorted by file: one row per run of equal files. */
static void print_stack_rows(FILE *out, const struct stack_entry *e, size_t n,
                             const struct iolens_log_layer **layer)
{
    for (size_t i = 0; i < n;) {
        struct stack_cell cell[STACK_NKINDS] = {{0}};
        size_t j = i;
        for (; j < n && strcmp(e[j].file, e[i].file) == 0; j++) {
            struct stack_cell *c = &cell[e[j].k];
            c->present = true;
            c->bytes_read = iolens_sat_add(c->bytes_read, e[j].bytes_read);
            c->bytes_written = iolens_sat_add(c->bytes_written, e[j].bytes_written);
            c->time += e[j].time;
        }
        print_stack_row(out, e[i].file, cell, layer);
        i = j;
    }
}

int iolens_report_stack(FILE *out, const struct iolens_log *log)
{
    struct stack_order o;
    stack_order(&o);
    const struct iolens_log_layer *layer[STACK_NKINDS];
    uint64_t total = 0;
    for (unsigned k = 0; k < STACK_NKINDS; k++) {
        layer[k] = iolens_log_layer_of(log, o.layer[k]->region_kind);
        total += layer[k] != NULL ? layer[k]->record_count : 0;
    }
    if (total > SIZE_MAX / sizeof(struct stack_entry))
        return -1;
    struct stack_entry *e = malloc((total > 0 ? (size_t)total : 1) * sizeof *e);
    size_t n = 0;
    int rc = e != NULL ? 0 : -1;
    for (unsigned k = 0; k < STACK_NKINDS && rc == 0; k++)
        if (layer[k] != NULL)
            rc = stack_add_layer(log, layer[k], k, e, &n);
    if (rc == 0) {
        if (n > 0)
            qsort(e, n, sizeof *e, by_file);
        print_stack_header(out, &o, layer);
        print_stack_rows(out, e, n, layer);
    }
    for (size_t i = 0; i < n; i++)
        free(e[i].file);
    free(e);
    return rc;
}

