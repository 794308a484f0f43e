/* The memo's storage: an arena of blocks that never move (so entries,
 * children and trees are plain pointers), a chained hash table of entries
 * and an open-addressing table of goal values. Allocation failure returns
 * NULL and the search reports it as a memory error. */
#include <stdlib.h>
#include <string.h>
#include "memo.h"

Tree LEAF = {0, 0};

/* The header is three words, so data starts 8-byte aligned, and pieces are
 * rounded to 16 bytes: aligned for every type stored here. */
struct Block { Block *next; size_t used, size; unsigned char data[]; };
/* Blocks double from 16 KB to 1 MB: a one-ply search (most plans) needs a
 * few hundred bytes, and a deep one should not call malloc per node. */
#define FIRST_BLOCK ((size_t)1 << 14)
#define BLOCK_SIZE ((size_t)1 << 20)

int memo_init(Memo *memo)
{
    memset(memo, 0, sizeof *memo);
    memo->table_size = 256;
    memo->table = calloc(memo->table_size, sizeof(Entry *));
    memo->values_size = 256;
    memo->values = malloc(memo->values_size * sizeof *memo->values);
    if (!memo->table || !memo->values)
        return -1;
    for (size_t i = 0; i < memo->values_size; i++)
        memo->values[i].said = UNKNOWN;
    return 0;
}

void memo_free(Memo *memo)
{
    while (memo->blocks) {
        Block *next = memo->blocks->next;
        free(memo->blocks);
        memo->blocks = next;
    }
    free(memo->table);
    free(memo->values);
    memo->table = NULL;
    memo->values = NULL;
}

void memo_clear(Memo *memo)
{
    /* The blocks are newest first: keep the oldest (the smallest). */
    while (memo->blocks && memo->blocks->next) {
        Block *next = memo->blocks->next;
        free(memo->blocks);
        memo->blocks = next;
    }
    if (memo->blocks)
        memo->blocks->used = 0;
    /* Tables grown by a large search go back to their first size, so that
     * clearing them stays cheap for the small searches that follow. */
    if (memo->table_size > 256) {
        Entry **table = calloc(256, sizeof(Entry *));
        if (table) {
            free(memo->table);
            memo->table = table;
            memo->table_size = 256;
        } else {
            memset(memo->table, 0, memo->table_size * sizeof(Entry *));
        }
    } else if (memo->entries) {
        memset(memo->table, 0, memo->table_size * sizeof(Entry *));
    }
    memo->entries = 0;
    int fresh = 0;
    if (memo->values_size > 256) {
        struct Value *values = malloc(256 * sizeof *values);
        if (values) {
            free(memo->values);
            memo->values = values;
            memo->values_size = 256;
            fresh = 1;
        }
    }
    if (memo->values_count <= 8 && !fresh)
        for (size_t i = 0; i < memo->values_count; i++)
            memo->values[memo->first_values[i]].said = UNKNOWN;
    else
        for (size_t i = 0; i < memo->values_size; i++)
            memo->values[i].said = UNKNOWN;
    memo->values_count = 0;
}

void *memo_alloc(Memo *memo, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    Block *block = memo->blocks;
    if (!block || block->used + size > block->size) {
        size_t capacity = !block ? FIRST_BLOCK : block->size < BLOCK_SIZE ? 2 * block->size : BLOCK_SIZE;
        if (capacity < size)
            capacity = size;
        block = malloc(sizeof(Block) + capacity);
        if (!block)
            return NULL;
        block->next = memo->blocks;
        block->used = 0;
        block->size = capacity;
        memo->blocks = block;
    }
    void *piece = block->data + block->used;
    block->used += size;
    return piece;
}

/* A position's hash: the bitboards mixed by multiplying with odd constants
 * and folding the high bits down (any good 64-bit mix would do). */
