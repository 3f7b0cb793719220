/* Binding a statement's parameters in order (export_sqlite_bind.h). */
#include "export/export_sqlite_bind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_out.h"

struct iolens_binder iolens_bind_start(sqlite3_stmt *stmt)
{
    return (struct iolens_binder){stmt, 1, SQLITE_OK};
}

void iolens_bind_status(struct iolens_binder *b, int rc)
{
    if (b->rc == SQLITE_OK)
        b->rc = rc;
    b->next++;
}

void iolens_bind_int(struct iolens_binder *b, int64_t v)
{
    iolens_bind_status(b, sqlite3_bind_int64(b->stmt, b->next, v));
}

void iolens_bind_null(struct iolens_binder *b)
{
    iolens_bind_status(b, sqlite3_bind_null(b->stmt, b->next));
}

void iolens_bind_real(struct iolens_binder *b, double v)
{
    if (isfinite(v))
        iolens_bind_status(b, sqlite3_bind_double(b->stmt, b->next, v));
    else
        iolens_bind_null(b);
}

void iolens_bind_int_or_null(struct iolens_binder *b, int64_t v)
{
    if (v < 0)
        iolens_bind_null(b);
    else
        iolens_bind_int(b, v);
}

/* SQLITE_TRANSIENT: SQLite copies s, which need not outlive the call. */
void iolens_bind_text_n(struct iolens_binder *b, const char *s, size_t len)
{
    if (s == NULL)
        iolens_bind_null(b);
    else
        iolens_bind_status(b, sqlite3_bind_text64(b->stmt, b->next, s, len, SQLITE_TRANSIENT,
                                                  SQLITE_UTF8));
}

void iolens_bind_text(struct iolens_binder *b, const char *s)
{
    iolens_bind_text_n(b, s, s != NULL ? strlen(s) : 0);
}

void iolens_bind_display(struct iolens_binder *b, const char *s, size_t len)
{
    if (s == NULL || iolens_utf8_valid(s, len)) {
        iolens_bind_text_n(b, s, len);
        return;
    }
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (f == NULL) {
        iolens_bind_status(b, SQLITE_NOMEM);
        return;
    }
    iolens_utf8_put_display(f, s, len);
    if (fclose(f) != 0) {
        free(buf);
        iolens_bind_status(b, SQLITE_NOMEM);
        return;
    }
    iolens_bind_text_n(b, buf, size);
    free(buf);
}

void iolens_bind_blob(struct iolens_binder *b, const char *s, size_t len)
{
    if (s == NULL)
        iolens_bind_null(b);
    else
        iolens_bind_status(b, sqlite3_bind_blob64(b->stmt, b->next, s, len, SQLITE_TRANSIENT));
}

int iolens_bind_run(struct iolens_binder *b)
{
    int rc = b->rc;
    if (rc == SQLITE_OK && b->next - 1 != sqlite3_bind_parameter_count(b->stmt))
        rc = SQLITE_RANGE;
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(b->stmt);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_reset(b->stmt);
    return rc;
}
