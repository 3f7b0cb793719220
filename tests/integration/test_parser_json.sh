#!/bin/sh
# iolens-parser --json, --csv, --perf and --summary on the logs of
# make_test_log, read back with python3 (json and csv modules) and checked
# value by value.  The expected values are worked out from the content
# make_test_log.c documents:
#   --intervals --odd-names: 4 ranks on 4 nodes, run time 3.5 s
#   POSIX  out.dat rank 0: 4088832 B written, write 1.25 + meta 0.01 s
#          in put.dat rank -1 (4 ranks): 10250 B read, 200 written, read
#            0.75 + write 0.125 + meta 0.0625 s, slowest rank 0.625 s,
#            first open 0.5 s, last I/O ends 2.2 s
#          bad<FF><FE>"q\,x<LF>.dat rank 2: 12345 B written, 0.5 + 0.25 s
#          caf<e9>,"1".dat rank 3: 777 B read, 0.125 s
#   STDIO  cfg<TAB>file.txt rank 0: 300 B read, 0.05 + 0.02 s
#   MPIIO  ckpt.dat rank -1 (2 ranks): 4 MiB written, slowest rank 0.5 s
#   job (POSIX + STDIO): 4112704 B; rank 0 1.26 + 0.07 = 1.33 s is the
#     slowest; + 0.625 shared = 1.955 s
#   intervals: POSIX union 1.6875 s within [1.625, 1.75] (5640 blocks of
#     512 B, error bound 0.125; test_parser_bps.sh has the arithmetic),
#     STDIO 0.125 s; job union 1.8125 s within [1.75, 1.875]
# Times in the log are packed with float precision, so reals are
# compared to a relative 1e-6.
. "$(dirname "$0")/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL

MAKE_LOG=$IOLENS_TESTBIN/integration/make_test_log
log=$T/odd.iolens
plain=$T/plain.iolens
IOLENS_DISABLE=1 "$MAKE_LOG" --intervals --odd-names "$log" || fail "make_test_log --odd-names"
IOLENS_DISABLE=1 "$MAKE_LOG" "$plain" || fail "make_test_log"

# Runs a python3 check script (stdin) with ARGS; each line it prints is
# "ok WHAT" or "FAIL WHAT", counted here.
py_check() {
    python3 - "$@" >"$T/py.out" 2>"$T/py.err"
    status=$?
    [ "$status" -eq 0 ] || fail "python check exited $status: $(cat "$T/py.err")"
    while read -r verdict what; do
        if [ "$verdict" = ok ]; then pass; else fail "$what"; fi
    done <"$T/py.out"
}

# ---------------------------------------------------------------- json --
"$IOLENS_PARSER" --json "$log" >"$T/json" 2>"$T/err"
check_eq 0 "$?" "exit status of --json"
check_eq 0 "$(wc -c <"$T/err")" "--json writes nothing on stderr"
check_eq 1 "$(wc -l <"$T/json")" "--json writes one line per log"

py_check "$T/json" <<'PY'
import json, math, sys
raw = open(sys.argv[1], 'rb').read()
text = raw.decode('utf-8')            # strict: the output must be UTF-8
d = json.loads(text)
def check(what, got, want):
    ok = got == want
    print(('ok ' if ok else 'FAIL ') + '%s: expected %r, got %r' % (what, want, got))
def near(what, got, want):
    ok = isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-9)
    print(('ok ' if ok else 'FAIL ') + '%s: expected %r, got %r' % (what, want, got))
