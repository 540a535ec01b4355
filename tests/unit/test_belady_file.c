/* Belady's future file (-uvm_belady_trace): an empty recording and a recording of another run
 * are errors naming the file and what does not match. */
#include "test_uvm_util.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PG 4096ULL
#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }

/* a recording as -uvm_page_trace_out writes it: header, page size, page numbers */
static void write_seq(const char *path, const uint64_t *pages, int n)
{
    FILE *f = fopen(path, "wb");
    uint64_t hdr[2];
    memcpy(hdr, "GMSUVMPS", 8);
    hdr[1] = PG;
    fwrite(hdr, sizeof hdr, 1, f);
    for (int i = 0; i < n; i++) {
        uint64_t vpn = (UVM_BASE >> 12) + pages[i];
        fwrite(&vpn, sizeof vpn, 1, f);
    }
    fclose(f);
}

TEST(uvm_belady_empty_file_is_an_error)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/gms_test_belady_empty_%d.seq", (int)getpid());
    write_seq(path, NULL, 0);
    uvm_h h;
    CHECK(uvm_h_init(&h, 1, OPTS("uvm_eviction", "belady", "uvm_belady_trace", path)) != 0);
    CHECK_CONTAINS(h.err.msg, path);
    CHECK_CONTAINS(h.err.msg, "holds no page reference");
    uvm_h_free(&h);   /* whatever the init left built */
    remove(path);
}

TEST(uvm_belady_mismatched_file_is_an_error)
{
    /* the file knows pages 0, 1, 2; this run references page 0 (fine), then page 5, which
     * the file never references: the run stops naming the file, the page and its allocation */
    char path[128];
    snprintf(path, sizeof path, "/tmp/gms_test_belady_other_%d.seq", (int)getpid());
    static const uint64_t pages[] = { 0, 1, 2, 0, 1, 2 };
    write_seq(path, pages, 6);
    uvm_h h;
    REQUIRE(uvm_h_start(&h, 1, OPTS("uvm_eviction", "belady", "uvm_belady_trace", path, "hardware_prefetch", "0"),
                        1 << 20) == 0);
    CHECK(uvm_h_access_wait(&h, 0, UVM_BASE, GMS_MREQ_READ) != UINT64_MAX);
    CHECK(uvm_h_access_wait(&h, 0, UVM_BASE + 5 * PG, GMS_MREQ_READ) == UINT64_MAX);
    CHECK_CONTAINS(h.err.msg, path);
    CHECK_CONTAINS(h.err.msg, "does not match this run");
    CHECK_CONTAINS(h.err.msg, "0x7f0000005000");
    CHECK_CONTAINS(h.err.msg, "allocation 'a'");
    uvm_h_free(&h);
    remove(path);
}
