/* A forcing tree written as flat ints for Python (al0/engine/tree.py's
 * PackedTree reads it, a node at a time, when it is asked for). */
#ifndef AL0_TREE_H
#define AL0_TREE_H

#include <stddef.h>
#include "memo.h"

/* The ints: each node [height, count, (move, child) * count], the root's
 * first; child is the index of its node's first int, or -1 for a leaf.
 * A subtree the memo shares is written once. */
typedef struct {
    int *ints;
    size_t length, capacity;
    const Tree **seen;  /* open addressing: trees written, by address */
    int *seen_at;       /* ... and the index each was written at */
    size_t seen_size, seen_count;
} TreeCode;

void tree_code_init(TreeCode *code);
void tree_code_free(TreeCode *code);
/* Write tree (not the leaf), its moves taken through squares (a symmetry's
 * square map; NULL: as they are). Returns -1 when out of memory. */
int tree_encode(TreeCode *code, const Tree *tree, const int *squares);

#endif
