#!/bin/sh
# iolens-export --sqlite: a fixture of 11 jobs (make_test_log's 4
# variants, bench/make_big_log's jobs of 1, 8 and 1024 ranks) goes into a
# database; the sqlite3 CLI then checks rows per table, exact job, layer
# and file values (against make_test_log's documented content and
# iolens-parser's --summary, --perf and --csv), names with odd bytes, the
# Intrepid queries of iolens-export(1) (exact output), idempotent
# re-import, a log replacing an older log of the same job, bad logs (exit
# 2, the others imported), the ways the database can fail (exit 3, one
# line, the failed batch rolled back, the batches before it kept) and two
# imports into one database at once.
. "$(dirname "$0")/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN IOLENS_BUILDDIR IOLENS_SRCDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: no sqlite3 CLI (Debian package sqlite3)"; exit 77; }
EXPORT=$IOLENS_BUILDDIR/iolens-export
MAKELOG=$IOLENS_TESTBIN/integration/make_test_log
BIGLOG=$IOLENS_BUILDDIR/bench/make_big_log
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
T=$(cd "$T" && pwd -P)
LC_ALL=C
export LC_ALL
TAB=$(printf '\t')

# ------------------------------------------------------------- fixture --
F=$T/logs
mkdir "$F"
if ! { IOLENS_DISABLE=1 "$MAKELOG" "$F/sim-base.iolens" &&
    IOLENS_DISABLE=1 "$MAKELOG" --forked --hdf5 "$F/sim-hdf5.iolens" &&
    IOLENS_DISABLE=1 "$MAKELOG" --intervals --intervals-extra --odd-names "$F/sim-odd.iolens" &&
    IOLENS_DISABLE=1 "$MAKELOG" --one-node --stdio-twin "$F/sim-one.iolens" &&
    "$BIGLOG" --jobs 4 "$F/small.iolens" 64 8 &&
    "$BIGLOG" --jobs 2 "$F/large.iolens" 4096 1024 &&
    "$BIGLOG" --jobs 1 "$F/serial.iolens" 4 1; }; then
    fail "fixture logs"
    finish
