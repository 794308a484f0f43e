/* The standard vocabulary in C, entry by entry as al0/lang/vocabulary/
 * defines it (each function names its Python twin); a differential test
 * holds every one equal to the twin on seeded positions. */
#include <math.h>
#include "vocabulary.h"
#include "moves.h"

/* By number, as names.h (written from the registry) numbers them. */
const char *FEATURE_NAMES[FEATURE_COUNT] = {FEATURE_NAME_LIST};
const char *PREDICATE_NAMES[PREDICATE_COUNT] = {PREDICATE_NAME_LIST};
const char *GENERATOR_NAMES[GENERATOR_COUNT] = {GENERATOR_NAME_LIST};

#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL
#define LIGHT_SQUARES 0x55AA55AA55AA55AAULL

/* geometry's square tables: king-step and Manhattan distances, distance
 * to the edge, the centre-side square (distances.centre_side_dist), the
 * squares farther from the edge (boxes.inward). */
static int DIST[64][64], MDIST[64][64], EDGE_DIST[64], CENTRE_SIDE[64];
/* distances._KNIGHT_DIST: knight moves between two squares of the empty board. */
static int KNIGHT_DIST[64][64];
static Bitboard FARTHER_FROM_EDGE[64];
/* pawns.key_squares_of, by the pawn's colour (1: White) and square. */
static Bitboard KEY_SQUARES[2][64];
static const int CORNERS_ANY[4] = {0, 7, 56, 63};  /* a1 h1 a8 h8 */
static const int CORNERS_DARK[2] = {0, 63};        /* a1 h8 */
static const int CORNERS_LIGHT[2] = {7, 56};       /* h1 a8 */

static int iabs(int x) { return x < 0 ? -x : x; }
static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

/* pawns.relative_rank: a square's rank counted from a colour's side, 1 to 8. */
static int relative_rank(int square, int colour) { return colour ? (square >> 3) + 1 : 8 - (square >> 3); }

/* pawns.moves_to_promote: one a rank, one fewer from the start rank. */
static int moves_to_promote(int square, int colour)
{
    int rank = relative_rank(square, colour);
    return 8 - rank - (rank == 2);
}

/* pawns.promotion_square_of. */
static int promotion_square(int square, int colour) { return (colour ? 56 : 0) + (square & 7); }

/* pawns.key_squares_of for every square and colour: a rook pawn's are the
 * neighbouring file's last two squares; another's the three squares two
 * ranks in front, from its fifth rank one rank in front too, on its
 * seventh those beside it and in front of it. */
static void init_key_squares(void)
{
    for (int colour = 0; colour < 2; colour++)
        for (int s = 8; s < 56; s++) {
            int x = s & 7, y = s >> 3, step = colour ? 1 : -1, rank = relative_rank(s, colour);
            Bitboard keys = 0;
            if (x == 0 || x == 7) {
                int file = x == 0 ? 1 : 6;
                keys = BB((colour ? 7 : 0) * 8 + file) | BB((colour ? 6 : 1) * 8 + file);
            } else {
                int lo = rank <= 4 ? 2 : rank <= 6 ? 1 : 0, hi = rank <= 6 ? 2 : 1;
                for (int ahead = lo; ahead <= hi; ahead++)
                    for (int f = x - 1; f <= x + 1; f++) {
                        int r = y + step * ahead;
                        if (r >= 0 && r < 8 && !(ahead == 0 && f == x))
                            keys |= BB(r * 8 + f);
                    }
            }
            KEY_SQUARES[colour][s] = keys;
        }
}

/* pawns.opposition_between: squares between two kings on one file, rank or
 * diagonal when that number is odd (1, 3 or 5); else 0. */
static int opposition_between(int a, int b)
{
    int dx = iabs((a & 7) - (b & 7)), dy = iabs((a >> 3) - (b >> 3));
    if (dx && dy && dx != dy)
        return 0;
    int apart = imax(dx, dy);
    return apart % 2 == 0 ? apart - 1 : 0;
}

/* distances._knight_moves_from for every square: a breadth-first walk
 * over KNIGHT_ATTACKS (position.c's init_tables fills it first). */
