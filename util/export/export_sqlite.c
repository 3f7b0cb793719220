/*
 * iolens-export --sqlite DB LOG...: many jobs in one SQLite database
 * (tables and columns: iolens-export(1), SQLITE).
 *
 * Re-importing is idempotent: a job's rows are keyed by a hash of the
 * fields that identify its run (export_sqlite.h), and a log replaces the
 * rows of its job (jobs: INSERT OR REPLACE; layers and files: deleted,
 * then inserted).
 *
 * Speed: the logs go in batches of BATCH_LOGS, one transaction each, with
 * statements prepared once; the journal is a write-ahead log (readers keep
 * querying while an import runs) with synchronous=NORMAL, which keeps the
 * database consistent after a crash but may lose the last batches.  Each
 * log is a savepoint of its batch, so a log that fails half way leaves
 * nothing behind.
 *
 * Errors: a log that cannot be read (or whose figures need more memory
 * than there is) is reported on stderr, skipped, and the others are
 * imported: exit 2.  A database that cannot be opened, created or written
 * stops the import at once: the batch under way is rolled back, the
 * batches before it stay, exit 3.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/export.h"
#include "export/export_sqlite.h"
#include "reader/reader.h"

#define BATCH_LOGS 500
/* Page cache: files rows go in job_key (hash) order all over the files_job
 * index, which SQLite's default 2 MiB cache turns into disk reads once the
 * database is a few hundred MiB. */
#define CACHE_PRAGMA "PRAGMA cache_size = -131072" /* KiB: 128 MiB */
/* A concurrent importer holds the write lock at most one batch long. */
#define BUSY_TIMEOUT_MS 60000

static int db_error(const char *db_path, sqlite3 *db)
{
    fprintf(stderr, "%s: %s: %s\n", IOLENS_EXPORT_PROG, db_path,
            db != NULL ? sqlite3_errmsg(db) : "out of memory");
    return 3;
}

static int exec(sqlite3 *db, const char *sql) { return sqlite3_exec(db, sql, NULL, NULL, NULL); }

