/* Binding the parameters of a prepared SQLite statement in order, for
 * iolens-export --sqlite: each iolens_bind_* call binds the next "?", the
 * first failure is kept, and iolens_bind_run runs the statement once and
 * reports it (or that a parameter was left unbound). */
#ifndef IOLENS_EXPORT_SQLITE_BIND_H
#define IOLENS_EXPORT_SQLITE_BIND_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

struct iolens_binder {
    sqlite3_stmt *stmt;
    int next;                 /* index of the next parameter, from 1 */
    int rc;                   /* the first error, SQLITE_OK until then */
};

struct iolens_binder iolens_bind_start(sqlite3_stmt *stmt);
/* Accounts for one parameter bound with result rc (an error of the
 * caller's, such as SQLITE_NOMEM, is recorded the same way). */
void iolens_bind_status(struct iolens_binder *b, int rc);

void iolens_bind_int(struct iolens_binder *b, int64_t v);
void iolens_bind_null(struct iolens_binder *b);
/* NULL when v is not finite (an undefined figure). */
void iolens_bind_real(struct iolens_binder *b, double v);
/* NULL when v is negative (an unknown rank or count). */
void iolens_bind_int_or_null(struct iolens_binder *b, int64_t v);
/* s[0..len) as UTF-8 text, NULL when s is; copied by SQLite. */
void iolens_bind_text_n(struct iolens_binder *b, const char *s, size_t len);
void iolens_bind_text(struct iolens_binder *b, const char *s);
/* Bytes as text: as they are when valid UTF-8, else their display form
 * (each byte outside a well-formed sequence as U+FFFD, json_out.h). */
void iolens_bind_display(struct iolens_binder *b, const char *s, size_t len);
/* The exact bytes, NULL when s is. */
void iolens_bind_blob(struct iolens_binder *b, const char *s, size_t len);

/* Runs the statement once and resets it: SQLITE_OK, or the first error. */
int iolens_bind_run(struct iolens_binder *b);

#endif