static void init_knight_dist(void)
{
    for (int a = 0; a < 64; a++) {
        Bitboard seen = BB(a), frontier = BB(a);
        KNIGHT_DIST[a][a] = 0;
        for (int steps = 1; frontier; steps++) {
            Bitboard reached = 0;
            for (Bitboard f = frontier; f; f &= f - 1)
                reached |= KNIGHT_ATTACKS[lsb(f)];
            reached &= ~seen;
            for (Bitboard r = reached; r; r &= r - 1)
                KNIGHT_DIST[a][lsb(r)] = steps;
            seen |= reached;
            frontier = reached;
        }
    }
}

void init_vocabulary(void)
{
    for (int a = 0; a < 64; a++) {
        int ax = a & 7, ay = a >> 3;
        EDGE_DIST[a] = imin(imin(ax, 7 - ax), imin(ay, 7 - ay));
        for (int b = 0; b < 64; b++) {
            int dx = iabs(ax - (b & 7)), dy = iabs(ay - (b >> 3));
            DIST[a][b] = imax(dx, dy);
            MDIST[a][b] = dx + dy;
        }
        /* distances._towards_centre, in the same double arithmetic. */
        double dx = 3.5 - ax, dy = 3.5 - ay;
        double longest = fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy);
        CENTRE_SIDE[a] = (ay + (int)floor(dy / longest + 0.5)) * 8 + ax + (int)floor(dx / longest + 0.5);
    }
    init_key_squares();
    init_knight_dist();
    for (int s = 0; s < 64; s++) {
        FARTHER_FROM_EDGE[s] = 0;
        for (int t = 0; t < 64; t++)
            if (EDGE_DIST[t] > EDGE_DIST[s])
                FARTHER_FROM_EDGE[s] |= BB(t);
    }
}

void node_init(Node *node, const Position *p, int us, int depth)
{
    node->p = p;
    node->us = us;
    node->depth = depth;
    node->box_known[0] = node->box_known[1] = 0;
}

/* terms.PieceRef: the side a piece plays for, and its square (-1: gone). */
int piece_colour(const Node *node, int piece) { return (piece >> 5) ? node->us : !node->us; }

int piece_square(const Node *node, int piece)
{
    Bitboard mask = type_mask(node->p, (piece >> 2) & 7) & side_of(node->p, piece_colour(node, piece));
    for (int i = piece & 3; i > 0 && mask; i--)
        mask &= mask - 1;  /* drop the lowest square: the next of its kind */
    return mask ? lsb(mask) : -1;
}

/* geometry._spread: a region and every square a king step away. The shifts
 * along a rank drop what would wrap to the other edge. */
static Bitboard spread(Bitboard region)
{
    Bitboard row = region | ((region >> 1) & ~FILE_H) | ((region << 1) & ~FILE_A);
    return row | (row << 8) | (row >> 8);
}

/* geometry._region: the squares reached from start by king steps that never
 * enter barrier (a flood fill, grown until it stops growing). */
static Bitboard region_of(Bitboard start, Bitboard barrier)
{
    Bitboard region = start;
    for (;;) {
        Bitboard grown = region | (spread(region) & ~barrier);
        if (grown == region)
            return region;
        region = grown;
    }
}

/* boxes._area_attacks: the squares the other side attacks, lines seen
 * through the king on square. */
static Bitboard area_attacks(const Node *node, int king, int square)
{
    Bitboard occupied = (node->p->white | node->p->black) & ~BB(square);
    return side_attacks(node->p, !piece_colour(node, king), occupied, 1);
}

/* boxes._AreaRegion: the squares of area(king), 0 when it is gone; kept per node. */
static Bitboard box(Node *node, int king)
{
    if (king < 0)
        return 0;  /* a colour constant where a king belongs: no box */
    int side = king >> 5;
    if (!node->box_known[side]) {
        int square = piece_square(node, king);
        node->box[side] = square < 0 ? 0 : region_of(BB(square),
            area_attacks(node, king, square) | side_of(node->p, piece_colour(node, king)));
        node->box_known[side] = 1;
    }
    return node->box[side];
}

