/*
 * iolens-parser --base: every counter of every record, one line each.
 *
 * A log of 10^6 records makes some 10^8 lines, so the lines are built in a
 * buffer rather than through printf: the part of a line that is the same
 * for every counter of a record (layer, rank and id before, name and mount
 * after) is formatted once per record, and integers are converted by hand.
 * The output is byte for byte what the printf version printed.
 */
#include "report/dump_base.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record_merge.h"

/* A growable byte buffer; failed is set once an allocation fails. */
struct text {
    char *p;
    size_t len, cap;
    int failed;
};

static void text_reserve(struct text *t, size_t more)
{
    if (t->failed || t->len + more <= t->cap)
        return;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + more)
        cap *= 2;
    char *p = realloc(t->p, cap);
    if (p == NULL) {
        t->failed = 1;
        return;
    }
    t->p = p;
    t->cap = cap;
}

static inline void text_put(struct text *t, const char *s, size_t n)
{
    if (t->len + n > t->cap) {
        text_reserve(t, n);
        if (t->failed)
            return;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
}

static void text_puts(struct text *t, const char *s) { text_put(t, s, strlen(s)); }

/* Control characters and backslash as \ooo (the /proc/mounts convention),
 * so that a name can never break a line or a column. */
static void text_escaped(struct text *t, const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch < 0x20 || ch == 0x7f || ch == '\\') {
            char esc[5] = {'\\', (char)('0' + (ch >> 6)), (char)('0' + ((ch >> 3) & 7)),
                           (char)('0' + (ch & 7)), 0};
            text_put(t, esc, 4);
        } else {
            text_put(t, (const char *)&ch, 1);
        }
    }
}

/* Decimal digits of v into the end of buf[0..24); returns the start. */
static char *u64_digits(uint64_t v, char *end)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    return end;
}

static void text_u64(struct text *t, uint64_t v)
{
    char buf[24], *s = u64_digits(v, buf + sizeof buf);
    text_put(t, s, (size_t)(buf + sizeof buf - s));
}

static void text_i64(struct text *t, int64_t v)
{
    char buf[24], *s;
    if (v < 0) {
        s = u64_digits(-(uint64_t)v, buf + sizeof buf);
        *--s = '-';
    } else {
        s = u64_digits((uint64_t)v, buf + sizeof buf);
    }
    text_put(t, s, (size_t)(buf + sizeof buf - s));
}

/* printf's %.6f without printf: v is m * 2^e exactly (m of 53 bits), so
 * v * 10^6 = m * 10^6 * 2^e is an exact 128-bit product shifted, rounded
 * half to even as glibc rounds the exact value.  Values from 2^60 up,
 * infinities and NaNs go to snprintf. */
