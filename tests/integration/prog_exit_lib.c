/* For test_exit_order.sh.  Built twice: as a shared library whose
 * destructor writes 123 bytes (3 writes of 41) to the file named by
 * $EXIT_LIB_FILE, as a C++ library's static destructors may write at
 * exit; and with -DEXIT_LIB_MAIN as the program linked to it, which does
 * no I/O of its own. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef EXIT_LIB_MAIN
int exit_lib_loaded(void);

int main(void)
{
    return exit_lib_loaded() ? 0 : 1;
}
#else
int exit_lib_loaded(void)
{
    return 1;
}

__attribute__((destructor)) static void write_at_unload(void)
{
    static const char block[41];
    const char *path = getenv("EXIT_LIB_FILE");
    if (path == NULL)
        return;
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return;
    for (int i = 0; i < 3; i++)
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block)
            break;
    close(fd);
}
#endif
