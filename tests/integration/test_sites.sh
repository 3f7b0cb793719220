#!/bin/sh
# Call sites (iolens-parser --sites): a program built with -g writes
# through pwrite and fwrite from tagged lines of two source files.  The
# log's sites must have the exact bytes and calls of each line, their
# offsets must be those lines (addr2line, from binutils, is the oracle),
# and with the libdw resolver the parser names function (file:line)
# itself.  A stripped copy falls back to module+0xOFFSET and the hint, a
# rebuilt binary (another build-id) is reported as changed, ten sites keep
# the top 4 and an exact other bucket, and IOLENS_DISABLE_SITES=1 keeps
# none.  The same sites in --sites --csv's columns, in the advice (the
# site with the most calls of the file it names) and in iolens-report's
# page, where a source path full of markup is escaped.
. "$(dirname "$0")/common.sh"
iolens_setup
if [ -z "${IOLENS_CC:-}" ] || ! command -v addr2line >/dev/null 2>&1; then
    echo "SKIP: needs \$IOLENS_CC and addr2line"
    exit 77
fi
SRC=$IOLENS_SRCDIR/tests/integration
REPORT=${IOLENS_BUILDDIR:-.}/iolens-report
build_from() { # DIR CC-ARGS...: prog_sites from the sources in DIR
    dir=$1
    shift
    # -O0: each tagged line keeps its own call.
    $IOLENS_CC -g -O0 "$@" -I"$dir" "$dir/prog_sites_main.c" "$dir/prog_sites_io.c" ||
        { echo "FAIL: cannot build prog_sites"; exit 1; }
}
build() { build_from "$SRC" "$@"; }
build -o "$T/prog"
build -DVARIANT -o "$T/prog_variant"
cp "$T/prog" "$T/prog_stripped" && strip "$T/prog_stripped" || fail "strip"

line_of() { # TAG FILE: the line number of "SITE TAG" in FILE
    grep -n "SITE $1 \*/" "$SRC/$2" | cut -d: -f1
}

# sites LOG LAYER FILE: "bytes ops site" of FILE's record, as --sites prints
sites() {
    "$IOLENS_PARSER" --sites "$1" | awk -F'\t' -v l="$2" -v f="$3" \
        '$1 == l && $7 == f { print $3, $4, $6 }'
}

# where PROG SITE: file:line of a module+0xOFFSET site per addr2line (the
# call instruction lies before the return address: OFFSET - 1).
where() {
    off=${2##*+0x}
    addr2line -e "$1" "$(printf '0x%x' $((0x$off - 1)))" | sed 's/ (discriminator.*//; s|.*/||'
}

log=$T/sites.iolens
run_traced "$log" "$T/prog" "$T/a.dat" "$T/b.txt" || fail "traced prog_sites exited with $?"
require_log "$log"
"$IOLENS_PARSER" --sites "$log" >"$T/sites.out" || fail "--sites exited with $?"

a=$(sites "$log" POSIX "$T/a.dat")
check_eq 2 "$(echo "$a" | wc -l)" "sites of a.dat"
check_eq "300 3" "$(echo "$a" | sed -n 1p | cut -d' ' -f1-2)" "first site of a.dat: bytes, calls"
check_eq "200 5" "$(echo "$a" | sed -n 2p | cut -d' ' -f1-2)" "second site of a.dat: bytes, calls"
b=$(sites "$log" STDIO "$T/b.txt")
check_eq "14 2" "$(echo "$b" | cut -d' ' -f1-2)" "the fwrite site of b.txt: bytes, calls"
# The sites' calls and bytes are the record's.
expect_counters "$log" "$T/a.dat" <<END
POSIX_WRITES 8
POSIX_BYTES_WRITTEN 500
END

header=prog_sites_main.c:$(line_of header prog_sites_main.c)
body=prog_sites_io.c:$(line_of body prog_sites_io.c)
text=prog_sites_io.c:$(line_of text prog_sites_io.c)
site1=$(echo "$a" | sed -n 1p | cut -d' ' -f3-)
site2=$(echo "$a" | sed -n 2p | cut -d' ' -f3-)
site3=$(echo "$b" | cut -d' ' -f3-)
case $site1 in
*"+0x"*)
    # No lines from the parser (a resolver without libdw): the offsets
    # are still checked, through addr2line.
    echo "note: --sites printed no lines; offsets checked with addr2line only"
    resolved=0
    check_eq "$header" "$(where "$T/prog" "$site1")" "line of the first site of a.dat"
    check_eq "$body" "$(where "$T/prog" "$site2")" "line of the second site of a.dat"
    check_eq "$text" "$(where "$T/prog" "$site3")" "line of the fwrite site"
    check_eq "$T/prog" "${site1%+0x*}" "module of the first site"
    grep -q '^# no line for some sites: build with -g, or give --debug-dir DIR' "$T/sites.out" ||
        fail "the hint on getting lines"
    ;;
