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
