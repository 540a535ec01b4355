/* Belady's offline optimum (MIN), an upper bound: evict the resident page whose next reference
 * is farthest in the future. The future is the program-order sequence of managed-page
 * references (consecutive repeats folded), given either by gms_uvm_set_future() or by a file
 * recorded with -uvm_page_trace_out in an earlier run of the same workload (two-pass mode:
 * -uvm_belady_trace). The k-th reference to a page in this run is matched with the k-th
 * occurrence of that page in the sequence (-gms_uvm_belady_progress 0), or, by default, with the
 * occurrence nearest to the run's progress, the count of (folded) references it has made so far
 * (1). The k-th-occurrence match drifts for good once a page's references in this run outnumber
 * or lag those of the recording (interleavings differ with timing, and the recording ran under
 * LRU): a page that ran out of occurrences looks never used again and is evicted first, which
 * gave some workloads several times LRU's faults. The progress match re-anchors every page at
 * each of its references, so a timing difference costs an estimate, not the rest of the run;
 * at each kernel's start the progress is set to where the recording's kernel began (its
 * GMS_UVM_KERNEL_MARK), so drift does not cross kernels (docs/uvm.md "Belady"). Pages never
 * referenced again are evicted first. Resident pages sit in an indexed max-heap on their next-use position: O(log n) per reference.
 * The simulator gives the future of a built-in workload or a trace itself when no file is
 * named: a first run under LRU records it (core/belady_prepass.h).
 * A file that holds no reference, or does not match the run (the run references a managed
 * page the file never does), is an error; a run with no future at all (a program source
 * nobody recorded) says so once and evicts in heap order, i.e. arbitrarily. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uvm/uvm_internal.h"

#define NEVER UINT64_MAX

typedef struct bel {
    gms_uvm *u;
    uint64_t *seq; size_t nseq;          /* page numbers */
    int given;                           /* a future was given (file or set_future) */
    int from_file, warned, mismatch;
    uint64_t file_page_size;             /* the recording's page size (from_file) */
    int prepared; uint32_t prepared_pages;
    int progress;                        /* -gms_uvm_belady_progress */
    uint64_t refs;                       /* references of this run so far (folded) */
    uint64_t *kstart; size_t nk, kcap;   /* where each kernel begins in seq (its marks) */
    size_t kfold;                        /* no folding before this position (the last mark) */
    size_t kbegun;                       /* kernels begun in this run */
    uint32_t *occ_start, *occ_ptr;       /* per page: CSR into occ */
    uint64_t *occ;                       /* positions */
    uint32_t *heap, *pos; uint32_t nheap, cap;
} bel;

static uint64_t next_use(const bel *s, uint32_t p)
{
    uint32_t k = s->occ_start[p] + s->occ_ptr[p];
    return k < s->occ_start[p + 1] ? s->occ[k] : NEVER;
}

/* (Re)builds each page's list of positions in seq. Run again when a managed allocation
 * arrives mid-run (the page table grew): an allocation appends its pages, so a page already
 * known keeps its number and its positions, and keeps how far its references have come
 * (occ_ptr), so the resident pages' next uses, the heap's keys, stay as they were. */
static void prepare(bel *s)
{
    gms_uvm *u = s->u;
    uint32_t *old_ptr = s->occ_ptr, old_pages = s->prepared ? s->prepared_pages : 0;
    s->prepared = 1;
    s->prepared_pages = u->npages;
    free(s->occ_start); free(s->occ);
    s->occ_start = gms_xcalloc((size_t)u->npages + 1, sizeof *s->occ_start);
    s->occ_ptr = gms_xcalloc((size_t)u->npages + 1, sizeof *s->occ_ptr);
    uint32_t *pg = gms_xmalloc((s->nseq + 1) * sizeof *pg);
    for (size_t i = 0; i < s->nseq; i++) {
        pg[i] = gms_uvm_page_of(u, s->seq[i]);
        if (pg[i] != GMS_UVM_NONE) s->occ_start[pg[i] + 1]++;
    }
    for (uint32_t p = 0; p < u->npages; p++) s->occ_start[p + 1] += s->occ_start[p];
    s->occ = gms_xmalloc((s->occ_start[u->npages] + 1) * sizeof *s->occ);
    for (size_t i = 0; i < s->nseq; i++)
        if (pg[i] != GMS_UVM_NONE) s->occ[s->occ_start[pg[i]] + s->occ_ptr[pg[i]]++] = i;
    memset(s->occ_ptr, 0, ((size_t)u->npages + 1) * sizeof *s->occ_ptr);
    if (old_ptr) memcpy(s->occ_ptr, old_ptr, (old_pages < u->npages ? old_pages : u->npages) * sizeof *s->occ_ptr);
    free(old_ptr);
    free(pg);
}