*)
    resolved=1
    check_eq "write_header ($header)" "$(echo "$site1" | sed 's|(.*/|(|')" "first site of a.dat"
    check_eq "write_body ($body)" "$(echo "$site2" | sed 's|(.*/|(|')" "second site of a.dat"
    check_eq "write_text ($text)" "$(echo "$site3" | sed 's|(.*/|(|')" "the fwrite site"
    ;;
esac

# --json carries the same sites, with the build-id readelf reads in the
# program.
if command -v python3 >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1; then
    bid=$(readelf -n "$T/prog" | sed -n 's/.*Build ID: *//p')
    "$IOLENS_PARSER" --json "$log" | python3 -c '
import json, sys
for f in json.load(sys.stdin)["files"]:
    for s in f["sites"]:
        print(f["layer"], f["path"], s["module"], s["build_id"], s["bytes"], s["ops"], hex(s["offset"]))
' >"$T/json_sites" || fail "--json exited with $?"
    check_eq "POSIX $T/a.dat $T/prog $bid 300 3
POSIX $T/a.dat $T/prog $bid 200 5
STDIO $T/b.txt $T/prog $bid 14 2" "$(cut -d' ' -f1-6 "$T/json_sites")" "--json sites"
    check_eq "$header" "$(where "$T/prog" "x+$(sed -n 1p "$T/json_sites" | cut -d' ' -f7)")" \
        "line of --json's first site"
fi

