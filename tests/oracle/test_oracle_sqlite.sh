#!/bin/sh
# sqlite3 with 20,000 inserts in one transaction, then a query, traced under
# strace at three budgets (pread/pwrite on the database and its journal).
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
need sqlite3

make_sql() {
    "$PY" -c '
print("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);")
print("BEGIN;")
for i in range(20000):
    print("INSERT INTO t(v) VALUES(%s);" % repr("value-%06d" % i))
print("COMMIT;")
print("SELECT count(*), sum(length(v)) FROM t;")' >inserts.sql
}

# HOME here: sqlite3 reads ~/.sqliterc, and the user's is none of ours.
oracle_program sqlite make_sql 'HOME=$PWD sqlite3 db.sqlite <inserts.sql'
check_eq "20000|240000" "$(cat "$T/sqlite.plain.out")" "rows and bytes sqlite3 reports"
oracle_table
finish