/* ---- indexed max-heap on next_use ---- */
static int above(const bel *s, uint32_t a, uint32_t b)
{
    uint64_t ka = next_use(s, a), kb = next_use(s, b);
    return ka > kb || (ka == kb && a > b);
}
static void place(bel *s, uint32_t i, uint32_t p) { s->heap[i] = p; s->pos[p] = i; }
static void sift_up(bel *s, uint32_t i)
{
    uint32_t p = s->heap[i];
    while (i > 0) {
        uint32_t par = (i - 1) / 2;
        if (!above(s, p, s->heap[par])) break;
        place(s, i, s->heap[par]);
        i = par;
    }
    place(s, i, p);
}
static void sift_down(bel *s, uint32_t i)
{
    uint32_t p = s->heap[i];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        uint32_t best = p;
        if (l < s->nheap && above(s, s->heap[l], best)) { m = l; best = s->heap[l]; }
        if (r < s->nheap && above(s, s->heap[r], best)) m = r;
        if (m == i) break;
        place(s, i, s->heap[m]);
        i = m;
    }
    place(s, i, p);
}

static void ensure(bel *s)
{
    gms_uvm *u = s->u;
    if (!s->prepared || s->prepared_pages != u->npages) prepare(s);
    if (u->npages > s->cap) {
        uint32_t old = s->cap, cap = s->cap ? s->cap : 64;
        while (cap < u->npages) cap *= 2;
        s->heap = gms_xrealloc(s->heap, cap * sizeof *s->heap);
        s->pos = gms_xrealloc(s->pos, cap * sizeof *s->pos);
        for (uint32_t i = old; i < cap; i++) s->pos[i] = GMS_UVM_NONE;
        s->cap = cap;
    }
}

/* a kernel began at the current end of seq: the run folds no repeat across a kernel's start
 * (gms_uvm_kernel_begin), so neither does the sequence */
static void kernel_mark(bel *s)
{
    if (s->nk == s->kcap) {
        s->kcap = s->kcap ? 2 * s->kcap : 16;
        s->kstart = gms_xrealloc(s->kstart, s->kcap * sizeof *s->kstart);
    }
    s->kstart[s->nk++] = s->nseq;
    s->kfold = s->nseq;
}

/* appends one entry of a recorded sequence (a page number or a kernel mark), folding repeats
 * within a kernel; *cap is seq's capacity */
static void seq_append(bel *s, uint64_t v, size_t *cap)
{
    if (v == GMS_UVM_KERNEL_MARK) { kernel_mark(s); return; }
    if (s->nseq > s->kfold && s->seq[s->nseq - 1] == v) return;
    if (s->nseq == *cap) { *cap = *cap ? 2 * *cap : 1024; s->seq = gms_xrealloc(s->seq, *cap * sizeof *s->seq); }
    s->seq[s->nseq++] = v;
}

static void *create(gms_uvm *u, gms_error *err)
{
    bel *s = gms_xcalloc(1, sizeof *s);
    s->u = u;
    s->progress = u->prm->belady_progress;
    const char *path = u->prm->belady_trace;
    if (path[0]) {
        FILE *f = fopen(path, "rb");
        uint64_t hdr[2];
        if (!f || fread(hdr, sizeof hdr, 1, f) != 1 || memcmp(hdr, "GMSUVMPS", 8) || !hdr[1] || (hdr[1] & (hdr[1] - 1))) {
            if (f) fclose(f);
            free(s);
            gms_err(err, "-uvm_belady_trace: '%s' is not a page sequence written by -uvm_page_trace_out", path);
            return NULL;
        }
        size_t cap = 1 << 16;
        s->seq = gms_xmalloc(cap * sizeof *s->seq);
        uint64_t buf[4096];
        size_t got;
        while ((got = fread(buf, sizeof *buf, 4096, f)) > 0) {
            for (size_t i = 0; i < got; i++)
                seq_append(s, buf[i] == GMS_UVM_KERNEL_MARK ? buf[i] : buf[i] * hdr[1] >> u->page_shift, &cap);
        }
        fclose(f);
        if (!s->nseq) {
            free(s->seq);
            free(s);
            gms_err(err, "-uvm_belady_trace: '%s' holds no page reference (recorded from a run with no managed "
                    "access?)", path);
            return NULL;
        }
        s->given = s->from_file = 1;
        s->file_page_size = hdr[1];
    }
    return s;
}

static void destroy(void *st)
{
    bel *s = st;
    free(s->seq); free(s->occ_start); free(s->occ_ptr); free(s->occ); free(s->heap); free(s->pos);
    free(s->kstart);
    free(s);
}

