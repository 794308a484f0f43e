/* The forcing-tree search (al0/engine/search.py's twin, function for
 * function: the same nodes in the same order, so the same trees and node
 * counts) over compiled advice (al0/engine/compiled.py's twin). */
#ifndef AL0_SEARCH_H
#define AL0_SEARCH_H

#include <setjmp.h>
#include "goals.h"
#include "memo.h"

#define MAX_RANGES 16
#define MAX_ALTERNATIVES 16
#define MAX_GENERATORS 4

typedef struct { int lo, hi; } Range;  /* lo <= depth < hi; hi -1: no end */

/* One alternative of a move constraint: its depths and its generators
 * (the first generates and orders, the others filter), each (kind, piece). */
typedef struct { Range depths; int count; int generators[MAX_GENERATORS][2]; } Alternative;

/* compiled.CompiledAdvice, as the core reads it; [1] is ours, [0] theirs. */
typedef struct {
    const int *better, *holding;
    int horizon, leaf_in_check, leaf_ours, position_only, mate_alone;
    int legal_count[2];
    Range legal[2][MAX_RANGES];
    int alternative_count[2];
    Alternative alternatives[2][MAX_ALTERNATIVES];
} Advice;

/* Why a search stopped early (SearchBudgetExceeded and the like). */
enum { DONE, NODE_BUDGET, MOVE_BUDGET, TIME_LIMIT, STOPPED, OUT_OF_MEMORY, PYTHON_ERROR };

/* What the search asks of its caller between nodes: every few thousand
 * steps it calls poll, which reads the clock and the stop flag (and
 * Ctrl-C) and returns DONE to go on or the reason to stop. */
typedef int (*PollFn)(void *context);

typedef struct {
    const Advice *advice;
    Memo *memo;
    int shared_memo;              /* the memo came from an earlier search */
    int us;
    Position root_position;
    Node root;
    RootParts parts;
    long long nodes, moves, steps, node_limit, move_limit;
    int never, one_ply, last_theirs, odd_ours;
    int **history;                /* by depth: refutations by reply (NULL: none yet) */
    Memo *excluded;               /* positions our moves may not lead to (their values), NULL: none */
    int reach;                    /* ... at depths up to this one */
    PollFn poll;
    void *poll_context;
    jmp_buf stop;                 /* where a search that must stop unwinds to */
    int reason;
} Search;

int search_init(Search *s, const Advice *advice, Memo *memo, int shared_memo,
                const Position *root, int us, long long node_limit, long long move_limit,
                PollFn poll, void *poll_context);
void search_free(Search *s);
/* The tree of least height from the root, or NULL (none within the
 * constraints); s->reason says DONE, or why the search stopped. */
Tree *search_run(Search *s);
int allowed_moves(const Advice *advice, int ours, const Position *p, int depth, int us, Move *out);

#endif