int iolens_format_fixed6(double v, char *buf, size_t size)
{
    if (!isfinite(v) || fabs(v) >= 0x1p60)
        return snprintf(buf, size, "%.6f", v);
    int e;
    double f = frexp(fabs(v), &e);
    uint64_t m = (uint64_t)ldexp(f, 53);
    e -= 53;
    unsigned __int128 n = (unsigned __int128)m * 1000000u, q;
    if (e >= 0) {
        q = n << e;            /* e <= 7 here: no overflow */
    } else if (e <= -100) {
        q = 0;                 /* below 2^-47: rounds to 0 */
    } else {
        int shift = -e;
        q = n >> shift;
        unsigned __int128 rem = n - (q << shift), half = (unsigned __int128)1 << (shift - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
    }
    char tmp[48], *end = tmp + sizeof tmp, *p = end;
    uint64_t whole = (uint64_t)(q / 1000000u);
    unsigned frac = (unsigned)(q % 1000000u);
    for (int i = 0; i < 6; i++, frac /= 10)
        *--p = (char)('0' + frac % 10);
    *--p = '.';
    p = u64_digits(whole, p);
    if (signbit(v))
        *--p = '-';
    size_t len = (size_t)(end - p);
    if (len >= size)
        return snprintf(buf, size, "%.6f", v);
    memcpy(buf, p, len);
    buf[len] = '\0';
    return (int)len;
}

/* "\t<name>\t<mount point>\t<fs type>\n", "-" for what is unknown. */
static void record_tail(struct text *t, const char *name, const struct iolens_log_mount *m)
{
    t->len = 0;
    text_put(t, "\t", 1);
    if (name != NULL)
        text_escaped(t, name);
    else
        text_put(t, "-", 1);
    text_put(t, "\t", 1);
    if (m != NULL) {
        text_escaped(t, m->point);
        text_put(t, "\t", 1);
        text_escaped(t, m->fstype);
    } else {
        text_put(t, "-\t-", 3);
    }
    text_put(t, "\n", 1);
}

/* "<layer>\t<rank>\t<id>\t". */
static void record_head(struct text *t, const char *layer, int64_t rank, uint64_t id)
{
    t->len = 0;
    text_puts(t, layer);
    text_put(t, "\t", 1);
    text_i64(t, rank);
    text_put(t, "\t", 1);
    text_u64(t, id);
    text_put(t, "\t", 1);
}

/* Output goes out in chunks of about this size. */
#define FLUSH_AT (1u << 16)

static int flush_text(FILE *out, struct text *t)
{
    if (t->len > 0 && fwrite(t->p, 1, t->len, out) != t->len)
        return -1;
    t->len = 0;
    return 0;
}

/* A layer's counter names with their lengths and a tab, looked up once. */
struct names {
    uint32_t n, nf;
    const char **name, **fname;
    size_t *len, *flen;
};

static int names_of_layer(const struct iolens_log_layer *L, struct names *nm)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(L->kind);
    uint32_t known = d != NULL ? d->ncounters : 0, fknown = d != NULL ? d->nfcounters : 0;
    nm->n = L->counter_count < known ? L->counter_count : known;
    nm->nf = L->fcounter_count < fknown ? L->fcounter_count : fknown;
    nm->name = calloc(nm->n + 1, sizeof *nm->name);
    nm->fname = calloc(nm->nf + 1, sizeof *nm->fname);
    nm->len = calloc(nm->n + 1, sizeof *nm->len);
    nm->flen = calloc(nm->nf + 1, sizeof *nm->flen);
    if (!nm->name || !nm->fname || !nm->len || !nm->flen)
        return -1;
    for (uint32_t i = 0; i < nm->n; i++) {
        nm->name[i] = d->counter_names[i];
        nm->len[i] = strlen(nm->name[i]);
    }
    for (uint32_t i = 0; i < nm->nf; i++) {
        nm->fname[i] = d->fcounter_names[i];
        nm->flen[i] = strlen(nm->fname[i]);
    }
    return 0;
}

static void names_free(struct names *nm)
{
    free(nm->name);
    free(nm->fname);
    free(nm->len);
    free(nm->flen);
}

/* What a counter of ours that a Darshan log lacks prints instead of a value. */
#define NOT_IN_DARSHAN "not in a Darshan log"

static void put_counter(struct text *o, const char *name, size_t len, int64_t v, bool absent,
                        const struct text *head, const struct text *tail)
{
    text_put(o, head->p, head->len);
    text_put(o, name, len);
    text_put(o, "\t", 1);
    if (absent)
        text_puts(o, NOT_IN_DARSHAN);
    else
        text_i64(o, v);
    text_put(o, tail->p, tail->len);
}

static void put_fcounter(struct text *o, const char *name, size_t len, double v, bool absent,
                         const struct text *head, const struct text *tail)
{
    /* %.6f of the largest double is 316 characters. */
    char num[400];
    num[0] = '\t';
    int n = absent ? snprintf(num + 1, sizeof num - 1, "%s", NOT_IN_DARSHAN)
                   : iolens_format_fixed6(v, num + 1, sizeof num - 1);
    text_put(o, head->p, head->len);
    text_put(o, name, len);
    text_put(o, num, (size_t)n + 1);
    text_put(o, tail->p, tail->len);
}

/* A record's counters, then (a Darshan log) the counters iolens lacks,
 * under Darshan's names. */
