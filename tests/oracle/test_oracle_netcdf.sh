#!/bin/sh
# netCDF (python3-netcdf4, netcdf-bin), traced under strace at three
# budgets: netCDF4-python writes a netCDF-4 file (HDF5 underneath) and a
# classic one (netCDF's own I/O layer), each a record variable written a
# time step at a time, and reads both back; ncdump prints both; nccopy
# turns the classic one into a deflated netCDF-4 one.  Besides the POSIX
# counters against strace, the H5D layer must count the netCDF-4 data
# exactly: /v is 12 x 100 float64 (9600 bytes), written by the program and
# by nccopy, read by the program, ncdump (twice: the file and the copy)
# and nccopy reads none of it (its source is classic).
. "${IOLENS_SRCDIR:-.}/tests/integration/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/transparency/common.sh"
. "${IOLENS_SRCDIR:-.}/tests/oracle/oracle_common.sh"
oracle_setup
ORACLE_TIMEOUT=60
need ncdump nccopy
if ! "$PY" -c 'import netCDF4' 2>/dev/null; then
    echo "SKIP: netCDF4 is not installed for $PY (python3-netcdf4)"
    exit 77
fi

write_script() {
    cat >nc.py <<'PYEOF'
import netCDF4
import numpy as np
for path, fmt in (("four.nc", "NETCDF4"), ("classic.nc", "NETCDF3_CLASSIC")):
    with netCDF4.Dataset(path, "w", format=fmt) as ds:
        ds.createDimension("t", None)
        ds.createDimension("x", 100)
        v = ds.createVariable("v", "f8", ("t", "x"))
        for step in range(12):
            v[step, :] = np.arange(100.0) + step
    with netCDF4.Dataset(path) as ds:
        print(path, ds.data_model, float(ds["v"][:].sum()))
PYEOF
}

oracle_program netcdf write_script \
    "$PY nc.py && ncdump four.nc | md5sum && ncdump classic.nc | md5sum &&
     nccopy -k nc4 -d 1 classic.nc copy.nc && ncdump copy.nc | sed 1d | md5sum"
check_eq "four.nc NETCDF4 66000.0
classic.nc NETCDF3_CLASSIC 66000.0" "$(sed -n 1,2p "$T/netcdf.plain.out")" \
    "what netCDF4-python read back (untraced)"
for budget in $BUDGETS 64M; do
    dir=$T/netcdf-$budget
    check_eq $((2 * 9600)) "$(logs_sum "$dir" H5D H5D_BYTES_WRITTEN)" \
        "H5D bytes written at budget $budget (four.nc and copy.nc)"
    check_eq $((3 * 9600)) "$(logs_sum "$dir" H5D H5D_BYTES_READ)" \
        "H5D bytes read at budget $budget (four.nc twice, copy.nc once)"
done
oracle_table
finish
