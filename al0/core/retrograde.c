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
 * With OpenMP the passes over the table and over each level's positions
 * are shared among threads: a counter is spent with an atomic step, and an
 * entry is claimed by an atomic exchange, so each is found once; the bytes
 * are the same for any number of threads, only the order of a level's
 * list differs. */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "retrograde.h"

#define NEVER 0xFFFF   /* the counter of a position that a draw or a win keeps from losing */
#define NO_WIN 255     /* no capture wins */

enum { LEGAL = 1, CHECK = 4, CANONICAL = 16 };  /* LEGAL and CHECK are shifted by the side */

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

/* The squares a man of `type` on `square` attacks (a king's and a
 * knight's steps, a slider's rays up to the first man). */
static Bitboard man_attacks(int type, int square, Bitboard occupied)
{
    switch (type) {
    case KING: return KING_ATTACKS[square];
    case KNIGHT: return KNIGHT_ATTACKS[square];
    case BISHOP: return bishop_attacks(square, occupied);
    case ROOK: return rook_attacks(square, occupied);
    case QUEEN: return rook_attacks(square, occupied) | bishop_attacks(square, occupied);
    default: return 0;
    }
}

/* Whether a man of `side` other than slot `skip` (a man just taken)
 * attacks `target`. */
static int attacked(const TableLayout *l, const int *squares, int side, int target, Bitboard occupied,
                    int skip)
{
    for (int slot = 0; slot < l->men; slot++)
        if (l->sides[slot] == side && slot != skip
            && man_attacks(l->types[slot], squares[slot], occupied) & BB(target))
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

/* The entry after an exit: the smaller table's, at any index of the
 * position's class. */
static int exit_value(const RetroExit *exit, const int *after, int mover)
{
    int squares[TABLE_MAX_MEN];
    for (int slot = 0; slot < exit->layout.men; slot++)
        squares[slot] = after[exit->mapping[slot]];
    long long index = layout_any_index(&exit->layout, squares);
    return exit->values[((1 - mover) ^ exit->swapped) * exit->layout.size + index];
}

static void count_moves(const TableLayout *l, const RetroExit *const *exit_of, const int *squares,
                        int side, Moves *m)
{
    Bitboard occupied = occupancy(l, squares, -1), own = occupancy(l, squares, side);
    int king = squares[l->kings[side]];
    int in_check = attacked(l, squares, !side, king, occupied, -1);
    int after[TABLE_MAX_MEN];
    memset(m, 0, sizeof *m);
    m->won = NO_WIN;
    for (int slot = 0; slot < l->men; slot++) {
        if (l->sides[slot] != side)
            continue;
        int from = squares[slot], is_king = slot == l->kings[side];
        Bitboard targets = man_attacks(l->types[slot], from, occupied) & ~own;
        /* Out of check, a man whose leaving opens no line to its king has
         * every quiet move legal (a capture only takes an attacker away). */
        int free = !is_king && !in_check
                && !attacked(l, squares, !side, king, occupied & ~BB(from), -1);
        if (free) {
            m->quiet += popcount(targets & ~occupied);
            targets &= occupied;
        }
        for (; targets; targets &= targets - 1) {
            int to = lsb(targets), taken = -1;
            for (int other = 0; other < l->men; other++)
                if (squares[other] == to)
                    taken = other;
            if (taken == l->kings[!side])
                continue; /* never in a legal position: the king is not in check */
            Bitboard moved = (occupied & ~BB(from)) | BB(to);
            if (!free && attacked(l, squares, !side, is_king ? to : king, moved, taken))
                continue;
            if (taken < 0) {
                m->quiet++;
                continue;
            }
            memcpy(after, squares, sizeof after);
            after[slot] = to;
            int value = exit_value(exit_of[taken], after, side), plies = value + 1;
            if (value == RETRO_ILLEGAL)
                continue; /* never after a legal move */
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
    }
}

/* Atomic steps where threads share a level, plain ones where they do not. */
#if defined(_OPENMP) && defined(__GNUC__)
#define THREADED 1
static inline int claim(uint8_t *entry, uint8_t value)
{
    uint8_t expected = RETRO_DRAW;
    return __atomic_compare_exchange_n(entry, &expected, value, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
static inline int spend(uint16_t *counter, int worth)
{
    return __atomic_sub_fetch(counter, (uint16_t)worth, __ATOMIC_RELAXED);
}
#else
#define THREADED 0
static inline int claim(uint8_t *entry, uint8_t value)
{
    if (*entry != RETRO_DRAW)
        return 0;
    *entry = value;
    return 1;
}
static inline int spend(uint16_t *counter, int worth) { return *counter -= (uint16_t)worth; }
#endif

/* What a build holds, per index or per entry (side * size + index). */
typedef struct {
    const TableLayout *l;
    const RetroExit *exit_of[TABLE_MAX_MEN];
    uint8_t *values;
    uint8_t *flags;        /* LEGAL << side, CHECK << side, CANONICAL */
    uint8_t *weight;       /* a move's worth from this class: group / stabiliser */
    uint16_t *counter;     /* moves not yet known to lose, in units of 1/group */
    uint8_t *captured_at;  /* the most plies a losing exit lasts */
    uint8_t *due;          /* the level an exit decides (a win, or a loss with no
                              quiet move), 0 for none */
    List later[2][256];    /* by side and level: entries decided then unless sooner */
    int failed;            /* memory ran out */
} Build;

static void classify(Build *b, long long index)
{
    const TableLayout *l = b->l;
    int squares[TABLE_MAX_MEN];
    layout_decode(l, index, squares);
    Bitboard occupied = occupancy(l, squares, -1);
    uint8_t flags = 0;
    if (popcount(occupied) == l->men) {
        for (int side = 0; side < 2; side++) {
            /* Legal with `side` to move: the other king is not in check. */
            if (!attacked(l, squares, side, squares[l->kings[!side]], occupied, -1))
                flags |= LEGAL << side;
            if (attacked(l, squares, !side, squares[l->kings[side]], occupied, -1))
                flags |= CHECK << side;
        }
    }
    if (layout_canonical(l, squares, 1) == index) {
        flags |= CANONICAL;
        b->weight[index] = (uint8_t)(l->group / layout_stabiliser(l, index));
    }
    b->flags[index] = flags;
    b->values[index] = b->values[l->size + index] = RETRO_ILLEGAL;
    for (int side = 0; side < 2; side++)
        if (flags & LEGAL << side)
            b->values[side * l->size + index] = RETRO_DRAW;
}

/* The moves of a canonical legal position: its counter, and the level an
 * exit decides; 0 in values when it is mated. */
static void start(Build *b, int side, long long index)
{
    const TableLayout *l = b->l;
    long long entry = side * l->size + index;
    int squares[TABLE_MAX_MEN];
    Moves m;
    layout_decode(l, index, squares);
    count_moves(l, b->exit_of, squares, side, &m);
    b->counter[entry] = m.escape ? NEVER : (uint16_t)(m.quiet * b->weight[index]);
    b->captured_at[entry] = (uint8_t)m.worst;
    b->due[entry] = 0;
    if (m.won != NO_WIN)
        b->due[entry] = (uint8_t)m.won;
    else if (!m.quiet && !m.escape && m.losing)
        b->due[entry] = (uint8_t)m.worst; /* lost when its longest capture is mated */
    else if (!m.quiet && !m.escape && b->flags[index] & CHECK << side)
        b->values[entry] = 0;
}

/* The predecessors (with `side` to move) of the canonical position at
 * `index` (the other side to move, found at `level - 1`), each reached by
 * a quiet un-move: a win at an odd level, a move's worth spent at an even
 * one. Those found at `level` go to `found`. */
static void unmove(Build *b, int side, long long index, int level, List *found)
{
    const TableLayout *l = b->l;
    uint8_t *values = b->values + side * l->size;
    int squares[TABLE_MAX_MEN];
    layout_decode(l, index, squares);
    Bitboard occupied = occupancy(l, squares, -1);
    int worth = b->weight[index];
    for (int slot = 0; slot < l->men; slot++) {
        if (l->sides[slot] != side)
            continue;
        int from = squares[slot];
        /* Without pawns a quiet move is its own un-move. */
        for (Bitboard targets = man_attacks(l->types[slot], from, occupied) & ~occupied; targets;
             targets &= targets - 1) {
            squares[slot] = lsb(targets);
            long long before = layout_canonical(l, squares, slot != 0);
            squares[slot] = from;
            if (!(b->flags[before] & LEGAL << side) || values[before] != RETRO_DRAW)
                continue;
            if (level % 2) {
                if (claim(&values[before], (uint8_t)level) && push(found, (int32_t)before) < 0)
                    b->failed = 1;
                continue;
            }
            if (spend(&b->counter[side * l->size + before], worth))
                continue;
            /* Its last move is spent: lost now, or when its longest losing
             * capture is mated if that is later. */
            int lost = b->captured_at[side * l->size + before];
            if (lost <= level) {
                values[before] = (uint8_t)level;
                if (push(found, (int32_t)before) < 0)
                    b->failed = 1;
            } else {
#if THREADED
#pragma omp critical(retrograde_later)
#endif
                if (push(&b->later[side][lost], (int32_t)before) < 0)
                    b->failed = 1;
            }
        }
    }
}

/* One level for one side: the un-moves from the other side's last level,
 * then what exits decide now. */
static void level_of(Build *b, int side, const List *last, int level, int threads, List *found)
{
#if THREADED
#pragma omp parallel num_threads(threads)
    {
        List mine = {0};
#pragma omp for schedule(dynamic, 1024)
        for (long long i = 0; i < last->count; i++)
            unmove(b, side, last->at[i], level, &mine);
#pragma omp critical(retrograde_found)
        for (long long i = 0; i < mine.count; i++)
            if (push(found, mine.at[i]) < 0)
                b->failed = 1;
        free(mine.at);
    }
#else
    (void)threads;
    for (long long i = 0; i < last->count; i++)
        unmove(b, side, last->at[i], level, found);
#endif
    uint8_t *values = b->values + side * b->l->size;
    const List *due = &b->later[side][level];
    for (long long i = 0; i < due->count; i++)
        if (values[due->at[i]] == RETRO_DRAW) {
            values[due->at[i]] = (uint8_t)level;
            if (push(found, due->at[i]) < 0)
                b->failed = 1;
        }
}

int retrograde_build(const TableLayout *l, const RetroExit *exits, int exit_count, int threads,
                     uint8_t *values)
{
    long long size = l->size;
    Build b = {.l = l, .values = values};
    for (int i = 0; i < exit_count; i++)
        b.exit_of[exits[i].slot] = &exits[i];
    b.flags = malloc((size_t)size);
    b.weight = calloc((size_t)size, 1);
    b.counter = malloc((size_t)(2 * size) * sizeof *b.counter);
    b.captured_at = malloc((size_t)(2 * size));
    b.due = calloc((size_t)(2 * size), 1);
    List frontier[2] = {{0}}, next[2] = {{0}};
    int level = 0, last_due = 0;
    if (!b.flags || !b.weight || !b.counter || !b.captured_at || !b.due)
        goto done;
    if (threads < 1)
        threads = 1;

#if THREADED
#pragma omp parallel for schedule(static, 4096) num_threads(threads)
#endif
    for (long long index = 0; index < size; index++)
        classify(&b, index);
    for (int side = 0; side < 2; side++) {
#if THREADED
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads)
#endif
        for (long long index = 0; index < size; index++)
            if ((b.flags[index] & (CANONICAL | LEGAL << side)) == (CANONICAL | LEGAL << side))
                start(&b, side, index);
        for (long long index = 0; index < size; index++) {
            if ((b.flags[index] & (CANONICAL | LEGAL << side)) != (CANONICAL | LEGAL << side))
                continue;
            long long entry = side * size + index;
            if (values[entry] == 0 && push(&frontier[side], (int32_t)index) < 0)
                b.failed = 1;
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

    while (level < RETRO_MAX_PLIES && (frontier[0].count || frontier[1].count || level < last_due)) {
        level++;
        for (int side = 0; side < 2; side++) {
            next[side].count = 0;
            level_of(&b, side, &frontier[!side], level, threads, &next[side]);
            /* Losses scheduled now for later levels extend the run. */
            for (int later = level + 1; later < 256; later++)
                if (b.later[side][later].count && later > last_due)
                    last_due = later;
        }
        if (b.failed)
            goto done;
        for (int side = 0; side < 2; side++) {
            List t = frontier[side];
            frontier[side] = next[side];
            next[side] = t;
        }
    }

    /* Every other index copies its class's value. */
#if THREADED
#pragma omp parallel for schedule(static, 4096) num_threads(threads)
#endif
    for (long long index = 0; index < size; index++) {
        if (b.flags[index] & CANONICAL)
            continue;
        int squares[TABLE_MAX_MEN];
        layout_decode(l, index, squares);
        long long least = layout_canonical(l, squares, 1);
        values[index] = values[least];
        values[size + index] = values[size + least];
    }

done:;
    int failed = !b.flags || !b.weight || !b.counter || !b.captured_at || !b.due || b.failed;
    free(b.flags);
    free(b.weight);
    free(b.counter);
    free(b.captured_at);
    free(b.due);
    for (int side = 0; side < 2; side++) {
        free(frontier[side].at);
        free(next[side].at);
        for (int i = 0; i < 256; i++)
            free(b.later[side][i].at);
    }
    return failed ? -1 : level;
}
