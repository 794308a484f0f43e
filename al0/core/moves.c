/* Legal moves in python-chess's order (al0/board/moves.py): when in check
 * the king's moves first, then the other pieces'; otherwise piece by
 * piece from the highest square down, each piece's targets from the
 * highest square down; then (with pawns) the pawns' captures, single and
 * double steps and captures en passant. And the vocabulary's generators
 * (al0/lang/vocabulary/generators.py), which reorder those moves. */
#include "moves.h"

/* moves.apply: the position after a legal move. A capture clears the
 * target from every mask (en passant: the pawn beside); then the mover's
 * mask loses from and gains to (to is clear in it now, so one xor does
 * both), a promoted pawn's new kind gains to; after a double step the
 * en-passant square is kept only when a pawn of theirs may take there. */
Position apply_move(const Position *p, Move move)
{
    Position c = *p;
    int from = MOVE_FROM(move), to = MOVE_TO(move);
    Bitboard f = BB(from), t = BB(to), both = f | t;
    Bitboard *ours = p->turn ? &c.white : &c.black, *theirs = p->turn ? &c.black : &c.white;
    c.ep_square = -1;
    if (*theirs & t) {
        c.kings &= ~t; c.queens &= ~t; c.rooks &= ~t; c.bishops &= ~t; c.knights &= ~t;
        c.pawns &= ~t;
        *theirs &= ~t;
    } else if (to == p->ep_square && (p->pawns & f)) {
        Bitboard taken = BB(p->turn ? to - 8 : to + 8);
        c.pawns &= ~taken;
        *theirs &= ~taken;
    }
    if (c.pawns & f) {
        c.pawns ^= f;
        switch (MOVE_PROMOTION(move)) {
        case QUEEN: c.queens |= t; break;
        case ROOK: c.rooks |= t; break;
        case BISHOP: c.bishops |= t; break;
        case KNIGHT: c.knights |= t; break;
        default:
            c.pawns |= t;
            if (to - from == 16 || from - to == 16) {
                int middle = (from + to) / 2;
                if (PAWN_ATTACKS[p->turn][middle] & c.pawns & *theirs)
                    c.ep_square = middle;
            }
        }
    }
    else if (c.kings & f) c.kings ^= both;
    else if (c.rooks & f) c.rooks ^= both;
    else if (c.queens & f) c.queens ^= both;
    else if (c.bishops & f) c.bishops ^= both;
    else if (c.knights & f) c.knights ^= both;
    *ours ^= both;
    c.turn = !p->turn;
    return c;
}

/* Whether a move of a piece other than the king leaves our king safe:
 * played, then our king's square looked at from its attackers. */
static int leaves_king_safe(const Position *p, Move move)
{
    Position c = apply_move(p, move);
    int king = king_square(&c, p->turn);
    return king < 0 || !attackers(&c, !p->turn, king);
}

/* The legal steps of our king on king_bb, highest target first. */
static int king_steps(const Position *p, Bitboard ours, Bitboard theirs, Bitboard king_bb, Move *out)
{
    int king = msb(king_bb), n = 0;
    Bitboard targets = KING_ATTACKS[king] & ~ours & ~king_danger(p, theirs, king_bb);
    for (; targets; targets ^= BB(msb(targets)))
        out[n++] = MOVE(king, msb(targets));
    return n;
}

/* A pawn's move to `to`: four promotions (queen, rook, bishop, knight, as
 * python-chess lists them) on the last rank, else one move. */
static int pawn_move(int from, int to, Move *out)
{
    if (to < 8 || to >= 56) {
        static const int pieces[4] = {QUEEN, ROOK, BISHOP, KNIGHT};
        for (int i = 0; i < 4; i++)
            out[i] = PROMOTION_MOVE(from, to, pieces[i]);
        return 4;
    }
    out[0] = MOVE(from, to);
    return 1;
}

/* legal_moves with pawns on the board (moves._legal_moves_with_pawns):
 * the pieces' moves, then the pawns' captures by pawn, single steps and
 * double steps by target, each from the highest square down, then the
 * captures en passant; every move but the king's played to test it. */
