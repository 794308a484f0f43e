/* The planner's loop (al0/engine/plan.py's Planner._search), with the
 * memos it shares between searches (its memos dict): by advice and the
 * values of the features its goals read at the root, so that searches
 * from roots alike reuse each other's entries, as on the twin. */
#include <stdlib.h>
#include <string.h>
#include "plan.h"

struct SharedMemo {
    SharedMemo *next;  /* the hash chain */
    int advice;
    int values[MAX_KEY];
    Memo memo;
};

void planner_init(Planner *pl, const Rule *rules, int rule_count, const PlanAdvice *advice,
                  int advice_count, int cache, long long shared_nodes)
{
    memset(pl, 0, sizeof *pl);
    pl->rules = rules;
    pl->rule_count = rule_count;
    pl->advice = advice;
    pl->advice_count = advice_count;
    pl->cache = cache;
    pl->shared_nodes = shared_nodes;
}

static void drop_shared(Planner *pl)
{
    for (size_t i = 0; i < pl->shared_size; i++)
        for (SharedMemo *m = pl->shared[i], *next; m; m = next) {
            next = m->next;
            memo_free(&m->memo);
            free(m);
        }
    free(pl->shared);
    pl->shared = NULL;
    pl->shared_size = pl->shared_count = 0;
}

void planner_free(Planner *pl)
{
    drop_shared(pl);
    if (pl->scratch_ready)
        memo_free(&pl->scratch);
    pl->scratch_ready = 0;
}

void planner_bound_shared(Planner *pl)
{
    if (!pl->cache || pl->visited <= pl->shared_nodes)
        return;
    drop_shared(pl);
    pl->visited = 0;
}

size_t planner_shared_in_use(const Planner *pl)
{
    size_t used = 0;
    for (size_t i = 0; i < pl->shared_size; i++)
        for (const SharedMemo *m = pl->shared[i]; m; m = m->next)
            used += m->memo.entries > 0;
    return used;
}

static size_t key_slot(int advice, const int *values, int count, size_t size)
{
    uint64_t h = (uint64_t)advice * 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < count; k++)
        h = (h ^ (uint32_t)values[k]) * 0xBF58476D1CE4E5B9ULL;
    return (h ^ (h >> 31)) & (size - 1);
}

/* The memo shared by the searches of advice index from roots whose key
 * (compiled.root_key: the features its goals read at the root) reads as
 * root's; NULL when out of memory. */
static Memo *shared_memo(Planner *pl, int index, Node *root)
{
    const PlanAdvice *a = &pl->advice[index];
    int values[MAX_KEY];
    for (int k = 0; k < a->key_count; k++)
        values[k] = feature(root, a->key[k][0], a->key[k] + 1);
    if (!pl->shared) {
        pl->shared_size = 64;
        if (!(pl->shared = calloc(pl->shared_size, sizeof *pl->shared)))
            return NULL;
    }
    size_t slot = key_slot(index, values, a->key_count, pl->shared_size);
    for (SharedMemo *m = pl->shared[slot]; m; m = m->next)
        if (m->advice == index && !memcmp(m->values, values, (size_t)a->key_count * sizeof(int)))
            return &m->memo;
    if (pl->shared_count >= pl->shared_size) {
        /* Grow the chains' table (a planner may keep thousands of memos). */
        size_t size = 2 * pl->shared_size;
        SharedMemo **table = calloc(size, sizeof *table);
        if (!table)
            return NULL;
        for (size_t i = 0; i < pl->shared_size; i++)
            for (SharedMemo *m = pl->shared[i], *next; m; m = next) {
                next = m->next;
                size_t j = key_slot(m->advice, m->values, pl->advice[m->advice].key_count, size);
                m->next = table[j];
                table[j] = m;
            }
        free(pl->shared);
        pl->shared = table;
        pl->shared_size = size;
        slot = key_slot(index, values, a->key_count, size);
    }
    SharedMemo *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    if (memo_init(&m->memo) < 0) {
        memo_free(&m->memo);
        free(m);
        return NULL;
    }
    m->advice = index;
    memcpy(m->values, values, (size_t)a->key_count * sizeof(int));
    m->next = pl->shared[slot];
    pl->shared[slot] = m;
    pl->shared_count++;
    return &m->memo;
}

/* The memo of a search that shares none: one, cleared between searches
 * (a new one per search costs more than most of KRK's searches). */
static Memo *scratch(Planner *pl)
{
    if (pl->scratch_ready) {
        memo_clear(&pl->scratch);
        return &pl->scratch;
    }
    if (memo_init(&pl->scratch) < 0) {
        memo_free(&pl->scratch);
        return NULL;
    }
    pl->scratch_ready = 1;
    return &pl->scratch;
}

void plan_run(Planner *pl, const Position *position, int us, const PlanLimits *limits, PlanResult *out)
{
    Node root;
    RootParts parts;
    node_init(&root, position, us, 0);
    root_parts_init(&parts, &root);
    out->reason = DONE;
    out->rule = out->chosen = -1;
    out->nodes = 0;
    out->tree = NULL;
    for (int r = 0; r < pl->rule_count; r++) {
        const Rule *rule = &pl->rules[r];
        if (rule->precondition && !evaluate(rule->precondition, &root, &parts))
            continue;
        out->rule = r;
        for (int i = 0; i < rule->count; i++) {
            const PlanAdvice *a = &pl->advice[rule->advice[i]];
            int shared = pl->cache && a->shares;
            Memo *memo = shared ? shared_memo(pl, rule->advice[i], &root) : scratch(pl);
            Search s;
            out->chosen = i;
            if (!memo || search_init(&s, a->advice, memo, shared, position, us, limits->nodes / a->cost,
                                     limits->moves, limits->poll, limits->context) < 0) {
                if (memo)
                    search_free(&s);
                out->reason = OUT_OF_MEMORY;
                return;
            }
            limits->started(limits->context);
            Tree *tree = search_run(&s);
            search_free(&s);
            if (s.reason != DONE) {
                out->reason = s.reason;
                return;
            }
            out->nodes += s.nodes;
            pl->visited += s.nodes;
            /* A better-goal that already holds at the root leaves no move
             * to play: the plan passes it over, as plan.py does. */
            if (tree && tree != &LEAF) {
                out->tree = tree;
                return;
            }
        }
        out->chosen = -1;
        return;
    }
}
