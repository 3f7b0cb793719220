/* A program with no HDF5 library at its start that loads modules linked
 * against one later, the way Python loads h5py (test_late_hdf5.sh):
 *
 *   late_h5_host PATH PLUGIN...
 *
 * dlopens each PLUGIN (late_h5_plugin.c) in turn with RTLD_LOCAL, so that
 * its HDF5 library is in no global scope, and runs its late_h5_run on
 * PATH.1, PATH.2 ...  Not linked against HDF5.
 *
 * Under the preload, dlsym(RTLD_DEFAULT, "H5Fopen") finds iolens's
 * wrapper.  The host calls it on PATH.1 before the first PLUGIN is
 * loaded, when no HDF5 library is there to call: it must fail (exit 3),
 * not call itself; and again after the last, when it must reach the
 * first loaded library and open the file (exit 4).  Exits with 0, the
 * plugin's status, or 2 on an error (with a message). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

typedef int64_t hid_type; /* hid_t of HDF5 1.10 */

static hid_type (*h5fopen)(const char *, unsigned, hid_type);
static int (*h5fclose)(hid_type);

static int run_plugin(const char *plugin, const char *path)
{
    void *module = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
    if (module == NULL) {
        fprintf(stderr, "late_h5_host: %s\n", dlerror());
        return 2;
    }
    int (*run)(const char *);
    *(void **)&run = dlsym(module, "late_h5_run");
    if (run == NULL) {
        fprintf(stderr, "late_h5_host: %s\n", dlerror());
        return 2;
    }
    return run(path);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PATH PLUGIN...\n", argv[0]);
        return 2;
    }
    char first[4096];
    snprintf(first, sizeof first, "%s.1", argv[1]);
    *(void **)&h5fopen = dlsym(RTLD_DEFAULT, "H5Fopen");
    *(void **)&h5fclose = dlsym(RTLD_DEFAULT, "H5Fclose");
    if (h5fopen != NULL && h5fopen(first, 0, 0) >= 0) {
        fprintf(stderr, "late_h5_host: H5Fopen without an HDF5 library succeeded\n");
        return 3;
    }
    for (int i = 2; i < argc; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%d", argv[1], i - 1);
        int rc = run_plugin(argv[i], path);
        if (rc != 0)
            return rc;
    }
    if (h5fopen != NULL && h5fclose != NULL) {
        hid_type file = h5fopen(first, 0 /* H5F_ACC_RDONLY */, 0 /* H5P_DEFAULT */);
        if (file < 0 || h5fclose(file) < 0) {
            fprintf(stderr, "late_h5_host: H5Fopen after the plugins failed\n");
            return 4;
        }
    }
    return 0;
}
