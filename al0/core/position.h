/* The compact position (al0/board/position.py): eight bitboards, the side
 * to move and the en-passant square, and what reads it (attacks, check). */
#ifndef AL0_POSITION_H
#define AL0_POSITION_H

#include "bits.h"

enum { NONE_TYPE = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };

typedef struct {
    Bitboard white, black, kings, queens, rooks, bishops, knights;
    Bitboard pawns; /* both colours' pawns, on ranks 2 to 7 */
    int turn;       /* 1: White to move (chess.WHITE is True), 0: Black */
    int ep_square;  /* -1: none; else the square a pawn of the side to move may take on */
} Position;

extern Bitboard KING_ATTACKS[64], KNIGHT_ATTACKS[64];

void init_tables(void);
int position_equal(const Position *a, const Position *b);
static inline Bitboard side_of(const Position *p, int colour) { return colour ? p->white : p->black; }
Bitboard type_mask(const Position *p, int piece_type);
Bitboard rook_attacks(int square, Bitboard occupancy);
Bitboard bishop_attacks(int square, Bitboard occupancy);
Bitboard attacks_from(const Position *p, int square, Bitboard occupancy);
Bitboard attackers(const Position *p, int colour, int square);
Bitboard side_attacks(const Position *p, int colour, Bitboard occupancy, int kings);
int is_check(const Position *p);
int king_square(const Position *p, int colour);
Bitboard king_danger(const Position *p, Bitboard theirs, Bitboard king_bb);

#endif