static void dump_record(struct text *o, const struct iolens_log_layer *L, uint64_t r,
                        const struct names *nm, const struct text *head, const struct text *tail)
{
    for (uint32_t i = 0; i < nm->n; i++)
        put_counter(o, nm->name[i], nm->len[i], L->counters[r * L->counter_count + i],
                    iolens_log_counter_absent(L, (int)i), head, tail);
    for (uint32_t i = 0; i < nm->nf; i++)
        put_fcounter(o, nm->fname[i], nm->flen[i], L->fcounters[r * L->fcounter_count + i],
                     iolens_log_fcounter_absent(L, (int)i), head, tail);
    for (uint32_t i = 0; i < L->extra_count; i++)
        put_counter(o, L->extra_names[i], strlen(L->extra_names[i]),
                    L->extra[r * L->extra_count + i], false, head, tail);
    for (uint32_t i = 0; i < L->fextra_count; i++)
        put_fcounter(o, L->fextra_names[i], strlen(L->fextra_names[i]),
                     L->fextra[r * L->fextra_count + i], false, head, tail);
}

/* The buffers of one dump; a name lookup for the records' ids. */
struct dump {
    FILE *out;
    struct text o, head, tail;
    const struct iolens_log *log;           /* mounts */
    const char *(*name_of)(void *ctx, uint64_t id);
    void *ctx;
};

static int dump_begin(struct dump *st)
{
    text_puts(&st->o, "#<layer>\t<rank>\t<record id>\t<counter>\t<value>\t<file name>\t<mount pt>"
                      "\t<fs type>\n");
    return st->o.failed ? -1 : 0;
}

/* The records of L (a layer, or one region of it). */
static int dump_records(struct dump *st, const struct iolens_log_layer *L, const struct names *nm)
{
    const char *lname = iolens_layer_name(L->kind);
    for (uint64_t r = 0; r < L->record_count; r++) {
        const char *name = st->name_of(st->ctx, L->id[r]);
        record_head(&st->head, lname, L->rank[r], L->id[r]);
        record_tail(&st->tail, name, iolens_log_mount_of(st->log, name));
        dump_record(&st->o, L, r, nm, &st->head, &st->tail);
        if (st->o.failed || st->head.failed || st->tail.failed)
            return -1;
        if (st->o.len >= FLUSH_AT && flush_text(st->out, &st->o) != 0)
            return -2;
    }
    return 0;
}

static int dump_end(struct dump *st, int rc)
{
    if (rc == 0)
        rc = flush_text(st->out, &st->o) != 0 ? -2 : 0;
    free(st->o.p);
    free(st->head.p);
    free(st->tail.p);
    return rc;
}

static const char *log_name_of(void *ctx, uint64_t id)
{
    return iolens_log_name_of(ctx, id);
}

int iolens_dump_base(FILE *out, const struct iolens_log *log)
{
    struct dump st = {.out = out, .log = log, .name_of = log_name_of, .ctx = (void *)log};
    int rc = dump_begin(&st);
    for (size_t l = 0; l < log->nlayers && rc == 0; l++) {
        const struct iolens_log_layer *L = &log->layers[l];
        struct names nm = {0};
        rc = names_of_layer(L, &nm);
        if (rc == 0)
            rc = dump_records(&st, L, &nm);
        names_free(&nm);
    }
    return dump_end(&st, rc);
}

static const char *stream_name_of(void *ctx, uint64_t id)
{
    return iolens_stream_name_of(ctx, id);
}

/* Kind by kind in the order the whole log's layers have, and within a kind
 * region by region in table order: the records in the order of the whole
 * log's layer, so the output is iolens_dump_base's. */
int iolens_dump_base_stream(FILE *out, struct iolens_stream *s)
{
    struct dump st = {.out = out, .log = iolens_stream_log(s), .name_of = stream_name_of,
                      .ctx = s};
    int rc = dump_begin(&st);
    const uint32_t *kinds;
    size_t nkinds = iolens_stream_kinds(s, &kinds);
    for (size_t k = 0; k < nkinds && rc == 0; k++) {
        struct names nm = {0};
        unsigned pos = 0;
        const struct iolens_log_layer *L;
        while (rc == 0) {
            if (iolens_stream_next(s, kinds[k], &pos, &L) != IOLENS_READ_OK) {
                rc = -3;
                break;
            }
            if (L == NULL)
                break;
            if (nm.name == NULL && names_of_layer(L, &nm) != 0)
                rc = -1;
            if (rc == 0)
                rc = dump_records(&st, L, &nm);
            if (rc == 0 && iolens_stream_error(s) != NULL)
                rc = -3;
        }
        names_free(&nm);
    }
    return dump_end(&st, rc);
}