MIB = 1048576.0
check('schema_version', d['schema_version'], 1)
check('log_format_version', d["log_format_version"], 3)
j = d['job']
check('job.nprocs', j['nprocs'], 4)
check('job.nnodes', j['nnodes'], 4)
check('job.runtime', j['runtime'], 3.5)
check('job.exe', j['exe'], '/opt/app/bin/sim')
check('job.args', j['args'], ['-n', '4', 'in put.dat'])
check('job.jobid', j['jobid'], '4242')
check('job.user', j['user'], 'alice')
check('job.uid', j['uid'], 1000)
check('job.hosts', j['hosts'], ['node001', 'node002', 'node003', 'node004'])
check('job.start_time', j['start_time'], 1700000000.25)
check('job.end_time', j['end_time'], 1700000003.75)
check('job.partial', j['partial'], False)
# Rank 0 moved 99.4% of the bytes (out.dat's 4088832 of 4112404).
check('job.sharing', j['sharing'], 'rank-0')
L = d['layers']
check('layers', sorted(L), ['H5D', 'H5F', 'MPIIO', 'POSIX', 'STDIO'])
P = L['POSIX']
check('POSIX.present', P['present'], True)
check('POSIX.records', P['records'], 4)
check('POSIX.shared_records', P['shared_records'], 1)
check('POSIX.bytes_read', P['bytes_read'], 10250 + 777)
check('POSIX.bytes_written', P['bytes_written'], 4088832 + 200 + 12345)
check('POSIX.reads', P['reads'], 12)
check('POSIX.writes', P['writes'], 1005)
check('POSIX.opens', P['opens'], 5)
near('POSIX.time_read', P['time_read'], 0.875)
near('POSIX.time_write', P['time_write'], 1.875)
near('POSIX.time_meta', P['time_meta'], 0.3225)
near('POSIX.unique_slowest_time', P['unique_slowest_time'], 1.26)
check('POSIX.unique_slowest_rank', P['unique_slowest_rank'], 0)
near('POSIX.slowest_time', P['slowest_time'], 1.885)
posix_bytes = 10250 + 777 + 4088832 + 200 + 12345
near('POSIX.agg_mib_s', P['agg_mib_s'], posix_bytes / MIB / 1.885)
near('POSIX.mib_s_per_cn', P['mib_s_per_cn'], posix_bytes / MIB / 1.885 / 4)
near('POSIX.fallback_time', P['fallback_time'], 1.26 + 1.7)
near('POSIX.union_time', P['union_time'], 1.6875)
near('POSIX.union_time_lower', P['union_time_lower'], 1.625)
near('POSIX.union_time_upper', P['union_time_upper'], 1.75)
check('POSIX.union_bounds_wide', P['union_bounds_wide'], True)
near('POSIX.union_mib_s', P['union_mib_s'], posix_bytes / MIB / 1.6875)
near('POSIX.union_mib_s_min', P['union_mib_s_min'], posix_bytes / MIB / 1.75)
near('POSIX.union_mib_s_max', P['union_mib_s_max'], posix_bytes / MIB / 1.625)
S = L['STDIO']
check('STDIO.bytes_read', S['bytes_read'], 300)
near('STDIO.time_read', S['time_read'], 0.05)
near('STDIO.time_meta', S['time_meta'], 0.02)
M = L['MPIIO']
check('MPIIO.bytes_written', M['bytes_written'], 4194304)
check('MPIIO.writes', M['writes'], 4)
near('MPIIO.slowest_time', M['slowest_time'], 0.5)
near('MPIIO.agg_mib_s', M['agg_mib_s'], 8.0)
check('MPIIO.union_mib_s (no intervals) is null', M['union_mib_s'], None)
check('H5F.present', L['H5F']['present'], False)
check('H5F.agg_mib_s is null', L['H5F']['agg_mib_s'], None)
check('H5D.bytes_read', L['H5D']['bytes_read'], 0)
p = d['perf']
job_bytes = posix_bytes + 300
check('perf.layers', p['layers'], ['POSIX', 'STDIO'])
check('perf.bytes', p['bytes'], job_bytes)
check('perf.compute_nodes', p['compute_nodes'], 4)
near('perf.slowest_time', p['slowest_time'], 1.955)
check('perf.unique_slowest_rank', p['unique_slowest_rank'], 0)
near('perf.agg_mib_s', p['agg_mib_s'], job_bytes / MIB / 1.955)
near('perf.mib_s_per_cn', p['mib_s_per_cn'], job_bytes / MIB / 1.955 / 4)
near('perf.union_time', p['union_time'], 1.8125)
near('perf.union_time_lower', p['union_time_lower'], 1.75)
near('perf.union_time_upper', p['union_time_upper'], 1.875)
near('perf.union_mib_s', p['union_mib_s'], job_bytes / MIB / 1.8125)
near('perf.io_share_of_runtime', p['io_share_of_runtime'], 1.955 / 3.5)
near('perf.meta_share_of_io_time', p['meta_share_of_io_time'],
     (0.3225 + 0.02) / (0.875 + 1.875 + 0.3225 + 0.05 + 0.02))
