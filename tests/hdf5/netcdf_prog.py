"""netCDF-4 through netCDF4-python, as a climate model's output is made
and read: NAME.nc with a record variable v(t, x) (t unlimited, x = 100,
float64) written one time step at a time, STEPS steps, and a compressed
w(x) (int32, zlib), then opened again and each variable read whole.
Prints the sums read back.  Usage: netcdf_prog.py PATH STEPS"""
import sys

import netCDF4
import numpy as np

path, steps = sys.argv[1], int(sys.argv[2])
with netCDF4.Dataset(path, "w") as ds:
    ds.createDimension("t", None)
    ds.createDimension("x", 100)
    v = ds.createVariable("v", "f8", ("t", "x"))
    for step in range(steps):
        v[step, :] = np.arange(100.0) + step
    w = ds.createVariable("w", "i4", ("x",), zlib=True)
    w[:] = np.arange(100, dtype="i4")
with netCDF4.Dataset(path) as ds:
    print("v %d steps, sum %.1f; w sum %d" % (len(ds.dimensions["t"]), ds["v"][:].sum(),
                                              ds["w"][:].sum()))
