/* A feature's values or a goal's truth over many positions at once
 * (al0/progress/batch.py's twin loop): `al0 progress` measures a
 * potential over every position of an ending, a million evaluations that
 * cost a Python call each on the twin. */
#ifndef AL0_BATCH_H
#define AL0_BATCH_H

#include "goals.h"

/* A position as a row of eight bitboards, in the order of Position's
 * fields (white, black, kings, queens, rooks, bishops, knights, pawns);
 * no en-passant square (a table's position has none). */
#define ROW_BOARDS 8

/* The most men a row may hold (a move list's bound, as for a search). */
#define COLUMN_MAX_MEN 8

/* The value a feature column holds where the feature has none. */
#define COLUMN_NO_VALUE LLONG_MIN

/* Each returns -1, or the first row with more than COLUMN_MAX_MEN men
 * (nothing from it on is written). */
long long feature_column(int id, const int *args, int us, int turn, const Bitboard *rows,
                         long long count, long long *out);
long long goal_column(const int *code, int us, int depth, int turn, const Bitboard *rows,
                      long long count, unsigned char *out);

#endif