# --sites --csv: the same sites, a column each.  The oracles: the
# program's own tagged lines, readelf's build-id and addr2line's line for
# the offset column.
# csv_sites LOG [OPTION...]: "layer|path|site|module|build_id|offset|
# function|source file's name|line|status|bytes|ops" per row.
csv_sites() {
    csv_log=$1
    shift
    "$IOLENS_PARSER" --sites --csv "$@" "$csv_log" >"$T/sites.csv" 2>"$T/sites.csv.err" ||
        fail "--sites --csv exited with $?"
    python3 -c '
import csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for r in rows:
    src = os.path.basename(r["source_file"]) if r["source_file"] else ""
    print("|".join([r["layer"], r["path"], r["site"], r["module"], r["build_id"], r["offset"],
                    r["function"], src, r["line"], r["status"], r["bytes"], r["ops"]]))
' "$T/sites.csv"
}
# field N of a csv_sites row
fld() { echo "$1" | cut -d'|' -f"$2"; }
if command -v python3 >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1; then
    csv_sites "$log" >"$T/csv_rows"
    check_eq "layer,path,path_hex,record_id,rank,site,module,build_id,offset,function,source_file,line,status,bytes,ops,time" \
        "$(head -1 "$T/sites.csv" | tr -d '\r')" "--sites --csv header"
    check_eq "$(wc -l <"$T/sites.csv")" "$(grep -c "$(printf '\r')\$" "$T/sites.csv")" \
        "--sites --csv: every line ends in CRLF"
    check_eq 3 "$(wc -l <"$T/csv_rows")" "--sites --csv rows"
    r1=$(sed -n 1p "$T/csv_rows")
    r2=$(sed -n 2p "$T/csv_rows")
    r3=$(sed -n 3p "$T/csv_rows")
    if [ "$resolved" = 1 ]; then
        check_eq "POSIX|$T/a.dat|1|$T/prog|$bid|write_header|${header%:*}|${header#*:}|resolved|300|3" \
            "$(echo "$r1" | cut -d'|' -f1-5,7-)" "--sites --csv: first site of a.dat"
        check_eq "POSIX|$T/a.dat|2|$T/prog|$bid|write_body|${body%:*}|${body#*:}|resolved|200|5" \
            "$(echo "$r2" | cut -d'|' -f1-5,7-)" "--sites --csv: second site of a.dat"
        check_eq "STDIO|$T/b.txt|1|$T/prog|$bid|write_text|${text%:*}|${text#*:}|resolved|14|2" \
            "$(echo "$r3" | cut -d'|' -f1-5,7-)" "--sites --csv: the fwrite site"
        check_eq "" "$(cat "$T/sites.csv.err")" "--sites --csv: no note when every site has a line"
    else
        check_eq "POSIX|$T/a.dat|1|$T/prog|$bid||||no_debug|300|3" \
            "$(echo "$r1" | cut -d'|' -f1-5,7-)" "--sites --csv: first site of a.dat"
    fi
    check_eq "$header" "$(where "$T/prog" "x+$(fld "$r1" 6)")" "--sites --csv: line of the offset of site 1"
    check_eq "$body" "$(where "$T/prog" "x+$(fld "$r2" 6)")" "--sites --csv: line of the offset of site 2"
    check_eq "$text" "$(where "$T/prog" "x+$(fld "$r3" 6)")" "--sites --csv: line of the offset of site 3"
fi

# The advice names the site behind the file it names: of a.dat's sites
# the one with the most calls (write_body's 5, not write_header's 3 with
# more bytes).  min_ops=1: the program's 8 writes are too few otherwise.
advice_small() { # LOG: SMALL_ACCESSES' evidence line
    "$IOLENS_PARSER" --advice --advice-thresholds min_ops=1 "$1" |
        awk '$1 == "FINDING" { f = ($2 == "SMALL_ACCESSES") } f && /^evidence: / { print; exit }'
}
small_head="evidence: 8 of 8 POSIX reads and writes (100.0%) were of at most 102400 bytes, in 1 files; most in $T/a.dat (8, most common size 40 bytes)"
adv=$(advice_small "$log")
if [ "$resolved" = 1 ]; then
    check_eq "$small_head; most from write_body ($body): 5 calls, 200 bytes" \
        "$(echo "$adv" | sed 's|(/.*/|(|')" "advice names the site with the most calls"
else
    case $adv in
    "$small_head; most from $T/prog+0x"*": 5 calls, 200 bytes") pass ;;
    *) fail "advice names the site: $adv" ;;
    esac
fi

