// HDF5's C++ API (H5Cpp.h) for tests/hdf5/test_hdf5_cpp.sh.  Usage:
// h5cpp_prog PATH.  A DataSet object's copies share its HDF5 handle: a
// copy takes a reference (H5Iinc_ref), and each object's destructor
// closes the handle (H5Dclose), which only drops one reference until the
// last.  /d (1000 doubles) is written through a copy that is then
// destroyed, and again through the original; the file is reopened, /d
// opened through a function returning the DataSet by value, copied into
// a vector that is cleared, and read twice.  Prints the sum read back.
#include <H5Cpp.h>

#include <cstdio>
#include <vector>

static H5::DataSet open_by_value(H5::H5File &file)
{
    return file.openDataSet("d");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: h5cpp_prog PATH\n");
        return 2;
    }
    std::vector<double> values(1000, 1.5);
    {
        H5::H5File file(argv[1], H5F_ACC_TRUNC);
        hsize_t dims[1] = {1000};
        H5::DataSpace space(1, dims);
        H5::DataSet d = file.createDataSet("d", H5::PredType::NATIVE_DOUBLE, space);
        {
            H5::DataSet copy = d;
            copy.write(values.data(), H5::PredType::NATIVE_DOUBLE);
        }
        d.write(values.data(), H5::PredType::NATIVE_DOUBLE);
    }
    double sum = 0;
    {
        H5::H5File file(argv[1], H5F_ACC_RDONLY);
        H5::DataSet d = open_by_value(file);
        std::vector<H5::DataSet> copies{d, d};
        copies.clear();
        d.read(values.data(), H5::PredType::NATIVE_DOUBLE);
        d.read(values.data(), H5::PredType::NATIVE_DOUBLE);
        for (double x : values)
            sum += x;
    }
    std::printf("sum %.1f\n", sum);
    return 0;
}
