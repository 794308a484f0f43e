/* The retrograde build in C (al0/tablebase/retrograde.py is its twin,
 * whose docstring states the method; tests/tablebase/test_retrograde.py
 * holds the two equal byte for byte).
 *
 * Only the least index of each class takes part; the others copy it at the
 * end. Every legal class starts with its moves counted: quiet moves stay
 * in the material, exits (captures) are read from the smaller tables and
 * decide a level of their own. Then level by level, from the positions
 * found at the last level, un-moves reach their predecessors: at an odd
 * level each becomes a win, at an even level it loses one move's worth of
 * its counter and is lost once the counter is spent. Counters are kept in
 * units of 1/|G| moves (the twin's reason: un-moving from a class's one
 * position reaches a predecessor class |Stab(P)| / |Stab(Q)| times per
 * move between them).
 *
 * With pthreads the passes over the table and over each level's positions
 * are shared among threads, a chunk at a time: a counter is spent with an
 * atomic step and an entry claimed by an atomic exchange, so each is found
 * once, and the bytes are the same for any number of threads. Threads are
 * made per pass and joined (no pool a fork could inherit half of). */
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(_WIN32)
#define THREADED 1
#include <pthread.h>
#else
#define THREADED 0 /* MSVC: no pthreads, no __atomic builtins; one thread */
#endif

#include "retrograde.h"

#define NEVER 0xFFFF   /* the counter of a position that a draw or a win keeps from losing */
#define NO_WIN 255     /* no capture wins */

enum { CHECK = 1, CANONICAL = 4 };  /* CHECK is shifted by the side to move */

/* A growing list of indices. */
typedef struct {
    int32_t *at;
    long long count, capacity;
} List;

static int push(List *list, int32_t index)
{
    if (list->count == list->capacity) {
        long long capacity = list->capacity ? 2 * list->capacity : 1024;
        int32_t *grown = realloc(list->at, (size_t)capacity * sizeof *grown);
        if (!grown)
            return -1;
        list->at = grown;
        list->capacity = capacity;
    }
    list->at[list->count++] = index;
    return 0;
}

#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL
#define LAST_RANKS 0xFF000000000000FFULL /* where no pawn stands */

/* The squares a man of `type` and `side` on `square` attacks (a king's and
 * a knight's steps, a slider's rays up to the first man, a pawn's two
 * diagonals forward: the first side's pawns go up the board). */
static Bitboard man_attacks(int type, int side, int square, Bitboard occupied)
{
    Bitboard b = BB(square);
    switch (type) {
    case KING: return KING_ATTACKS[square];
    case KNIGHT: return KNIGHT_ATTACKS[square];
    case BISHOP: return bishop_attacks(square, occupied);
    case ROOK: return rook_attacks(square, occupied);
    case QUEEN: return rook_attacks(square, occupied) | bishop_attacks(square, occupied);
    case PAWN:
        return side ? (b & ~FILE_A) >> 9 | (b & ~FILE_H) >> 7 : (b & ~FILE_A) << 7 | (b & ~FILE_H) << 9;
    default: return 0;
    }
}

/* A pawn's step forward from `square`, for `side`. */
static inline int forward(int side, int square) { return side ? square - 8 : square + 8; }

/* Whether a pawn of `side` on `square` stands where it starts (and may
 * step twice), or on the rank before its last (and promotes). */
static inline int on_start(int side, int square) { return (square >> 3) == (side ? 6 : 1); }

/* En passant, where both sides have pawns. A position whose side to move
 * may take en passant has an index of its own: the pawn that has just
 * stepped twice stands there on its own first rank, where no pawn ever
 * stands, three squares behind its square on the board. Such a position
 * is reached only by the double step; every other move leads to the
 * position without the right (retrograde.py's twin does the same). */

/* Whether `square` is the first rank of a pawn of `side`: behind its start. */
static inline int behind_start(int side, int square) { return (square >> 3) == (side ? 7 : 0); }

/* A pawn of `side` just stepped twice: its square on the board from its
 * square in the index (uncoded), and back (coded). */
static inline int uncoded(int side, int square) { return side ? square - 24 : square + 24; }
static inline int coded(int side, int square) { return side ? square + 24 : square - 24; }

