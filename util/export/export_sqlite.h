/* iolens-export --sqlite, internal interface between
 *   export_sqlite.c       the command: the database, batches
 *                         of logs in transactions, exit status
 *   export_sqlite_rows.c  the tables: their schema, and one log's rows in
 *                         jobs, layers and files (the columns are in
 *                         iolens-export(1), SQLITE)
 *   export_sqlite_bind.c  binding a statement's parameters in order
 */
#ifndef IOLENS_EXPORT_SQLITE_H
#define IOLENS_EXPORT_SQLITE_H

#include <sqlite3.h>
#include <stdint.h>

#include "reader/reader.h"

/* Version of the schema, kept in PRAGMA user_version: a database written
 * by another version is refused rather than mixed. */
#define IOLENS_SQLITE_SCHEMA_VERSION 1

/* CREATE TABLE and CREATE INDEX statements (IF NOT EXISTS) of the schema. */
extern const char iolens_sqlite_schema[];

/* The prepared statements, compiled once per database. */
struct iolens_sqlite_stmts {
    sqlite3_stmt *delete_layers, *delete_files;
    sqlite3_stmt *insert_job, *insert_layer, *insert_file;
};

/* SQLITE_OK or the error of the statement that failed to compile. */
int iolens_sqlite_prepare(sqlite3 *db, struct iolens_sqlite_stmts *s);
void iolens_sqlite_finalize(struct iolens_sqlite_stmts *s);

/* The job key: XXH3-64 of the fields that identify one run (job id, uid,
 * exe, start time, pid, parent pid, nprocs, nnodes, hosts), as a signed
 * 64-bit integer.  Two logs of the same run get the same key. */
int64_t iolens_sqlite_job_key(const struct iolens_log *log);

enum iolens_sqlite_put_status {
    IOLENS_SQLITE_PUT_OK = 0,
    IOLENS_SQLITE_PUT_NOMEM,     /* out of memory: the caller drops the log's rows */
    IOLENS_SQLITE_PUT_DB,        /* a statement failed: sqlite3_errmsg says why */
};

/* Replaces the rows of the log's job (inside the caller's transaction):
 * the job's old layers and files rows go, then one jobs row, a layers row
 * per layer present and a files row per record go in.  log_path is stored
 * as given. */
enum iolens_sqlite_put_status iolens_sqlite_put_log(const struct iolens_sqlite_stmts *s,
                                                    const struct iolens_log *log,
                                                    const char *log_path);

#endif
