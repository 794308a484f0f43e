/* Writing a tree of the memo (memo.h) as flat ints: a node's header and
 * branches are written before its subtrees, so the root comes first and a
 * reader may decode from it down as far as it needs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tree.h"

void tree_code_init(TreeCode *code) { memset(code, 0, sizeof *code); }

void tree_code_free(TreeCode *code)
{
    free(code->ints);
    free(code->seen);
    free(code->seen_at);
    tree_code_init(code);
}

/* Room for n more ints (the buffer is kept between trees). */
static int reserve(TreeCode *code, size_t n)
{
    if (code->length + n <= code->capacity)
        return 0;
    size_t capacity = code->capacity ? code->capacity : 64;
    while (capacity < code->length + n)
        capacity *= 2;
    int *ints = realloc(code->ints, capacity * sizeof(int));
    if (!ints)
        return -1;
    code->ints = ints;
    code->capacity = capacity;
    return 0;
}

static size_t slot_of(const TreeCode *code, const Tree *tree)
{
    size_t i = ((uintptr_t)tree >> 4) * 0x9E3779B97F4A7C15ULL & (code->seen_size - 1);
    while (code->seen[i] && code->seen[i] != tree)
        i = (i + 1) & (code->seen_size - 1);
    return i;
}

/* Where tree was written, or -1. */
static int written_at(const TreeCode *code, const Tree *tree)
{
    if (!code->seen_count)
        return -1;
    size_t i = slot_of(code, tree);
    return code->seen[i] ? code->seen_at[i] : -1;
}

/* Remember that tree was written at index (the table kept at most half full). */
static int remember(TreeCode *code, const Tree *tree, int index)
{
    if (2 * (code->seen_count + 1) > code->seen_size) {
        size_t size = code->seen_size ? 2 * code->seen_size : 64;
        const Tree **seen = calloc(size, sizeof *seen);
        int *seen_at = malloc(size * sizeof *seen_at);
        if (!seen || !seen_at) {
            free(seen);
            free(seen_at);
            return -1;
        }
        TreeCode grown = *code;
        grown.seen = seen;
        grown.seen_at = seen_at;
        grown.seen_size = size;
        for (size_t i = 0; i < code->seen_size; i++)
            if (code->seen[i]) {
                size_t j = slot_of(&grown, code->seen[i]);
                seen[j] = code->seen[i];
                seen_at[j] = code->seen_at[i];
            }
        free(code->seen);
        free(code->seen_at);
        *code = grown;
    }
    size_t i = slot_of(code, tree);
    code->seen[i] = tree;
    code->seen_at[i] = index;
    code->seen_count++;
    return 0;
}

/* Write one node and, after it, each subtree not yet written; returns its
 * index, or -1 when out of memory. */
static int put(TreeCode *code, const Tree *tree, const int *squares)
{
    if (reserve(code, 2 + 2 * (size_t)tree->count) < 0)
        return -1;
    int at = (int)code->length;
    code->ints[at] = tree->height;
    code->ints[at + 1] = tree->count;
    code->length += 2 + 2 * (size_t)tree->count;
    for (int i = 0; i < tree->count; i++) {
        Move move = tree->branches[i].move;
        const Tree *subtree = tree->branches[i].subtree;
        int child = -1;
        if (subtree != &LEAF) {
            child = written_at(code, subtree);
            if (child < 0) {
                /* Only trees below the root can be met twice: remember
                 * those (a one-move tree never fills the table). */
                child = put(code, subtree, squares);
                if (child < 0 || remember(code, subtree, child) < 0)
                    return -1;
            }
        }
        if (squares)
            move = PROMOTION_MOVE(squares[MOVE_FROM(move)], squares[MOVE_TO(move)], MOVE_PROMOTION(move));
        code->ints[at + 2 + 2 * i] = move;
        code->ints[at + 3 + 2 * i] = child;
    }
    return at;
}

int tree_encode(TreeCode *code, const Tree *tree, const int *squares)
{
    code->length = 0;
    if (code->seen_count) {
        memset(code->seen, 0, code->seen_size * sizeof *code->seen);
        code->seen_count = 0;
    }
    return put(code, tree, squares) < 0 ? -1 : 0;
}
