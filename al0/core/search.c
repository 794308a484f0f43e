/* The forcing-tree search, a line-by-line port of al0/engine/search.py's
 * ForcingTreeSearch: each function here names the method it mirrors, and
 * keeps its order of work, so that the nodes met, their count and the
 * trees found are the Python search's. Read that module for why each
 * shortcut is sound; the comments here say only what differs in C.
 *
 * A limit reached deep in the recursion unwinds with longjmp to
 * search_run (the Python search raises): everything a search allocates
 * lives in the memo's arena or in the Search, so nothing leaks. */
#include <stdlib.h>
#include <string.h>
#include "search.h"

typedef struct { Tree *tree; int lo; } Result;

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

static void stop(Search *s, int reason)
{
    s->reason = reason;
    longjmp(s->stop, 1);
}

/* A look at the clock, the stop flag and Ctrl-C (the poll takes the GIL
 * back for a moment, so it is not done at every node). */
static void look(Search *s)
{
    int reason = s->poll(s->poll_context);
    if (reason != DONE)
        stop(s, reason);
}

/* _count_node: past the node budget the search stops; every POLL_NODES
 * nodes it looks at the clock and the stop flag (_look; the Python search
 * looks every 64 nodes, the core's nodes are some thirty times cheaper). */
#define POLL_NODES 1024
static void count_node(Search *s)
{
    if (++s->nodes > s->node_limit)
        stop(s, NODE_BUDGET);
    if (!(s->nodes % POLL_NODES))
        look(s);
}

static void *alloc(Search *s, size_t size)
{
    void *piece = memo_alloc(s->memo, size);
    if (!piece)
        stop(s, OUT_OF_MEMORY);
    return piece;
}

static Tree *make_tree(Search *s, int height, int count)
{
    Tree *tree = alloc(s, sizeof(Tree) + (size_t)count * sizeof(Branch));
    tree->height = height;
    tree->count = count;
    return tree;
}

static int in_ranges(const Range *ranges, int count, int depth)
{
    for (int i = 0; i < count; i++)
        if (ranges[i].lo <= depth && (ranges[i].hi < 0 || depth < ranges[i].hi))
            return 1;
    return 0;
}

/* _legal_alone */
static int legal_alone(const Search *s, int ours, int depth)
{
    return in_ranges(s->advice->legal[ours], s->advice->legal_count[ours], depth);
}

/* The moves one generator yields (al0/lang/vocabulary/generators.py and
 * the standard legal and nomove). */
static int generate(const int *generator, const Position *p, int depth, int us, Move *out)
{
    switch (generator[0]) {
    case GEN_LEGAL:
        return legal_moves(p, out);
    case GEN_MOVES: {
        Node node;
        node_init(&node, p, us, depth);
        int square = piece_square(&node, generator[1]);
        if (square < 0 || p->turn != piece_colour(&node, generator[1]))
            return 0;
        return piece_moves(p, square, out);
    }
    case GEN_CHECKS:
        return checking_moves(p, out);
    case GEN_CAPTURES: {
        Move all[MAX_MOVES];
        int total = legal_moves(p, all), n = 0;
        /* legal_moves lists by square descending; captures go ascending */
        for (int i = total - 1; i >= 0; i--)
            if (side_of(p, !p->turn) & BB(MOVE_TO(all[i])))
                out[n++] = all[i];
        /* by from-square, then to-square: reversed legal order is by from
         * ascending but a king in check comes first there, so sort */
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && by_squares(out[j - 1]) > by_squares(out[j]); j--) {
                Move t = out[j]; out[j] = out[j - 1]; out[j - 1] = t;
            }
        return n;
    }
    default:  /* GEN_NOMOVE */
        return 0;
    }
}

static int contains(const Move *moves, int count, Move move)
{
    for (int i = 0; i < count; i++)
        if (moves[i] == move)
            return 1;
    return 0;
}

/* compile_moves.compile_constraint's allowed(): the alternatives that
 * apply at depth, in order, each one's moves filtered by its other
 * generators and by the moves earlier alternatives allowed; all of them in
 * one list (every move the core's generators give is legal, so the
 * Python search's per-generator segments make no difference here). */
