/* The compact position and its attack tables (al0/board/position.py).
 *
 * The Python twin reads python-chess's tables; here the king and knight
 * tables are built once from the step offsets, and sliding attacks come
 * from rays: a ray from a square in one direction, cut after the first
 * piece on it. */
#include <string.h>
#include "position.h"

Bitboard KING_ATTACKS[64], KNIGHT_ATTACKS[64];

/* RAYS[d][s]: the squares from s in direction d to the edge, s excluded.
 * Directions 0-3 go up the board (square numbers rise), 4-7 down. */
static Bitboard RAYS[8][64];
static const int RAY_DX[8] = {1, 0, 1, -1, -1, 0, -1, 1};
static const int RAY_DY[8] = {0, 1, 1, 1, 0, -1, -1, -1};

static int on_board(int x, int y) { return x >= 0 && x < 8 && y >= 0 && y < 8; }

void init_tables(void)
{
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    for (int s = 0; s < 64; s++) {
        int x = s & 7, y = s >> 3;
        KING_ATTACKS[s] = KNIGHT_ATTACKS[s] = 0;
        for (int i = 0; i < 8; i++) {
            if (on_board(x + king[i][0], y + king[i][1]))
                KING_ATTACKS[s] |= BB((y + king[i][1]) * 8 + x + king[i][0]);
            if (on_board(x + knight[i][0], y + knight[i][1]))
                KNIGHT_ATTACKS[s] |= BB((y + knight[i][1]) * 8 + x + knight[i][0]);
        }
        for (int d = 0; d < 8; d++) {
            RAYS[d][s] = 0;
            for (int tx = x + RAY_DX[d], ty = y + RAY_DY[d]; on_board(tx, ty);
                 tx += RAY_DX[d], ty += RAY_DY[d])
                RAYS[d][s] |= BB(ty * 8 + tx);
        }
    }
}

int position_equal(const Position *a, const Position *b)
{
    return a->white == b->white && a->black == b->black && a->kings == b->kings
        && a->queens == b->queens && a->rooks == b->rooks && a->bishops == b->bishops
        && a->knights == b->knights && a->pawns == b->pawns && a->turn == b->turn
        && a->ep_square == b->ep_square;
}

Bitboard type_mask(const Position *p, int piece_type)
{
    switch (piece_type) {
    case PAWN: return p->pawns;
    case KNIGHT: return p->knights;
    case BISHOP: return p->bishops;
    case ROOK: return p->rooks;
    case QUEEN: return p->queens;
    case KING: return p->kings;
    default: return 0;
    }
}

/* The ray of direction d from square, up to and including its first
 * blocker: the nearest blocker is the lowest set square on a rising ray and
 * the highest on a falling one, and the ray beyond it is that square's own
 * ray in the same direction, which xor removes. */
static inline Bitboard ray(int d, int square, Bitboard occupancy)
{
    Bitboard r = RAYS[d][square], blockers = r & occupancy;
    if (blockers)
        r ^= RAYS[d][d < 4 ? lsb(blockers) : msb(blockers)];
    return r;
}

Bitboard rook_attacks(int square, Bitboard occupancy)
{
    return ray(0, square, occupancy) | ray(1, square, occupancy)
         | ray(4, square, occupancy) | ray(5, square, occupancy);
}

Bitboard bishop_attacks(int square, Bitboard occupancy)
{
    return ray(2, square, occupancy) | ray(3, square, occupancy)
         | ray(6, square, occupancy) | ray(7, square, occupancy);
}

/* position.attacks: the squares the piece on square attacks. */
Bitboard attacks_from(const Position *p, int square, Bitboard occupancy)
{
    Bitboard b = BB(square), result = 0;
    if (p->kings & b)
        return KING_ATTACKS[square];
    if (p->knights & b)
        return KNIGHT_ATTACKS[square];
    if ((p->rooks | p->queens) & b)
        result = rook_attacks(square, occupancy);
    if ((p->bishops | p->queens) & b)
        result |= bishop_attacks(square, occupancy);
    return result;
}

/* position.attackers: colour's pieces that attack square. */
Bitboard attackers(const Position *p, int colour, int square)
{
    Bitboard them = side_of(p, colour), occupancy = p->white | p->black;
    Bitboard found = (KING_ATTACKS[square] & p->kings) | (KNIGHT_ATTACKS[square] & p->knights);
    found |= rook_attacks(square, occupancy) & (p->rooks | p->queens);
    found |= bishop_attacks(square, occupancy) & (p->bishops | p->queens);
    return found & them;
}

/* geometry._side_attacks: every square colour's pieces attack with
 * occupancy on the board (its king's too when kings). */
Bitboard side_attacks(const Position *p, int colour, Bitboard occupancy, int kings)
{
    Bitboard mask = 0, side = side_of(p, colour);
    if (!kings)
        side &= ~p->kings;
    for (; side; side &= side - 1)
        mask |= attacks_from(p, lsb(side), occupancy);
    return mask;
}

int king_square(const Position *p, int colour)
{
    Bitboard k = p->kings & side_of(p, colour);
    return k ? msb(k) : -1;
}

int is_check(const Position *p)
{
    int king = king_square(p, p->turn);
    return king >= 0 && attackers(p, !p->turn, king) != 0;
}

/* position.king_danger: every square theirs attack, lines seen through our
 * king (king_bb), so a king never steps back along a checking line; a piece
 * the king would take does not defend its own square here. */
Bitboard king_danger(const Position *p, Bitboard theirs, Bitboard king_bb)
{
    Bitboard occupancy = (p->white | p->black) & ~king_bb, danger = 0;
    for (Bitboard b = theirs; b; b &= b - 1)
        danger |= attacks_from(p, lsb(b), occupancy);
    return danger;
}
