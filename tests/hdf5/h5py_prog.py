"""h5py under the preload (test_h5py.sh).

    h5py_prog.py PATH

creates PATH with a chunked 1000x1000 float64 dataset "d" (8,000,000
bytes, chunks of 100x100) written in one call, closes it, opens it again
read-only, reads "d" whole in one call and checks it.  Prints one line;
exits 1 if the data read differs from the data written."""
import sys

import h5py
import numpy

path = sys.argv[1]
written = numpy.arange(1000 * 1000, dtype=numpy.float64).reshape(1000, 1000) + 0.5
with h5py.File(path, "w") as f:
    f.create_dataset("d", data=written, chunks=(100, 100))
with h5py.File(path, "r") as f:
    read = f["d"][...]
same = read.dtype == written.dtype and numpy.array_equal(read, written)
print("d: %dx%d %s, sum %.1f, %s" % (read.shape + (read.dtype, read.sum(),
                                                   "read back" if same else "DIFFERS")))
sys.exit(0 if same else 1)