int allowed_moves(const Advice *advice, int ours, const Position *p, int depth, int us, Move *out)
{
    int n = 0;
    for (int a = 0; a < advice->alternative_count[ours]; a++) {
        int before = n;
        const Alternative *alt = &advice->alternatives[ours][a];
        if (depth < alt->depths.lo || (alt->depths.hi >= 0 && depth >= alt->depths.hi))
            continue;
        Move moves[MAX_MOVES], admitted[MAX_MOVES];
        int count = generate(alt->generators[0], p, depth, us, moves);
        for (int g = 1; g < alt->count; g++) {
            int allowed = generate(alt->generators[g], p, depth, us, admitted), kept = 0;
            for (int i = 0; i < count; i++)
                if (contains(admitted, allowed, moves[i]))
                    moves[kept++] = moves[i];
            count = kept;
        }
        /* A move an earlier alternative allowed keeps its first place (one
         * generator lists a move once). */
        for (int i = 0; i < count; i++)
            if (!contains(out, before, moves[i]))
                out[n++] = moves[i];
    }
    return n;
}

static int gives_check(const Position *p, Move move)
{
    Position child = apply_move(p, move);
    return is_check(&child);
}

/* _goals: what the goals say at a node, kept in the values for
 * position-only advice. */
static int goals(Search *s, const Position *p, int depth)
{
    Node node;
    int said;
    node_init(&node, p, s->us, depth);
    if (!evaluate(s->advice->holding, &node, &s->parts))
        said = FAILS;
    else if (evaluate(s->advice->better, &node, &s->parts))
        said = LEAF_HERE;
    else
        said = HOLDS;
    if (s->advice->position_only && value_set(s->memo, p, said) < 0)
        stop(s, OUT_OF_MEMORY);
    return said;
}

/* ForcingTreeSearch.excluded: a position the game has seen after a move
 * of ours, at a depth within reach, fails at every bound. */
static int excluded(const Search *s, const Position *p, int depth)
{
    return s->excluded && depth <= s->reach && value_get(s->excluded, p) != UNKNOWN;
}

static Entry *add_entry(Search *s, const Position *p, int depth)
{
    Entry *entry = memo_add(s->memo, p, depth);
    if (!entry)
        stop(s, OUT_OF_MEMORY);
    return entry;
}

/* _visit */
static Entry *visit(Search *s, const Position *p, int depth)
{
    count_node(s);
    if (excluded(s, p, depth)) {
        Entry *entry = add_entry(s, p, depth);
        entry->lo = s->never;
        return entry;
    }
    if (s->advice->mate_alone && depth) {
        Entry *entry = add_entry(s, p, depth);
        if (p->turn != s->us && is_checkmate(p))
            entry->tree = &LEAF;
        return entry;
    }
    int said = s->advice->position_only ? value_get(s->memo, p) : UNKNOWN;
    if (said == UNKNOWN)
        said = goals(s, p, depth);
    Entry *entry = add_entry(s, p, depth);
    if (said == FAILS)
        entry->lo = s->never;
    else if (said == LEAF_HERE)
        entry->tree = &LEAF;
    return entry;
}

/* _count_refuter */
static void count_refuter(Search *s, int depth, Move move)
{
    if (!s->history[depth] && !(s->history[depth] = calloc(4096, sizeof(int))))
        stop(s, OUT_OF_MEMORY);
    s->history[depth][move]++;
}

/* _refuters_first (and _last_reply's order): most refutations first, ties
 * in the generator's order (an insertion sort is stable, as Python's). */
static void refuters_first_moves(Search *s, int depth, Move *moves, int count)
{
    const int *history = s->history[depth];
    if (!history || count < 2)
        return;
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && history[moves[j - 1]] < history[moves[j]]; j--) {
            Move t = moves[j]; moves[j] = moves[j - 1]; moves[j - 1] = t;
        }
}

static void refuters_first(Search *s, int depth, Child *children, int count)
{
    const int *history = s->history[depth];
    if (!history || count < 2)
        return;
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && history[children[j - 1].move] < history[children[j].move]; j--) {
            Child t = children[j]; children[j] = children[j - 1]; children[j - 1] = t;
        }
}

/* _refuted: count the reply and try it first next time here. */
static void refuted(Search *s, int depth, Child *children, int index)
{
    Child first = children[index];
    count_refuter(s, depth, first.move);
    memmove(children + 1, children, (size_t)index * sizeof(Child));
    children[0] = first;
}