/* The slot of the pawn of the side not to move that `mover` could take en
 * passant had it just stepped twice (on its fourth rank, the two squares
 * it passed empty, a pawn of `mover` beside it), else -1. */
static int passant_target(const TableLayout *l, const int *squares, int mover, Bitboard occupied)
{
    if (!l->passant)
        return -1;
    for (int slot = 0; slot < l->men; slot++) {
        int square = squares[slot], passed = forward(mover, square);
        if (l->types[slot] != PAWN || l->sides[slot] == mover || (square >> 3) != (mover ? 3 : 4)
            || (BB(passed) | BB(forward(mover, passed))) & occupied)
            continue;
        for (int taker = 0; taker < l->men; taker++)
            if (l->types[taker] == PAWN && l->sides[taker] == mover && (squares[taker] >> 3) == (square >> 3)
                && (squares[taker] == square + 1 || squares[taker] == square - 1))
                return slot;
    }
    return -1;
}

/* The squares on the board of the entry at `squares` with `side` to
 * move: -2 when it stands for no position (a pawn of the side to move on
 * its first rank, one coded as just stepped twice where no en passant is
 * open), else the slot of the pawn `side` may take en passant (-1: none).
 * A pawn on its last rank and men on one square are left to the caller. */
static int on_board(const TableLayout *l, const int *squares, int side, int *board)
{
    int passant = -1;
    for (int slot = 0; slot < l->men; slot++) {
        board[slot] = squares[slot];
        if (l->types[slot] != PAWN || !behind_start(l->sides[slot], squares[slot]))
            continue;
        if (!l->passant || l->sides[slot] == side || passant >= 0)
            return -2;
        passant = slot;
        board[slot] = uncoded(l->sides[slot], squares[slot]);
    }
    if (passant >= 0) {
        Bitboard occupied = 0;
        for (int slot = 0; slot < l->men; slot++)
            occupied |= BB(board[slot]);
        if (passant_target(l, board, side, occupied) != passant)
            return -2;
    }
    return passant;
}

/* Whether a man of `side` other than slot `skip` (a man just taken)
 * attacks `target`. */
static int attacked(const TableLayout *l, const int *squares, int side, int target, Bitboard occupied,
                    int skip)
{
    for (int slot = 0; slot < l->men; slot++)
        if (l->sides[slot] == side && slot != skip
            && man_attacks(l->types[slot], side, squares[slot], occupied) & BB(target))
            return 1;
    return 0;
}

static Bitboard occupancy(const TableLayout *l, const int *squares, int side)
{
    Bitboard bits = 0;
    for (int slot = 0; slot < l->men; slot++)
        if (side < 0 || l->sides[slot] == side)
            bits |= BB(squares[slot]);
    return bits;
}

/* What the moves of a position give its mover (_count_moves). */
typedef struct {
    int quiet;     /* legal moves that stay in the material */
    int escape;    /* an exit draws or wins */
    int losing;    /* exits that lose */
    int won;       /* the fewest plies an exit mates in, NO_WIN for none */
    int worst;     /* the most plies a losing exit is mated in */
} Moves;

/* The exits of a build, found by the man taken (-1: none), the pawn that
 * promotes (-1: none) and the piece it becomes (0: none). */
typedef struct {
    const RetroExit *at;
    int count;
} Exits;

/* What an exit gives the mover: its entry in the table it leads to (at
 * any index of the position's class), counted into `m`. */
static void count_exit(const Exits *exits, int taken, int promoted, int promotion, const int *after,
                       int mover, Moves *m)
{
    const RetroExit *exit = NULL;
    for (int i = 0; i < exits->count && !exit; i++)
        if (exits->at[i].taken == taken && exits->at[i].promoted == promoted
            && exits->at[i].promotion == promotion)
            exit = &exits->at[i];
    if (!exit)
        return; /* refused when the build was asked for (_core.c): never here */
    int squares[TABLE_MAX_MEN];
    /* Its first side our second: the ranks flipped, so that the pawns of
     * its first side go up the board (a flip that changes no pawnless value). */
    for (int slot = 0; slot < exit->layout.men; slot++)
        squares[slot] = after[exit->mapping[slot]] ^ (exit->swapped ? 56 : 0);
    long long index = layout_any_index(&exit->layout, squares);
    int value = exit->values[((1 - mover) ^ exit->swapped) * exit->layout.size + index];
    int plies = value + 1;
    if (value == RETRO_ILLEGAL)
        return; /* never after a legal move */
    if (value == RETRO_DRAW) {
        m->escape = 1;
    } else if (value % 2 == 0) { /* the opponent is mated: we win */
        m->escape = 1;
        if (plies < m->won)
            m->won = plies;
    } else {
        m->losing++;
        if (plies > m->worst)
            m->worst = plies;
    }
}