/* geometry._corner_squares: the corners of a colour argument; 0 corners
 * when the piece naming it is gone. */
static int corner_squares(const Node *node, int colour, const int **corners)
{
    if (colour >= 0) {
        int square = piece_square(node, colour);
        if (square < 0)
            return 0;
        colour = (LIGHT_SQUARES & BB(square)) ? LIGHT : DARK;
    }
    if (colour == LIGHT) { *corners = CORNERS_LIGHT; return 2; }
    if (colour == DARK) { *corners = CORNERS_DARK; return 2; }
    *corners = CORNERS_ANY;
    return 4;
}

/* corners._TriangleCorners: 1 + the least, over the corners, of the most
 * Manhattan steps from the corner to a square of the box (0 without a box
 * or corners); nearest gets the corners of that least reach as a bit set
 * over the corner list. */
static int triangle(Node *node, int king, int colour, const int **corners, int *count, int *nearest)
{
    Bitboard region = box(node, king);
    *count = corner_squares(node, colour, corners);
    if (!region || !*count)
        return 0;
    int reach[4], least = 99;
    for (int c = 0; c < *count; c++) {
        reach[c] = 0;
        for (Bitboard b = region; b; b &= b - 1)
            reach[c] = imax(reach[c], MDIST[(*corners)[c]][lsb(b)]);
        least = imin(least, reach[c]);
    }
    *nearest = 0;
    for (int c = 0; c < *count; c++)
        if (reach[c] == least)
            *nearest |= 1 << c;
    return 1 + least;
}

/* boxes._free_steps: where a king could step (not its own side's squares,
 * not attacked, lines seen through the king). */
static Bitboard free_steps(const Node *node, int king, int square)
{
    int colour = piece_colour(node, king);
    Bitboard occupied = (node->p->white | node->p->black) & ~BB(square);
    return KING_ATTACKS[square] & ~side_of(node->p, colour)
         & ~side_attacks(node->p, !colour, occupied, 1);
}

/* corners._diagonal_measure: 8 times the farthest diagonal of a box from
 * a corner (Manhattan steps), plus the box's squares on that diagonal. */
static int diagonal_measure(int corner, Bitboard region)
{
    int far = 0, on = 0;
    for (Bitboard r = region; r; r &= r - 1)
        far = imax(far, MDIST[corner][lsb(r)]);
    for (Bitboard r = region; r; r &= r - 1)
        on += MDIST[corner][lsb(r)] == far;
    return 8 * far + on;
}

/* corners.wrong_way: diagonal_measure from the nearest corner of the
 * colour, of the part of the box at least as near (Manhattan) to the
 * nearest corner of the other colour as to that colour's other corner;
 * the least over corners tied for nearest. */
static int wrong_way(Node *node, int king, int colour)
{
    Bitboard region = box(node, king);
    int square = piece_square(node, king);
    const int *right;
    int count = corner_squares(node, colour, &right);
    if (!region || square < 0 || count != 2)  /* a colour is required: two corners */
        return NO_VALUE;
    int wrong[2], n = 0, least = INT_MAX;
    for (int c = 0; c < 4; c++)
        if (CORNERS_ANY[c] != right[0] && CORNERS_ANY[c] != right[1])
            wrong[n++] = CORNERS_ANY[c];
    int near_right = imin(DIST[square][right[0]], DIST[square][right[1]]);
    int near_wrong = imin(DIST[square][wrong[0]], DIST[square][wrong[1]]);
    for (int r = 0; r < 2; r++) {
        if (DIST[square][right[r]] != near_right)
            continue;
        for (int w = 0; w < 2; w++) {
            if (DIST[square][wrong[w]] != near_wrong)
                continue;
            int towards = wrong[w], other = wrong[1 - w];
            Bitboard part = 0;
            for (Bitboard b = region; b; b &= b - 1)
                if (MDIST[towards][lsb(b)] <= MDIST[other][lsb(b)])
                    part |= BB(lsb(b));
            least = imin(least, part ? diagonal_measure(right[r], part) : 0);
        }
    }
    return least;
}

