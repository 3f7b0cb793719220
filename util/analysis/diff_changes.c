/* iolens-diff: the job's sharing class and the files whose access pattern
 * or sharing changed between the two logs (iolens-diff(1)).  Files are
 * matched by layer, name (the id when the log has no name) and rank. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/file_rows.h"
#include "analysis/patterns.h"
#include "analysis/sharing.h"
#include "output/put_escaped.h"

/* One file record, as compared. */
struct file_key {
    const char *layer;
    char *name;               /* malloc'd */
    int64_t rank;
    const char *sharing;
    char *pattern;            /* "label" or "label(params)", malloc'd */
};

struct file_set {
    struct file_key *k;
    size_t n, cap;
};

static char *pattern_text(const struct iolens_pattern *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        return NULL;
    fputs(iolens_pattern_name(p->kind), f);
    if (p->kind != IOLENS_PATTERN_NONE && p->kind != IOLENS_PATTERN_UNKNOWN) {
        fputc('(', f);
        iolens_pattern_print_params(f, p);
        fputc(')', f);
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static char *name_text(const struct iolens_file_row *row)
{
    if (row->name != NULL)
        return strdup(row->name);
    char *s = malloc(32);
    if (s != NULL)
        snprintf(s, 32, "id:%016" PRIx64, row->id);
    return s;
}

static int add_row(const struct iolens_file_row *row, void *arg)
{
    struct file_set *s = arg;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct file_key *k = realloc(s->k, cap * sizeof *k);
        if (k == NULL)
            return -1;
        s->k = k;
        s->cap = cap;
    }
    struct file_key k = {.layer = row->layer_name, .rank = row->rank, .sharing = row->sharing,
                         .name = name_text(row), .pattern = pattern_text(&row->pattern)};
    if (k.name == NULL || k.pattern == NULL) {
        free(k.name);
        free(k.pattern);
        return -1;
    }
    s->k[s->n++] = k;
    return 0;
}

static int key_cmp(const void *pa, const void *pb)
{
    const struct file_key *a = pa, *b = pb;
    int c = strcmp(a->layer, b->layer);
    if (c == 0)
        c = strcmp(a->name, b->name);
    if (c == 0)
        c = (a->rank > b->rank) - (a->rank < b->rank);
    return c;
}

static void set_free(struct file_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->k[i].name);
        free(s->k[i].pattern);
    }
    free(s->k);
}

static int set_of(const struct iolens_log *log, struct file_set *s)
{
    *s = (struct file_set){0};
    if (iolens_file_rows(log, add_row, s) != 0)
        return -1;
    if (s->n > 0)
        qsort(s->k, s->n, sizeof *s->k, key_cmp);
    return 0;
}

static void put_line(FILE *out, const char *what, const struct file_key *k, const char *a,
                     const char *b)
{
    fprintf(out, "%s\t%s\t%" PRId64, what, k->layer, k->rank);
    if (a != NULL)
        fprintf(out, "\t%s\t%s", a, b);
    fputc('\t', out);
    iolens_put_escaped(out, k->name);
    fputc('\n', out);
}

static void put_pair(FILE *out, const struct file_key *a, const struct file_key *b)
{
    if (strcmp(a->pattern, b->pattern) != 0)
        put_line(out, "pattern", a, a->pattern, b->pattern);
    if (strcmp(a->sharing, b->sharing) != 0)
        put_line(out, "file_sharing", a, a->sharing, b->sharing);
}

/* Walks the two sorted sets side by side. */
static void put_file_changes(FILE *out, const struct file_set *a, const struct file_set *b)
{
    size_t i = 0, j = 0;
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : key_cmp(&a->k[i], &b->k[j]);
        if (c < 0)
            put_line(out, "only_in_A", &a->k[i++], NULL, NULL);
        else if (c > 0)
            put_line(out, "only_in_B", &b->k[j++], NULL, NULL);
        else
            put_pair(out, &a->k[i++], &b->k[j++]);
    }
}

int iolens_diff_changes(FILE *out, const struct iolens_log *a, const struct iolens_log *b)
{
    struct iolens_sharing sa, sb;
    if (iolens_sharing_of_job(a, &sa) != 0 || iolens_sharing_of_job(b, &sb) != 0)
        return -1;
    fprintf(out, "sharing\tjob\t%s\t%s\n", iolens_sharing_name(sa.cls),
            iolens_sharing_name(sb.cls));
    struct file_set fa = {0}, fb = {0};
    int rc = -1;
    if (set_of(a, &fa) == 0 && set_of(b, &fb) == 0) {
        put_file_changes(out, &fa, &fb);
        rc = 0;
    }
    set_free(&fa);
    set_free(&fb);
    return rc;
}