/* The squares the men of `side` attack, with `occupied` blocking sliders. */
static Bitboard side_attacks_of(const TableLayout *l, const int *squares, int side, Bitboard occupied)
{
    Bitboard found = 0;
    for (int slot = 0; slot < l->men; slot++)
        if (l->sides[slot] == side)
            found |= man_attacks(l->types[slot], side, squares[slot], occupied);
    return found;
}

const int RETRO_PROMOTIONS[4] = {QUEEN, ROOK, BISHOP, KNIGHT};
#define PROMOTIONS RETRO_PROMOTIONS

/* The moves of `side` from the position on `squares`, counted into `m`;
 * `passant`: the slot of a pawn it may take en passant (-1: none). */
static void count_moves(const TableLayout *l, const Exits *exits, const int *squares, int side,
                        int in_check, int passant, Moves *m)
{
    Bitboard occupied = occupancy(l, squares, -1), own = occupancy(l, squares, side);
    int king = squares[l->kings[side]];
    int after[TABLE_MAX_MEN];
    memset(m, 0, sizeof *m);
    m->won = NO_WIN;
    for (int slot = 0; slot < l->men; slot++) {
        if (l->sides[slot] != side)
            continue;
        int type = l->types[slot], from = squares[slot], is_king = slot == l->kings[side];
        Bitboard targets = man_attacks(type, side, from, occupied) & ~own, quiet;
        if (type == PAWN) {
            /* A pawn takes on its diagonals and steps forward to empty squares. */
            targets &= occupied;
            int step = forward(side, from);
            quiet = BB(step) & ~occupied;
            if (quiet && on_start(side, from))
                quiet |= BB(forward(side, step)) & ~occupied;
        } else {
            quiet = targets & ~occupied;
            targets &= occupied;
        }
        int free = 0, promotes = type == PAWN && on_start(!side, from);
        if (is_king) {
            /* Quiet steps to squares no man of theirs attacks, lines seen
             * through the king (it cannot step back along a check). */
            Bitboard danger = side_attacks_of(l, squares, !side, occupied & ~BB(from));
            m->quiet += popcount(quiet & ~danger);
            quiet = 0;
        } else {
            /* Out of check, a man whose leaving opens no line to its king
             * has every move legal (a capture only takes an attacker away). */
            free = !in_check && !attacked(l, squares, !side, king, occupied & ~BB(from), -1);
            if (free && !promotes) {
                m->quiet += popcount(quiet);
                quiet = 0;
            }
        }
        for (Bitboard all = quiet | targets; all; all &= all - 1) {
            int to = lsb(all), taken = -1;
            for (int other = 0; other < l->men; other++)
                if (squares[other] == to)
                    taken = other;
            if (taken == l->kings[!side])
                continue; /* never in a legal position: the king is not in check */
            Bitboard moved = (occupied & ~BB(from)) | BB(to);
            if (!free && attacked(l, squares, !side, is_king ? to : king, moved, taken))
                continue;
            if (taken < 0 && !promotes) {
                m->quiet++;
                continue;
            }
            memcpy(after, squares, sizeof after);
            after[slot] = to;
            if (!promotes)
                count_exit(exits, taken, -1, 0, after, side, m);
            for (int piece = 0; promotes && piece < 4; piece++)
                count_exit(exits, taken, slot, PROMOTIONS[piece], after, side, m);
        }
        if (type == PAWN && passant >= 0 && (squares[passant] >> 3) == (from >> 3)
            && (squares[passant] == from + 1 || squares[passant] == from - 1)) {
            /* En passant: to the square the pawn passed, taking it. */
            int to = forward(side, squares[passant]);
            Bitboard moved = (occupied & ~BB(from) & ~BB(squares[passant])) | BB(to);
            if (attacked(l, squares, !side, king, moved, passant))
                continue;
            memcpy(after, squares, sizeof after);
            after[slot] = to;
            count_exit(exits, passant, -1, 0, after, side, m);
        }
    }
}

