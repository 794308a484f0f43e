/* Choosing a plan (al0/engine/plan.py's Planner, its twin for tables the
 * core runs whole): the first rule whose precondition holds, its pieces of
 * advice in order, the first whose search finds a tree with a move to play
 * gives the plan. The same searches in the same order, sharing the same
 * memos, as the Python planner: so the same plans and node counts. */
#ifndef AL0_PLAN_H
#define AL0_PLAN_H

#include "search.h"

#define MAX_KEY 16  /* features a root key may read */

/* A piece of advice as the planner runs it. */
typedef struct {
    const Advice *advice;
    int cost;     /* nodes of the budget each of its nodes counts as */
    int shares;   /* with a caching planner, its searches from roots whose
                   * key reads alike share a memo (plan.py: horizon > 1, and
                   * position-only goals or goals that do not read the root) */
    int key_count;
    int key[MAX_KEY][4];  /* the root key: feature, three arguments */
} PlanAdvice;

typedef struct {
    const int *precondition;  /* a goal program; NULL: true */
    int count;
    const int *advice;        /* the planner's advice, by index, in order */
} Rule;

typedef struct SharedMemo SharedMemo;

typedef struct {
    int rule_count, advice_count;
    const Rule *rules;
    const PlanAdvice *advice;
    int cache;                /* share memos between plans (Planner(cache=True)) */
    long long visited;        /* nodes searched since the shared memos were dropped */
    long long shared_nodes;   /* ... past which they are (plan.SHARED_NODES) */
    SharedMemo **shared;      /* chained hash by (advice, root key) */
    size_t shared_size, shared_count;
    Memo scratch;             /* the memo of every search that shares none */
    int scratch_ready;
} Planner;

/* What each search of a plan may spend (engine/limits.py's SearchLimits)
 * and how it learns the time: started is called as each search begins
 * (its clock starts), poll between nodes (search.h). */
typedef struct {
    long long nodes, moves;
    void (*started)(void *context);
    PollFn poll;
    void *context;
} PlanLimits;

typedef struct {
    int reason;       /* DONE, or why a search stopped */
    int rule;         /* the first rule whose precondition holds; -1: none */
    int chosen;       /* the place in that rule's advice of the plan's advice
                       * (stopped: of the advice searching); -1: none */
    long long nodes;  /* searched by the searches that ended */
    const Tree *tree; /* in one of the planner's memos: read it before the next plan */
} PlanResult;

/* rules and advice stay the caller's, and must outlive the planner. */
void planner_init(Planner *pl, const Rule *rules, int rule_count, const PlanAdvice *advice,
                  int advice_count, int cache, long long shared_nodes);
void planner_free(Planner *pl);
void plan_run(Planner *pl, const Position *root, int us, const PlanLimits *limits, PlanResult *out);
/* Past shared_nodes visited, drop the shared memos (plan.py's
 * _bound_shared): called after each plan, once its tree is read. */
void planner_bound_shared(Planner *pl);
/* How many shared memos hold entries (for the tests). */
size_t planner_shared_in_use(const Planner *pl);

#endif