static Result solve(Search *s, const Position *p, int depth, int bound, Entry **found);
static Result solve_entry(Search *s, Entry *entry, int bound);

/* _child */
static Result child(Search *s, const Entry *parent, Child *c, int bound)
{
    if (c->entry)
        return solve_entry(s, c->entry, bound);
    Position p = apply_move(&parent->position, c->move);
    return solve(s, &p, parent->depth + 1, bound, &c->entry);
}

/* _one_ply */
static Result one_ply(Search *s, Entry *entry)
{
    const Position *p = &entry->position;
    int depth = entry->depth;
    Move moves[MAX_MOVES];
    int count = legal_alone(s, 1, depth) ? legal_moves(p, moves)
              : allowed_moves(s->advice, 1, p, depth, s->us, moves);
    s->moves += count;
    if (s->moves > s->move_limit)
        stop(s, MOVE_BUDGET);
    if (!count) {
        entry->lo = s->never;
        return (Result){NULL, s->never};
    }
    int least = s->never;
    for (int i = 0; i < count; i++) {
        Position c = apply_move(p, moves[i]);
        Node node;
        count_node(s);
        if (excluded(s, &c, depth + 1))
            continue;  /* fails at every bound */
        node_init(&node, &c, s->us, depth + 1);
        if (!evaluate(s->advice->holding, &node, &s->parts))
            continue;  /* fails at every bound */
        if (evaluate(s->advice->better, &node, &s->parts)) {
            Tree *tree = make_tree(s, 1, 1);
            tree->branches[0] = (Branch){moves[i], &LEAF};
            entry->tree = tree;
            return (Result){tree, entry->lo};
        }
        least = 0;  /* holds, no leaf: fails at bound 0 only */
    }
    entry->lo = imin(s->never, least + 1);
    return (Result){NULL, entry->lo};
}

/* legal_checks: the legal moves that give check, in the legal order. */
static int legal_checks(const Position *p, Move *out)
{
    Move all[MAX_MOVES];
    int total = legal_moves(p, all), n = 0;
    for (int i = 0; i < total; i++)
        if (gives_check(p, all[i]))
            out[n++] = all[i];
    return n;
}

/* _mate_in_one */
static Result mate_in_one(Search *s, Entry *entry)
{
    Move checks[MAX_MOVES];
    int count = legal_checks(&entry->position, checks);
    for (int i = 0; i < count; i++) {
        Position c = apply_move(&entry->position, checks[i]);
        int leaf;
        if (s->advice->mate_alone) {
            leaf = !has_legal_move(&c);  /* checks.mate_in_one: a check with no reply */
        } else {
            Entry *e = memo_get(s->memo, &c, entry->depth + 1);
            if (!e)
                e = visit(s, &c, entry->depth + 1);
            leaf = e->tree == &LEAF;
            if (!leaf && e->lo < 0)
                e->lo = 0;
        }
        if (leaf) {
            Tree *tree = make_tree(s, 1, 1);
            tree->branches[0] = (Branch){checks[i], &LEAF};
            entry->tree = tree;
            return (Result){tree, entry->lo};
        }
    }
    entry->lo = imax(entry->lo, 1);
    return (Result){NULL, entry->lo};
}

/* _last_reply */
static Result last_reply(Search *s, const Position *p, int depth, Entry **found)
{
    count_node(s);
    Entry *entry = *found = add_entry(s, p, depth);
    int said = value_get(s->memo, p);
    if (said == FAILS || excluded(s, p, depth)) {
        entry->lo = s->never;
        return (Result){NULL, s->never};
    }
    Move replies[MAX_MOVES], trying[MAX_MOVES];
    int count = legal_alone(s, 0, depth) ? legal_moves(p, replies)
              : allowed_moves(s->advice, 0, p, depth, s->us, replies);
    if (!count) {
        entry->lo = s->never;
        return (Result){NULL, s->never};
    }
    memcpy(trying, replies, (size_t)count * sizeof(Move));
    refuters_first_moves(s, depth, trying, count);
    for (int i = 0; i < count; i++) {
        Position c = apply_move(p, trying[i]);
        int reached = value_get(s->memo, &c);
        if (reached == UNKNOWN) {
            count_node(s);
            reached = goals(s, &c, depth + 1);
        }
        if (reached != LEAF_HERE) {
            count_refuter(s, depth, trying[i]);
            entry->lo = reached == FAILS ? s->never : 1;
            return (Result){NULL, entry->lo};
        }
    }
    if (said == UNKNOWN && goals(s, p, depth) == FAILS) {
        entry->lo = s->never;
        return (Result){NULL, s->never};
    }
    Tree *tree = make_tree(s, 1, count);
    for (int i = 0; i < count; i++)
        tree->branches[i] = (Branch){replies[i], &LEAF};
    entry->tree = tree;
    return (Result){tree, -1};
}