/* The integer that a one-row query gives. */
static int query_int(sqlite3 *db, const char *sql, int *value)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *value = sqlite3_column_int(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* Whether the database may take this schema: 0, or 3 after a stderr line
 * (inside the caller's transaction).  A database of another schema
 * version, or one that has tables of these names but no version (another
 * program's), is refused untouched. */
static int check_schema(const char *db_path, sqlite3 *db)
{
    int version = 0, ours = 0;
    if (query_int(db, "PRAGMA user_version", &version) != SQLITE_OK ||
        query_int(db,
                  "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('jobs', 'layers', 'files')",
                  &ours) != SQLITE_OK)
        return db_error(db_path, db);
    if (version != 0 && version != IOLENS_SQLITE_SCHEMA_VERSION) {
        fprintf(stderr, "%s: %s: database schema version %d, this iolens-export writes %d\n",
                IOLENS_EXPORT_PROG, db_path, version, IOLENS_SQLITE_SCHEMA_VERSION);
        return 3;
    }
    if (version == 0 && ours > 0) {
        fprintf(stderr, "%s: %s: has a jobs, layers or files table not written by %s\n",
                IOLENS_EXPORT_PROG, db_path, IOLENS_EXPORT_PROG);
        return 3;
    }
    return 0;
}

/* Whether table has a column of that name: 1, 0, or -1 on an error. */
static int has_column(sqlite3 *db, const char *table, const char *column)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM pragma_table_info('%s') WHERE name = '%s'",
             table, column);
    int n = 0;
    return query_int(db, sql, &n) != SQLITE_OK ? -1 : n > 0;
}

/* The jobs columns added after schema version 1 was first written (the
 * Darshan reader's): a database from an older iolens-export gets them,
 * its rows filled as that export would have, had it known them.  Those
 * rows all came from iolens logs, so source is "iolens" and the log's
 * format version (as iolens_log_source_label says it), and partial is
 * what the runtime sets IOLENS_FLAG_PARTIAL by: files or opens folded.
 * SQLITE_OK or an SQLite error code. */
static int add_missing_columns(sqlite3 *db)
{
    static const struct {
        const char *column, *add, *fill;
    } added[] = {
        {"source", "ALTER TABLE jobs ADD COLUMN source TEXT",
         "UPDATE jobs SET source = 'iolens ' || log_version"},
        {"partial", "ALTER TABLE jobs ADD COLUMN partial INTEGER",
         "UPDATE jobs SET partial = (ifnull(folded_files, 0) > 0 OR ifnull(folded_opens, 0) > 0)"},
    };
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
        int has = has_column(db, "jobs", added[i].column);
        if (has < 0)
            return SQLITE_ERROR;
        if (has == 0 && (exec(db, added[i].add) != SQLITE_OK || exec(db, added[i].fill) != SQLITE_OK))
            return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

/* Creates the tables, or checks that the database holds this schema
 * (adding the columns an older iolens-export did not write).
 * 0, or 3 after a stderr line. */
static int setup_schema(const char *db_path, sqlite3 *db)
{
    if (exec(db, "BEGIN IMMEDIATE") != SQLITE_OK)
        return db_error(db_path, db);
    int rc = check_schema(db_path, db);
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", IOLENS_SQLITE_SCHEMA_VERSION);
    if (rc == 0 && (exec(db, iolens_sqlite_schema) != SQLITE_OK ||
                    add_missing_columns(db) != SQLITE_OK || exec(db, pragma) != SQLITE_OK ||
                    exec(db, "COMMIT") != SQLITE_OK))
        rc = db_error(db_path, db);
    if (rc != 0)
        exec(db, "ROLLBACK");
    return rc;
}

/* Opens (creating if needed) the database; 0, or 3 after a stderr line. */
static int open_db(const char *db_path, sqlite3 **db)
{
    /* one thread: no mutexes */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
#ifdef SQLITE_OPEN_NOFOLLOW
    flags |= SQLITE_OPEN_NOFOLLOW;   /* no symlink at the name (SQLite 3.31) */
#endif
    int rc = sqlite3_open_v2(db_path, db, flags, NULL);
    if (rc != SQLITE_OK)
        return db_error(db_path, *db);
    sqlite3_busy_timeout(*db, BUSY_TIMEOUT_MS);
    rc = setup_schema(db_path, *db);
    if (rc != 0)
        return rc;
    /* WAL needs shared memory; where it cannot be had (some network file
     * systems) SQLite keeps its rollback journal, which is fine. */
    exec(*db, "PRAGMA journal_mode = WAL");
    if (exec(*db, "PRAGMA synchronous = NORMAL") != SQLITE_OK ||
        exec(*db, CACHE_PRAGMA) != SQLITE_OK)
        return db_error(db_path, *db);
    return 0;
}

/* The path stored for a log: absolute when it can be resolved. */
static void import_path(const char *log, char *buf, size_t size)
{
    char *abs = realpath(log, NULL);
    snprintf(buf, size, "%s", abs != NULL ? abs : log);
    free(abs);
}

enum log_result { LOG_IMPORTED, LOG_SKIPPED, LOG_DB_FAILED };

/* One log, as a savepoint of the batch. */
static enum log_result import_log(sqlite3 *db, const struct iolens_sqlite_stmts *s,
                                  const char *path)
{
    struct iolens_log log;
    char err[256];
    if (iolens_log_read(path, &log, err, sizeof err) != IOLENS_READ_OK) {
        fprintf(stderr, "%s: %s: %s\n", IOLENS_EXPORT_PROG, path, err);
        return LOG_SKIPPED;
    }
    char stored[PATH_MAX];
    import_path(path, stored, sizeof stored);
    if (exec(db, "SAVEPOINT log") != SQLITE_OK) {
        iolens_log_free(&log);
        return LOG_DB_FAILED;
    }
    enum iolens_sqlite_put_status st = iolens_sqlite_put_log(s, &log, stored);
    iolens_log_free(&log);
    if (st == IOLENS_SQLITE_PUT_OK)
        return exec(db, "RELEASE log") == SQLITE_OK ? LOG_IMPORTED : LOG_DB_FAILED;
    if (st == IOLENS_SQLITE_PUT_DB)
        return LOG_DB_FAILED;
    if (exec(db, "ROLLBACK TO log") != SQLITE_OK || exec(db, "RELEASE log") != SQLITE_OK)
        return LOG_DB_FAILED;
    fprintf(stderr, "%s: %s: out of memory\n", IOLENS_EXPORT_PROG, path);
    return LOG_SKIPPED;
}

/* logs[0..n) in one transaction.  0, 2 (a log skipped) or 3 (the
 * database failed: stderr says why, the batch is rolled back). */
static int import_batch(const char *db_path, sqlite3 *db, const struct iolens_sqlite_stmts *s,
                        char *const *logs, int n)
{
    if (exec(db, "BEGIN IMMEDIATE") != SQLITE_OK)
        return db_error(db_path, db);
    int status = 0;
    for (int i = 0; i < n; i++) {
        enum log_result r = import_log(db, s, logs[i]);
        if (r == LOG_SKIPPED)
            status = 2;
        if (r == LOG_DB_FAILED) {
            int rc = db_error(db_path, db);
            exec(db, "ROLLBACK");
            return rc;
        }
    }
    if (exec(db, "COMMIT") != SQLITE_OK) {
        int rc = db_error(db_path, db);
        exec(db, "ROLLBACK");
        return rc;
    }
    return status;
}

/* SQLite opens files by name.  A database that does not exist yet is
 * first created empty here with O_CREAT|O_EXCL|O_NOFOLLOW (SQLite takes an
 * empty file for a new database), so that a symlink planted at the name is
 * never followed, and SQLite is told not to follow one either
 * (SQLITE_OPEN_NOFOLLOW).  Not a temporary renamed into place: two imports
 * into one new database must both land.  When the file cannot be created
 * here, SQLite tries and reports why. */
int iolens_export_sqlite(const char *db_path, char *const *logs, int nlogs)
{
    int fd = open(db_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0)
        close(fd);
    sqlite3 *db = NULL;
    int status = open_db(db_path, &db);
    struct iolens_sqlite_stmts s = {0};
    if (status == 0 && iolens_sqlite_prepare(db, &s) != SQLITE_OK)
        status = db_error(db_path, db);
    for (int i = 0; status != 3 && i < nlogs; i += BATCH_LOGS) {
        int n = nlogs - i < BATCH_LOGS ? nlogs - i : BATCH_LOGS;
        int rc = import_batch(db_path, db, &s, logs + i, n);
        status = rc > status ? rc : status;
    }
    iolens_sqlite_finalize(&s);
    if (sqlite3_close(db) != SQLITE_OK && status != 3)
        status = db_error(db_path, db);
    return status;
}
