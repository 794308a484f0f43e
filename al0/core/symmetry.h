/* The board's eight symmetries (al0/board/symmetry.py's twin): where each
 * takes a square, a position under one, and the canonical orientation of a
 * position's class, which the planner plans in. */
#ifndef AL0_SYMMETRY_H
#define AL0_SYMMETRY_H

#include "position.h"

/* A symmetry by its bits: 1 flips the files, 2 the ranks, 4 then swaps
 * files and ranks; 0 is the identity. */
extern int SQUARE_MAPS[8][64];  /* where symmetry g takes a square */
extern int INVERSE[8];          /* the symmetry that undoes g */

void init_symmetry(void);
Position transform_position(const Position *p, int symmetry);
int canonical_symmetry(const Position *p, int us);

#endif
