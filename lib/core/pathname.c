/* Lexical path normalization and prefix lists.  No system calls: symbolic
 * links are not resolved, which is what makes this cheap enough to run on
 * every open. */
#include "core/pathname.h"

#include <string.h>

/*
 * The normalized path is built from right to left, at the end of out:
 * walking the components backwards, a ".." only has to remember how many
 * following components to skip, so nothing that is later removed is ever
 * written.  out is therefore too small exactly when the result does not
 * fit, never because of an intermediate state.
 */
struct backward_writer {
    char *out;
    size_t start;   /* the result so far occupies out[start, end) */
    int skip;       /* ".." components not yet applied */
    int overflow;
};

static void prepend_component(struct backward_writer *w, const char *comp, size_t len)
{
    if (w->overflow || len + 1 > w->start) {
        w->overflow = 1;
        return;
    }
    w->start -= len;
    memcpy(w->out + w->start, comp, len);
    w->out[--w->start] = '/';
}

static void take_component(struct backward_writer *w, const char *comp, size_t len)
{
    if (len == 0 || (len == 1 && comp[0] == '.'))
        return;
    if (len == 2 && comp[0] == '.' && comp[1] == '.') {
        w->skip++;
        return;
    }
    if (w->skip > 0) {
        w->skip--;
        return;
    }
    prepend_component(w, comp, len);
}

/* Feeds the components of s[0, n) to w, last component first. */
static void take_components_backwards(struct backward_writer *w, const char *s, size_t n)
{
    size_t end = n;
    while (end > 0) {
        size_t begin = end;
        while (begin > 0 && s[begin - 1] != '/')
            begin--;
        take_component(w, s + begin, end - begin);
        end = begin > 0 ? begin - 1 : 0;
    }
}

long iolens_path_normalize(const char *base, const char *path, char *out, size_t outsz)
{
    if (path == NULL || path[0] == '\0' || out == NULL || outsz < 2)
        return -1;
    int relative = path[0] != '/';
    if (relative && (base == NULL || base[0] != '/'))
        return -1;

    struct backward_writer w = { .out = out, .start = outsz - 1, .skip = 0, .overflow = 0 };
    take_components_backwards(&w, path, strlen(path));
    /* ".." above the root stays at the root, so leftover skips are dropped. */
    if (relative)
        take_components_backwards(&w, base, strlen(base));
    if (w.overflow)
        return -1;

    size_t len = (outsz - 1) - w.start;
    if (len == 0) {
        out[0] = '/';
        len = 1;
    } else {
        memmove(out, out + w.start, len);
    }
    out[len] = '\0';
    return (long)len;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Trailing '/' never matters for a prefix ("/" itself becomes the empty
 * prefix, which matches every absolute path). */
static size_t prefix_length(const char *prefix, size_t len)
{
    while (len > 0 && prefix[len - 1] == '/')
        len--;
    return len;
}

static void add_prefix(struct iolens_prefix_list *list, const char *prefix, size_t len)
{
    if (list->count >= IOLENS_MAX_PREFIXES)
        return;
    list->prefix[list->count] = prefix;
    list->len[list->count] = prefix_length(prefix, len);
    list->count++;
}

void iolens_prefix_list_add(struct iolens_prefix_list *list, const char *prefix)
{
    if (prefix != NULL && prefix[0] != '\0')
        add_prefix(list, prefix, strlen(prefix));
}

/* Items are trimmed of surrounding blanks, so "IOLENS_EXCLUDE=/a, /b"
 * means what the user meant. */
void iolens_prefix_list_parse(struct iolens_prefix_list *list, char *storage)
{
    char *item = storage;
    while (item != NULL) {
        char *comma = strchr(item, ',');
        if (comma != NULL)
            *comma = '\0';
        while (is_blank(*item))
            item++;
        size_t len = strlen(item);
        while (len > 0 && is_blank(item[len - 1]))
            item[--len] = '\0';
        while (len > 1 && item[len - 1] == '/')
            item[--len] = '\0';
        if (len > 0)
            add_prefix(list, item, len);
        item = comma != NULL ? comma + 1 : NULL;
    }
}

int iolens_prefix_list_match(const struct iolens_prefix_list *list, const char *abspath)
{
    for (unsigned i = 0; i < list->count; i++) {
        size_t len = list->len[i];
        if (strncmp(abspath, list->prefix[i], len) == 0 &&
            (abspath[len] == '\0' || abspath[len] == '/'))
            return 1;
    }
    return 0;
}

/* s[0..n) is ".DIGITS" with at least one digit. */
static int is_dot_number(const char *s, size_t n)
{
    if (n < 2 || s[0] != '.')
        return 0;
    for (size_t i = 1; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* "ompi.HOST.UID": Open MPI's session directory (HOST may hold dots). */
static int is_ompi_session_dir(const char *name, size_t n)
{
    static const char prefix[] = "ompi.";
    const size_t plen = sizeof prefix - 1;
    if (n <= plen + 2 || strncmp(name, prefix, plen) != 0)
        return 0;
    size_t dot = n;
    while (dot > plen && name[dot - 1] != '.')
        dot--;
    /* name[dot - 1] is the last '.'; a host of one character at least. */
    return dot > plen + 1 && is_dot_number(name + dot - 1, n - (dot - 1));
}

/* "NAME.locktest.N" with a NAME. */
static int is_locktest_file(const char *name, size_t n)
{
    static const char tag[] = ".locktest";
    const size_t tlen = sizeof tag - 1;
    size_t dot = n;
    while (dot > 0 && name[dot - 1] != '.')
        dot--;
    if (dot == 0 || !is_dot_number(name + dot - 1, n - (dot - 1)))
        return 0;
    size_t end = dot - 1; /* where ".N" starts */
    return end > tlen && memcmp(name + end - tlen, tag, tlen) == 0;
}

/* ".NAME.shfp.DIGITS[.DIGITS...]": ROMIO's shared file pointer (MPICH's
 * MPI_File_*_shared and _ordered), hidden beside NAME. */
static int is_romio_shfp_file(const char *name, size_t n)
{
    static const char tag[] = ".shfp.";
    const size_t tlen = sizeof tag - 1;
    if (name[0] != '.')
        return 0;
    /* The last tag after ".NAME" (at 2 at the earliest). */
    size_t at = 0;
    for (size_t i = 2; i + tlen <= n; i++)
        if (memcmp(name + i, tag, tlen) == 0)
            at = i;
    if (at == 0 || at + tlen == n)
        return 0;
    int digits = 0;
    for (size_t i = at + tlen; i < n; i++) {
        if (name[i] >= '0' && name[i] <= '9')
            digits = 1;
        else if (name[i] != '.')
            return 0;
    }
    return digits;
}

int iolens_path_is_mpi_own(const char *abspath)
{
    const char *p = abspath;
    while (*p != '\0') {
        while (*p == '/')
            p++;
        size_t n = strcspn(p, "/");
        if (n == 0)
            break;
        if (is_ompi_session_dir(p, n))
            return 1;
        if (p[n] == '\0')
            return is_locktest_file(p, n) || is_romio_shfp_file(p, n);
        p += n;
    }
    return 0;
}