static int corner_dist(const Node *node, int piece, int colour)
{
    int x = piece_square(node, piece);
    const int *corners;
    int count = corner_squares(node, colour, &corners), least = 99;
    if (x < 0 || !count)
        return NO_VALUE;
    for (int c = 0; c < count; c++)
        least = imin(least, DIST[x][corners[c]]);
    return least;
}

/* tactics._type_attacks: what a piece of type would attack from square. */
static Bitboard type_attacks(int type, int square, Bitboard occupied)
{
    if (type == KNIGHT)
        return KNIGHT_ATTACKS[square];
    if (type == KING)
        return KING_ATTACKS[square];
    Bitboard found = 0;
    if (type == ROOK || type == QUEEN)
        found |= rook_attacks(square, occupied);
    if (type == BISHOP || type == QUEEN)
        found |= bishop_attacks(square, occupied);
    return found;
}

static Bitboard sliders(const Position *p, int colour)
{
    return (p->bishops | p->rooks | p->queens) & side_of(p, colour);
}

/* tactics.pinned: a slider of the other side sees the piece's king through
 * the piece, and only through it. */
/* tactics._attackers_after: those of ``men`` that attack ``square`` with
 * ``occupied`` blocking their lines (a board where one man has moved). */
static Bitboard attackers_after(const Position *p, Bitboard men, int square, Bitboard occupied)
{
    Bitboard found = 0;
    for (; men; men &= men - 1)
        if (attacks_from(p, lsb(men), occupied) & BB(square))
            found |= men & -men;
    return found;
}

/* tactics.safe_checks: of the checks the piece could give, those onto a
 * square the other side does not attack once it stands there, or its own
 * side defends. */
static int safe_checks(const Node *node, int piece, int x)
{
    const Position *p = node->p;
    int colour = piece_colour(node, piece), king = king_square(p, !colour);
    if (king < 0)
        return 0;
    Bitboard occupied = p->white | p->black;
    Bitboard moves = attacks_from(p, x, occupied) & ~side_of(p, colour);
    Bitboard own = side_of(p, colour) & ~BB(x);
    int count = 0;
    for (Bitboard t = moves & type_attacks((piece >> 2) & 7, king, occupied & ~BB(x)); t; t &= t - 1) {
        int target = lsb(t);
        Bitboard after = (occupied & ~BB(x)) | BB(target);
        Bitboard other = side_of(p, !colour) & ~BB(target);
        count += !attackers_after(p, other, target, after) || attackers_after(p, own, target, after);
    }
    return count;
}

static int pinned(const Node *node, int piece, int x)
{
    const Position *p = node->p;
    int colour = piece_colour(node, piece), king = king_square(p, colour);
    if (x < 0 || king < 0)
        return 0;
    Bitboard occupied = p->white | p->black;
    for (Bitboard b = sliders(p, !colour); b; b &= b - 1) {
        int line = lsb(b);
        if ((attacks_from(p, line, occupied & ~BB(x)) & BB(king))
            && !(attacks_from(p, line, occupied) & BB(king)))
            return 1;
    }
    return 0;
}

/* tactics.forked (skewer 0) and tactics.skewered (skewer 1): a piece that
 * checks the piece's king attacks the piece too, or (a slider) sees it
 * through the king only. */
static int check_tactic(const Node *node, int piece, int x, int skewer)
{
    const Position *p = node->p;
    int colour = piece_colour(node, piece), king = king_square(p, colour);
    if (x < 0 || king < 0)
        return 0;
    Bitboard occupied = p->white | p->black;
    Bitboard checkers = attackers(p, !colour, king);
    if (skewer)
        checkers &= sliders(p, !colour);
    for (; checkers; checkers &= checkers - 1) {
        int checker = lsb(checkers);
        Bitboard seen = attacks_from(p, checker, occupied);
        if (skewer)
            seen = attacks_from(p, checker, occupied & ~BB(king)) & ~seen;
        if (seen & BB(x))
            return 1;
    }
    return 0;
}

/* placement.cut_off: a rook or queen of the other side has its file
 * strictly between the piece's and its king's, or its rank so. */
