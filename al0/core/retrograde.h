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

/* A move that leaves the material, a capture or a promotion: its position
 * is looked up in a table built before, never un-moved into. */
typedef struct {
    int taken;                        /* the slot of the man taken, -1 for none */
    int promoted;                     /* the slot of the pawn that promotes, -1 for none */
    int promotion;                    /* the piece it becomes, 0 for none */
    TableLayout layout;               /* the table it leads to */
    int mapping[TABLE_MAX_MEN];       /* for each of its slots, the slot here */
    int swapped;                      /* its first side is our second */
    const uint8_t *values;            /* its two rows, every index filled */
} RetroExit;

/* The most exits a build has: a capture of each man, and each pawn's
 * four promotions, taking each man or none. */
#define RETRO_MAX_EXITS (TABLE_MAX_MEN + TABLE_MAX_MEN * 4 * (TABLE_MAX_MEN + 1))

/* The pieces a pawn may become. */
extern const int RETRO_PROMOTIONS[4];

/* Fills `values` (two rows of layout->size bytes, the first side to move
 * first) for the material of `layout`, given the tables its exits lead
 * to (one per man taken, pawn promoted and piece it becomes; all of them:
 * _core.c checks). Returns the plies of the
 * last level, or -1 when memory runs out. Runs on up to `threads` threads
 * where there are pthreads (the same bytes whatever the count). A table
 * with pawns has the first side's pawns going up the board (White's). */
int retrograde_build(const TableLayout *layout, const RetroExit *exits, int exit_count, int threads,
                     uint8_t *values);

#endif
