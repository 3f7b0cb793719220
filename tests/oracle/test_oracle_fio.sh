#!/bin/sh
# fio, traced under strace at three budgets: random mixed reads and writes
# with --ioengine=psync (pread, pwrite) and sequential ones with
# --ioengine=sync (read, write).  Besides the counters against strace, the
# bytes and operations on each data file must be those fio reports itself
# (io_bytes, total_ios of its JSON output).
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
need fio

# Files of the jobs' size already there: fio lays nothing out.
make_files() {
    head -c 4194304 /dev/zero >rand.dat && head -c 2097152 /dev/zero >seq.dat
}

# fio's JSON holds timings: kept out of the files compared.
EXCLUDE='\.json$'
ORACLE_KEEP_WORK=1
oracle_program fio make_files 'fio --name=rand --filename=rand.dat --size=4M --bs=4k --rw=randrw --ioengine=psync --randrepeat=1 --zero_buffers --output-format=json --output=rand.json && fio --name=seq --filename=seq.dat --size=2M --bs=16k --rw=rw --ioengine=sync --zero_buffers --output-format=json --output=seq.json'

# fio's figure of JOB: DIRECTION (read, write) and FIELD (io_bytes, total_ios).
fio_figure() {
    "$PY" -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j[sys.argv[2]][sys.argv[3]])' "$1" "$2" "$3"
}

# POSIX counter of FILE summed over the logs of DIR.
file_sum() {
    for log in $(logs_in "$1"); do "$IOLENS_PARSER" --base "$log"; done |
        awk -F'\t' -v f="$2" -v c="$3" '$6 == f && $4 == c { s += $5 } END { printf "%.0f\n", s }'
}

for budget in $BUDGETS; do
    dir=$T/fio-$budget
    for job in rand seq; do
        json=$dir.work/$job.json
        file=$T/work/$job.dat
        for dir_field in read:io_bytes:POSIX_BYTES_READ write:io_bytes:POSIX_BYTES_WRITTEN             read:total_ios:POSIX_READS write:total_ios:POSIX_WRITES; do
            IFS=: read -r direction field counter <<EOD
$dir_field
EOD
            check_eq "$(fio_figure "$json" "$direction" "$field")" "$(file_sum "$dir" "$file" "$counter")"                 "fio's $direction $field of $job against iolens's $counter at budget $budget"
        done
        echo "FIO $job/$budget: fio read $(fio_figure "$json" read io_bytes) B $(fio_figure "$json" read total_ios) ops, write $(fio_figure "$json" write io_bytes) B $(fio_figure "$json" write total_ios) ops; iolens read $(file_sum "$dir" "$file" POSIX_BYTES_READ) B $(file_sum "$dir" "$file" POSIX_READS) ops, write $(file_sum "$dir" "$file" POSIX_BYTES_WRITTEN) B $(file_sum "$dir" "$file" POSIX_WRITES) ops"
    done
done
oracle_table
finish