/* An entry while the table is built: its counter (moves not yet known to
 * lose, in units of 1/group) in the low 16 bits, its value above it, the
 * most plies a losing exit lasts in the top byte: what an un-move reads
 * and changes is one word, one cache miss. */
typedef uint32_t Entry;
#define COUNTER(e) ((e) & 0xFFFF)
#define VALUE(e) ((e) >> 16 & 0xFF)
#define CAPTURED(e) ((e) >> 24)
#define ENTRY(counter, value, captured) ((Entry)(counter) | (Entry)(value) << 16 | (Entry)(captured) << 24)

/* Atomic steps where threads share a pass, plain ones where they do not. */
#if THREADED
/* The entry's value from a draw to `value`, if no other thread did it first. */
static inline int claim(Entry *entry, int value)
{
    Entry seen = __atomic_load_n(entry, __ATOMIC_RELAXED);
    while (VALUE(seen) == RETRO_DRAW) {
        Entry wanted = (seen & ~((Entry)0xFF << 16)) | (Entry)value << 16;
        if (__atomic_compare_exchange_n(entry, &seen, wanted, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return 1;
    }
    return 0;
}
/* The entry after a move's worth is spent (the counter never goes below
 * zero: each move is spent once, and a NEVER counter stays far above). */
static inline Entry spend(Entry *entry, int worth)
{
    return __atomic_sub_fetch(entry, (Entry)worth, __ATOMIC_RELAXED);
}
static inline long long add(long long *total, long long amount)
{
    return __atomic_fetch_add(total, amount, __ATOMIC_RELAXED);
}
#else
static inline int claim(Entry *entry, int value)
{
    if (VALUE(*entry) != RETRO_DRAW)
        return 0;
    *entry = (*entry & ~((Entry)0xFF << 16)) | (Entry)value << 16;
    return 1;
}
static inline Entry spend(Entry *entry, int worth) { return *entry -= (Entry)worth; }
static inline long long add(long long *total, long long amount)
{
    long long before = *total;
    *total += amount;
    return before;
}
#endif

/* A set of indices as bits, walked in index order: predecessors of nearby
 * positions lie near each other in the table. */
typedef uint64_t Word;

static inline void mark(Word *bits, long long index)
{
#if THREADED
    __atomic_fetch_or(&bits[index >> 6], (Word)1 << (index & 63), __ATOMIC_RELAXED);
#else
    bits[index >> 6] |= (Word)1 << (index & 63);
#endif
}

/* What a build holds, per index or per entry (side * size + index). */
typedef struct {
    const TableLayout *l;
    Exits exits;
    Entry *entries;
    uint8_t *flags;        /* CHECK << side, CANONICAL */
    uint8_t *weight;       /* a move's worth from this class: group / stabiliser */
    uint8_t *due;          /* the level an exit decides (a win, or a loss with no
                              quiet move), 0 for none */
    List later[2][256];    /* by side and level: entries decided then unless sooner */
#if THREADED
    pthread_mutex_t later_lock;
#endif
    int failed;            /* memory ran out */
    /* The pass being shared: its side, level, sets and what it found. */
    int side, level;
    const Word *last;
    Word *found;
    long long marked;
} Build;

static void classify(Build *b, long long index)
{
    const TableLayout *l = b->l;
    int squares[TABLE_MAX_MEN], board[TABLE_MAX_MEN], coded = 0, distinct = 0;
    layout_decode(l, index, squares);
    for (int slot = 0; slot < l->men; slot++)
        coded |= l->types[slot] == PAWN && behind_start(l->sides[slot], squares[slot]);
    uint8_t flags = 0;
    Bitboard attacks[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        /* The men with `side` to move, where the index says but for a pawn
         * coded as just stepped twice: without one, the same board for
         * either side, its attacks found once. Legal: men on distinct
         * squares, no pawn on the first or last rank, the other king not
         * in check. */
        if (side == 0 || coded) {
            /* No position (-2): `board` is left part-filled, not read. */
            distinct = on_board(l, squares, side, board) > -2;
            Bitboard occupied = distinct ? occupancy(l, board, -1) : 0;
            distinct = distinct && popcount(occupied) == l->men;
            for (int slot = 0; slot < l->men && distinct; slot++)
                if (l->types[slot] == PAWN && BB(board[slot]) & LAST_RANKS)
                    distinct = 0;
            for (int attacker = 0; attacker < 2 && distinct; attacker++)
                attacks[attacker] = side_attacks_of(l, board, attacker, occupied);
        }
        int legal = distinct && !(attacks[side] & BB(board[l->kings[!side]]));
        b->entries[side * l->size + index] = ENTRY(0, legal ? RETRO_DRAW : RETRO_ILLEGAL, 0);
        if (legal && attacks[!side] & BB(board[l->kings[side]]))
            flags |= CHECK << side;
    }
    if ((l->pair[0] < 0 && l->fixer[squares[0]] < 0) || layout_canonical(l, squares, 1) == index) {
        flags |= CANONICAL;
        b->weight[index] = (uint8_t)(l->group / layout_stabiliser(l, index));
    }
    b->flags[index] = flags;
}

/* The moves of a canonical legal position: its counter, and the level an
 * exit decides; its value 0 when it is mated. */
static void count_position(Build *b, int side, long long index)
{
    const TableLayout *l = b->l;
    long long entry = side * l->size + index;
    int squares[TABLE_MAX_MEN], board[TABLE_MAX_MEN], value = RETRO_DRAW;
    Moves m;
    layout_decode(l, index, squares);
    int passant = on_board(l, squares, side, board);
    count_moves(l, &b->exits, board, side, b->flags[index] & CHECK << side, passant, &m);
    b->due[entry] = 0;
    if (m.won != NO_WIN)
        b->due[entry] = (uint8_t)m.won;
    else if (!m.quiet && !m.escape && m.losing)
        b->due[entry] = (uint8_t)m.worst; /* lost when its longest capture is mated */
    else if (!m.quiet && !m.escape && b->flags[index] & CHECK << side)
        value = 0;
    b->entries[entry] = ENTRY(m.escape ? NEVER : m.quiet * b->weight[index], value, m.worst);
}

static void schedule(Build *b, int side, int level, long long index)
{
#if THREADED
    pthread_mutex_lock(&b->later_lock);
#endif
    if (push(&b->later[side][level], (int32_t)index) < 0)
        b->failed = 1;
#if THREADED
    pthread_mutex_unlock(&b->later_lock);
#endif
}

/* Predecessors one un-move takes at most: the most moves of one side's men
 * (two queens and a king: 62), twice where each may have the right to take
 * en passant too. */
#define MAX_UNMOVES 128

/* The predecessors (with `side` to move) of the canonical position at
 * `index` (the other side to move, found at `level - 1`), each reached by
 * a quiet un-move: a win at an odd level, a move's worth spent at an even
 * one. Those found at `level` are marked in `found`; returns how many. */
static int unmove(Build *b, int side, long long index, int level, Word *found)
{
    const TableLayout *l = b->l;
    Entry *entries = b->entries + side * l->size;
    int squares[TABLE_MAX_MEN], count = 0, marked = 0;
    long long before[MAX_UNMOVES];
    layout_decode(l, index, squares);
    int worth = b->weight[index];
    /* Reached by a double step that opened en passant: that step is its
     * only un-move. */
    int passant = on_board(l, squares, !side, squares);
    Bitboard occupied = occupancy(l, squares, -1);
    /* No pair, no en passant and the first king off the diagonal: a man
     * other than that king moving leaves the position canonical, its index
     * but one slot's bits the same. */
    int plain = l->pair[0] < 0 && l->fixer[squares[0]] < 0 && !l->passant;
    for (int slot = 0; slot < l->men; slot++) {
        if (l->sides[slot] != side || (passant >= 0 && slot != passant))
            continue;
        int from = squares[slot];
        long long rest = index & ~((long long)63 << l->shift[slot]);
        /* A piece's quiet move is its own un-move; a pawn steps back (two
         * squares back to where it starts, over an empty one, unless that
         * double step opened en passant: it led to the other index). */
        Bitboard targets;
        if (l->types[slot] == PAWN) {
            int back = forward(!side, from);
            targets = on_start(side, from) || passant >= 0 ? 0 : BB(back) & ~occupied;
            if (on_start(side, forward(!side, back)) && !(BB(back) & occupied)
                && (passant >= 0 || passant_target(l, squares, !side, occupied) != slot))
                targets |= BB(forward(!side, back)) & ~occupied;
        } else {
            targets = man_attacks(l->types[slot], side, from, occupied) & ~occupied;
        }
        for (; targets; targets &= targets - 1) {
            squares[slot] = lsb(targets);
            before[count] = plain && slot ? rest | (long long)squares[slot] << l->shift[slot]
                                          : layout_canonical(l, squares, slot != 0);
            /* Asked for now, read below: the entries' cache misses overlap. */
            prefetch(&entries[before[count++]]);
            /* The same position with `side` free to take en passant, had
             * the other side's pawn just stepped twice: that move too
             * reaches this one. */
            int target = passant_target(l, squares, side, (occupied & ~BB(from)) | BB(squares[slot]));
            if (target >= 0) {
                int open = squares[target];
                squares[target] = coded(l->sides[target], open);
                before[count] = layout_canonical(l, squares, slot != 0);
                prefetch(&entries[before[count++]]);
                squares[target] = open;
            }
        }
        squares[slot] = from;
    }
    for (int i = 0; i < count; i++) {
        Entry *entry = &entries[before[i]];
        /* Illegal (RETRO_ILLEGAL) or decided already. */
        if (VALUE(*entry) != RETRO_DRAW)
            continue;
        if (level % 2) {
            if (claim(entry, level)) {
                mark(found, before[i]);
                marked++;
            }
            continue;
        }
        Entry left = spend(entry, worth);
        if (COUNTER(left))
            continue;
        /* Its last move is spent: lost now, or when its longest losing
         * capture is mated if that is later. */
        int lost = CAPTURED(left);
        if (lost <= level) {
            claim(entry, level);
            mark(found, before[i]);
            marked++;
        } else {
            schedule(b, side, lost, before[i]);
        }
    }
    return marked;
}

/* The passes, each over a range of its items (indices, or a level's words). */
static void classify_range(Build *b, long long start, long long stop)
{
    for (long long index = start; index < stop; index++)
        classify(b, index);
}

static void start_range(Build *b, long long start, long long stop)
{
    const Entry *entries = b->entries + b->side * b->l->size;
    for (long long index = start; index < stop; index++)
        if (b->flags[index] & CANONICAL && VALUE(entries[index]) == RETRO_DRAW)
            count_position(b, b->side, index);
}

static void unmove_range(Build *b, long long start, long long stop)
{
    long long marked = 0;
    for (long long w = start; w < stop; w++)
        for (Word bits = b->last[w]; bits; bits &= bits - 1)
            marked += unmove(b, b->side, w * 64 + lsb(bits), b->level, b->found);
    add(&b->marked, marked);
}

/* Every index takes its class's value. */
static void copy_range(Build *b, long long start, long long stop, uint8_t *values)
{
    const TableLayout *l = b->l;
    for (long long index = start; index < stop; index++) {
        long long least = index;
        if (!(b->flags[index] & CANONICAL)) {
            int squares[TABLE_MAX_MEN];
            layout_decode(l, index, squares);
            least = layout_canonical(l, squares, 1);
        }
        values[index] = (uint8_t)VALUE(b->entries[least]);
        values[l->size + index] = (uint8_t)VALUE(b->entries[l->size + least]);
    }
}

/* A pass shared among threads: each takes the next chunk until none is left. */
typedef struct {
    Build *build;
    void (*range)(Build *, long long, long long);
    uint8_t *values; /* for the copy */
    long long count, chunk, next;
} Pass;

static void *take_chunks(void *argument)
{
    Pass *pass = argument;
    for (;;) {
        long long start = add(&pass->next, pass->chunk);
        if (start >= pass->count)
            return NULL;
        long long stop = start + pass->chunk < pass->count ? start + pass->chunk : pass->count;
        if (pass->range)
            pass->range(pass->build, start, stop);
        else
            copy_range(pass->build, start, stop, pass->values);
    }
}

static void share(Build *b, int threads, void (*range)(Build *, long long, long long), uint8_t *values,
                  long long count, long long chunk)
{
    Pass pass = {b, range, values, count, chunk, 0};
#if THREADED
    pthread_t helpers[RETRO_MAX_THREADS];
    int made = 0;
    /* Worth a thread only for a pass of many chunks; a helper not made
     * leaves its chunks to the others. */
    while (made < threads - 1 && count > 4 * chunk && !pthread_create(&helpers[made], NULL, take_chunks, &pass))
        made++;
    take_chunks(&pass);
    for (int i = 0; i < made; i++)
        pthread_join(helpers[i], NULL);
#else
    (void)threads;
    take_chunks(&pass);
#endif
}

int retrograde_build(const TableLayout *l, const RetroExit *exits, int exit_count, int threads,
                     uint8_t *values)
{
    long long size = l->size, words = (size + 63) / 64, found[2] = {0, 0};
    Build b = {.l = l};
    b.exits.at = exits;
    b.exits.count = exit_count;
    if (threads < 1)
        threads = 1;
    if (threads > RETRO_MAX_THREADS)
        threads = RETRO_MAX_THREADS;
#if THREADED
    pthread_mutex_init(&b.later_lock, NULL);
#endif
    b.entries = malloc((size_t)(2 * size) * sizeof *b.entries);
    b.flags = malloc((size_t)size);
    b.weight = calloc((size_t)size, 1);
    b.due = calloc((size_t)(2 * size), 1);
    Word *frontier[2], *next[2];
    for (int side = 0; side < 2; side++) {
        frontier[side] = calloc((size_t)words, sizeof(Word));
        next[side] = calloc((size_t)words, sizeof(Word));
    }
    int level = 0, last_due = 0;
    if (!b.entries || !b.flags || !b.weight || !b.due || !frontier[0] || !frontier[1] || !next[0]
        || !next[1]) {
        b.failed = 1;
        goto done;
    }

    share(&b, threads, classify_range, NULL, size, 4096);
    for (int side = 0; side < 2; side++) {
        b.side = side;
        share(&b, threads, start_range, NULL, size, 4096);
        for (long long index = 0; index < size; index++) {
            long long entry = side * size + index;
            if (!(b.flags[index] & CANONICAL) || VALUE(b.entries[entry]) == RETRO_ILLEGAL)
                continue;
            if (VALUE(b.entries[entry]) == 0) {
                mark(frontier[side], index);
                found[side]++;
            }
            if (b.due[entry]) {
                if (push(&b.later[side][b.due[entry]], (int32_t)index) < 0)
                    b.failed = 1;
                if (b.due[entry] > last_due)
                    last_due = b.due[entry];
            }
        }
    }
    if (b.failed)
        goto done;

    while (level < RETRO_MAX_PLIES && (found[0] || found[1] || level < last_due)) {
        level++;
        for (int side = 0; side < 2; side++) {
            memset(next[side], 0, (size_t)words * sizeof(Word));
            b.side = side;
            b.level = level;
            b.last = frontier[!side];
            b.found = next[side];
            b.marked = 0;
            share(&b, threads, unmove_range, NULL, words, 64);
            /* What exits decide now. */
            Entry *entries = b.entries + side * size;
            const List *due = &b.later[side][level];
            for (long long i = 0; i < due->count; i++)
                if (claim(&entries[due->at[i]], level)) {
                    mark(next[side], due->at[i]);
                    b.marked++;
                }
            found[side] = b.marked;
            /* Losses scheduled now for later levels extend the run. */
            for (int later = level + 1; later < 256; later++)
                if (b.later[side][later].count && later > last_due)
                    last_due = later;
        }
        if (b.failed)
            goto done;
        for (int side = 0; side < 2; side++) {
            Word *t = frontier[side];
            frontier[side] = next[side];
            next[side] = t;
        }
    }
    share(&b, threads, NULL, values, size, 4096);

done:
    free(b.entries);
    free(b.flags);
    free(b.weight);
    free(b.due);
    for (int side = 0; side < 2; side++) {
        free(frontier[side]);
        free(next[side]);
        for (int i = 0; i < 256; i++)
            free(b.later[side][i].at);
    }
#if THREADED
    pthread_mutex_destroy(&b.later_lock);
#endif
    return b.failed ? -1 : level;
}
