#!/bin/sh
# sqlite3 creating, filling, updating and querying a database (with its
# journal), traced and untraced alike.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
need sqlite3

make_sql() {
    {
        echo "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, v REAL);"
        echo "BEGIN;"
        i=0
        while [ $i -lt 3000 ]; do
            echo "INSERT INTO t (name, v) VALUES ('row$i', $i.5);"
            i=$((i + 1))
        done
        echo "COMMIT;"
        echo "CREATE INDEX t_name ON t (name);"
        echo "UPDATE t SET v = v * 2 WHERE id % 7 = 0;"
        echo "DELETE FROM t WHERE id % 11 = 0;"
        echo "VACUUM;"
    } >fill.sql
}
transparent "sqlite3" make_sql '
set -e
sqlite3 db.sqlite <fill.sql
sqlite3 db.sqlite "SELECT count(*), sum(v) FROM t; SELECT name FROM t WHERE v > 5000 ORDER BY id LIMIT 5;"
sqlite3 db.sqlite "PRAGMA integrity_check;"
sqlite3 db.sqlite .dump | sha256sum
sqlite3 db.sqlite "SELECT * FROM missing_table;" 2>/dev/null || echo "query failed: $?"'
check_gt "$(logs_total POSIX_BYTES_WRITTEN)" 10000 "bytes written in the logs"
finish