b = d['bps']
check('bps layers', sorted(b), ['POSIX', 'STDIO'])
near('bps.POSIX.bps', b['POSIX']['bps'], 5640 / 1.6875)
near('bps.POSIX.bps_min', b['POSIX']['bps_min'], 5640 / 1.75)
near('bps.POSIX.bps_max', b['POSIX']['bps_max'], 5640 / 1.625)
near('bps.POSIX.blocks', b['POSIX']['blocks'], 5640)
check('bps.POSIX.block_size', b['POSIX']['block_size'], 512)
near('bps.POSIX.union_time', b['POSIX']['union_time'], 1.6875)
near('bps.POSIX.union_time_lower', b['POSIX']['union_time_lower'], 1.625)
near('bps.POSIX.union_time_upper', b['POSIX']['union_time_upper'], 1.75)
check('bps.POSIX.union_bounds_wide', b['POSIX']['union_bounds_wide'], True)
check('bps.STDIO.union_bounds_wide', b['STDIO']['union_bounds_wide'], False)
near('bps.POSIX.error_bound', b['POSIX']['error_bound'], 0.125)
near('bps.STDIO.blocks', b['STDIO']['blocks'], 100 / 512)
# files: the exact bytes of every name, through the documented mapping
def name_bytes(f):
    return bytes.fromhex(f['path_hex']) if 'path_hex' in f else f['path'].encode('utf-8')
want = {
    (b'/scratch/run/out.dat', 'POSIX'): (0, 1, 'unique', 0, 4088832),
    (b'/home dir/in put.dat', 'POSIX'): (-1, 4, 'shared', 10250, 200),
    (b'/scratch/run/bad\xff\xfe"q\\,x\n.dat', 'POSIX'): (2, 1, 'unique', 0, 12345),
    (b'/scratch/run/caf\xc3\xa9,"1".dat', 'POSIX'): (3, 1, 'unique', 777, 0),
    (b'/tmp/cfg\tfile.txt', 'STDIO'): (0, 1, 'unique', 300, 0),
    (b'/scratch/run/ckpt.dat', 'MPIIO'): (-1, 2, 'partshared', 0, 4194304),
}
files = d['files']
check('number of files', len(files), len(want))
for f in files:
    key = (name_bytes(f), f['layer'])
    got = (f['rank'], f['nranks'], f['sharing'], f['bytes_read'], f['bytes_written'])
    check('file %r' % (key,), got, want.get(key))
    # The fixture's records keep no detector steps: each is one run from
    # its first access, hence consecutive; STDIO keeps no detector at all.
    check('pattern of %r' % (key,), f['pattern'],
          'unknown' if f['layer'] == 'STDIO' else 'consecutive')
bad = [f for f in files if 'path_hex' in f]
check('only the invalid name has path_hex', len(bad), 1)
check('display form of the invalid name', bad[0]['path'],
      '/scratch/run/bad\ufffd\ufffd"q\\,x\n.dat')
check('path_hex is lowercase hex', bad[0]['path_hex'],
      b'/scratch/run/bad\xff\xfe"q\\,x\n.dat'.hex())
ins = [f for f in files if f['path'] == '/home dir/in put.dat'][0]
near('in put.dat slowest_rank_time', ins['slowest_rank_time'], 0.625)
near('in put.dat open_to_last_io', ins['open_to_last_io'], 1.7)
ck = [f for f in files if f['path'] == '/scratch/run/ckpt.dat'][0]
check('ckpt.dat pattern_params', ck['pattern_params'],
      {'accesses': 4, 'access_size': 1048576, 'stride': 0, 'inner_count': 0,
       'outer_stride': 0, 'outer_count': 0, 'regular_share': 1})
check('ckpt.dat nranks_io', ck['nranks_io'], 2)
check('in put.dat record_id', ins['record_id'], '2222222222222222')
PY

# --block-size reaches the bps object; several logs give JSON Lines.
"$IOLENS_PARSER" --json --block-size 4096 "$log" "$plain" >"$T/jsonl"
check_eq 0 "$?" "exit status of --json on two logs"
check_eq 2 "$(wc -l <"$T/jsonl")" "two logs, two lines"
py_check "$T/jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding='utf-8').read().splitlines()
a, b = (json.loads(l) for l in lines)
def check(what, got, want):
    print(('ok ' if got == want else 'FAIL ') + '%s: expected %r, got %r' % (what, want, got))
check('block size 4096', a['bps']['POSIX']['block_size'], 4096)
check('blocks of 4096', a['bps']['POSIX']['blocks'], 705)
check('second log has no intervals: no bps rows', b['bps'], {})
check('second log: 2 nodes', b['job']['nnodes'], 2)
check('second log: 4 files', len(b['files']), 4)
check('second log: no union time', b['perf']['union_mib_s'], None)
PY

