#!/bin/sh
# A bash loop writing, appending, reading and renaming files through
# redirections and builtins; traced and untraced alike.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/common.sh"
iolens_setup
need bash

nothing() { :; }
transparent "bash loop" nothing '
bash -c "
for i in \$(seq 1 200); do
    echo line \$i >>log.txt
    printf \"%05d\\n\" \$((i * i)) >f\$((i % 10)).txt
done
n=0
while read -r w x; do n=\$((n + x)); done <log.txt
echo total \$n
for f in f*.txt; do mv \"\$f\" \"\${f%.txt}.dat\"; done
cat f*.dat | sort | head -n 3
exec 3<log.txt; read -r first <&3; exec 3<&-; echo \"\$first\"
exit 4"'
check_eq 4 "$(cat "$T/traced.status")" "exit status of the bash loop"
finish
