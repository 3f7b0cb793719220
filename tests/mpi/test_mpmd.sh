#!/bin/sh
# An MPMD job, as a coupled model runs ("mpiexec -n 2 atm : -n 2 ocn"):
# the job's log names every executable and which ranks ran it (the header
# line "# executables:", each "# rank R:" line, --json's "executables"
# and "rank_executables"), and iolens-anonymize hides them as it hides
# the executable.  Before, the log named rank 0's executable only.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup

# Two executables: job_prog under two names.
ATM=$T/atm
OCN=$T/ocn
cp "$JOB_PROG" "$ATM"
cp "$JOB_PROG" "$OCN"
RUN=$T/mpmd
DATA=$RUN/data
LOGDIR=$RUN/logs
mkdir -p "$DATA" "$LOGDIR"
# Every rank must be traced (iolens(7), MPI JOBS): Hydra's -genv reaches
# every executable, Open MPI's -x only the one it precedes.
case $(mpi_flavour) in
    openmpi) second="-x LD_PRELOAD=$IOLENS_LIB -x IOLENS_LOGDIR=$LOGDIR" ;;
    *) second= ;;
esac
# shellcheck disable=SC2086  # second: launcher options, paths without blanks
mpi_run -n 2 -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$LOGDIR" \
    "$ATM" sharing "$DATA" : -n 2 $second "$OCN" sharing "$DATA" >"$RUN/out" 2>"$RUN/err"
check_eq 0 "$?" "exit status of the MPMD job"
mpi_strip_banners "$RUN/err"
check_eq "" "$(cat "$RUN/err")" "stderr of the MPMD job"
check_eq 1 "$(logs_in "$LOGDIR")" "logs of the MPMD job"
LOG=$(first_in "$LOGDIR" '*.iolens')
require_log "$LOG"
check_eq 4 "$(header "$LOG" nprocs)" "nprocs"
check_eq "$ATM sharing $DATA" "$(header "$LOG" exe)" "exe: rank 0's command line"
check_eq "$ATM $OCN" "$(header "$LOG" executables)" "executables"
check_eq "$ATM;$ATM;$OCN;$OCN;" "$(base_of "$LOG" | sed -n 's/^# rank [0-3]: .* exe //p' | tr '\n' ';')" \
    "each rank's executable"
# Every rank's files are in the log, whatever it ran.
for r in 0 1 2 3; do
    check_eq $((1000 * (r + 1))) "$(counter "$LOG" "$DATA/fpp.$r" POSIX_BYTES_WRITTEN)" \
        "fpp.$r of rank $r"
done
check_eq "['$ATM', '$OCN'] [0, 0, 1, 1]" "$("$IOLENS_PARSER" --json "$LOG" | python3 -c '
import json, sys
job = json.load(sys.stdin)["job"]
print(job["executables"], job["rank_executables"])')" "--json executables and rank_executables"

# An SPMD job has one executable: no such lines, one entry in --json.
run_job 2 sharing
check_eq "<none>" "$(header "$LOG" executables)" "SPMD: no executables line"
check_eq 0 "$(base_of "$LOG" | grep -c '^# rank .* exe ')" "SPMD: no executable on the rank lines"
check_eq "1 [0, 0]" "$("$IOLENS_PARSER" --json "$LOG" | python3 -c '
import json, sys
job = json.load(sys.stdin)["job"]
print(len(job["executables"]), job["rank_executables"])')" "SPMD: --json"

# Anonymized, both executables are hidden, the same one alike.
LOG=$(first_in "$T/mpmd/logs" '*.iolens')
head -c 32 /dev/urandom >"$T/key"
"$IOLENS_BUILDDIR/iolens-anonymize" --key-file "$T/key" "$LOG" "$T/anon.iolens" ||
    fail "iolens-anonymize of the MPMD log"
"$IOLENS_PARSER" "$T/anon.iolens" >"$T/anon.txt" 2>&1 || fail "iolens-parser of the anonymized log"
check_eq 0 "$(grep -c 'atm\|ocn' "$T/anon.txt")" "the executables' names after iolens-anonymize"
# shellcheck disable=SC2046  # the two hashed names
set -- $(sed -n 's/^# executables: //p' "$T/anon.txt")
check_eq 2 "$#" "executables after iolens-anonymize"
check_eq "$1;$1;$2;$2;" "$(sed -n 's/^# rank [0-3]: .* exe //p' "$T/anon.txt" | tr '\n' ';')" \
    "each rank's executable after iolens-anonymize"
finish
