"""h5py following object references (test_h5py.sh), as a reader of a
MATLAB v7.3 .mat file does for a cell array: the cells are datasets in
the group "#refs#", and the cell array "c" is a 2-D dataset of object
references to them.

    h5py_refs_prog.py PATH N

writes N cells (cell i: 10 float64 of value i, 80 bytes) and "c" (1 x N
references), closes the file, opens it again read-only and reads every
cell whole through its reference (f[ref][...]).  Prints the sum read."""
import sys

import h5py
import numpy

path, n = sys.argv[1], int(sys.argv[2])
with h5py.File(path, "w") as f:
    refs = f.create_group("#refs#")
    c = f.create_dataset("c", (1, n), dtype=h5py.ref_dtype)
    for i in range(n):
        c[0, i] = refs.create_dataset("cell%d" % i, data=numpy.full(10, float(i))).ref
with h5py.File(path, "r") as f:
    total = sum(f[ref][...].sum() for ref in f["c"][0])
print("%d cells, sum %.1f" % (n, total))
