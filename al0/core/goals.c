/* Evaluating a compiled goal (goals.h) at a node. A comparison is one
 * weighted sum compared with 0: node features times their coefficients,
 * plus the root part; false when any feature in it has no value. */
#include <stddef.h>
#include "goals.h"

void root_parts_init(RootParts *parts, Node *root)
{
    parts->root = root;
    for (int i = 0; i < MAX_SLOTS; i++)
        parts->state[i] = 0;
}

static int compare(int op, long long total)
{
    switch (op) {
    case CMP_EQ: return total == 0;
    case CMP_LT: return total < 0;
    case CMP_LE: return total <= 0;
    case CMP_GT: return total > 0;
    default: return total >= 0;
    }
}

/* [G_CMP, length, op, slot, constant, count, terms...] */
static int comparison(const int *code, Node *node, RootParts *parts)
{
    int op = code[2], slot = code[3], count = code[5];
    const int *terms = code + 6;
    if (!parts->state[slot]) {
        long long root = code[4];
        parts->state[slot] = 1;
        for (int i = 0; i < count; i++) {
            const int *t = terms + i * TERM_INTS;
            if (!t[0])
                continue;
            int value = feature(parts->root, t[2], t + 3);
            if (value == NO_VALUE) {
                parts->state[slot] = -1;
                break;
            }
            root += (long long)t[1] * value;
        }
        parts->sum[slot] = root;
    }
    if (parts->state[slot] < 0)
        return 0;
    long long total = parts->sum[slot];
    for (int i = 0; i < count; i++) {
        const int *t = terms + i * TERM_INTS;
        if (t[0])
            continue;
        int value = feature(node, t[2], t + 3);
        if (value == NO_VALUE)
            return 0;
        total += (long long)t[1] * value;
    }
    return compare(op, total);
}

int evaluate(const int *code, Node *node, RootParts *parts)
{
    switch (code[0]) {
    case G_CONST:
        return code[2];
    case G_NOT:
        return !evaluate(code + 2, node, parts);
    case G_AND: case G_OR: {
        /* [op, length, count, operands...]: short-circuits as Python's and/or */
        const int *operand = code + 3;
        for (int i = 0; i < code[2]; i++, operand += operand[1])
            if (evaluate(operand, node, parts) != (code[0] == G_AND))
                return code[0] != G_AND;
        return code[0] == G_AND;
    }
    case G_PRED:
        return predicate(node, code[2], code + 3);
    case G_DEPTH: {
        int depth = node->depth, k = code[3];
        switch (code[2]) {
        case CMP_EQ: return depth == k;
        case CMP_LT: return depth < k;
        case CMP_LE: return depth <= k;
        case CMP_GT: return depth > k;
        default: return depth >= k;
        }
    }
    case G_CMP:
        return comparison(code, node, parts);
    }
    return 0;
}

/* Whether every argument is one the vocabulary reads: a colour constant
 * (ANY_COLOUR, LIGHT, DARK) or a piece code (ours << 5 | type << 2 | index,
 * below 64). Anything else would index the node's tables out of bounds. */
int check_arguments(const int *args, int count)
{
    for (int i = 0; i < count; i++)
        if (args[i] < DARK || args[i] >= 64)
            return 0;
    return 1;
}

/* Why a program is malformed (NULL: it is not): every operation's length
 * must stay inside the program (lengths and counts in 64 bits, so no
 * count can wrap into a small length), operations nest at most
 * MAX_NESTING deep (evaluate recurses once a level), features and
 * predicates must exist with arguments they can read, and slots fit, so
 * evaluation never reads outside it. */
static const char *check_at(const int *code, long long length, int nesting)
{
    if (length < 2 || code[1] < 2 || code[1] > length)
        return "operation overruns the program";
    if (nesting > MAX_NESTING)
        return "nested too deep";
    switch (code[0]) {
    case G_CONST: return code[1] == 3 ? NULL : "bad constant";
    case G_NOT: {
        if (code[1] < 4)
            return "bad not";
        const char *why = check_at(code + 2, code[1] - 2, nesting + 1);
        return why ? why : code[3] == code[1] - 2 ? NULL : "not length";
    }
    case G_AND: case G_OR: {
        if (code[1] < 3 || code[2] < 0)
            return "bad connective";
        long long used = 3;
        for (int i = 0; i < code[2]; i++) {
            if (used >= code[1])
                return "connective overruns";
            const char *why = check_at(code + used, code[1] - used, nesting + 1);
            if (why)
                return why;
            used += code[used + 1];
        }
        return used == code[1] ? NULL : "connective length";
    }
    case G_PRED:
        return code[1] == 5 && code[2] >= 0 && code[2] < PREDICATE_COUNT && check_arguments(code + 3, 2)
             ? NULL : "bad predicate";
    case G_DEPTH:
        return code[1] == 4 ? NULL : "bad depth test";
    case G_CMP: {
        if (code[1] < 6 || code[3] < 0 || code[3] >= MAX_SLOTS || code[5] < 0
            || (long long)code[1] != 6 + (long long)code[5] * TERM_INTS)
            return "bad comparison";
        for (int i = 0; i < code[5]; i++) {
            const int *term = code + 6 + i * TERM_INTS;
            if (term[2] < 0 || term[2] >= FEATURE_COUNT)
                return "bad feature";
            if (!check_arguments(term + 3, 3))
                return "bad feature argument";
        }
        return NULL;
    }
    }
    return "unknown operation";
}

const char *check_program(const int *code, long long length)
{
    const char *why = check_at(code, length, 0);
    return why ? why : code[1] == length ? NULL : "trailing ints";
}
