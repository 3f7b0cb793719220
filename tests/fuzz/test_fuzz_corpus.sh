#!/bin/sh
# Replays the fuzz corpus (tests/fuzz/corpus: a valid log from
# make_test_log plus truncated and bit-flipped copies, a text file, two
# Darshan logs and the hostile logs of make_hostile_log: make-corpus.sh
# lists them)
# through the fuzz target, then 5000 deterministic mutations of it, half
# of them structure-aware (damage inside a region with every CRC fixed).
# The target must survive all of them, and the streaming reader (on a
# second thread, from a file) must give each the whole-log reader's verdict
# and message; under make check-sanitize that includes ASan and UBSan.  The verdict counts show that the mutations
# got past the CRCs into the region parsers.
. "$(dirname "$0")/../integration/common.sh"

for var in IOLENS_TESTBIN IOLENS_SRCDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
bin=$IOLENS_TESTBIN/fuzz/fuzz_reader
corpus=$IOLENS_SRCDIR/tests/fuzz/corpus
[ -x "$bin" ] || { fail "$bin was not built"; finish; }
# A mutation of big-regions.iolens may claim less and still be read: a
# 64 MiB limit keeps each such input to a fraction of a second.
IOLENS_MAX_LOG_SIZE=64M
export IOLENS_MAX_LOG_SIZE

# Value of KEY=N in the driver's summary line.
verdict() {
    echo "$summary" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

if summary=$("$bin" "$corpus"); then
    pass
else
    fail "the corpus crashed the reader (status $?)"
fi
echo "corpus:    $summary"
check_eq 18 "$(verdict inputs)" "corpus inputs"
# valid, shared-ids, huge-nprocs and extreme-counters (the hostile seeds),
# the two Darshan logs (with DXT; bzip2-compressed), sites and sites-v2
# (a sites region of version 1 and of version 2)
check_eq 8 "$(verdict ok)" "valid corpus logs"
check_eq 1 "$(verdict not_iolens)" "corpus inputs that are not logs"
check_eq 3 "$(verdict truncated)" "truncated corpus logs"
check_eq 2 "$(verdict crc)" "corpus logs failing a CRC"
# negative-counters: a negative sum is damage; the two crash-empty-names*
# (libFuzzer finds: once a null pointer offset after an empty names
# region) have a bad mounts entry
check_eq 3 "$(verdict corrupt)" "corpus logs refused as corrupt"
# big-regions: 1026 MiB claimed, over the 1 GiB limit
check_eq 1 "$(verdict nomem)" "corpus logs over the size limit"

if summary=$("$bin" --mutations 5000 --seed 20240601 "$corpus"); then
    pass
else
    fail "a mutation crashed the reader (status $?)"
fi
echo "mutations: $summary"
check_eq 5000 "$(verdict mutations)" "mutations run"
# Mutations that still decode, and ones that only the region parsers
# (after the CRC checks) could reject: both must be common.
check_gt "$(verdict ok)" 100 "mutated logs that still decode"
check_gt "$(verdict corrupt)" 500 "mutated logs rejected as corrupt"
finish