static int legal_moves_with_pawns(const Position *p, Move *out)
{
    Bitboard ours = side_of(p, p->turn), theirs = side_of(p, !p->turn);
    Bitboard king_bb = p->kings & ours, occupancy = p->white | p->black;
    Bitboard pieces = ours & ~p->pawns, pawns = ours & p->pawns;
    Move candidates[MAX_MOVES];
    int n = 0, count = 0, step = p->turn ? 8 : -8;
    if (king_bb && is_check(p)) {
        n += king_steps(p, ours, theirs, king_bb, out);
        pieces &= ~king_bb;
    }
    for (; pieces; pieces ^= BB(msb(pieces))) {
        int from = msb(pieces);
        if (p->kings & BB(from)) {
            count += king_steps(p, ours, theirs, BB(from), candidates + count);
            continue;
        }
        for (Bitboard targets = attacks_from(p, from, occupancy) & ~ours; targets; targets ^= BB(msb(targets)))
            candidates[count++] = MOVE(from, msb(targets));
    }
    for (Bitboard b = pawns; b; b ^= BB(msb(b))) {
        int from = msb(b);
        for (Bitboard targets = PAWN_ATTACKS[p->turn][from] & theirs; targets; targets ^= BB(msb(targets)))
            count += pawn_move(from, msb(targets), candidates + count);
    }
    Bitboard singles = (p->turn ? pawns << 8 : pawns >> 8) & ~occupancy;
    for (Bitboard b = singles; b; b ^= BB(msb(b)))
        count += pawn_move(msb(b) - step, msb(b), candidates + count);
    Bitboard doubles = (p->turn ? singles << 8 : singles >> 8) & ~occupancy
                     & (p->turn ? 0x00000000FF000000ULL : 0x000000FF00000000ULL);
    for (Bitboard b = doubles; b; b ^= BB(msb(b)))
        candidates[count++] = MOVE(msb(b) - 2 * step, msb(b));
    if (p->ep_square >= 0)
        for (Bitboard b = pawns & PAWN_ATTACKS[!p->turn][p->ep_square]; b; b ^= BB(msb(b)))
            candidates[count++] = MOVE(msb(b), p->ep_square);
    for (int i = 0; i < count; i++)
        if (!king_bb || (p->kings & BB(MOVE_FROM(candidates[i]))) || leaves_king_safe(p, candidates[i]))
            out[n++] = candidates[i];
    return n;
}

int legal_moves(const Position *p, Move *out)
{
    if (p->pawns)
        return legal_moves_with_pawns(p, out);
    Bitboard ours = side_of(p, p->turn), theirs = side_of(p, !p->turn);
    Bitboard king_bb = p->kings & ours, occupancy = p->white | p->black, pieces = ours;
    int n = 0;
    if (ours == king_bb)  /* a lone king: its steps are all the moves */
        return king_bb ? king_steps(p, ours, theirs, king_bb, out) : 0;
    int in_check = is_check(p);
    /* Not in check and no line piece of theirs to pin with: every move of
     * a piece other than the king is legal as it stands. */
    int free = !in_check && !(theirs & (p->rooks | p->queens | p->bishops));
    if (in_check && king_bb) {
        n += king_steps(p, ours, theirs, king_bb, out);
        pieces &= ~king_bb;
    }
    while (pieces) {
        int from = msb(pieces);
        pieces ^= BB(from);
        if (p->kings & BB(from)) {
            n += king_steps(p, ours, theirs, BB(from), out + n);
            continue;
        }
        Bitboard targets = attacks_from(p, from, occupancy) & ~ours;
        for (; targets; targets ^= BB(msb(targets))) {
            Move move = MOVE(from, msb(targets));
            if (free || leaves_king_safe(p, move))
                out[n++] = move;
        }
    }
    return n;
}

int has_legal_move(const Position *p)
{
    Move moves[MAX_MOVES];
    return legal_moves(p, moves) > 0;
}

int is_checkmate(const Position *p) { return is_check(p) && !has_legal_move(p); }
int is_stalemate(const Position *p) { return !is_check(p) && !has_legal_move(p); }

/* generators.KING_STEPS: the book's king order, diagonals first, then
 * along the rank, then the file, each +1 before -1. */
static int king_order(Move m)
{
    static const int steps[8][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int dx = (MOVE_TO(m) & 7) - (MOVE_FROM(m) & 7), dy = (MOVE_TO(m) >> 3) - (MOVE_FROM(m) >> 3);
    for (int i = 0; i < 8; i++)
        if (steps[i][0] == dx && steps[i][1] == dy)
            return i;
    return 8;
}

/* Sort a few moves by a key (an insertion sort: the lists are short, and
 * qsort would allocate). Keys are distinct here, so stability is moot. */
static void sort_by(Move *moves, int n, int (*key)(Move))
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && key(moves[j - 1]) > key(moves[j]); j--) {
            Move t = moves[j]; moves[j] = moves[j - 1]; moves[j - 1] = t;
        }
}

/* generators.moves(p): the legal moves of the piece on square, a king's
 * in the book's order, any other piece's by target square a1 ... h8. */
int piece_moves(const Position *p, int square, Move *out)
{
    Move all[MAX_MOVES];
    int total = legal_moves(p, all), n = 0;
    /* legal_moves lists one piece's targets from the highest square down:
     * read backwards, they come by target square (a pawn's sorted). */
    for (int i = total - 1; i >= 0; i--)
        if (MOVE_FROM(all[i]) == square)
            out[n++] = all[i];
    if (p->kings & BB(square))
        sort_by(out, n, king_order);
    else if (p->pawns & BB(square))
        sort_by(out, n, by_squares);
    return n;
}

/* generators.checks: the legal moves that give check, by square. */
int checking_moves(const Position *p, Move *out)
{
    Move all[MAX_MOVES];
    int total = legal_moves(p, all), n = 0;
    for (int i = 0; i < total; i++) {
        Position c = apply_move(p, all[i]);
        if (is_check(&c))
            out[n++] = all[i];
    }
    sort_by(out, n, by_squares);
    return n;
}