static int cut_off(const Node *node, int piece, int x)
{
    const Position *p = node->p;
    int colour = piece_colour(node, piece), king = king_square(p, colour);
    if (x < 0 || king < 0)
        return 0;
    int px = x & 7, py = x >> 3, kx = king & 7, ky = king >> 3;
    for (Bitboard b = (p->rooks | p->queens) & side_of(p, !colour); b; b &= b - 1) {
        int lx = lsb(b) & 7, ly = lsb(b) >> 3;
        if ((imin(px, kx) < lx && lx < imax(px, kx)) || (imin(py, ky) < ly && ly < imax(py, ky)))
            return 1;
    }
    return 0;
}

/* defences.philidor: the rook one diagonal step in from a corner, its king
 * beside both and not in check, the queen's king two steps in, the queen a
 * knight's move from her king and from the rook. */
static int philidor(const Node *node, int queen_piece, int rook_piece)
{
    static const int STEPS[4][3] = {{0, 9, 18}, {7, 14, 21}, {56, 49, 42}, {63, 54, 45}};
    const Position *p = node->p;
    int queen = piece_square(node, queen_piece), rook = piece_square(node, rook_piece);
    if (queen < 0 || rook < 0)
        return 0;
    int ours = king_square(p, piece_colour(node, queen_piece));
    int theirs = king_square(p, piece_colour(node, rook_piece));
    if (ours < 0 || theirs < 0)
        return 0;
    for (int c = 0; c < 4; c++) {
        int corner = STEPS[c][0];
        if (rook != STEPS[c][1] || ours != STEPS[c][2] || theirs == corner)
            continue;
        int beside = DIST[theirs][corner] == 1 && DIST[theirs][rook] == 1;
        Bitboard knight = KNIGHT_ATTACKS[queen];
        if (beside && (knight & BB(ours)) && (knight & BB(rook)))
            return !(type_attacks(QUEEN, queen, p->white | p->black) & BB(theirs));
    }
    return 0;
}

/* defences._rank_defence: the piece diagonally next to its king, the king
 * king_line lines in from its nearest edge, the piece one line farther in. */
static int rank_defence(const Node *node, int piece, int x, int king_line)
{
    int king = king_square(node->p, piece_colour(node, piece));
    if (x < 0 || king < 0 || DIST[king][x] != 1 || (king & 7) == (x & 7) || (king >> 3) == (x >> 3))
        return 0;
    int k[4] = {king & 7, 7 - (king & 7), king >> 3, 7 - (king >> 3)};
    int s[4] = {x & 7, 7 - (x & 7), x >> 3, 7 - (x >> 3)};
    if (imin(imin(k[0], k[1]), imin(k[2], k[3])) != king_line)
        return 0;  /* the king's nearest edge only */
    for (int e = 0; e < 4; e++)
        if (k[e] == king_line && s[e] == king_line + 1)
            return 1;
    return 0;
}

