/* A tablebase's index (al0/tablebase/geometry.py's twin): the same
 * ordinals of the first slot's squares, the same six bits a slot, the same
 * least index of a class, so that the core's tables are the twin's byte
 * for byte. The symmetries are the core's (symmetry.c). */
#include "geometry.h"
#include "symmetry.h"

int layout_init(TableLayout *l, int men, const int *types, const int *sides)
{
    if (men < 2 || men > TABLE_MAX_MEN || types[0] != KING || sides[0] != 0)
        return -1;
    l->men = men;
    l->kings[0] = l->kings[1] = -1;
    l->pair[0] = l->pair[1] = -1;
    int pawns = 0, pawn_sides = 0;
    for (int slot = 0; slot < men; slot++) {
        l->types[slot] = types[slot];
        l->sides[slot] = sides[slot];
        if (types[slot] == KING)
            l->kings[sides[slot]] = slot;
        pawns |= types[slot] == PAWN;
        if (types[slot] == PAWN)
            pawn_sides |= 1 << sides[slot];
        for (int other = 0; other < slot; other++)
            if (types[other] == types[slot] && sides[other] == sides[slot] && types[slot] != KING
                && l->pair[0] < 0) {
                l->pair[0] = other;
                l->pair[1] = slot;
            }
    }
    if (l->kings[1] < 0)
        return -1;
    /* A pawn moves up the board: only the mirror of the files keeps its
     * moves (symmetries 0 and 1, symmetry.h). */
    l->symmetries = pawns ? 2 : 8;
    l->passant = pawn_sides == 3;
    l->group = l->symmetries * (l->pair[0] >= 0 ? 2 : 1);
    l->first_count = 0;
    for (int s = 0; s < 64; s++) {
        int least = 64;
        for (int g = 0; g < l->symmetries; g++)
            if (SQUARE_MAPS[g][s] < least)
                least = SQUARE_MAPS[g][s];
        l->first_ordinal[s] = -1;
        if (least == s) {
            l->first_ordinal[s] = l->first_count;
            l->first_square[l->first_count++] = s;
        }
        l->onto[s] = 0;
        for (int g = l->symmetries - 1; g >= 0; g--)
            if (SQUARE_MAPS[g][s] == least)
                l->onto[s] = g; /* the first such, as ONTO */
    }
    for (int s = 0; s < 64; s++) {
        l->fixer[s] = -1;
        for (int g = 1; g < l->symmetries && l->first_ordinal[s] >= 0; g++)
            if (SQUARE_MAPS[g][s] == s && l->fixer[s] < 0)
                l->fixer[s] = g;
    }
    l->size = l->first_count;
    for (int slot = men - 1; slot >= 0; slot--) {
        l->shift[slot] = 6 * (men - 1 - slot);
        if (slot)
            l->size <<= 6;
    }
    return 0;
}

long long layout_any_index(const TableLayout *l, const int *squares)
{
    const int *map = SQUARE_MAPS[l->onto[squares[0]]];
    int image[TABLE_MAX_MEN] = {0};
    for (int slot = 0; slot < l->men; slot++)
        image[slot] = map[squares[slot]];
    return layout_index(l, image);
}

int layout_stabiliser(const TableLayout *l, long long index)
{
    int squares[TABLE_MAX_MEN], image[TABLE_MAX_MEN] = {0}, count = 1;
    layout_decode(l, index, squares);
    int fixer = l->fixer[squares[0]];
    /* Only symmetries keeping the first slot's square can map the index
     * to itself; the pair exchanged alone would need its men on one square,
     * which no legal position has. */
    if (fixer >= 0) {
        for (int slot = 0; slot < l->men; slot++)
            image[slot] = SQUARE_MAPS[fixer][squares[slot]];
        if (layout_index(l, image) == index)
            count++;
        if (l->pair[0] >= 0) {
            int t = image[l->pair[0]];
            image[l->pair[0]] = image[l->pair[1]];
            image[l->pair[1]] = t;
            if (layout_index(l, image) == index)
                count++;
        }
    }
    return count;
}
