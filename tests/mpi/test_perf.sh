#!/bin/sh
# iolens-parser --perf on a real 4-rank job (job_prog sharing): the exact
# byte totals, and the bandwidths consistent with the printed bytes and
# times (agg MiB/s = bytes / 2^20 / slowest time, MiB/s/CN = that / nodes).
#
# Bytes written through POSIX (job_prog.c):
#   fpp.R    1000 * (R + 1)       -> 10000
#   strided  4 ranks x 4 x 4096   -> 65536
#   pair.P   1000 * (R + 1)       -> 10000
#   only0    4 x 512              ->  2048
#   total                             87584, nothing read
# and "x\n" from every rank through STDIO on stdout: 8 bytes.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"

job_setup
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
run_job 4 sharing

"$IOLENS_PARSER" --perf "$LOG" >"$T/perf" 2>"$T/err"
check_eq 0 "$?" "exit status of --perf"
perf() { awk -F'\t' -v s="$1" -v m="$2" '$1 == s && $2 == m { print $3 }' "$T/perf"; }
check_eq 87584 "$(perf POSIX bytes)" "POSIX bytes"
check_eq 87584 "$(perf POSIX bytes_written)" "POSIX bytes written"
check_eq 0 "$(perf POSIX bytes_read)" "POSIX bytes read"
check_eq 8 "$(perf STDIO bytes_written)" "STDIO bytes written (x\\n from 4 ranks)"
check_eq 87592 "$(perf job bytes)" "job bytes (POSIX + STDIO)"
check_eq "# perf compute nodes: 1" "$(grep '^# perf compute nodes' "$T/perf")" "compute nodes"

# The same figures at full precision from --json, and --perf's printed
# values derived from them.
"$IOLENS_PARSER" --json "$LOG" >"$T/json"
check_eq 0 "$?" "exit status of --json"
python3 - "$T/json" "$T/perf" >"$T/py.out" 2>"$T/py.err" <<'PY'
import json, math, sys
d = json.loads(open(sys.argv[1], encoding='utf-8').read())
perf = {}
for line in open(sys.argv[2]):
    if not line.startswith('#'):
        s, m, v = line.rstrip('\n').split('\t')
        perf[(s, m)] = v
def check(what, ok):
    print(('ok ' if ok else 'FAIL ') + what)
for name, p in (('POSIX', d['layers']['POSIX']), ('job', d['perf'])):
    t = p['slowest_time']
    check('%s slowest time %r > 0' % (name, t), t is not None and t > 0)
    want = p['bytes'] / 1048576.0 / t
    check('%s agg_mib_s %r == bytes/2^20/slowest %r' % (name, p['agg_mib_s'], want),
          math.isclose(p['agg_mib_s'], want, rel_tol=1e-12))
    check('%s mib_s_per_cn == agg / 1 node' % name,
          math.isclose(p['mib_s_per_cn'], want, rel_tol=1e-12))
    check('%s --perf agg_mib_s %s == %.6f' % (name, perf[(name, 'agg_mib_s')], want),
          perf[(name, 'agg_mib_s')] == '%.6f' % want)
    check('%s --perf slowest_time %s == %.6f' % (name, perf[(name, 'slowest_time')], t),
          perf[(name, 'slowest_time')] == '%.6f' % t)
    # the slowest time is the slowest rank's unique-file time plus the
    # shared records' slowest-rank times
    check('%s slowest = unique + shared' % name,
          math.isclose(t, p['unique_slowest_time'] + p['shared_slowest_time'], rel_tol=1e-12))
P = d['layers']['POSIX']
check('POSIX shared records: strided, pair.0, pair.1 (%r)' % P['shared_records'],
      P['shared_records'] == 3)
check('POSIX records: 4 fpp + only0 + 3 shared (%r)' % P['records'], P['records'] == 8)
files = {f['path'].rsplit('/', 1)[-1]: f for f in d['files'] if f['layer'] == 'POSIX'}
check('strided is shared by 4 ranks', files['strided']['nranks'] == 4)
check('strided has 65536 bytes', files['strided']['bytes_written'] == 65536)
check('pair.1 has 7000 bytes', files['pair.1']['bytes_written'] == 7000)
PY
check_eq 0 "$?" "python check"
while read -r verdict what; do
    if [ "$verdict" = ok ]; then pass; else fail "$what"; fi
done <"$T/py.out"
[ -s "$T/py.err" ] && fail "python: $(cat "$T/py.err")"

finish
