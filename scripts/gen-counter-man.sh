#!/bin/sh
# Regenerates the counter list of man/iolens-log.5 from the X-macro tables
# in include/iolens/log_format.h, so the page can never lag the format.
# It replaces everything between the BEGIN/END GENERATED COUNTERS comments.
#
#   scripts/gen-counter-man.sh [SRCDIR]     (default: the tree holding this script)
set -eu

SRC=${1:-$(cd "$(dirname "$0")/.." && pwd)}
PAGE=$SRC/man/iolens-log.5
HEADER=$SRC/include/iolens/log_format.h
CPP=${CPP:-cpp}
BEGIN='.\" BEGIN GENERATED COUNTERS'
END='.\" END GENERATED COUNTERS'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each X(name, agg, "description") becomes one line "name<TAB>description";
# a description pasted from adjacent literals ("first" " most common ...",
# IOLENS_H5D_ACCESS_SHAPE, the size bins) is joined into one.  The sections
# come from the layer table, IOLENS_LAYERS: an integer and a floating-point
# section per layer, in table order.
cat >"$tmp/counters.c" <<'C'
#include "iolens/log_format.h"
#define ROW(name, agg, desc) @ROW@ name @TAB@ desc
#define SECTIONS(NAME, lower, KIND, VERSION, COUNTERS, FCOUNTERS, ROLES, DATA, BASE) \
    @SECTION@ NAME @TAB@ int COUNTERS(ROW) @SECTION@ NAME @TAB@ float FCOUNTERS(ROW)
IOLENS_LAYERS(SECTIONS)
C
"$CPP" -P -I"$SRC/include" "$tmp/counters.c" |
    sed -e 's/@ROW@/\n@ROW@/g' -e 's/@SECTION@/\n@SECTION@/g' |
    sed -e '/^@ROW@/s/" *"//g' |
    sed -n -e 's/^@ROW@ *\([A-Z0-9_]*\) *@TAB@ *"\(.*\)" *$/\1\t\2/p' \
        -e 's/^@SECTION@ *\([A-Z0-9_]*\) *@TAB@ *\([a-z]*\) *$/@SECTION@\t\1\t\2/p' >"$tmp/rows"

# Sanity: every counter named literally in the header must have come
# through (the sharing, pattern and size-bin counters are built by token
# pasting, so they are checked against the page by
# tests/integration/test_counter_docs.sh).  A counter name has a "_"; the
# layer table's rows (X(POSIX, posix, ...)) have none.
expected=$(sed -n 's/^ *X(\([A-Z][A-Z0-9]*_[A-Z0-9_]*\),.*/\1/p' "$HEADER" | sort)
got=$(grep -v '^@SECTION@' "$tmp/rows" | cut -f1 | sort)
for name in $expected; do
    if ! printf '%s\n' "$got" | grep -qxF "$name"; then
        echo "gen-counter-man: $name missing from the cpp output" >&2
        exit 1
    fi
done
expected=$got

awk -F '\t' '
function title(layer, type) {
    if (type == "int") return layer " integer counters"
    return layer " floating-point counters (seconds)"
}
$1 == "@SECTION@" { printf ".SS \"%s\"\n", title($2, $3); next }
{
    desc = $2
    gsub(/\\/, "\\e", desc)   # a literal backslash prints as \e in groff
    # \& in front: a description starting with . or '\'' is not a request.
    printf ".TP\n.B %s\n\\&%s\n", $1, desc
}' "$tmp/rows" >"$tmp/generated"

if ! grep -qxF "$BEGIN" "$PAGE" || ! grep -qxF "$END" "$PAGE"; then
    echo "gen-counter-man: $PAGE lacks the GENERATED COUNTERS markers" >&2
    exit 1
fi
# The markers go through the environment: awk -v would eat their backslash.
BEGIN_MARK=$BEGIN END_MARK=$END GENERATED=$tmp/generated awk '
$0 == ENVIRON["BEGIN_MARK"] {
    print
    while ((getline line < ENVIRON["GENERATED"]) > 0) print line
    skip = 1
    next
}
$0 == ENVIRON["END_MARK"] { skip = 0 }
!skip' "$PAGE" >"$tmp/page"
for name in $expected; do
    if ! grep -qxF ".B $name" "$tmp/page"; then
        echo "gen-counter-man: $name did not reach the page" >&2
        exit 1
    fi
done

if cmp -s "$tmp/page" "$PAGE"; then
    echo "gen-counter-man: $PAGE is up to date"
else
    cat "$tmp/page" >"$PAGE"
    echo "gen-counter-man: updated $PAGE ($(grep -vc '^@SECTION@' "$tmp/rows") counters)"
fi
