/* CART internals for the unit tests (l2q_cart.c): build a tree state by hand (spec 000a
 * Fig. 2.6) and check the tree's invariants after any operation. */
#ifndef GMS_MEM_L2Q_CART_H
#define GMS_MEM_L2Q_CART_H
#include <stddef.h>
#include <stdint.h>
#include "mem/l2q.h"

/* the coordinates CART files a request under: DRAM bank, row, and the line-granular column
 * (the column of the 128 B-aligned address), from the slice's decoder; without one (unit
 * tests) line = addr >> 7, col = line & 31, bank = (line >> 5) & 15, row = line >> 9 */
typedef struct gms_cart_coord { uint32_t bank, row, col; } gms_cart_coord;
gms_cart_coord gms_l2q_cart_coord(const void *self, uint64_t addr);

/* append r at the tail of leaf queue `slot` of row group `group` in branch `bank`, tagging
 * the queue (row, col) if it is empty (and the group `row` if it is free); queues filled
 * earlier count as older for the same-tag rule. Bypasses the fill policy and the sizes'
 * entry limit (the figure's queues hold up to 5). */
void gms_l2q_cart_place(void *self, uint32_t bank, uint32_t group, uint32_t slot, uint32_t row, uint32_t col,
                        gms_mreq *r);
/* 0 if every invariant holds, else -1 with the first broken one in why: counts agree
 * (queues, groups, branches, the non-empty mask, the total), every queue within nE unless
 * placed by hand, one row group per row in a branch, every queue's tag is its group's row,
 * and with a decoder every request sits under its own (bank, row, col) */
int gms_l2q_cart_check(const void *self, char *why, size_t n);

#endif