# --json's advice carries the same site, unresolved.
if command -v python3 >/dev/null 2>&1; then
    jsite=$("$IOLENS_PARSER" --json --advice-thresholds min_ops=1 "$log" | python3 -c '
import json, sys
for a in json.load(sys.stdin)["advice"]:
    if a["code"] == "SMALL_ACCESSES":
        s = a["site"]
        print(s["module"], s["ops"], s["bytes"], hex(s["offset"]))
')
    check_eq "$T/prog 5 200" "${jsite% *}" "--json advice site: module, calls, bytes"
    check_eq "$body" "$(where "$T/prog" "x+${jsite##* }")" "--json advice site's line"
fi

# The page: the sites table has a row per site of the busiest files.
if [ -x "$REPORT" ]; then
    "$REPORT" "$log" -o "$T/sites.html" || fail "iolens-report exited with $?"
    # site_rows PAGE: "status|file|layer|site|bytes|calls" per row
    site_rows() {
        sed -n 's|^<tr class="site" data-status="\([a-z_]*\)"><td class="name">\([^<]*\)</td><td>\([A-Z0-9]*\)</td><td class="n">[-0-9]*</td><td class="name">\([^<]*\)</td><td class="n">\([0-9]*\)</td><td class="n">\([0-9]*\)</td>.*|\1\|\2\|\3\|\4\|\5\|\6|p' "$1"
    }
    if [ "$resolved" = 1 ]; then
        check_eq "resolved|$T/a.dat|POSIX|write_header ($header)|300|3
resolved|$T/a.dat|POSIX|write_body ($body)|200|5
resolved|$T/b.txt|STDIO|write_text ($text)|14|2" \
            "$(site_rows "$T/sites.html" | grep -v "|$T/b.txt|POSIX|" | sed 's|(/.*/|(|')" \
            "the page's site rows"
    fi
    # and the advice table names the same site as --advice
    "$REPORT" --advice-thresholds min_ops=1 "$log" -o "$T/advice.html" ||
        fail "iolens-report --advice-thresholds exited with $?"
    if [ "$resolved" = 1 ]; then
        check_eq 1 "$(sed -n '/^<tr class="finding" data-code="SMALL_ACCESSES">/p' "$T/advice.html" |
            grep -c "; most from write_body (/[^<]*/$body): 5 calls, 200 bytes</td>")" \
            "the page's advice names the site"
    fi
fi

# Stripped: module+0xOFFSET at the same offsets, and one hint line.
slog=$T/stripped.iolens
run_traced "$slog" "$T/prog_stripped" "$T/a.dat" "$T/b.txt" || fail "stripped run exited with $?"
require_log "$slog"
s1=$(sites "$slog" POSIX "$T/a.dat" | sed -n 1p)
check_eq "300 3 $T/prog_stripped+0x" "$(echo "$s1" | sed 's/0x[0-9a-f]*$/0x/')" \
    "first site of the stripped program"
# strip keeps the code where it was: the unstripped program's lines apply.
check_eq "$header" "$(where "$T/prog" "$s1")" "line of the stripped program's first site"
check_eq 1 "$("$IOLENS_PARSER" --sites "$slog" | grep -c '^# no line for some sites: build with -g, or give --debug-dir DIR with separate debug files$')" \
    "hint lines for the stripped program"
if command -v python3 >/dev/null 2>&1; then
    sr1=$(csv_sites "$slog" | sed -n 1p)
    check_eq "POSIX|$T/a.dat|1|$T/prog_stripped||||no_debug|300|3" \
        "$(echo "$sr1" | cut -d'|' -f1-4,7-)" "--sites --csv of the stripped program"
    check_eq "$header" "$(where "$T/prog" "x+$(fld "$sr1" 6)")" \
        "--sites --csv: line of the stripped program's offset"
    check_eq "iolens-parser: $slog: no line for some sites: build with -g, or give --debug-dir DIR with separate debug files" \
        "$(cat "$T/sites.csv.err")" "--sites --csv: the hint on standard error"
fi
sadv=$(advice_small "$slog")
case $sadv in
"$small_head; most from $T/prog_stripped+0x"*": 5 calls, 200 bytes")
    soff=${sadv##*+0x}
    check_eq "$body" "$(where "$T/prog" "x+0x${soff%%:*}")" "the stripped advice site's line" ;;
*) fail "advice of the stripped program: $sadv" ;;
esac
if [ -x "$REPORT" ]; then
    "$REPORT" "$slog" -o "$T/stripped.html" || fail "iolens-report on the stripped log exited with $?"
    check_eq "no_debug|$T/a.dat|POSIX|$T/prog_stripped+0x|300|3" \
        "$(site_rows "$T/stripped.html" | sed -n 1p | sed 's/+0x[0-9a-f]*|/+0x|/')" \
        "the page's first site of the stripped program"
    check_eq 1 "$(grep -c '<p id="sites-hint" class="note">Some sites have no source line: build the program with -g' "$T/stripped.html")" \
        "the page's hint for the stripped program"
