/* The retrograde build of a tablebase (al0/tablebase/retrograde.py's
 * twin): every entry of one material's table, in plies to mate for the
 * side to move (odd: it wins, even: it is mated), RETRO_DRAW or
 * RETRO_ILLEGAL, the same bytes as the numpy build. */
#ifndef AL0_RETROGRADE_H
#define AL0_RETROGRADE_H

#include "geometry.h"

#define RETRO_DRAW 254
#define RETRO_ILLEGAL 255
#define RETRO_MAX_PLIES 253
#define RETRO_MAX_THREADS 64

/* A move that leaves the material (a capture; a promotion, once pawns
 * come): its position is looked up in a table built before, never
 * un-moved into. */
typedef struct {
    int slot;                         /* the man taken */
    TableLayout layout;               /* the smaller table's */
    int mapping[TABLE_MAX_MEN];       /* for each of its slots, the slot here */
    int swapped;                      /* its first side is our second */
    const uint8_t *values;            /* its two rows, every index filled */
} RetroExit;

/* Fills `values` (two rows of layout->size bytes, the first side to move
 * first) for the material of `layout`, given the tables its exits lead
 * to (at most one exit per slot). Returns the plies of the last level, or
 * -1 when memory runs out. Runs on up to `threads` threads where there
 * are pthreads (the same bytes whatever the count). */
int retrograde_build(const TableLayout *layout, const RetroExit *exits, int exit_count, int threads,
                     uint8_t *values);

#endif