static uint64_t hash_position(const Position *p)
{
    uint64_t h = p->white * 0x9E3779B97F4A7C15ULL;
    h ^= (p->black + (h >> 29)) * 0xBF58476D1CE4E5B9ULL;
    h ^= (p->kings + (h >> 31)) * 0x94D049BB133111EBULL;
    h ^= (p->queens ^ (p->rooks << 1) ^ (p->bishops << 2) ^ (p->knights << 3)) * 0xD6E8FEB86659FD93ULL;
    if (p->pawns)  /* (a pawnless position's hash is as it always was) */
        h ^= (p->pawns + (h >> 30) + ((uint64_t)(p->ep_square + 1) << 57)) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint64_t)p->turn;
    return h ^ (h >> 32);
}

Entry *memo_get(Memo *memo, const Position *p, int depth)
{
    uint64_t h = hash_position(p) + (uint64_t)depth * 0x9E3779B97F4A7C15ULL;
    for (Entry *e = memo->table[(h ^ (h >> 32)) & (memo->table_size - 1)]; e; e = e->next)
        if (e->depth == depth && position_equal(&e->position, p))
            return e;
    return NULL;
}

static int grow_table(Memo *memo)
{
    size_t size = memo->table_size * 2;
    Entry **table = calloc(size, sizeof(Entry *));
    if (!table)
        return -1;
    for (size_t i = 0; i < memo->table_size; i++)
        for (Entry *e = memo->table[i], *next; e; e = next) {
            next = e->next;
            uint64_t h = hash_position(&e->position) + (uint64_t)e->depth * 0x9E3779B97F4A7C15ULL;
            size_t slot = (h ^ (h >> 32)) & (size - 1);
            e->next = table[slot];
            table[slot] = e;
        }
    free(memo->table);
    memo->table = table;
    memo->table_size = size;
    return 0;
}

/* A new entry for a key not in the memo: lo -1, no tree, not expanded. */
Entry *memo_add(Memo *memo, const Position *p, int depth)
{
    if (memo->entries >= memo->table_size && grow_table(memo) < 0)
        return NULL;
    Entry *e = memo_alloc(memo, sizeof(Entry));
    if (!e)
        return NULL;
    e->position = *p;
    e->depth = depth;
    e->lo = -1;
    e->count = 0;
    e->tree = NULL;
    e->children = NULL;
    uint64_t h = hash_position(p) + (uint64_t)depth * 0x9E3779B97F4A7C15ULL;
    size_t slot = (h ^ (h >> 32)) & (memo->table_size - 1);
    e->next = memo->table[slot];
    memo->table[slot] = e;
    memo->entries++;
    return e;
}

/* The values table: linear probing, kept at most half full. */
static size_t value_slot(const struct Value *values, size_t size, const Position *p)
{
    size_t i = hash_position(p) & (size - 1);
    while (values[i].said != UNKNOWN && !position_equal(&values[i].position, p))
        i = (i + 1) & (size - 1);
    return i;
}

int value_get(Memo *memo, const Position *p)
{
    return memo->values[value_slot(memo->values, memo->values_size, p)].said;
}

int value_set(Memo *memo, const Position *p, int said)
{
    if (2 * (memo->values_count + 1) > memo->values_size) {
        size_t size = memo->values_size * 2;
        struct Value *values = malloc(size * sizeof *values);
        if (!values)
            return -1;
        for (size_t i = 0; i < size; i++)
            values[i].said = UNKNOWN;
        for (size_t i = 0; i < memo->values_size; i++)
            if (memo->values[i].said != UNKNOWN)
                values[value_slot(values, size, &memo->values[i].position)] = memo->values[i];
        free(memo->values);
        memo->values = values;
        memo->values_size = size;
    }
    size_t i = value_slot(memo->values, memo->values_size, p);
    if (memo->values[i].said == UNKNOWN && memo->values_count < 8)
        memo->first_values[memo->values_count] = i;
    if (memo->values[i].said == UNKNOWN)
        memo->values_count++;
    memo->values[i].position = *p;
    memo->values[i].said = said;
    return 0;
}