# ----------------------------------------------------------------- csv --
"$IOLENS_PARSER" --csv "$log" >"$T/csv"
check_eq 0 "$?" "exit status of --csv"
py_check "$T/csv" <<'PY'
import csv, sys
with open(sys.argv[1], newline='', encoding='utf-8') as f:
    rows = list(csv.reader(f, strict=True))
def check(what, got, want):
    print(('ok ' if got == want else 'FAIL ') + '%s: expected %r, got %r' % (what, want, got))
header = rows[0]
check('csv columns', header[:10], ['layer', 'path', 'path_hex', 'record_id', 'rank', 'nranks',
                                   'sharing', 'pattern', 'access_size', 'stride'])
recs = [dict(zip(header, r)) for r in rows[1:]]
check('csv rows', len(recs), 6)
check('every row has every column', all(len(r) == len(header) for r in rows), True)
def name_bytes(r):
    return bytes.fromhex(r['path_hex']) if r['path_hex'] else r['path'].encode('utf-8')
by = {(name_bytes(r), r['layer']): r for r in recs}
bad = by.get((b'/scratch/run/bad\xff\xfe"q\\,x\n.dat', 'POSIX'))
check('invalid name found through path_hex', bad is not None, True)
if bad:
    check('its bytes_written', bad['bytes_written'], '12345')
    check('its rank', bad['rank'], '2')
    check('its time_write', bad['time_write'], '0.5')
cafe = by.get((b'/scratch/run/caf\xc3\xa9,"1".dat', 'POSIX'))
check('quoted UTF-8 name read back', cafe is not None, True)
if cafe:
    check('its bytes_read', cafe['bytes_read'], '777')
    check('its path_hex is empty', cafe['path_hex'], '')
ins = by[(b'/home dir/in put.dat', 'POSIX')]
check('in put.dat nranks', ins['nranks'], '4')
check('in put.dat sharing', ins['sharing'], 'shared')
check('in put.dat record_id', ins['record_id'], '2222222222222222')
ck = by[(b'/scratch/run/ckpt.dat', 'MPIIO')]
check('ckpt.dat bytes_written', ck['bytes_written'], '4194304')
check('ckpt.dat slowest_rank_time', ck['slowest_rank_time'], '0.5')
PY
check_eq 7 "$(grep -c "$(printf '\r')\$" "$T/csv")" "--csv ends its 7 lines with CRLF"

# ---------------------------------------------------------------- perf --
"$IOLENS_PARSER" --perf "$log" >"$T/perf"
check_eq 0 "$?" "exit status of --perf"
perf() { awk -F'\t' -v s="$1" -v m="$2" '$1 == s && $2 == m { print $3 }' "$T/perf"; }
check_eq 4112704 "$(perf job bytes)" "--perf job bytes"
check_eq 4101377 "$(perf POSIX bytes_written)" "--perf POSIX bytes_written"
check_eq 1.955000 "$(perf job slowest_time)" "--perf job slowest_time"
check_eq 0 "$(perf job unique_slowest_rank)" "--perf job unique_slowest_rank"
check_eq 2.006230 "$(perf job agg_mib_s)" "--perf job agg_mib_s (4112704 / 2^20 / 1.955)"
check_eq 0.501558 "$(perf job mib_s_per_cn)" "--perf job mib_s_per_cn"
check_eq 1.812500 "$(perf job union_time)" "--perf job union_time"
check_eq 1.750000 "$(perf job union_time_lower)" "--perf job union_time_lower"
check_eq 1.875000 "$(perf job union_time_upper)" "--perf job union_time_upper"
check_eq wide "$(perf job union_bounds)" "--perf job union_bounds (6.9% of T apart)"
check_eq tight "$(perf STDIO union_bounds)" "--perf STDIO union_bounds"
check_eq - "$(perf MPIIO union_mib_s)" "--perf undefined figure"
check_eq "" "$(perf H5F bytes)" "--perf leaves out absent layers"
check_eq "# perf compute nodes: 4" "$(grep '^# perf compute nodes' "$T/perf")" "--perf nodes line"

