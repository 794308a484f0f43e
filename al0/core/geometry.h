/* The index of a tablebase (al0/tablebase/geometry.py's Layout): one
 * material's men in slots, a position as the squares of its slots, and the
 * index of a position's class under the symmetries the material allows.
 *
 * The first slot (the first side's king) takes only the least square of
 * each orbit of the symmetries; every other slot takes any of the 64
 * squares, six bits each, most significant first. Which symmetries a
 * material allows is the one thing that depends on its men: all 8 of the
 * board without pawns (the first king in the a1-d1-d4 triangle), the file
 * mirror alone with pawns (the first king on files a-d). */
#ifndef AL0_GEOMETRY_H
#define AL0_GEOMETRY_H

#include "symmetry.h"

#define TABLE_MAX_MEN 4

typedef struct {
    int men;
    int types[TABLE_MAX_MEN];   /* KING, QUEEN, ... (position.h) per slot */
    int sides[TABLE_MAX_MEN];   /* 0: the first side's man, 1: the second's */
    int kings[2];               /* the slots of the first and second king */
    int pair[2];                /* two slots of like men of one side, or -1 */
    int symmetries;             /* how many of the board's symmetries keep a
                                   position's value: 8, or 2 (0 and 1) with pawns */
    int group;                  /* ordered images of a position: symmetries,
                                   times the two orders of a pair */
    int passant;                /* both sides have pawns: one may take en passant */
    int first_count;            /* squares the first slot takes */
    int first_square[64];       /* by ordinal */
    int first_ordinal[64];      /* by square, -1 where the first slot never stands */
    int onto[64];               /* a symmetry taking a square to its orbit's least */
    int fixer[64];              /* for a least square, the symmetry other than the
                                   identity that keeps it (a diagonal's), or -1 */
    int shift[TABLE_MAX_MEN];   /* each slot's place in the index, in bits */
    long long size;             /* indices per side to move */
} TableLayout;

/* The layout of men of these types and sides (the first side's king in
 * slot 0); -1 for more men than TABLE_MAX_MEN or a slot 0 that is no king. */
int layout_init(TableLayout *layout, int men, const int *types, const int *sides);

/* The squares of every slot at `index`. */
static inline void layout_decode(const TableLayout *l, long long index, int *squares)
{
    squares[0] = l->first_square[index >> l->shift[0]];
    for (int slot = 1; slot < l->men; slot++)
        squares[slot] = (int)(index >> l->shift[slot]) & 63;
}

/* The index of squares whose first slot stands on a least square. */
static inline long long layout_index(const TableLayout *l, const int *squares)
{
    long long index = (long long)l->first_ordinal[squares[0]] << l->shift[0];
    for (int slot = 1; slot < l->men; slot++)
        index |= (long long)squares[slot] << l->shift[slot];
    return index;
}

/* The index of any squares: through the symmetry that takes the first
 * slot to its least square (every index of a class holds its value). */
long long layout_any_index(const TableLayout *l, const int *squares);

/* The least index of squares and of the same with the pair's two slots
 * exchanged. */
static inline long long least_order(const TableLayout *l, int *squares)
{
    long long index = layout_index(l, squares);
    if (l->pair[0] >= 0) {
        int a = l->pair[0], b = l->pair[1], t = squares[a];
        squares[a] = squares[b];
        squares[b] = t;
        long long swapped = layout_index(l, squares);
        squares[b] = squares[a];
        squares[a] = t;
        if (swapped < index)
            index = swapped;
    }
    return index;
}

/* The least index of the class of `squares` (Layout.canonical); `placed`:
 * the first slot stands on a least square already. Inline: every un-move
 * of a build asks it. */
static inline long long layout_canonical(const TableLayout *l, const int *squares, int placed)
{
    int image[TABLE_MAX_MEN] = {0};
    const int *map = SQUARE_MAPS[placed ? 0 : l->onto[squares[0]]];
    for (int slot = 0; slot < l->men; slot++)
        image[slot] = map[squares[slot]];
    long long index = least_order(l, image);
    int fixer = l->fixer[image[0]];
    if (fixer >= 0) {
        /* The first slot on a square its symmetry keeps (a1-d4's diagonal):
         * the reflected position has an index of its own. */
        for (int slot = 0; slot < l->men; slot++)
            image[slot] = SQUARE_MAPS[fixer][image[slot]];
        long long reflected = least_order(l, image);
        if (reflected < index)
            index = reflected;
    }
    return index;
}


/* How many ordered images of the legal position at `index` have that index
 * (its stabiliser: 1, or 2 for some with the first king on a diagonal). */
int layout_stabiliser(const TableLayout *l, long long index);

#endif
