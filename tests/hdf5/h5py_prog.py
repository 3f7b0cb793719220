"""h5py under the preload (test_h5py.sh).

    h5py_prog.py PATH [MANY]

creates PATH with a chunked 1000x1000 float64 dataset "d" (8,000,000
bytes, chunks of 100x100) written in one call, and, in h5py's usual way
(f[name] = array: an anonymous dataset, written, then linked under its
name), "x" (1000 float64: 8000 bytes) and "g/y" (50 int32: 200 bytes),
then MANY more datasets "m0", "m1", ... of 10 int32 (40 bytes) each the
same way (default 0).  Closes it, opens it again read-only, reads each
dataset whole in one call and checks it.  Prints one line; exits 1 if the
data read differs from the data written."""
import sys

import h5py
import numpy

path = sys.argv[1]
many = int(sys.argv[2]) if len(sys.argv) > 2 else 0
written = numpy.arange(1000 * 1000, dtype=numpy.float64).reshape(1000, 1000) + 0.5
x = numpy.arange(1000, dtype=numpy.float64)
y = numpy.arange(50, dtype=numpy.int32)
m = numpy.arange(10, dtype=numpy.int32)
with h5py.File(path, "w") as f:
    f.create_dataset("d", data=written, chunks=(100, 100))
    f["x"] = x
    f["g/y"] = y
    for i in range(many):
        f["m%d" % i] = m
with h5py.File(path, "r") as f:
    read = f["d"][...]
    same = read.dtype == written.dtype and numpy.array_equal(read, written)
    same = same and numpy.array_equal(f["x"][...], x) and numpy.array_equal(f["g/y"][...], y)
    for i in range(many):
        same = same and numpy.array_equal(f["m%d" % i][...], m)
print("d: %dx%d %s, sum %.1f; x, g/y and %d more: %s" % (
    read.shape + (read.dtype, read.sum(), many, "read back" if same else "DIFFERS")))
sys.exit(0 if same else 1)
