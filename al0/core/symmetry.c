/* The symmetries of a board as al0/board/symmetry.py computes them: the
 * same square maps, and the same canonical symmetry (the least squares of
 * the men, our king first; with pawns, which keep only the file mirror,
 * our king on the files a-d), so that a plan made here in the canonical
 * orientation is the twin's. */
#include "symmetry.h"

int SQUARE_MAPS[8][64];
int INVERSE[8];

/* The symmetries that take a square to the least square of its orbit (in
 * the a1-d1-d4 triangle), in ascending order: one, or two on a long
 * diagonal. */
static int LEAST[64][2], LEAST_COUNT[64];

static int image(int symmetry, int square)
{
    int x = square & 7, y = square >> 3;
    if (symmetry & 1)
        x = 7 - x;
    if (symmetry & 2)
        y = 7 - y;
    return symmetry & 4 ? x * 8 + y : y * 8 + x;
}

void init_symmetry(void)
{
    for (int g = 0; g < 8; g++)
        for (int s = 0; s < 64; s++)
            SQUARE_MAPS[g][s] = image(g, s);
    for (int g = 0; g < 8; g++)
        for (int h = 0; h < 8; h++) {
            int undoes = 1;
            for (int s = 0; s < 64 && undoes; s++)
                undoes = SQUARE_MAPS[h][SQUARE_MAPS[g][s]] == s;
            if (undoes) {
                INVERSE[g] = h;
                break;
            }
        }
    for (int s = 0; s < 64; s++) {
        int least = 64;
        for (int g = 0; g < 8; g++)
            if (SQUARE_MAPS[g][s] < least)
                least = SQUARE_MAPS[g][s];
        LEAST_COUNT[s] = 0;
        for (int g = 0; g < 8; g++)
            if (SQUARE_MAPS[g][s] == least && LEAST_COUNT[s] < 2)
                LEAST[s][LEAST_COUNT[s]++] = g;
    }
}

static Bitboard transform_bitboard(Bitboard b, int symmetry)
{
    Bitboard image = 0;
    for (; b; b &= b - 1)
        image |= BB(SQUARE_MAPS[symmetry][lsb(b)]);
    return image;
}

Position transform_position(const Position *p, int symmetry)
{
    Position image = *p;
    if (!symmetry)
        return image;
    Bitboard *fields[8] = {&image.white, &image.black, &image.kings, &image.queens, &image.rooks,
                           &image.bishops, &image.knights, &image.pawns};
    for (int i = 0; i < 8; i++)
        *fields[i] = transform_bitboard(*fields[i], symmetry);
    if (image.ep_square >= 0)
        image.ep_square = SQUARE_MAPS[symmetry][image.ep_square];
    return image;
}

/* How the squares of one group of men (one side's men of one kind) compare
 * under symmetries g and h: their images, each sorted, compared as lists
 * (the two lists are as long). */
static int compare_group(Bitboard group, int g, int h)
{
    Bitboard a = transform_bitboard(group, g), b = transform_bitboard(group, h);
    for (; a; a &= a - 1, b &= b - 1)
        if (lsb(a) != lsb(b))
            return lsb(a) < lsb(b) ? -1 : 1;
    return 0;
}

/* symmetry.canonical_symmetry: of the symmetries that take our king to its
 * least square, the one giving the least squares to the men in the order
 * our king, queens, rooks, bishops, knights, then theirs (the first such
 * when several tie: the position is then symmetric). */
int canonical_symmetry(const Position *p, int us)
{
    Bitboard ours = side_of(p, us), king = p->kings & ours;
    int square = king ? msb(king) : 63;  /* as Python's bit_length() - 1 of none */
    if (p->pawns)  /* only the file mirror keeps a pawn's way: our king to the files a-d */
        return (square & 7) > 3 ? 1 : 0;
    if (LEAST_COUNT[square] == 1)
        return LEAST[square][0];
    Bitboard sides[2] = {ours, (p->white | p->black) & ~ours};
    Bitboard kinds[5] = {p->kings, p->queens, p->rooks, p->bishops, p->knights};
    int best = LEAST[square][0], other = LEAST[square][1];
    for (int side = 0; side < 2; side++)
        for (int kind = 0; kind < 5; kind++) {
            int order = compare_group(kinds[kind] & sides[side], other, best);
            if (order)
                return order < 0 ? other : best;
        }
    return best;
}
