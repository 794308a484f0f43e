/* Legal moves of a compact position (al0/board/moves.py) in python-chess's
 * order, playing them, and the move generators of the vocabulary. */
#ifndef AL0_MOVES_H
#define AL0_MOVES_H

#include "position.h"

/* A move: from-square * 64 + to-square, plus 4096 times the piece type a
 * pawn is promoted to (KNIGHT 2 ... QUEEN 5; 0: no promotion), so a move
 * of a pawnless game is from * 64 + to. */
typedef uint16_t Move;
#define MOVE(from, to) ((Move)((from) << 6 | (to)))
#define PROMOTION_MOVE(from, to, piece) ((Move)((piece) << 12 | (from) << 6 | (to)))
#define MOVE_FROM(m) (((m) >> 6) & 63)
#define MOVE_TO(m) ((m) & 63)
#define MOVE_PROMOTION(m) ((m) >> 12)
#define MAX_MOVES 256

/* generators._by_squares' key: by from-square, to-square, then promotion
 * (none, knight, bishop, rook, queen). */
static inline int by_squares(Move m) { return (m & 4095) << 3 | MOVE_PROMOTION(m); }

Position apply_move(const Position *p, Move move);
int legal_moves(const Position *p, Move *out);
int has_legal_move(const Position *p);
int is_checkmate(const Position *p);
int is_stalemate(const Position *p);
int piece_moves(const Position *p, int square, Move *out);
int checking_moves(const Position *p, Move *out);

#endif
