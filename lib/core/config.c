/* Reads the runtime configuration from the environment (man iolens(7)). */
#include "core/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_table.h"
#include "iolens/text_escape.h"

int iolens_parse_size(const char *text, size_t *out)
{
    if (text == NULL || !isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0)
        return -1;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case '\0': break;
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    default: return -1;
    }
    if (shift != 0 && (*end == 'i' || *end == 'I'))
        end++;
    if (shift != 0 && (*end == 'b' || *end == 'B'))
        end++;
    if (*end != '\0' || value == 0 || value > (SIZE_MAX >> shift))
        return -1;
    *out = (size_t)(value << shift);
    return 0;
}

/* Keeps only the first problem: one stderr line is all the user gets. */
static void note_error(struct iolens_config *cfg, const char *fmt, ...)
{
    if (cfg->error[0] != '\0')
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cfg->error, sizeof cfg->error, fmt, ap);
    va_end(ap);
}

/* A value as it may be shown in the one stderr line: escaped
 * (iolens/text_escape.h), and cut short. */
struct shown {
    char text[96];
};

static struct shown show(const char *value)
{
    struct shown out;
    size_t len = strlen(value), cut = len > 64 ? 64 : len;
    size_t n = iolens_escape_text(out.text, sizeof out.text - 4, value, cut);
    if (cut < len)
        memcpy(out.text + n, "...", 4);
    return out;
}

static int is_set_and_not_zero(const char *value)
{
    return value != NULL && strcmp(value, "0") != 0;
}

static void load_memory(struct iolens_config *cfg, const char *value)
{
    cfg->memory = IOLENS_DEFAULT_MEMORY;
    if (value == NULL)
        return;
    size_t bytes;
    if (iolens_parse_size(value, &bytes) != 0) {
        note_error(cfg, "IOLENS_MEMORY=%s is not a size (e.g. 2M, 512K); using 2M",
                   show(value).text);
        return;
    }
    if (bytes < IOLENS_MIN_MEMORY) {
        note_error(cfg, "IOLENS_MEMORY=%s is below the 16K minimum; using 16K", show(value).text);
        bytes = IOLENS_MIN_MEMORY;
    }
    cfg->memory = bytes;
}

static void load_mem_alignment(struct iolens_config *cfg, const char *value)
{
    cfg->mem_alignment = 8;
    if (value == NULL)
        return;
    size_t bytes;
    if (iolens_parse_size(value, &bytes) != 0 || bytes > INT64_MAX) {
        note_error(cfg, "IOLENS_MEM_ALIGNMENT=%s is not a positive number; using 8",
                   show(value).text);
        return;
    }
    cfg->mem_alignment = (int64_t)bytes;
}

int iolens_parse_log_mode(const char *text, unsigned *out)
{
    if (text == NULL || text[0] == '\0' || strlen(text) > 4)
        return -1;
    unsigned mode = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (*p < '0' || *p > '7')
            return -1;
        mode = mode * 8 + (unsigned)(*p - '0');
    }
    /* Logs are never writable or executable, and the owner always reads. */
    if ((mode & ~0444u) != 0 || !(mode & 0400u))
        return -1;
    *out = mode;
    return 0;
}

static void load_log_mode(struct iolens_config *cfg, const char *value)
{
    cfg->log_mode = IOLENS_DEFAULT_LOG_MODE;
    if (value == NULL)
        return;
    if (iolens_parse_log_mode(value, &cfg->log_mode) != 0)
        note_error(cfg,
                   "IOLENS_LOG_MODE=%s is not a read-only mode with owner read "
                   "(0400, 0440, 0444); using 0400",
                   show(value).text);
}

static int layer_by_name(const char *name, size_t len)
{
#define LAYER_NAME(NAME, lower, KIND, VERSION, C, F, ROLES, DATA, BASE) #lower,
    static const char *const names[IOLENS_NLAYERS] = {IOLENS_LAYERS(LAYER_NAME)};
#undef LAYER_NAME
    for (int layer = 0; layer < IOLENS_NLAYERS; layer++)
        if (strlen(names[layer]) == len && strncasecmp(names[layer], name, len) == 0)
            return layer;
    return -1;
}

static void note_unknown_layer(struct iolens_config *cfg, const char *item, size_t len)
{
    char name[64];
    iolens_escape_text(name, sizeof name, item, len);
    note_error(cfg,
               "IOLENS_DISABLE_LAYERS: unknown layer '%s' "
               "(known: posix, stdio, mpiio, h5f, h5d, hdf5)",
               name);
}

