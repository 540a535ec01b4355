/* DRAM scheduler family: orders the requests waiting in one channel. A scheduler never sees
 * a timing value (STYLE.md, Ramulator's split): the channel offers it a free bank and the
 * row open in that bank, and it returns the request that bank should serve next.
 *
 * Hooks, called by dram.c only:
 *   create(env)          size the state from env (banks, queue sizes); the only allocation
 *   full(self, is_write) 1 if a new request of that direction must wait (back-pressure)
 *   add(self, r)         a request enters the queue (arrival order = age)
 *   pick(self, bank, open_row, &row_hit)
 *                        the request bank `bank` serves next, removed from the queue, or
 *                        NULL; *row_hit = 1 if it is counted as a row-buffer hit (GPGPU-Sim's
 *                        Row_Buffer_Locality counts at this point, not at command issue)
 *   pending(self)        requests waiting (reads + writes): the requests added minus those
 *                        pick returned (dram.c keeps this count itself, host speed)
 *   ready_banks(self)    optional, host speed only: the banks pick would serve (see below)
 *   stranded(self)       optional: how many of the waiting requests pick will never return
 *                        unless more requests arrive (0 if any will be served); NULL = none
 * Members (registry in dram_sched_registry.c, chosen by -gpgpu_dram_scheduler 0|1 or by name
 * with -gms_dram_scheduler): fcfs (GPGPU-Sim DRAM_FIFO), frfcfs (GPGPU-Sim frfcfs_scheduler). */
#ifndef GMS_MEM_DRAM_SCHED_H
#define GMS_MEM_DRAM_SCHED_H
#include <stdint.h>
#include "mem/mreq.h"
#include "util/registry.h"

/* One request inside a channel (GPGPU-Sim dram_req_t), from its push to its last column
 * command. Owned by the channel's record pool; one host cache line (host speed: the
 * scheduler's scans read row and next). */
typedef struct __attribute__((aligned(64))) gms_dram_req {
    gms_mreq *mf;
    uint32_t bank, row, col;
    uint32_t nbytes;          /* bytes to move (the request's size) */
    uint32_t txbytes;         /* bytes whose column command has issued */
    uint8_t is_write;
    uint8_t access;           /* mf's gms_access_type */
    uint64_t t_push;          /* DRAM cycle it entered the channel */
    struct gms_dram_req *prev, *next;   /* scheduler queue links */
} gms_dram_req;

typedef struct gms_dram_sched_env {
    uint32_t nbk;
    uint32_t queue_size;      /* -gpgpu_frfcfs_dram_sched_queue_size, 0 = unlimited */
    int sep_write;            /* -dram_seperate_write_queue_enable */
    uint32_t wq_size, wq_high, wq_low;   /* -dram_write_queue_size size:high:low */
} gms_dram_sched_env;

typedef struct gms_dram_sched_ops {
    const char *name;
    const char *summary;
    void *(*create)(const gms_dram_sched_env *env);
    void (*destroy)(void *self);
    int (*full)(const void *self, int is_write);
    void (*add)(void *self, gms_dram_req *r);
    gms_dram_req *(*pick)(void *self, uint32_t bank, uint32_t open_row, int *row_hit);
    uint32_t (*pending)(const void *self);
    /* optional (NULL: dram.c asks every free bank): bit b set iff pick(self, b, ...) would
     * return a request now (nbk <= 64). Called where pick would first be called and may
     * update the same internal state that pick updates on entry (frfcfs: the write mode), so
     * dram.c can ask only these banks and get the same result as asking all of them. */
    uint64_t (*ready_banks)(void *self);
    /* optional (NULL: 0): see "stranded" above. frfcfs with the separate write queue: writes
     * below the high watermark while no read waits (GPGPU-Sim never drains them either) */
    uint32_t (*stranded)(const void *self);
} gms_dram_sched_ops;

extern const gms_dram_sched_ops *const gms_dram_sched_registry[];
extern const size_t gms_dram_sched_nregistry;
const gms_dram_sched_ops *gms_dram_sched_find(const char *name);
extern const gms_registry gms_dram_sched_reg;   /* names, help, error lists */

/* intrusive doubly-linked list of requests in arrival order (shared by members) */
typedef struct gms_dram_rlist { gms_dram_req *head, *tail; uint32_t n; } gms_dram_rlist;
static inline void gms_dram_rlist_append(gms_dram_rlist *l, gms_dram_req *r)
{
    r->next = NULL;
    r->prev = l->tail;
    if (l->tail) l->tail->next = r; else l->head = r;
    l->tail = r;
    l->n++;
}
static inline void gms_dram_rlist_remove(gms_dram_rlist *l, gms_dram_req *r)
{
    if (r->prev) r->prev->next = r->next; else l->head = r->next;
    if (r->next) r->next->prev = r->prev; else l->tail = r->prev;
    r->prev = r->next = NULL;
    l->n--;
}

#endif