int feature(Node *node, int id, const int *args)
{
    const Position *p = node->p;
    int a = args[0], b = args[1], c = args[2];
    int x = a >= 0 ? piece_square(node, a) : -1;
    switch (id) {
    case F_DIST: case F_MDIST: case F_KNIGHT_DIST: case F_CENTRE_SIDE_DIST: {
        int y = piece_square(node, b);
        if (x < 0 || y < 0)
            return NO_VALUE;
        if (id == F_KNIGHT_DIST)
            return KNIGHT_DIST[x][y];
        return id == F_DIST ? DIST[x][y] : id == F_MDIST ? MDIST[x][y] : DIST[x][CENTRE_SIDE[y]];
    }
    case F_EDGE_DIST:
        return x < 0 ? NO_VALUE : EDGE_DIST[x];
    case F_PAWN_RANK:
        return x < 0 ? NO_VALUE : relative_rank(x, piece_colour(node, a));
    case F_PAWN_FILE:
        return x < 0 ? NO_VALUE : imin(x & 7, 7 - (x & 7)) + 1;
    case F_PROMOTION_DIST:
        return x < 0 ? NO_VALUE : moves_to_promote(x, piece_colour(node, a));
    case F_PROMOTION_SQUARE_DIST: {
        int y = piece_square(node, b);
        if (x < 0 || y < 0)
            return NO_VALUE;
        return DIST[x][promotion_square(y, piece_colour(node, b))];
    }
    case F_KEY_SQUARE_DIST: {
        int y = piece_square(node, b), least = 99;
        if (x < 0 || y < 0)
            return NO_VALUE;
        for (Bitboard keys = KEY_SQUARES[piece_colour(node, b)][y]; keys; keys &= keys - 1)
            least = imin(least, DIST[x][lsb(keys)]);
        return least;
    }
    case F_CORNER_DIST:
        return corner_dist(node, a, b);
    case F_ROOM: {
        /* boxes.room: 64 when gone or standing on the barrier itself. */
        if (x < 0)
            return 64;
        int other = !piece_colour(node, a);
        Bitboard without_kings = (p->white | p->black) & ~p->kings;
        Bitboard barrier = side_attacks(p, other, without_kings, 0) | (side_of(p, other) & ~p->kings);
        return (barrier & BB(x)) ? 64 : popcount(region_of(BB(x), barrier));
    }
    case F_AREA:
        return popcount(box(node, a));
    case F_LEAST_AREA: {
        /* boxes.least_area: in check, the least box next to the king it can step into. */
        if (x < 0)
            return 0;
        Bitboard attacked = area_attacks(node, a, x);
        if (!(attacked & BB(x)))
            return popcount(box(node, a));
        Bitboard barrier = attacked | side_of(p, piece_colour(node, a));
        Bitboard exits = spread(BB(x)) & ~barrier;
        int least = 0;
        while (exits) {
            Bitboard one = region_of(exits & (~exits + 1), barrier);
            int size = popcount(one);
            least = !least ? size : imin(least, size);
            exits &= ~one;
        }
        return least;
    }
    case F_AREA_CORNER_DIST: {
        Bitboard squares = box(node, a);
        const int *corners;
        int count = corner_squares(node, b, &corners), least = 99;
        if (!squares || !count)
            return NO_VALUE;
        for (; squares; squares &= squares - 1)
            for (int k = 0; k < count; k++)
                least = imin(least, DIST[lsb(squares)][corners[k]]);
        return least;
    }
    case F_CORNER_TRIANGLE: {
        const int *corners;
        int count, nearest, size = triangle(node, a, b, &corners, &count, &nearest);
        return size ? size : NO_VALUE;
    }
    case F_DIAGONAL_AREA: {
        /* corners.diagonal_area: 8 * the farthest diagonal + its squares. */
        Bitboard region = box(node, a);
        const int *corners;
        int count = corner_squares(node, b, &corners), least = INT_MAX;
        if (!region || !count)
            return NO_VALUE;
        for (int k = 0; k < count; k++)
            least = imin(least, diagonal_measure(corners[k], region));
        return least;
    }
    case F_TRIANGLE_CORNER_DIST: {
        const int *corners;
        int count, nearest = 0, least = 99;
        int size = triangle(node, b, ANY_COLOUR, &corners, &count, &nearest);
        if (x < 0 || !size)
            return NO_VALUE;
        for (int k = 0; k < count; k++)
            if (nearest & (1 << k))
                least = imin(least, DIST[x][corners[k]]);
        return least;
    }
    case F_HYPOTENUSE_DIST: {
        /* corners.hypotenuse_dist: |files-plus-ranks from the triangle's
         * corner - its size|, the least over the corners tied for it. */
        const int *corners;
        int count, nearest = 0, least = 99;
        int size = triangle(node, b, c, &corners, &count, &nearest);
        if (x < 0 || !size)
            return NO_VALUE;
        for (int k = 0; k < count; k++)
            if (nearest & (1 << k))
                least = imin(least, iabs(MDIST[corners[k]][x] - size));
        return least;
    }
    case F_AREA_DIST: {
        Bitboard squares = box(node, b);
        int least = 99;
        if (x < 0 || !squares)
            return NO_VALUE;
        for (; squares; squares &= squares - 1)
            least = imin(least, DIST[x][lsb(squares)]);
        return least;
    }
    case F_WRONG_WAY:
        return wrong_way(node, a, b);
    case F_MOBILITY:
        return x < 0 ? NO_VALUE : popcount(free_steps(node, a, x));
    case F_INWARD:
        return x < 0 ? NO_VALUE : popcount(free_steps(node, a, x) & FARTHER_FROM_EDGE[x]);
    case F_CRITICAL_MDIST: {
        /* distances.critical_mdist: to the square diagonally next to the
         * second piece on the third's side. */
        int r = piece_square(node, b), t = piece_square(node, c);
        if (x < 0 || r < 0 || t < 0)
            return NO_VALUE;
        int rx = r & 7, ry = r >> 3, tx = t & 7, ty = t >> 3;
        int cx = tx < rx ? rx - 1 : rx + 1, cy = ty < ry ? ry - 1 : ry + 1;
        return iabs((x & 7) - cx) + iabs((x >> 3) - cy);
    }
    case F_CHECKS_BY: {
        /* tactics.checks_by: its moves (not onto its own side) that see the
         * other king as it would, its own square emptied. */
        if (x < 0)
            return NO_VALUE;
        int colour = piece_colour(node, a), king = king_square(p, !colour);
        if (king < 0)
            return 0;
        Bitboard occupied = p->white | p->black;
        Bitboard moves = attacks_from(p, x, occupied) & ~side_of(p, colour);
        return popcount(moves & type_attacks((a >> 2) & 7, king, occupied & ~BB(x)));
    }
    case F_SAFE_CHECKS:
        return x < 0 ? NO_VALUE : safe_checks(node, a, x);
    case F_HANGING: {
        /* safety.hanging: our pieces (kings aside) attacked and undefended. */
        int count = 0;
        for (Bitboard b2 = side_of(p, node->us) & ~p->kings; b2; b2 &= b2 - 1)
            count += attackers(p, !node->us, lsb(b2)) && !attackers(p, node->us, lsb(b2));
        return count;
    }
    }
    return NO_VALUE;
}