fi
LOGS=$(ls "$F"/*.iolens*)

DB=$T/jobs.db
# shellcheck disable=SC2086  # the log list is split on purpose
"$EXPORT" --sqlite "$DB" $LOGS >"$T/out" 2>"$T/err"
rc=$?
if grep -q 'built without SQLite' "$T/err"; then
    echo "SKIP: iolens-export was built without SQLite"
    exit 77
fi
check_eq 0 "$rc" "exit status of the import"
check_eq "" "$(cat "$T/out" "$T/err")" "output of the import"

q() { sqlite3 -separator "$TAB" "$DB" "$@"; }

# ------------------------------------------------------------ the rows --
check_eq 1 "$(q 'PRAGMA user_version')" "schema version"
# files: 4 + 10 + 6 + 5 (make_test_log), 4 x 64 + 2 x 4096 + 4 (make_big_log)
check_eq "11 21 8477" "$(q 'SELECT (SELECT COUNT(*) FROM jobs), (SELECT COUNT(*) FROM layers),
    (SELECT COUNT(*) FROM files)' | tr "$TAB" ' ')" "rows in jobs, layers, files"
check_eq "large.iolens.0 1 4096
large.iolens.1 1 4096
serial.iolens.0 1 4
sim-base.iolens 3 4
sim-hdf5.iolens 5 10
sim-odd.iolens 3 6
sim-one.iolens 3 5
small.iolens.0 1 64
small.iolens.1 1 64
small.iolens.2 1 64
small.iolens.3 1 64" "$(q "SELECT replace(log_path, '$F/', ''),
    (SELECT COUNT(*) FROM layers AS l WHERE l.job_key = j.job_key),
    (SELECT COUNT(*) FROM files AS f WHERE f.job_key = j.job_key)
    FROM jobs AS j ORDER BY log_path" | tr "$TAB" ' ')" "layers and files rows per log"

# sim-base, as make_test_log documents it.
base="log_path = '$F/sim-base.iolens'"
# The rows of a job in layers and files: WHERE $(job LOG_PATH_PATTERN)
job() { echo "job_key = (SELECT job_key FROM jobs WHERE log_path LIKE '$1')"; }
check_eq "4242|1000|alice|/opt/app/bin/sim|sim|-n 4 in put.dat|4|2|4321|0|1700000000.250000|1700000003.750000|3.500000|3|10550|4089032|4099582|rank-0|POSIX|0|0|0|0.1.0-test|MPICH Version: 4.1.2|3" \
    "$(q "SELECT jobid, uid, user, exe, exe_name, args, nprocs, nnodes, pid, parent_pid,
        printf('%.6f', start_time), printf('%.6f', end_time), printf('%.6f', runtime), records,
        bytes_read, bytes_written, bytes, sharing, sharing_layer, top_rank, folded_files,
        folded_opens, iolens_version, mpi_library, log_version FROM jobs WHERE $base" |
        tr "$TAB" '|')" "sim-base's jobs row"
check_eq "4000" "$(q "SELECT parent_pid FROM jobs WHERE log_path LIKE '%sim-hdf5%'")" \
    "the forked log's parent pid"
now=$(date +%s)
check_eq 1 "$(q "SELECT imported BETWEEN $now - 600 AND $now + 600 FROM jobs WHERE $base")" \
    "import time"

# Every job's figures are --summary's (same format, "-" for NULL).
fmt() { echo "CASE WHEN $1 IS NULL THEN '-' ELSE printf('%.6f', $1) END"; }
q "SELECT log_path, exe, jobid, nprocs, nnodes, printf('%.6f', runtime), bytes,
    $(fmt agg_mib_s), $(fmt mib_s_per_cn), $(fmt union_mib_s), $(fmt bps),
    ifnull(bps_layer, '-'), sharing,
    source || CASE WHEN partial THEN ' partial' ELSE '' END FROM jobs ORDER BY log_path" >"$T/db.summary"
# shellcheck disable=SC2086
"$IOLENS_PARSER" --summary $LOGS | grep -v '^#' | sort >"$T/parser.summary"
if cmp -s "$T/parser.summary" "$T/db.summary"; then pass; else
    fail "jobs differ from --summary: $(diff "$T/parser.summary" "$T/db.summary" | head -6)"; fi
check_eq 1 "$(grep -c "sim-odd.iolens${TAB}.*${TAB}2737.454545${TAB}POSIX${TAB}rank-0${TAB}iolens 3\$" "$T/db.summary")" \
    "sim-odd's BPS (its log has intervals)"

# sim-base's POSIX layer (make_test_log: out.dat and in put.dat).
check_eq "2|1|10250|4089032|4099282|11|1002|3|0.750000|1.375000|0.072500|1.885000|0|2.073942|1.036971|-|-" \
    "$(q "SELECT records, shared_records, bytes_read, bytes_written, bytes, reads, writes, opens,
        printf('%.6f', time_read), printf('%.6f', time_write), printf('%.6f', time_meta),
        printf('%.6f', io_time), slowest_rank, printf('%.6f', agg_mib_s),
        printf('%.6f', mib_s_per_cn), ifnull(union_time, '-'), ifnull(bps, '-')
        FROM layers WHERE $(job "%/sim-base.iolens") AND layer = 'POSIX'" |
        tr "$TAB" '|')" "sim-base's POSIX layer"
# Every layer of the make_test_log jobs against --perf.
for log in sim-base sim-hdf5 sim-odd sim-one; do
    "$IOLENS_PARSER" --perf "$F/$log.iolens" | awk -F'\t' '
        $1 != "job" && $1 !~ /^#/ && $2 ~ /^(records|shared_records|bytes|bytes_read|bytes_written|reads|writes|opens|time_read|time_write|time_meta|slowest_time|agg_mib_s|mib_s_per_cn|union_mib_s)$/ {
            print $1, $2, $3 }' | sort >"$T/perf.parser"
    q "SELECT layer, records, shared_records, bytes, bytes_read, bytes_written, reads, writes,
        opens, printf('%.6f', time_read), printf('%.6f', time_write), printf('%.6f', time_meta),
        printf('%.6f', io_time), $(fmt agg_mib_s), $(fmt mib_s_per_cn), $(fmt union_mib_s)
        FROM layers WHERE $(job "%/$log.iolens")" | awk -F'\t' '
        BEGIN { split("records shared_records bytes bytes_read bytes_written reads writes opens time_read time_write time_meta slowest_time agg_mib_s mib_s_per_cn union_mib_s", k, " ") }
        { for (i = 2; i <= NF; i++) print $1, k[i - 1], $i }' | sort >"$T/perf.db"
    check_gt "$(wc -l <"$T/perf.db")" 44 "layer figures of $log"
    if cmp -s "$T/perf.parser" "$T/perf.db"; then pass; else
        fail "$log's layers differ from --perf: $(diff "$T/perf.parser" "$T/perf.db" | head -6)"; fi
done

# sim-base's files (make_test_log's comment lists them).
check_eq "MPIIO|5555555555555555|-1|2|/scratch/run/ckpt.dat|/scratch|lustre|partshared|0|4194304|0|4|2|0.750000|0.500000
POSIX|1111111111111111|0|1|/scratch/run/out.dat|/scratch|lustre|unique|0|4088832|0|1000|1|1.260000|1.260000
POSIX|2222222222222222|-1|4|/home dir/in put.dat|/home dir|nfs4|shared|10250|200|11|2|2|0.937500|0.625000
STDIO|3333333333333333|0|1|/tmp/cfg${TAB}file.txt|/|ext4|unique|300|0|3|0|1|0.070000|0.070000" \
    "$(q "SELECT layer, printf('%016x', record_id), rank, nranks, path_text, mount, fs_type,
        sharing, bytes_read, bytes_written, reads, writes, opens, printf('%.6f', io_time),
        printf('%.6f', slowest_time) FROM files WHERE $(job "%/sim-base.iolens")
        ORDER BY layer, record_id" | sed "s/${TAB}/|/g; s/|file\.txt|/${TAB}file.txt|/")" \
    "sim-base's files"
check_eq "1 2 800 partshared
3 2 400 partshared" "$(q "SELECT rank, nranks, bytes_read, sharing FROM files 
    WHERE $(job "%/sim-hdf5.iolens") AND path_text LIKE '%/grid/press' ORDER BY rank" |
    tr "$TAB" ' ')" "per-rank H5D records of sim-hdf5"
# Ranks, sharing, patterns and access sizes are --csv's.
"$IOLENS_PARSER" --csv "$F/sim-hdf5.iolens" | tr -d '\r' |
    awk -F, 'NR > 1 { print $1, $4, $5, $6, $7, $8, ($9 > 0 ? $9 : "-") }' | sort >"$T/csv.parser"
q "SELECT layer, printf('%016x', record_id), rank, nranks, sharing, pattern,
    ifnull(access_size, '-')
    FROM files WHERE $(job "%/sim-hdf5.iolens")" | tr "$TAB" ' ' |
    sort >"$T/csv.db"
check_eq 10 "$(wc -l <"$T/csv.db")" "sim-hdf5's file rows"
if cmp -s "$T/csv.parser" "$T/csv.db"; then pass; else
    fail "patterns differ from --csv: $(diff "$T/csv.parser" "$T/csv.db" | head -6)"; fi

# Names with odd bytes: the BLOB is exact, the text its display form.
odd=$(job "%/sim-odd.iolens")
check_eq "0ddbad0000000001|2F736372617463682F72756E2F626164FFFE22715C2C780A2E646174|2F736372617463682F72756E2F626164EFBFBDEFBFBD22715C2C780A2E646174|12345" \
    "$(q "SELECT printf('%016x', record_id), hex(path), hex(path_text), bytes_written
        FROM files WHERE $odd AND rank = 2" | tr "$TAB" '|')" \
    "the name that is not UTF-8"
check_eq "0ddcafe000000002|1|1|777" "$(q "SELECT printf('%016x', record_id),
    path_text = '/scratch/run/caf' || char(233) || ',\"1\".dat', CAST(path AS TEXT) = path_text,
    bytes_read FROM files WHERE $odd AND rank = 3" | tr "$TAB" '|')" \
    "the UTF-8 name"
check_eq 1 "$(q "SELECT COUNT(*) FROM files
    WHERE path = X'2F736372617463682F72756E2F626164FFFE22715C2C780A2E646174'")" \
    "a BLOB literal finds the odd name"

# ------------------------------------------- the Intrepid study's queries --
# The example blocks of iolens-export(1)'s "The Intrepid study's queries",
# in order, with the page's escapes (\-, \(aq, \e) undone.
awk -v dir="$T" '
    /^\.SS "The Intrepid study.s queries"/ { on = 1; next }
    on && /^\.S[HS] / { on = 0 }
    on && /^\.EX/ { n++; inb = 1; next }
    inb && /^\.EE/ { inb = 0; next }
    inb { gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047"); gsub(/\\e/, "\\")
          print > (dir "/query" n ".sql") }' "$IOLENS_SRCDIR/man/iolens-export.1"
man_query() {
    if [ -r "$T/query$1.sql" ]; then
        sqlite3 -separator '|' "$DB" <"$T/query$1.sql" 2>&1
    else
        echo "man/iolens-export.1 has no query $1"
    fi
}
check_eq "/bench/app0|3|0.000|1061.670
/bench/app1|2|0.000|1061.343
/bench/app2|1|0.000|16.335
/bench/app3|1|0.000|16.335
/opt/app/bin/sim|4|0.044|15.614" "$(man_query 1)" "iolens-export(1): top producers and consumers"
check_eq "1|H5D|1|0.004
1|H5F|1|0.000
1|MPIIO|4|16.005
1|POSIX|9|81.326
1|STDIO|4|0.001
1024|POSIX|2|2090.015" "$(man_query 2)" "iolens-export(1): interfaces by job size"
check_eq "1|N:N|5|65.669
1|rank-0|4|15.659
1024|N:N|2|2090.015" "$(man_query 3)" "iolens-export(1): sharing class by job size"
check_eq "app0|1|4041.641|4041.641|4041.641
app1|1|4041.641|4041.641|4041.641" "$(man_query 4)" "iolens-export(1): MiB/s/CN by executable"

# ---------------------------------------------------------- idempotent --
dump() {
    q "SELECT job_key, jobid, exe, nprocs, bytes, log_path FROM jobs ORDER BY job_key;
       SELECT * FROM layers ORDER BY job_key, layer;
       SELECT * FROM files ORDER BY job_key, layer, record_id, rank" | md5sum
}
before=$(dump)
# shellcheck disable=SC2086
"$EXPORT" --sqlite "$DB" $LOGS 2>"$T/err"
check_eq 0 "$?" "exit status of the re-import"
check_eq "11 21 8477" "$(q 'SELECT (SELECT COUNT(*) FROM jobs), (SELECT COUNT(*) FROM layers),
    (SELECT COUNT(*) FROM files)' | tr "$TAB" ' ')" "rows after the re-import"
check_eq "$before" "$(dump)" "every row after the re-import"

# The same log under another name is the same job: its path moves.
cp "$F/sim-base.iolens" "$T/copy.iolens"
"$EXPORT" --sqlite "$DB" "$T/copy.iolens" 2>"$T/err"
check_eq 0 "$?" "exit status of importing a copy"
check_eq "11 8477 $T/copy.iolens" "$(q "SELECT (SELECT COUNT(*) FROM jobs),
    (SELECT COUNT(*) FROM files), (SELECT log_path FROM jobs WHERE log_path LIKE '%copy%')" |
    tr "$TAB" ' ')" "a copy of a log replaces its job"
# Another log of the same run (same job id, start, pid, hosts) replaces
# the job's layers and files: --hdf5 without --forked is sim-base's run.
IOLENS_DISABLE=1 "$MAKELOG" --hdf5 "$T/rerun.iolens"
"$EXPORT" --sqlite "$DB" "$T/rerun.iolens" 2>"$T/err"
check_eq 0 "$?" "exit status of importing a second log of a job"
check_eq "11 5 10 8483" "$(q "SELECT (SELECT COUNT(*) FROM jobs),
    (SELECT COUNT(*) FROM layers WHERE $(job "%/rerun.iolens")),
    (SELECT COUNT(*) FROM files WHERE $(job "%/rerun.iolens")),
    (SELECT COUNT(*) FROM files)" | tr "$TAB" ' ')" "the second log's rows replace the first's"

# ------------------------------------------------------------ bad logs --
printf 'not a log\n' >"$T/garbage.iolens"
head -c 200 "$F/sim-hdf5.iolens" >"$T/short.iolens"
DB2=$T/two.db
"$EXPORT" --sqlite "$DB2" "$F/sim-base.iolens" "$T/garbage.iolens" "$T/short.iolens" \
    "$T/missing.iolens" "$F/sim-one.iolens" >"$T/out" 2>"$T/err"
check_eq 2 "$?" "exit status with bad logs"
check_eq 3 "$(wc -l <"$T/err")" "one stderr line per bad log"
for bad in garbage short missing; do
    check_eq 1 "$(grep -c "^iolens-export: $T/$bad.iolens: ." "$T/err")" "the line of $bad.iolens"
done
check_eq "sim-base.iolens 4
sim-one.iolens 5" "$(sqlite3 -separator ' ' "$DB2" "SELECT replace(log_path, '$F/', ''),
    (SELECT COUNT(*) FROM files AS f WHERE f.job_key = j.job_key) FROM jobs AS j
    ORDER BY log_path")" "the good logs around the bad ones are imported"
"$EXPORT" --sqlite "$T/empty.db" "$T/garbage.iolens" 2>/dev/null
check_eq 2 "$?" "exit status with only a bad log"
check_eq "0 1" "$(sqlite3 -separator ' ' "$T/empty.db" "SELECT COUNT(*) FROM jobs;
    PRAGMA user_version" | tr '\n' ' ' | sed 's/ $//')" "an empty database with the schema"

# ------------------------------------------------------- the database --
expect_db_error() { # WHAT DB MESSAGE: exit 3 and exactly one stderr line
    "$EXPORT" --sqlite "$2" "$F/sim-base.iolens" >"$T/out" 2>"$T/err"
    check_eq 3 "$?" "exit status: $1"
    check_eq "iolens-export: $2: $3" "$(cat "$T/out" "$T/err")" "message: $1"
}
expect_db_error "no such directory" "$T/nodir/jobs.db" "unable to open database file"
mkdir "$T/dir.db"
expect_db_error "a directory" "$T/dir.db" "unable to open database file"
printf 'some text, not SQLite\n%.0s' 1 2 3 4 5 6 7 8 >"$T/text.db"
cp "$T/text.db" "$T/text.orig"
expect_db_error "not a database" "$T/text.db" "file is not a database"
if cmp -s "$T/text.db" "$T/text.orig"; then pass; else fail "the text file was changed"; fi
sqlite3 "$T/future.db" "PRAGMA user_version = 7; CREATE TABLE jobs (x);"
expect_db_error "another schema version" "$T/future.db" \
    "database schema version 7, this iolens-export writes 1"
check_eq "jobs" "$(sqlite3 "$T/future.db" "SELECT group_concat(name) FROM sqlite_master")" \
    "the other version's database is left alone"
sqlite3 "$T/other.db" "CREATE TABLE files (name TEXT); CREATE TABLE mine (x)"
expect_db_error "another program's files table" "$T/other.db" \
    "has a jobs, layers or files table not written by iolens-export"
check_eq "0 delete files,mine" "$(sqlite3 -separator ' ' "$T/other.db" "SELECT
    (SELECT user_version FROM pragma_user_version), (SELECT journal_mode FROM pragma_journal_mode),
    (SELECT group_concat(name) FROM sqlite_master)")" "another program's database is left alone"
sqlite3 "$T/shared.db" "CREATE TABLE mine (x); INSERT INTO mine VALUES (42)"
"$EXPORT" --sqlite "$T/shared.db" "$F/sim-base.iolens"
check_eq 0 "$?" "exit status of an import into a database with tables of its own"
check_eq "42 1" "$(sqlite3 -separator ' ' "$T/shared.db" "SELECT (SELECT x FROM mine),
    (SELECT COUNT(*) FROM jobs)")" "the tables go next to a database's own"
if [ "$(id -u)" -ne 0 ]; then
    cp "$DB2" "$T/ro.db"
    chmod 0444 "$T/ro.db"
    expect_db_error "read-only" "$T/ro.db" "attempt to write a readonly database"
fi

# A failure half way through a batch rolls the whole batch back: a
# trigger refuses the odd log's rows; the batch held 4 logs.
cp "$DB2" "$T/boom.db"
sqlite3 "$T/boom.db" "CREATE TRIGGER boom BEFORE INSERT ON files
    WHEN NEW.path_text LIKE '%caf%' BEGIN SELECT RAISE(ABORT, 'refused by trigger'); END"
"$EXPORT" --sqlite "$T/boom.db" "$F/sim-hdf5.iolens" "$F/small.iolens.0" "$F/sim-odd.iolens" \
    "$F/serial.iolens.0" >"$T/out" 2>"$T/err"
check_eq 3 "$?" "exit status when an insert fails"
check_eq "iolens-export: $T/boom.db: refused by trigger" "$(cat "$T/out" "$T/err")" \
    "message when an insert fails"
check_eq "2 9" "$(sqlite3 -separator ' ' "$T/boom.db" "SELECT (SELECT COUNT(*) FROM jobs),
    (SELECT COUNT(*) FROM files)")" "the failed batch left nothing behind"

# Batches: of 600 logs, the first 500 are committed before the second
# batch fails (at log 550), which leaves nothing of its own.
mkdir "$T/many"
"$BIGLOG" --jobs 600 "$T/many/b" 1 1 || fail "make_big_log --jobs 600"
seq 0 599 | sed "s|^|$T/many/b.|" >"$T/many.list"
"$EXPORT" --sqlite "$T/batch.db" "$T/many/b.0" || fail "importing one log"
sqlite3 "$T/batch.db" "CREATE TRIGGER boom BEFORE INSERT ON jobs
    WHEN NEW.jobid = 'bench-550' BEGIN SELECT RAISE(ABORT, 'refused by trigger'); END"
# shellcheck disable=SC2046  # one argument per log
"$EXPORT" --sqlite "$T/batch.db" $(cat "$T/many.list") >"$T/out" 2>"$T/err"
check_eq 3 "$?" "exit status when the second batch fails"
# log i has pid i + 1
check_eq "500 1 500" "$(sqlite3 -separator ' ' "$T/batch.db" "SELECT COUNT(*), MIN(pid), MAX(pid)
    FROM jobs")" "the first batch stays, the second leaves nothing"
check_eq "iolens-export: $T/batch.db: refused by trigger" "$(cat "$T/out" "$T/err")" \
    "message when the second batch fails"

# Two imports at once: the second waits for the first's write lock.
# shellcheck disable=SC2046
"$EXPORT" --sqlite "$T/both.db" $(sed -n '1,300p' "$T/many.list") 2>"$T/err1" &
first=$!
# shellcheck disable=SC2046
"$EXPORT" --sqlite "$T/both.db" $(sed -n '301,600p' "$T/many.list") 2>"$T/err2"
second=$?
wait "$first"
check_eq "0 0" "$? $second" "exit status of two concurrent imports"
check_eq "" "$(cat "$T/err1" "$T/err2")" "stderr of two concurrent imports"
check_eq 600 "$(sqlite3 "$T/both.db" "SELECT COUNT(*) FROM jobs")" "jobs of two concurrent imports"

# ------------------------------------------------------------ migration --
# A database of an older iolens-export: schema version 1 as first written,
# before the jobs table got source and partial (git: export_sqlite_rows.c
# before the Darshan reader's commit 0cb8284), with two rows of its own.
# The export adds the columns, fills the old rows (iolens logs: source
# "iolens <log_version>", partial when files or opens were folded) and
# imports the new log with its values.
OLD=$T/old.db
sqlite3 "$OLD" "PRAGMA user_version = 1;
CREATE TABLE jobs (job_key INTEGER PRIMARY KEY, jobid TEXT, uid INTEGER, user TEXT,
 exe TEXT, exe_name TEXT, args TEXT, nprocs INTEGER, nnodes INTEGER, pid INTEGER,
 parent_pid INTEGER, start_time REAL, end_time REAL, runtime REAL, records INTEGER,
 bytes_read INTEGER, bytes_written INTEGER, bytes INTEGER, io_time REAL, agg_mib_s REAL,
 mib_s_per_cn REAL, union_mib_s REAL, bps REAL, bps_layer TEXT, sharing TEXT,
 sharing_layer TEXT, top_rank INTEGER, top_rank_share REAL, folded_files INTEGER,
 folded_opens INTEGER, iolens_version TEXT, mpi_library TEXT, log_path TEXT,
 log_version INTEGER, imported REAL);
CREATE TABLE layers (job_key INTEGER NOT NULL, layer TEXT NOT NULL, records INTEGER,
 shared_records INTEGER, bytes_read INTEGER, bytes_written INTEGER, bytes INTEGER,
 reads INTEGER, writes INTEGER, opens INTEGER, time_read REAL, time_write REAL,
 time_meta REAL, io_time REAL, slowest_rank INTEGER, agg_mib_s REAL, mib_s_per_cn REAL,
 union_time REAL, union_mib_s REAL, bps REAL, io_share REAL, meta_share REAL,
 PRIMARY KEY (job_key, layer)) WITHOUT ROWID;
CREATE TABLE files (job_key INTEGER NOT NULL, layer TEXT NOT NULL,
 record_id INTEGER NOT NULL, rank INTEGER NOT NULL, nranks INTEGER, nranks_io INTEGER,
 path BLOB, path_text TEXT, mount TEXT, fs_type TEXT, sharing TEXT, bytes_read INTEGER,
 bytes_written INTEGER, reads INTEGER, writes INTEGER, opens INTEGER, time_read REAL,
 time_write REAL, time_meta REAL, io_time REAL, slowest_time REAL, open_to_last_io REAL,
 pattern TEXT, pattern_params TEXT, access_size INTEGER, stride INTEGER);
CREATE INDEX files_job ON files (job_key);
INSERT INTO jobs (job_key, jobid, nprocs, folded_files, folded_opens, log_version)
 VALUES (1, 'old-folded', 8, 3, 0, 2), (2, 'old-whole', 4, 0, 0, 2),
        (3, 'old-opens', 2, 0, 5, 3);" || fail "the old database"
"$EXPORT" --sqlite "$OLD" "$F/sim-base.iolens" >"$T/out" 2>"$T/err"
check_eq 0 "$?" "export into an older database: exit status"
check_eq "" "$(cat "$T/out" "$T/err")" "export into an older database: no output"
check_eq "source TEXT|partial INTEGER" "$(sqlite3 "$OLD" "SELECT name || ' ' || type
    FROM pragma_table_info('jobs') WHERE cid >= 35 ORDER BY cid" | tr '\n' '|' | sed 's/|$//')" \
    "the columns added at the end of jobs"
check_eq "old-folded iolens 2 1|old-whole iolens 2 0|old-opens iolens 3 1|4242 iolens 3 0" \
    "$(sqlite3 -separator ' ' "$OLD" "SELECT jobid, source, partial FROM jobs
        ORDER BY jobid LIKE 'old-%' DESC, job_key" | tr '\n' '|' | sed 's/|$//')" \
    "old rows filled, the new row as exported"
"$EXPORT" --sqlite "$T/fresh.db" "$F/sim-base.iolens" || fail "export into a new database"
row="SELECT jobid, nprocs, nnodes, bytes, printf('%.6f', agg_mib_s), source, partial FROM jobs
    WHERE jobid NOT LIKE 'old-%'"
check_eq "$(sqlite3 "$T/fresh.db" "$row")" "$(sqlite3 "$OLD" "$row")" \
    "the new row's values, as in a new database"
check_eq "$(sqlite3 "$T/fresh.db" "SELECT COUNT(*) FROM layers") $(sqlite3 "$T/fresh.db" \
    "SELECT COUNT(*) FROM files")" "$(sqlite3 "$OLD" "SELECT COUNT(*) FROM layers") $(sqlite3 \
    "$OLD" "SELECT COUNT(*) FROM files")" "its layers and files rows, as in a new database"
check_eq 1 "$(sqlite3 "$OLD" 'PRAGMA user_version')" "the schema version stays 1"
# A second export finds the columns and adds nothing.
"$EXPORT" --sqlite "$OLD" "$F/sim-one.iolens" 2>"$T/err"
check_eq "0 5 37" "$? $(sqlite3 "$OLD" "SELECT COUNT(*) FROM jobs") $(sqlite3 "$OLD" \
    "SELECT COUNT(*) FROM pragma_table_info('jobs')")" "a second export into it"

finish
