/* The standard vocabulary's features and predicates (al0/lang/vocabulary/
 * and the standard predicates of al0/lang/library.py) over one node. */
#ifndef AL0_VOCABULARY_H
#define AL0_VOCABULARY_H

#include <limits.h>
#include "position.h"

/* A feature's "no value" (Python's None: a piece it measures is gone). */
#define NO_VALUE INT_MIN

/* Arguments: a piece is ours << 5 | type << 2 | index (its place among its
 * side's pieces of its kind, by square a1 ... h8); a colour argument may
 * instead be one of these. */
enum { ANY_COLOUR = -1, LIGHT = -2, DARK = -3 };

/* One node as the vocabulary reads it, with the king boxes (``area``'s
 * region) kept once computed: several features read them at one node. */
typedef struct {
    const Position *p;
    int us, depth;
    int box_known[2];       /* by the king's side: ours 1, theirs 0 */
    Bitboard box[2];
} Node;

void node_init(Node *node, const Position *p, int us, int depth);

/* The features and predicates by number; names in vocabulary.c. */
enum {
    F_DIST, F_MDIST, F_EDGE_DIST, F_CENTRE_SIDE_DIST, F_CORNER_DIST, F_ROOM, F_AREA,
    F_LEAST_AREA, F_AREA_CORNER_DIST, F_CORNER_TRIANGLE, F_DIAGONAL_AREA,
    F_TRIANGLE_CORNER_DIST, F_AREA_DIST, F_MOBILITY, F_INWARD, F_CRITICAL_MDIST, F_HANGING, F_WRONG_WAY,
    F_HYPOTENUSE_DIST, FEATURE_COUNT
};
enum {
    P_MATE, P_STALEMATE, P_CHECK, P_THEMTOMOVE, P_USTOMOVE, P_LOST, P_ATTACKED, P_EN_PRISE,
    P_THREATENED, P_DIVIDES, P_OPPOSITION, P_EDGE, P_CORNER,
    PREDICATE_COUNT
};
extern const char *FEATURE_NAMES[FEATURE_COUNT];
extern const char *PREDICATE_NAMES[PREDICATE_COUNT];

void init_vocabulary(void);
int piece_colour(const Node *node, int piece);
int piece_square(const Node *node, int piece);
int feature(Node *node, int id, const int *args);
int predicate(Node *node, int id, const int *args);

#endif