/* _expand: the children in trying order, all known legal here. */
static void expand(Search *s, Entry *entry)
{
    Move moves[MAX_MOVES];
    int ours = entry->position.turn == s->us;
    int count = legal_alone(s, ours, entry->depth) ? legal_moves(&entry->position, moves)
              : allowed_moves(s->advice, ours, &entry->position, entry->depth, s->us, moves);
    Child *children = alloc(s, (size_t)count * sizeof(Child) + 1);
    for (int i = 0; i < count; i++)
        children[i] = (Child){moves[i], (uint16_t)i, NULL};
    s->moves += count;
    if (s->moves > s->move_limit)
        stop(s, MOVE_BUDGET);
    entry->children = children;
    entry->count = count;
}

/* _first_leaf: returns the least lo, and sets *move when a child is a leaf. */
static int first_leaf(Search *s, Entry *entry, int *move)
{
    *move = -1;
    if (s->advice->leaf_ours >= 0 && s->advice->leaf_ours == (entry->position.turn == s->us))
        return 0;
    int least = s->never, depth = entry->depth + 1;
    for (int i = 0; i < entry->count; i++) {
        Child *c = &entry->children[i];
        /* _may_check: with leaves in check, an unplayed move giving no
         * check is passed over (it fails at bound 0). */
        if (s->advice->leaf_in_check && !c->entry && !gives_check(&entry->position, c->move)) {
            least = 0;
            continue;
        }
        if (!c->entry) {
            Position p = apply_move(&entry->position, c->move);
            Entry *e = memo_get(s->memo, &p, depth);
            c->entry = e ? e : visit(s, &p, depth);
        }
        if (c->entry->tree == &LEAF) {
            *move = c->move;
            return 0;
        }
        if (c->entry->lo < 0)
            c->entry->lo = 0;
        least = imin(least, c->entry->lo);
    }
    return least;
}

/* _solve_ours */
static Result solve_ours(Search *s, Entry *entry, int lo, int bound)
{
    int child_bound = imax(0, lo), least = s->never;
    while (child_bound < bound) {
        least = s->never;
        if (child_bound == 0) {
            int move;
            least = first_leaf(s, entry, &move);
            if (move >= 0) {
                Tree *tree = make_tree(s, 1, 1);
                tree->branches[0] = (Branch){(Move)move, &LEAF};
                return (Result){tree, lo};
            }
            child_bound = least + 1;
            continue;
        }
        for (int i = 0; i < entry->count; i++) {
            Child *c = &entry->children[i];
            Result r = child(s, entry, c, child_bound);
            if (r.tree) {
                Tree *tree = make_tree(s, r.tree->height + 1, 1);
                tree->branches[0] = (Branch){c->move, r.tree};
                return (Result){tree, lo};
            }
            least = imin(least, r.lo);
        }
        child_bound = imax(child_bound + 1, least + 1);
    }
    return (Result){NULL, imin(s->never, imax(bound, least + 1))};
}

/* _solve_theirs: every reply must succeed; the tree lists them in the
 * generator's order, whatever order they were tried in. */
static Result solve_theirs(Search *s, Entry *entry, int bound)
{
    int count = entry->count, height = 0;
    Branch branches[MAX_MOVES];
    uint16_t places[MAX_MOVES];
    for (int i = 0; i < count; i++) {
        Child *c = &entry->children[i];
        Result r = child(s, entry, c, bound - 1);
        if (!r.tree) {
            refuted(s, entry->depth, entry->children, i);
            return (Result){NULL, imin(s->never, imax(bound, r.lo + 1))};
        }
        /* insert by place: the sort by generator order */
        int j = i;
        for (; j > 0 && places[j - 1] > c->place; j--) {
            places[j] = places[j - 1];
            branches[j] = branches[j - 1];
        }
        places[j] = c->place;
        branches[j] = (Branch){c->move, r.tree};
        height = imax(height, r.tree->height);
    }
    Tree *tree = make_tree(s, height + 1, count);
    memcpy(tree->branches, branches, (size_t)count * sizeof(Branch));
    return (Result){tree, -1};
}

