/* What a search remembers per (position, depth), and the trees it makes
 * (al0/engine/memo.py's twin). One Memo may serve several searches, as the
 * planner shares a Python memo: entries, trees and the per-position goal
 * values live as long as it does. */
#ifndef AL0_MEMO_H
#define AL0_MEMO_H

#include <stddef.h>
#include "moves.h"

/* A forcing tree: one branch at our nodes, every reply at theirs. */
typedef struct Tree Tree;
typedef struct { Move move; Tree *subtree; } Branch;
struct Tree { int height, count; Branch branches[]; };
extern Tree LEAF;

typedef struct Entry Entry;

/* A child of an expanded node: its move, its place in the generator's
 * order, and its entry once it has been visited. */
typedef struct { Move move; uint16_t place; Entry *entry; } Child;

/* memo.Entry: lo (fails at every bound <= lo; -1 nothing known), the
 * tree found, the children in trying order (NULL until expanded). */
struct Entry {
    Position position;
    int depth, lo, count;
    Tree *tree;
    Child *children;
    Entry *next;  /* the hash chain */
};

/* What the goals say at a position (memo.FAILS, HOLDS, LEAF_HERE). */
enum { UNKNOWN = -1, FAILS = 0, HOLDS = 1, LEAF_HERE = 2 };

typedef struct Block Block;

typedef struct {
    Block *blocks;            /* the arena: entries, children and trees */
    Entry **table;            /* chained hash of entries by (position, depth) */
    size_t table_size, entries;
    struct Value { Position position; int said; } *values;  /* open addressing */
    size_t values_size, values_count;
    size_t first_values[8];   /* the slots of the first values set, so that
                               * memo_clear of a small search clears those alone */
} Memo;

int memo_init(Memo *memo);
void memo_free(Memo *memo);
/* Empty the memo for another search, keeping its first block and tables
 * (cheaper than memo_free and memo_init: most searches are small). */
void memo_clear(Memo *memo);
void *memo_alloc(Memo *memo, size_t size);
Entry *memo_get(Memo *memo, const Position *p, int depth);
Entry *memo_add(Memo *memo, const Position *p, int depth);
int value_get(Memo *memo, const Position *p);
int value_set(Memo *memo, const Position *p, int said);

#endif
