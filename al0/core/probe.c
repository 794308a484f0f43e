/* Probing a tablebase: the C twin of Tablebase._place, result_at and
 * best_defence_at (al0/tablebase/__init__.py), over the same numpy arrays. */
#include <stddef.h>

#include "probe.h"

/* The men besides the kings in the order the Python twin sorts them:
 * (piece type, colour, square), Black (False) before White. */
static int sorted_men(const Position *p, int *squares)
{
    int count = 0;
    for (int type = PAWN; type <= QUEEN; type++) {
        Bitboard mask = type_mask(p, type);
        for (int colour = 0; colour <= 1; colour++) {
            for (Bitboard b = mask & side_of(p, colour); b; b &= b - 1) {
                if (count == PROBE_MAX_SLOTS)
                    return -1;
                squares[count++] = lsb(b);
            }
        }
    }
    return count;
}

/* The kind of men besides the kings: two bits per (type, colour), the
 * count of that man (at most three fit; more men than a table has never
 * match a layout). */
int probe_key(const Position *p)
{
    int key = 0;
    for (int type = PAWN; type <= QUEEN; type++) {
        Bitboard mask = type_mask(p, type);
        for (int colour = 0; colour <= 1; colour++) {
            int count = popcount(mask & side_of(p, colour));
            key |= (count < 3 ? count : 3) << (2 * ((type - PAWN) * 2 + colour));
        }
    }
    return key;
}

/* The raw entry of `p` (plies to mate for the side to move, odd: it wins;
 * PROBE_DRAW; PROBE_ILLEGAL), or -1 when no layout knows its men. */
int probe_value(const Prober *prober, const Position *p)
{
    int key = probe_key(p), men[PROBE_MAX_SLOTS];
    const ProbeLayout *layout = NULL;
    for (int i = 0; i < prober->count; i++) {
        if (prober->layouts[i].key == key) {
            layout = &prober->layouts[i];
            break;
        }
    }
    int count = -1;
    if (!layout || popcount(p->kings & p->white) != 1 || popcount(p->kings & p->black) != 1
        || (count = sorted_men(p, men)) < 0)
        return -1;
    int kings[2] = {lsb(p->kings & p->black), lsb(p->kings & p->white)};
    int squares[PROBE_MAX_SLOTS] = {0};
    for (int slot = 0; slot < layout->slots; slot++) {
        int where = layout->where[slot];
        if (where >= count)
            return -1;  /* a man the position lacks */
        squares[slot] = where >= 0 ? men[where] : kings[-1 - where];
    }
    /* The one symmetry that takes the first slot's square into the
     * triangle a1-d1-d4 (every symmetric index holds the class's value);
     * with pawns, onto files a-d, the ranks flipped when the first side is
     * Black, whose pawns go down the board. */
    const int *symmetry;
    long long index;
    if (layout->pawns) {
        if (p->ep_square >= 0) {
            /* En passant is on: the pawn that stepped twice (in front of
             * the square it passed) is indexed on its own first rank,
             * three squares behind (retrograde.c). */
            int pawn = p->ep_square ^ 8;
            for (int slot = 0; slot < layout->slots; slot++)
                if (squares[slot] == pawn)
                    squares[slot] = p->turn ? pawn + 24 : pawn - 24;
        }
        symmetry = prober->symmetries[(layout->first ? 0 : 2) | ((squares[0] & 7) > 3)];
        index = (symmetry[squares[0]] >> 3) * 4 + (symmetry[squares[0]] & 7);
    } else {
        symmetry = prober->symmetries[prober->onto[squares[0]]];
        index = prober->triangle[symmetry[squares[0]]];
    }
    for (int slot = 1; slot < layout->slots; slot++)
        index = index * 64 + symmetry[squares[slot]];
    if (index < 0 || index >= layout->size)
        return -1; /* index tables that do not fit the values */
    int row = p->turn == layout->first ? 0 : 1;
    return layout->values[row * layout->size + index];
}

/* How good a move is for its mover, given the entry after it (for the
 * other side): a win, sooner first; then a draw; then a loss, later first.
 * The Python twin's (kind, amount) pairs, as one int. */
static int score(int after)
{
    if (after == PROBE_DRAW)
        return 1 << 10;
    if (after % 2 == 0)
        return (2 << 10) - after; /* the opponent is mated: we win */
    return after;
}

/* A move's place in UCI order: from file, from rank, to file, to rank,
 * then the promotion's letter (none, b, n, q, r), looked up by piece type. */
static int uci_order(Move m)
{
    static const int letter[6] = {0, 0, 2, 1, 4, 3};
    int from = MOVE_FROM(m), to = MOVE_TO(m);
    return ((from & 7) << 9 | (from >> 3) << 6 | (to & 7) << 3 | to >> 3) << 3 | letter[MOVE_PROMOTION(m)];
}

/* The tablebase defender's move at `p` (best_defence_at): the best score,
 * ties to the first in UCI order. Returns 0, -1 when a position after a
 * move is of no layout, -2 when the side to move has no legal move. */
int probe_best_defence(const Prober *prober, const Position *p, Move *best)
{
    Move moves[MAX_MOVES];
    int count = legal_moves(p, moves), best_score = -1, best_order = 0;
    if (!count)
        return -2;
    for (int i = 0; i < count; i++) {
        Position after = apply_move(p, moves[i]);
        int value = probe_value(prober, &after);
        if (value < 0)
            return -1;
        int s = score(value), order = uci_order(moves[i]);
        if (s > best_score || (s == best_score && order < best_order)) {
            best_score = s;
            best_order = order;
            *best = moves[i];
        }
    }
    return 0;
}