fi

# Rebuilt: the same path now holds a program with another build-id.
clog=$T/changed.iolens
cp "$T/prog" "$T/prog_rebuilt"
run_traced "$clog" "$T/prog_rebuilt" "$T/a.dat" "$T/b.txt" || fail "run before the rebuild exited with $?"
require_log "$clog"
cp "$T/prog_variant" "$T/prog_rebuilt"
c1=$(sites "$clog" POSIX "$T/a.dat" | sed -n 1p)
if [ "$resolved" = 1 ]; then
    check_eq "300 3 $T/prog_rebuilt+0x [changed since the run: build-id differs]" \
        "$(echo "$c1" | sed 's/0x[0-9a-f]* /0x /')" "site of a rebuilt program"
    check_eq "$header" "$(where "$T/prog" "${c1% \[*}")" "line of the rebuilt program's site"
    if command -v python3 >/dev/null 2>&1 && [ -n "${bid:-}" ]; then
        check_eq "POSIX|$T/a.dat|1|$T/prog_rebuilt|$bid||||changed|300|3" \
            "$(csv_sites "$clog" | sed -n 1p | cut -d'|' -f1-5,7-)" "--sites --csv of a rebuilt program"
        grep -q 'a module changed since the run (its build-id differs)' "$T/sites.csv.err" ||
            fail "--sites --csv's note on the rebuilt program"
    fi
else
    echo "note: the resolver tells no build-id change; the rebuilt case is not checked"
fi

# Ten sites: the 4 with the most bytes, then every other one together.
mlog=$T/many.iolens
run_traced "$mlog" "$T/prog" many "$T/m.dat" || fail "many exited with $?"
require_log "$mlog"
m=$(sites "$mlog" POSIX "$T/m.dat")
check_eq "1000 1
900 1
800 1
700 1
2100 6" "$(echo "$m" | cut -d' ' -f1-2)" "top 4 sites and the other bucket: bytes, calls"
check_eq "<other sites>" "$(echo "$m" | sed -n 5p | cut -d' ' -f3-)" "the fifth line is the other bucket"
if command -v python3 >/dev/null 2>&1; then
    check_eq "POSIX|$T/m.dat|5|||||||other|2100|6" "$(csv_sites "$mlog" | sed -n 5p)" \
        "--sites --csv: the other bucket"
fi
for k in 0 1 2 3; do
    s=$(echo "$m" | sed -n "$((k + 1))p" | cut -d' ' -f3-)
    want=prog_sites_main.c:$(line_of many$k prog_sites_main.c)
    if [ "$resolved" = 1 ]; then
        check_eq "write_many ($want)" "$(echo "$s" | sed 's|(.*/|(|')" "site $k of many"
    else
        check_eq "$want" "$(where "$T/prog" "$s")" "line of site $k of many"
    fi
done
expect_counters "$mlog" "$T/m.dat" <<END
POSIX_WRITES 10
POSIX_BYTES_WRITTEN 5500
END

# iolens-anonymize keeps the sites (every log has them): the same figures
# and offsets, the module's path hashed like a file's and its build-id
# replaced (it names the exact program), the record ids those of the
# anonymized records.  It used to refuse every log with a sites region.
ANON=$IOLENS_BUILDDIR/iolens-anonymize
if [ -x "$ANON" ] && command -v python3 >/dev/null 2>&1 && [ -n "${bid:-}" ]; then
    printf 'a secret key for the sites test.\n' >"$T/key"
    "$ANON" --key-file "$T/key" "$T/sites.iolens" "$T/anon.iolens" 2>"$T/anon.err"
    check_eq 0 "$?" "iolens-anonymize of a log with sites"
    check_eq "" "$(cat "$T/anon.err")" "stderr of iolens-anonymize"
    "$IOLENS_PARSER" --sites --csv "$T/sites.iolens" >"$T/in.csv"
    "$IOLENS_PARSER" --sites --csv "$T/anon.iolens" >"$T/anon.csv" ||
        fail "--sites --csv of the anonymized log exited with $?"
    "$IOLENS_PARSER" --base "$T/anon.iolens" >"$T/anon.base"
    python3 - "$T/in.csv" "$T/anon.csv" "$T/anon.base" "$T/prog" "$bid" >"$T/anon.check" <<'PY'
import csv, sys
rows = lambda p: list(csv.DictReader(open(p, newline="")))
a, b = rows(sys.argv[1]), rows(sys.argv[2])
prog, bid = sys.argv[4], sys.argv[5]
ids = {int(l.split("\t")[2]) for l in open(sys.argv[3]) if not l.startswith("#")}
mine = [(x, y) for x, y in zip(a, b) if x["module"] == prog]
print(len(a) == len(b), len(mine))
print(all((x["layer"], x["bytes"], x["ops"], x["offset"]) == (y["layer"], y["bytes"], y["ops"], y["offset"])
          for x, y in zip(a, b)))
print(all(y["module"] != prog and "prog" not in y["module"] and y["module"].count("/") == prog.count("/")
          and y["build_id"] != bid and len(y["build_id"]) == len(bid) for x, y in mine))
print(all(int(y["record_id"], 16) in ids for y in b),
      any(int(x["record_id"], 16) in ids for x in a if int(x["record_id"], 16) > 15))
PY
    check_eq "True 3
True
True
True False" "$(cat "$T/anon.check")" \
        "anonymized sites: rows; figures and offsets; the program's module hashed and build-id replaced; record ids"
    python3 - "$T/anon.iolens" >"$T/anon.raw" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
count = struct.unpack_from("<I", data, 28)[0]
for i in range(count):
    kind, ver, off, stored, raw, crc, comp = struct.unpack_from("<IIQQQII", data, 40 + 40 * i)
    sys.stdout.buffer.write(zlib.decompress(data[off:off + stored]))
PY
    check_eq 0 "$(grep -c -a -F "$(basename "$T")" "$T/anon.raw")" \
        "the test directory's name in the anonymized log's regions"
    check_eq 0 "$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(bytes.fromhex(sys.argv[2])))' \
        "$T/anon.raw" "$bid")" "the program's build-id in the anonymized log's regions"
fi

# The top site comes late: four one-off lines fill the kept slots, a fifth
# one-off (late4) takes the smallest one's, and a loop of 1000 16-byte
# writes from a sixth line waits, then takes a slot at its second call.
# late0, pushed out to other by the loop, writes 1000 bytes at the end:
# it is not listed, as its first call is in other (its figures would not
# be all of its calls).  Before the waiting slot, the loop's 16000 bytes
# were in other and the four 10 to 40-byte lines were listed.
llog=$T/late.iolens
run_traced "$llog" "$T/prog" late "$T/l.dat" || fail "late exited with $?"
require_log "$llog"
l=$(sites "$llog" POSIX "$T/l.dat")
check_eq "16000 1000
50 1
40 1
30 1
1030 3" "$(echo "$l" | cut -d' ' -f1-2)" "a late top site: bytes, calls"
for k in loop:1 late4:2 late3:3 late2:4; do
    s=$(echo "$l" | sed -n "${k#*:}p" | cut -d' ' -f3-)
    want=prog_sites_main.c:$(line_of "${k%:*}" prog_sites_main.c)
    if [ "$resolved" = 1 ]; then
        check_eq "write_late ($want)" "$(echo "$s" | sed 's|(.*/|(|')" "late site ${k%:*}"
    else
        check_eq "$want" "$(where "$T/prog" "$s")" "line of late site ${k%:*}"
    fi
done
expect_counters "$llog" "$T/l.dat" <<END
POSIX_WRITES 1006
POSIX_BYTES_WRITTEN 17150
END

# A source directory and a program path with markup and a comma in them:
# the page escapes them, --sites --csv quotes them.
if [ -x "$REPORT" ] && [ "$resolved" = 1 ] && command -v python3 >/dev/null 2>&1; then
    hdir="$T/s,rc&<b>x"
    mkdir -p "$hdir"
    cp "$SRC/prog_sites_main.c" "$SRC/prog_sites_io.c" "$SRC/prog_sites.h" "$hdir/"
    build_from "$hdir" -o "$hdir/prog"
    hlog=$T/hostile.iolens
    run_traced "$hlog" "$hdir/prog" "$T/a.dat" "$T/b.txt" || fail "hostile prog exited with $?"
    require_log "$hlog"
    "$REPORT" "$hlog" -o "$T/hostile.html" || fail "iolens-report on the hostile log exited with $?"
    check_eq 0 "$(grep -c '<b>' "$T/hostile.html")" "no raw markup from the source path"
    check_eq "resolved|$T/a.dat|POSIX|write_header ($T/s,rc&amp;&lt;b&gt;x/$header)|300|3" \
        "$(site_rows "$T/hostile.html" | sed -n 1p)" "the page's escaped source path"
    check_eq ok "$(python3 "$SRC/check_report_html.py" structure "$T/hostile.html")" \
        "the hostile page's structure"
    hr1=$(csv_sites "$hlog" | sed -n 1p)
    check_eq "POSIX|$T/a.dat|1|$hdir/prog|write_header|${header%:*}|${header#*:}|resolved|300|3" \
        "$(echo "$hr1" | cut -d'|' -f1-4,7-)" "--sites --csv with a comma in the paths"
    check_eq "$hdir/${header%:*}" \
        "$(python3 -c 'import csv,sys; print(list(csv.DictReader(open(sys.argv[1], newline="")))[0]["source_file"])' "$T/sites.csv")" \
        "--sites --csv: the whole source path"
fi

# Off: no sites at all.
olog=$T/off.iolens
run_traced "$olog" IOLENS_DISABLE_SITES=1 "$T/prog" "$T/a.dat" "$T/b.txt" ||
    fail "run with sites off exited with $?"
require_log "$olog"
check_eq "" "$(sites "$olog" POSIX "$T/a.dat")" "sites with IOLENS_DISABLE_SITES=1"
"$IOLENS_PARSER" --sites "$olog" | grep -q '^# no call sites in this log' ||
    fail "--sites says the log has no sites"
if command -v python3 >/dev/null 2>&1; then
    check_eq "" "$(csv_sites "$olog")" "--sites --csv rows with IOLENS_DISABLE_SITES=1"
    check_eq "iolens-parser: $olog: no call sites in this log (written with IOLENS_DISABLE_SITES=1, or by an iolens without them)" \
        "$(cat "$T/sites.csv.err")" "--sites --csv's note on a log without sites"
fi

# Usage errors: exit 1, one line saying why, nothing on stdout.
usage_error() { # MESSAGE ARG...
    msg=$1
    shift
    "$IOLENS_PARSER" "$@" >"$T/out" 2>"$T/err"
    check_eq 1 "$?" "exit status of iolens-parser $*"
    check_eq 0 "$(wc -c <"$T/out")" "stdout of iolens-parser $*"
    check_eq "iolens-parser: $msg" "$(head -1 "$T/err")" "message of iolens-parser $*"
}
usage_error "--debug-dir goes with --sites or --advice" --csv --debug-dir "$T" "$log"
usage_error "give at most one of --base, --total, --file, --stack, --bps, --timeseries, --perf, --patterns, --json, --csv, --summary, --advice, --sites, --list-counters" \
    --sites --csv --json "$log"
"$IOLENS_PARSER" --advice --debug-dir "$T" "$log" >/dev/null || fail "--advice --debug-dir exited with $?"
"$IOLENS_PARSER" --csv --sites --debug-dir "$T" "$log" >"$T/out2" || fail "--csv --sites exited with $?"
check_eq "$("$IOLENS_PARSER" --sites --csv "$log" 2>/dev/null)" \
    "$(cat "$T/out2")" "--csv --sites in either order"
finish