static void grow(void *st, gms_uvm *u) { (void)st; (void)u; }

static void set_future(void *st, const uint64_t *vpns, size_t n)
{
    bel *s = st;
    free(s->seq);
    size_t cap = n + 1;
    s->seq = gms_xmalloc(cap * sizeof *s->seq);
    s->nseq = 0;
    s->nk = s->kfold = 0;
    for (size_t i = 0; i < n; i++) seq_append(s, vpns[i], &cap);
    s->prepared = 0;
    s->given = 1;
    s->from_file = 0;
}

/* a managed page referenced by this run that the file never references: the file was recorded
 * from another workload, other parameters or another page size. Stops the run. */
static void mismatch(bel *s, uint32_t page)
{
    gms_uvm *u = s->u;
    const gms_uvm_alloc_rec *al = gms_uvm_alloc_of_page(u, page);
    char msg[GMS_OPT_STRLEN + 1024];
    snprintf(msg, sizeof msg, "-uvm_belady_trace: '%s' does not match this run: managed page 0x%llx (allocation '%s') "
             "is referenced here but never in the file's %zu references (recorded with %llu-byte pages, this run "
             "uses %llu); record it again with -uvm_page_trace_out, or give no file",
             u->prm->belady_trace, (unsigned long long)(u->pages[page].vpn << u->page_shift), al ? al->name : "?",
             s->nseq, (unsigned long long)s->file_page_size, (unsigned long long)u->page_size);
    s->mismatch = 1;
    gms_engine_abort(u->e, msg);
}

static void access_hook(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    bel *s = st;
    ensure(s);
    if (s->occ_start[page] == s->occ_start[page + 1] && s->from_file && !s->mismatch) mismatch(s, page);
    uint32_t *ptr = &s->occ_ptr[page];
    const uint64_t *oc = s->occ + s->occ_start[page];
    uint32_t n = s->occ_start[page + 1] - s->occ_start[page];
    if (!s->progress) {
        if (*ptr < n) (*ptr)++;
    } else {
        /* this reference is the page's unconsumed occurrence nearest to position `at`; the
         * next one is its next use */
        uint64_t at = s->refs++;
        uint32_t j = *ptr;
        while (j < n && oc[j] < at) j++;
        if (j > *ptr && (j == n || at - oc[j - 1] <= oc[j] - at)) *ptr = j;
        else if (j < n) *ptr = j + 1;
        else *ptr = n;
    }
    uint32_t i = s->pos[page];
    if (i != GMS_UVM_NONE) { sift_up(s, i); sift_down(s, s->pos[page]); }
}

/* the run's k-th kernel begins where the recording's did: progress re-anchors there, so drift
 * within one kernel does not carry into the next */
static void kernel_begin(void *st)
{
    bel *s = st;
    if (s->progress && s->kbegun < s->nk) s->refs = s->kstart[s->kbegun];
    s->kbegun++;
}

static void resident(void *st, uint32_t page, uint64_t now)
{
    (void)now;
    bel *s = st;
    ensure(s);
    if (s->pos[page] != GMS_UVM_NONE) return;
    place(s, s->nheap++, page);
    sift_up(s, s->nheap - 1);
}

static void removed(void *st, uint32_t page)
{
    bel *s = st;
    uint32_t i = s->pos[page];
    if (i == GMS_UVM_NONE) return;
    s->pos[page] = GMS_UVM_NONE;
    uint32_t last = s->heap[--s->nheap];
    if (i == s->nheap) return;
    place(s, i, last);
    sift_up(s, i);
    sift_down(s, s->pos[last]);
}

static void select_belady(void *st, gms_uvm *u, uint64_t now, gms_uvm_vec *out)
{
    (void)u; (void)now;
    bel *s = st;
    if (!s->given && !s->warned) {
        s->warned = 1;
        fprintf(stderr, "gpumemsim: -uvm_eviction belady: no future page sequence was given "
                "(gms_uvm_set_future or -uvm_belady_trace); victims are chosen in arbitrary order\n");
    }
    if (s->nheap) gms_uvm_vec_push(out, s->heap[0]);
}

const gms_uvm_evict_ops gms_uvm_evict_belady = {
    .name = "belady", .uvmsmart_id = -1, .knobs = GMS_KNOBS("gms_uvm_belady_", "uvm_belady_trace"), .help = "Belady's offline optimum (needs the future page sequence)",
    .create = create, .destroy = destroy, .grow = grow, .resident = resident, .removed = removed,
    .access = access_hook, .select = select_belady, .set_future = set_future, .kernel_begin = kernel_begin,
};

int gms_uvm_wants_future(const gms_uvm *u)
{
    return u->ev->set_future && !u->prm->belady_trace[0];
}