/* _deepen */
static Result deepen(Search *s, Entry *entry, int bound)
{
    if (!(++s->steps & 4095))
        look(s);  /* steps over the memo, without new nodes: look too */
    const Advice *advice = s->advice;
    int ours = entry->position.turn == s->us;
    if (bound == 1) {
        if (s->one_ply && ours && !advice->leaf_in_check && !entry->children)
            return one_ply(s, entry);
        if (!entry->children && advice->leaf_in_check && ours && legal_alone(s, 1, entry->depth))
            return mate_in_one(s, entry);
        if (advice->mate_alone && !ours) {
            entry->lo = 1;
            return (Result){NULL, 1};
        }
    }
    if (!entry->children) {
        expand(s, entry);
        if (!ours)
            refuters_first(s, entry->depth, entry->children, entry->count);
    }
    if (!entry->count) {
        entry->lo = s->never;
        return (Result){NULL, s->never};
    }
    Result r = ours ? solve_ours(s, entry, entry->lo, bound) : solve_theirs(s, entry, bound);
    if (!r.tree)
        entry->lo = r.lo;
    else
        entry->tree = r.tree;
    return (Result){r.tree, entry->lo};
}

/* _solve, once the entry is at hand */
static Result solve_entry(Search *s, Entry *entry, int bound)
{
    if (entry->tree && entry->tree->height <= bound)
        return (Result){entry->tree, entry->lo};
    if (entry->lo >= bound)
        return (Result){NULL, entry->lo};
    if (bound == 0) {
        entry->lo = 0;
        return (Result){NULL, 0};
    }
    if (s->odd_ours >= 0 && ((bound ^ s->odd_ours ^ (entry->position.turn != s->us)) & 1)) {
        bound -= 1;
        if (entry->lo < bound) {
            Result r = bound ? deepen(s, entry, bound) : (Result){NULL, 0};
            if (r.tree)
                return r;
        }
        entry->lo = imax(entry->lo, bound + 1);
        return (Result){NULL, entry->lo};
    }
    return deepen(s, entry, bound);
}

/* _solve */
static Result solve(Search *s, const Position *p, int depth, int bound, Entry **found)
{
    Entry *entry = memo_get(s->memo, p, depth);
    if (!entry) {
        if (depth == s->last_theirs && p->turn != s->us)
            return last_reply(s, p, depth, found);
        entry = visit(s, p, depth);
    }
    *found = entry;
    return solve_entry(s, entry, bound);
}

int search_init(Search *s, const Advice *advice, Memo *memo, int shared_memo,
                const Position *root, int us, long long node_limit, long long move_limit,
                PollFn poll, void *poll_context)
{
    memset(s, 0, sizeof *s);
    s->advice = advice;
    s->memo = memo;
    s->shared_memo = shared_memo;
    s->us = us;
    s->root_position = *root;
    node_init(&s->root, &s->root_position, us, 0);
    root_parts_init(&s->parts, &s->root);
    s->node_limit = node_limit;
    s->move_limit = move_limit;
    s->never = advice->horizon + 1;
    s->one_ply = !shared_memo && advice->horizon == 1;
    s->last_theirs = advice->leaf_ours == 1 && advice->position_only && !advice->mate_alone
                   ? advice->horizon - 1 : -1;
    s->odd_ours = advice->leaf_ours < 0 ? -1 : !advice->leaf_ours;
    s->poll = poll;
    s->poll_context = poll_context;
    /* By depth (0 ... horizon), how often each reply refuted a node of
     * theirs: a table of 4,096 counts made at the first refutation there. */
    s->history = calloc((size_t)advice->horizon + 2, sizeof(int *));
    return s->history ? 0 : -1;
}

void search_free(Search *s)
{
    if (s->history)
        for (int depth = 0; depth < s->advice->horizon + 2; depth++)
            free(s->history[depth]);
    free(s->history);
    s->history = NULL;
}

Tree *search_run(Search *s)
{
    Entry *root;
    if (setjmp(s->stop))
        return NULL;  /* s->reason says why */
    Result r = solve(s, &s->root_position, 0, s->advice->horizon, &root);
    s->reason = DONE;
    return r.tree;
}