int predicate(Node *node, int id, const int *args)
{
    const Position *p = node->p;
    int a = args[0];
    int x = a >= 0 ? piece_square(node, a) : -1;
    switch (id) {
    case P_MATE: return p->turn != node->us && is_checkmate(p);
    case P_STALEMATE: return p->turn != node->us && is_stalemate(p);
    case P_STALEMATED: return p->turn == node->us && is_stalemate(p);
    case P_CHECK: return is_check(p);
    case P_THEMTOMOVE: return p->turn != node->us;
    case P_USTOMOVE: return p->turn == node->us;
    case P_LOST: return x < 0;
    case P_ATTACKED: return x >= 0 && attackers(p, !piece_colour(node, a), x) != 0;
    case P_EN_PRISE: {
        int colour = piece_colour(node, a);
        return x >= 0 && attackers(p, !colour, x) && !attackers(p, colour, x);
    }
    case P_THREATENED: {
        /* safety.threatened: undefended, and their king attacks it or can
         * step next to it. */
        if (x < 0)
            return 0;
        int colour = piece_colour(node, a), king = king_square(p, !colour);
        if (king < 0 || attackers(p, colour, x))
            return 0;
        Bitboard near = KING_ATTACKS[x];
        if (near & BB(king))
            return 1;
        Bitboard occupied = (p->white | p->black) & ~BB(king);
        Bitboard steps = KING_ATTACKS[king] & ~side_of(p, !colour) & ~side_attacks(p, colour, occupied, 1);
        return (steps & near) != 0;
    }
    case P_DEFENDED: return x >= 0 && attackers(p, piece_colour(node, a), x) != 0;
    case P_PINNED: return pinned(node, a, x);
    case P_FORKED: return check_tactic(node, a, x, 0);
    case P_SKEWERED: return check_tactic(node, a, x, 1);
    case P_CUT_OFF: return cut_off(node, a, x);
    case P_PHILIDOR: return philidor(node, a, args[1]);
    case P_SECOND_RANK_DEFENCE: return rank_defence(node, a, x, 0);
    case P_THIRD_RANK_DEFENCE: return rank_defence(node, a, x, 1);
    case P_DIVIDES: {
        /* placement.divides: files/ranks strictly between the kings' for a
         * rook or queen, diagonals/anti-diagonals for a bishop. */
        if (x < 0)
            return 0;
        int ours = king_square(p, node->us), theirs = king_square(p, !node->us);
        if (ours < 0 || theirs < 0)
            return 0;
        int line[3][2], squares[3] = {ours, x, theirs};
        for (int i = 0; i < 3; i++) {
            int sx = squares[i] & 7, sy = squares[i] >> 3;
            if (((a >> 2) & 7) == BISHOP) { line[i][0] = sx - sy; line[i][1] = sx + sy; }
            else { line[i][0] = sx; line[i][1] = sy; }
        }
        for (int k = 0; k < 2; k++)
            if (imin(line[0][k], line[2][k]) < line[1][k] && line[1][k] < imax(line[0][k], line[2][k]))
                return 1;
        return 0;
    }
    case P_OPPOSITION: {
        int w = king_square(p, 1), bl = king_square(p, 0);
        if (w < 0 || bl < 0)
            return 0;
        int ax = w & 7, ay = w >> 3, bx = bl & 7, by = bl >> 3;
        return (ax == bx && iabs(ay - by) == 2) || (ay == by && iabs(ax - bx) == 2);
    }
    case P_EDGE: return x >= 0 && EDGE_DIST[x] == 0;
    case P_CORNER: return corner_dist(node, a, args[1]) == 0;
    case P_ROOK_PAWN: return x >= 0 && ((x & 7) == 0 || (x & 7) == 7);
    case P_PROTECTED: return x >= 0 && attackers(p, piece_colour(node, a), x) != 0;
    case P_IN_SQUARE: case P_KEY_SQUARE: case P_GUARDS_KEY_SQUARES: case P_PAWN_CORNER: case P_IN_FRONT:
    case P_BEHIND: {
        /* a piece (a king but for in_front and behind) and a pawn */
        int y = piece_square(node, args[1]), colour = piece_colour(node, args[1]);
        if (x < 0 || y < 0)
            return 0;
        if (id == P_IN_SQUARE)
            return DIST[x][promotion_square(y, colour)] <= moves_to_promote(y, colour) + (p->turn == piece_colour(node, a));
        if (id == P_KEY_SQUARE)
            return (KEY_SQUARES[colour][y] & BB(x)) != 0;
        if (id == P_GUARDS_KEY_SQUARES) {
            /* on or next to every key square */
            for (Bitboard keys = KEY_SQUARES[colour][y]; keys; keys &= keys - 1)
                if (DIST[x][lsb(keys)] > 1)
                    return 0;
            return 1;
        }
        if (id == P_PAWN_CORNER)
            return ((y & 7) == 0 || (y & 7) == 7) && DIST[x][promotion_square(y, colour)] <= 1
                && relative_rank(x, colour) >= 7;
        if ((x & 7) != (y & 7))
            return 0;
        return id == P_IN_FRONT ? relative_rank(x, colour) > relative_rank(y, colour)
                                : relative_rank(x, colour) < relative_rank(y, colour);
    }
    case P_PROMOTED: {
        /* pawns.promoted: the pawn gone, a queen or rook of its side on its
         * last rank that the other side cannot take at once. */
        if (x >= 0)
            return 0;
        int colour = piece_colour(node, a);
        Bitboard last = colour ? 0xFF00000000000000ULL : 0xFFULL;
        for (Bitboard b = (p->queens | p->rooks) & side_of(p, colour) & last; b; b &= b - 1)
            if (!attackers(p, !colour, lsb(b)) || attackers(p, colour, lsb(b)))
                return 1;
        return 0;
    }
    case P_HAS_OPPOSITION: case P_DISTANT_OPPOSITION: {
        int w = king_square(p, 1), bl = king_square(p, 0);
        if (w < 0 || bl < 0)
            return 0;
        int between = opposition_between(w, bl);
        if (id == P_HAS_OPPOSITION)
            return p->turn != piece_colour(node, a) && between > 0;
        return ((w & 7) == (bl & 7) || (w >> 3) == (bl >> 3)) && (between == 3 || between == 5);
    }
    }
    return 0;
}
