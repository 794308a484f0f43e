/* Goals compiled to a small integer program (al0/lang/compile_goals.py's
 * twin): the Python side (al0/core/program.py) writes the program from a
 * goal's AST, this evaluates it at a node. */
#ifndef AL0_GOALS_H
#define AL0_GOALS_H

#include "vocabulary.h"

/* Every operation starts [op, length of the whole operation in ints], so
 * that and/or can skip an operand they do not need. */
enum { G_CONST, G_NOT, G_AND, G_OR, G_PRED, G_DEPTH, G_CMP };
enum { CMP_EQ, CMP_LT, CMP_LE, CMP_GT, CMP_GE };
#define TERM_INTS 6   /* at_root, coefficient, feature, three arguments */
#define MAX_SLOTS 64  /* comparisons a search's goals may hold */
#define MAX_NESTING 1000  /* operations within operations: evaluate recurses once a level, so the
                             bound keeps it far from a thread stack's end (the Python twin
                             cannot evaluate a goal this deep within its recursion limit) */

/* The root part of each comparison (its root features' weighted sum and
 * its constant), computed once per root, as compile_goals keeps it among
 * the root node's facts. */
typedef struct {
    Node *root;
    long long sum[MAX_SLOTS];
    signed char state[MAX_SLOTS];  /* 0: not yet computed, 1: a value, -1: a feature had none */
} RootParts;

void root_parts_init(RootParts *parts, Node *root);
int evaluate(const int *code, Node *node, RootParts *parts);
const char *check_program(const int *code, long long length);
int check_arguments(const int *args, int count);

#endif
