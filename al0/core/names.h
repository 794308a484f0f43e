/* The standard vocabulary's numbers and names in the native core, written
 * from al0/lang/vocabulary/registry.py by its c_names(): do not edit; a
 * test keeps this file equal to the registry. */
#ifndef AL0_NAMES_H
#define AL0_NAMES_H

enum {
    F_DIST,
    F_MDIST,
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
    FEATURE_COUNT
};
#define FEATURE_NAME_LIST \
    "dist", \
    "mdist", \
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
    "checks_by",

enum {
    P_MATE,
    P_STALEMATE,
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
    P_PHILIDOR,
    P_SECOND_RANK_DEFENCE,
    P_THIRD_RANK_DEFENCE,
    PREDICATE_COUNT
};
#define PREDICATE_NAME_LIST \
    "mate", \
    "stalemate", \
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
