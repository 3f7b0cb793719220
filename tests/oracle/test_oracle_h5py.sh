#!/bin/sh
# /usr/bin/python3 with h5py (python3-h5py-serial): a chunked 1000x1000
# float64 dataset written and read back, traced under strace at three
# budgets.  Besides the POSIX counters against strace, the H5D layer must
# count exactly 8,000,000 bytes each way (1000 x 1000 x 8).  A runtime that
# hangs or crashes h5py ends at the timeout, as a failure.
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
ORACLE_TIMEOUT=60
if ! "$PY" -c 'import h5py' 2>/dev/null; then
    echo "SKIP: h5py is not installed for $PY (python3-h5py-serial)"
    exit 77
fi

write_script() {
    cat >h5.py <<'PYEOF'
import h5py
import numpy as np
data = np.arange(1000 * 1000, dtype=np.float64).reshape(1000, 1000)
with h5py.File("data.h5", "w") as f:
    f.create_dataset("d", data=data, chunks=(100, 100))
with h5py.File("data.h5", "r") as f:
    back = f["d"][...]
print(back.shape, back.dtype, float(back.sum()), bool((back == data).all()))
PYEOF
}

oracle_program h5py write_script "$PY h5.py"
check_eq "(1000, 1000) float64 499999500000.0 True" "$(cat "$T/h5py.plain.out")" "what h5py read back (untraced)"
for budget in $BUDGETS 64M; do
    dir=$T/h5py-$budget
    check_eq 8000000 "$(logs_sum "$dir" H5D H5D_BYTES_WRITTEN)" "H5D bytes written at budget $budget"
    check_eq 8000000 "$(logs_sum "$dir" H5D H5D_BYTES_READ)" "H5D bytes read at budget $budget"
done
oracle_table
finish
