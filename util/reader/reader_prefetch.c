/*
 * Layer regions decoded ahead on a second thread (reader_prefetch.h).
 *
 * The thread owns a slot from the moment it claims it (FREE -> BUSY)
 * until it marks it READY; the reader owns it from READY until it gives
 * it back (FREE).  Each slot has its own reader, scratch log, stored-bytes
 * buffer and error text, so nothing is shared but the slot states, under
 * one mutex.  After an error the thread stops: the reader reports it when
 * it reaches that region, unless an earlier region failed first.
 */
#include "reader/reader_prefetch.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------- prefetch -- */

/* Two slots: the reader's region and the next.  Three were no faster. */
#define SLOTS 2

enum slot_state { SLOT_FREE, SLOT_BUSY, SLOT_READY };

struct slot {
    enum slot_state state;
    unsigned region;
    enum iolens_read_status st;
    struct reader r;
    struct iolens_log log;
    unsigned char *buf;
    size_t bufcap;
    char *err;
};

struct rd_prefetch {
    struct rd_source src;
    unsigned *regions;
    size_t n, taken;
    bool stop;
    struct slot slot[SLOTS];
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t thread;
};

/* Waits until slot is in state want or the prefetch is stopped; returns
 * false when stopped.  Called with the lock held. */
static bool wait_for(struct rd_prefetch *p, const struct slot *slot, enum slot_state want)
{
    while (slot->state != want && !p->stop)
        pthread_cond_wait(&p->changed, &p->lock);
    return slot->state == want;
}

static void set_state(struct rd_prefetch *p, struct slot *slot, enum slot_state state)
{
    pthread_mutex_lock(&p->lock);
    slot->state = state;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

static void *decode_ahead(void *arg)
{
    struct rd_prefetch *p = arg;
    for (size_t k = 0; k < p->n; k++) {
        struct slot *slot = &p->slot[k % SLOTS];
        pthread_mutex_lock(&p->lock);
        bool go = wait_for(p, slot, SLOT_FREE) && !p->stop;
        if (go)
            slot->state = SLOT_BUSY;
        pthread_mutex_unlock(&p->lock);
        if (!go)
            break;
        slot->region = p->regions[k];
        slot->st = rd_source_decode(&slot->r, &p->src, slot->region, &slot->buf, &slot->bufcap);
        set_state(p, slot, SLOT_READY);
        if (slot->st != IOLENS_READ_OK)
            break;
    }
    return NULL;
}

static void free_slots(struct rd_prefetch *p)
{
    for (unsigned k = 0; k < SLOTS; k++) {
        iolens_log_free(&p->slot[k].log);
        rd_reader_release(&p->slot[k].r);
        free(p->slot[k].buf);
        free(p->slot[k].err);
    }
}

static bool init_slots(struct rd_prefetch *p, const struct reader *proto, bool defer_records)
{
    for (unsigned k = 0; k < SLOTS; k++) {
        struct slot *slot = &p->slot[k];
        size_t errsz = proto->err != NULL ? proto->errsz : 0;
        if (errsz > 0 && (slot->err = calloc(1, errsz)) == NULL)
            return false;
        slot->r = (struct reader){.size = proto->size, .log = &slot->log, .err = slot->err,
                                  .errsz = errsz, .blocks = proto->blocks,
                                  .names_ids_only = proto->names_ids_only,
                                  .defer_records = defer_records};
    }
    return true;
}

struct rd_prefetch *rd_prefetch_start(const struct rd_source *src, const unsigned *regions,
                                      size_t n, const struct reader *proto, bool defer_records)
{
    struct rd_prefetch *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->src = *src;
    p->n = n;
    p->regions = malloc((n > 0 ? n : 1) * sizeof *p->regions);
    if (p->regions == NULL || !init_slots(p, proto, defer_records)) {
        free_slots(p);
        free(p->regions);
        free(p);
        return NULL;
    }
    memcpy(p->regions, regions, n * sizeof *regions);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->changed, NULL);
    if (pthread_create(&p->thread, NULL, decode_ahead, p) != 0) {
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->changed);
        free_slots(p);
        free(p->regions);
        free(p);
        return NULL;
    }
    return p;
}

enum iolens_read_status rd_prefetch_take(struct rd_prefetch *p, unsigned region,
                                         struct reader *r, const struct iolens_log **log)
{
    *log = NULL;
    struct slot *slot = &p->slot[p->taken % SLOTS];
    if (p->taken < p->n) {
        pthread_mutex_lock(&p->lock);
        wait_for(p, slot, SLOT_READY);
        pthread_mutex_unlock(&p->lock);
    }
    if (p->taken >= p->n || slot->region != region)
        return rd_fail(r, IOLENS_READ_CORRUPT, "internal error: region %u decoded out of order",
                       region);
    if (slot->st != IOLENS_READ_OK)
        return rd_fail(r, slot->st, "%s", slot->err != NULL ? slot->err : "");
    *log = &slot->log;
    return IOLENS_READ_OK;
}

struct reader *rd_prefetch_reader(struct rd_prefetch *p)
{
    return &p->slot[p->taken % SLOTS].r;
}

void rd_prefetch_release(struct rd_prefetch *p)
{
    struct slot *slot = &p->slot[p->taken % SLOTS];
    p->taken++;
    set_state(p, slot, SLOT_FREE);
}

void rd_prefetch_stop(struct rd_prefetch *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->changed);
    free_slots(p);
    free(p->regions);
    free(p);
}