# ------------------------------------------------------------- summary --
# A batch with every kind of bad log: their one line each, the good rows
# still printed, exit status 2.
size=$(wc -c <"$plain")
printf 'not a log at all\n' >"$T/text.iolens"
head -c $((size - 1)) "$plain" >"$T/trunc.iolens"
cp "$plain" "$T/crc.iolens"
printf 'X' | dd of="$T/crc.iolens" bs=1 seek=$((size - 5)) conv=notrunc 2>/dev/null
cp "$plain" "$T/newer.iolens"
printf '\004\000\000\000' | dd of="$T/newer.iolens" bs=1 seek=8 conv=notrunc 2>/dev/null
"$IOLENS_PARSER" --summary "$log" "$T/text.iolens" "$T/trunc.iolens" "$plain" \
    "$T/crc.iolens" "$T/newer.iolens" >"$T/sum" 2>"$T/err"
check_eq 2 "$?" "exit status of --summary with bad logs"
check_eq 3 "$(wc -l <"$T/sum")" "--summary: header and the two good rows"
check_eq 4 "$(wc -l <"$T/err")" "--summary: one stderr line per bad log"
for bad in text trunc crc newer; do
    check_eq 1 "$(grep -c "^iolens-parser: $T/$bad.iolens: " "$T/err")" "error line of $bad"
done
grep -q "$T/text.iolens: not an iolens log" "$T/err" || fail "reason for the text file"
grep -q "$T/newer.iolens: unsupported format version 4" "$T/err" || fail "reason for the newer log"
grep -q "$T/crc.iolens: CRC mismatch" "$T/err" || fail "reason for the CRC mismatch"
grep -q "$T/trunc.iolens: truncated" "$T/err" || fail "reason for the truncated log"
py_check "$T/sum" "$log" "$plain" <<'PY'
import sys
lines = open(sys.argv[1], encoding='utf-8').read().splitlines()
def check(what, got, want):
    print(('ok ' if got == want else 'FAIL ') + '%s: expected %r, got %r' % (what, want, got))
cols = [c.strip('<>') for c in lines[0].lstrip('#').split('\t')]
check('summary columns', cols, ['log', 'exe', 'jobid', 'nprocs', 'nnodes', 'runtime', 'bytes',
                                'agg_mib_s', 'mib_s_per_cn', 'union_mib_s', 'bps', 'bps_layer',
                                'sharing', 'source'])
a, b = (dict(zip(cols, l.split('\t'))) for l in lines[1:])
check('row 1 log', a['log'], sys.argv[2])
check('row 1 exe', a['exe'], '/opt/app/bin/sim')
check('row 1 jobid', a['jobid'], '4242')
check('row 1 nprocs', a['nprocs'], '4')
check('row 1 nnodes', a['nnodes'], '4')
check('row 1 runtime', a['runtime'], '3.500000')
check('row 1 bytes', a['bytes'], '4112704')
check('row 1 agg_mib_s', a['agg_mib_s'], '2.006230')
check('row 1 mib_s_per_cn', a['mib_s_per_cn'], '0.501558')
check('row 1 bps', a['bps'], '%.6f' % (5640 / 1.6875))
check('row 1 bps_layer', a['bps_layer'], 'POSIX')
check('row 1 sharing', a['sharing'], 'rank-0')
check('row 1 source', a['source'], 'iolens 3')
check('row 2 log', b['log'], sys.argv[3])
check('row 2 nnodes', b['nnodes'], '2')
check('row 2 bytes', b['bytes'], str(4088832 + 10250 + 200 + 300))
check('row 2 without intervals: bps', (b['bps'], b['bps_layer'], b['union_mib_s']), ('-', '-', '-'))
PY

# A bad log among --json and --csv logs: the good ones are still written.
"$IOLENS_PARSER" --json "$T/crc.iolens" "$plain" >"$T/out" 2>"$T/err"
check_eq 2 "$?" "exit status of --json with a bad log"
check_eq 1 "$(wc -l <"$T/out")" "--json still writes the good log"
check_eq 1 "$(wc -l <"$T/err")" "--json: one error line"
python3 -c 'import json,sys; json.loads(open(sys.argv[1]).read())' "$T/out" ||
    fail "the good log's JSON after a bad log does not parse"
"$IOLENS_PARSER" --csv "$plain" "$T/newer.iolens" >"$T/out" 2>"$T/err"
check_eq 2 "$?" "exit status of --csv with a bad log"
check_eq 5 "$(wc -l <"$T/out")" "--csv still writes the good log's header and 4 rows"

finish