static void load_layers_off(struct iolens_config *cfg, const char *value)
{
    cfg->layers_off = 0;
    for (const char *item = value; item != NULL && *item != '\0';) {
        size_t len = strcspn(item, ",");
        int layer = layer_by_name(item, len);
        if (len == 4 && strncasecmp(item, "hdf5", 4) == 0) /* both HDF5 layers */
            cfg->layers_off |= 1u << IOLENS_LAYER_H5F | 1u << IOLENS_LAYER_H5D;
        else if (layer >= 0)
            cfg->layers_off |= 1u << layer;
        else if (len > 0)
            note_unknown_layer(cfg, item, len);
        item += len + (item[len] == ',');
    }
}

/* Copies value into out (size PATH_MAX), made absolute against cwd.
 * Returns 0, or -1 (out "") if it is too long. */
static int load_path(struct iolens_config *cfg, const char *name, const char *value,
                     const char *cwd, const char *instead, char *out)
{
    out[0] = '\0';
    if (value == NULL || value[0] == '\0')
        return 0;
    const char *base = (cwd != NULL && cwd[0] == '/') ? cwd : "/";
    if (iolens_path_normalize(base, value, out, PATH_MAX) < 0) {
        note_error(cfg, "%s is too long; %s", name, instead);
        out[0] = '\0';
        return -1;
    }
    return 0;
}

/* IOLENS_LOGDIR, or the configured default when it is unset, empty or
 * ignored. */
static void load_logdir(struct iolens_config *cfg, const char *value, const char *cwd)
{
    const char *instead = "using the default, " IOLENS_LOGDIR_DEFAULT;
    if (value == NULL || value[0] == '\0' ||
        load_path(cfg, "IOLENS_LOGDIR", value, cwd, instead, cfg->logdir) != 0)
        (void)load_path(cfg, "IOLENS_LOGDIR", IOLENS_LOGDIR_DEFAULT, cwd, instead, cfg->logdir);
}

static void load_prefixes(struct iolens_prefix_list *list, char *storage, size_t storage_size,
                          const char *value)
{
    memset(list, 0, sizeof *list);
    snprintf(storage, storage_size, "%s", value != NULL ? value : "");
    iolens_prefix_list_parse(list, storage);
}

/* The log's own location is never traced: reading old logs or writing
 * this one must not show up as application I/O. */
static void exclude_log_location(struct iolens_config *cfg)
{
    if (cfg->logdir[0] != '\0')
        iolens_prefix_list_add(&cfg->exclude, cfg->logdir);
    if (cfg->logfile[0] != '\0')
        iolens_prefix_list_add(&cfg->exclude, cfg->logfile);
}

void iolens_config_load(struct iolens_config *cfg, const char *(*getenv_fn)(const char *),
                        const char *cwd)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->disabled = is_set_and_not_zero(getenv_fn("IOLENS_DISABLE"));
    cfg->nonmpi = is_set_and_not_zero(getenv_fn("IOLENS_NONMPI"));
    load_memory(cfg, getenv_fn("IOLENS_MEMORY"));
    load_mem_alignment(cfg, getenv_fn("IOLENS_MEM_ALIGNMENT"));
    load_layers_off(cfg, getenv_fn("IOLENS_DISABLE_LAYERS"));
    cfg->sites_off = is_set_and_not_zero(getenv_fn("IOLENS_DISABLE_SITES"));
    load_log_mode(cfg, getenv_fn("IOLENS_LOG_MODE"));

    load_logdir(cfg, getenv_fn("IOLENS_LOGDIR"), cwd);
    (void)load_path(cfg, "IOLENS_LOGFILE", getenv_fn("IOLENS_LOGFILE"), cwd,
                    "ignored, the log goes to the log directory", cfg->logfile);

    const char *exclude = getenv_fn("IOLENS_EXCLUDE");
    load_prefixes(&cfg->exclude, cfg->exclude_storage, sizeof cfg->exclude_storage,
                  exclude != NULL ? exclude : IOLENS_DEFAULT_EXCLUDE);
    cfg->mpi_own_excluded = exclude == NULL;
    load_prefixes(&cfg->include, cfg->include_storage, sizeof cfg->include_storage,
                  getenv_fn("IOLENS_INCLUDE"));
    exclude_log_location(cfg);
}

int iolens_config_traces_path(const struct iolens_config *cfg, const char *abspath)
{
    if (iolens_prefix_list_match(&cfg->include, abspath))
        return 1;
    if (cfg->mpi_own_excluded && iolens_path_is_mpi_own(abspath))
        return 0;
    return !iolens_prefix_list_match(&cfg->exclude, abspath);
}
