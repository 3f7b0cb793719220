/* tmpfile and tmpfile64, whose files the C library opens where no open is
 * seen: on each stream 10 bytes by fwrite, then 3 by write(2) on its
 * descriptor, a rewind and an fread of what is there (13 bytes), then
 * fclose.  Prints the bytes each fread got (test_stdio.sh). */
#define _LARGEFILE64_SOURCE
#include <stdio.h>
#include <unistd.h>

static int use(FILE *f)
{
    char back[20];
    if (f == NULL || fwrite("0123456789", 1, 10, f) != 10 || fflush(f) != 0 ||
        write(fileno(f), "abc", 3) != 3) {
        perror("tmpfile");
        return -1;
    }
    rewind(f);
    size_t n = fread(back, 1, sizeof back, f);
    return fclose(f) == 0 ? (int)n : -1;
}

int main(void)
{
    int a = use(tmpfile());
    int b = use(tmpfile64());
    printf("%d %d\n", a, b);
    return a == 13 && b == 13 ? 0 : 1;
}
