/* The standard vocabulary's numbers and names in the native core, written
 * from al0/lang/vocabulary/registry.py by its c_names(): do not edit; a
 * test keeps this file equal to the registry. */
#ifndef AL0_NAMES_H
#define AL0_NAMES_H

enum {
    F_DIST,
    F_MDIST,
    F_KNIGHT_DIST,
    F_EDGE_DIST,
    F_CENTRE_SIDE_DIST,
    F_CORNER_DIST,
    F_ROOM,
    F_AREA,
    F_LEAST_AREA,
    F_AREA_CORNER_DIST,
    F_CORNER_TRIANGLE,
    F_DIAGONAL_AREA,
    F_WRONG_WAY,
    F_TRIANGLE_CORNER_DIST,
    F_HYPOTENUSE_DIST,
    F_AREA_DIST,
    F_MOBILITY,
    F_INWARD,
    F_CRITICAL_MDIST,
    F_HANGING,
    F_CHECKS_BY,
    F_SAFE_CHECKS,
    F_PAWN_RANK,
    F_PAWN_FILE,
    F_PROMOTION_DIST,
    F_PROMOTION_SQUARE_DIST,
    F_KEY_SQUARE_DIST,
    FEATURE_COUNT
};
#define FEATURE_NAME_LIST \
    "dist", \
    "mdist", \
    "knight_dist", \
    "edge_dist", \
    "centre_side_dist", \
    "corner_dist", \
    "room", \
    "area", \
    "least_area", \
    "area_corner_dist", \
    "corner_triangle", \
    "diagonal_area", \
    "wrong_way", \
    "triangle_corner_dist", \
    "hypotenuse_dist", \
    "area_dist", \
    "mobility", \
    "inward", \
    "critical_mdist", \
    "hanging", \
    "checks_by", \
    "safe_checks", \
    "pawn_rank", \
    "pawn_file", \
    "promotion_dist", \
    "promotion_square_dist", \
    "key_square_dist",

enum {
    P_MATE,
    P_STALEMATE,
    P_STALEMATED,
    P_CHECK,
    P_THEMTOMOVE,
    P_USTOMOVE,
    P_LOST,
    P_ATTACKED,
    P_EN_PRISE,
    P_THREATENED,
    P_DEFENDED,
    P_PINNED,
    P_FORKED,
    P_SKEWERED,
    P_DIVIDES,
    P_CUT_OFF,
    P_OPPOSITION,
    P_EDGE,
    P_CORNER,
    P_ROOK_PAWN,
    P_IN_SQUARE,
    P_KEY_SQUARE,
    P_GUARDS_KEY_SQUARES,
    P_PAWN_CORNER,
    P_IN_FRONT,
    P_BEHIND,
    P_PROTECTED,
    P_PROMOTED,
    P_HAS_OPPOSITION,
    P_DISTANT_OPPOSITION,
    P_PHILIDOR,
    P_SECOND_RANK_DEFENCE,
    P_THIRD_RANK_DEFENCE,
    PREDICATE_COUNT
};
#define PREDICATE_NAME_LIST \
    "mate", \
    "stalemate", \
    "stalemated", \
    "check", \
    "themtomove", \
    "ustomove", \
    "lost", \
    "attacked", \
    "en_prise", \
    "threatened", \
    "defended", \
    "pinned", \
    "forked", \
    "skewered", \
    "divides", \
    "cut_off", \
    "opposition", \
    "edge", \
    "corner", \
    "rook_pawn", \
    "in_square", \
    "key_square", \
    "guards_key_squares", \
    "pawn_corner", \
    "in_front", \
    "behind", \
    "protected", \
    "promoted", \
    "has_opposition", \
    "distant_opposition", \
    "philidor", \
    "second_rank_defence", \
    "third_rank_defence",

enum {
    GEN_LEGAL,
    GEN_NOMOVE,
    GEN_MOVES,
    GEN_CHECKS,
    GEN_CAPTURES,
    GENERATOR_COUNT
};
#define GENERATOR_NAME_LIST \
    "legal", \
    "nomove", \
    "moves", \
    "checks", \
    "captures",

#endif
