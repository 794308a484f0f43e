/* Probing a tablebase (al0/tablebase/): a compact position's entry in the
 * table of its men, found by the same index as the Python twin
 * (Tablebase._place), and the tablebase defender's move (best_defence). */
#ifndef AL0_PROBE_H
#define AL0_PROBE_H

#include "moves.h"

#define PROBE_MAX_LAYOUTS 64
#define PROBE_MAX_SLOTS 4
#define PROBE_DRAW 254
#define PROBE_ILLEGAL 255

/* One kind of men (besides the kings) a table answers for: its values, the
 * colour of its first side and where each slot's square comes from. */
typedef struct {
    int key;                       /* probe_key of the men */
    const uint8_t *values;         /* two rows of `size` entries */
    long long size;
    int first;                     /* 1: the first side is White */
    int pawns;                     /* a table with pawns: indexed by the file
                                      mirror alone, the first side's pawns
                                      going up the board */
    int slots;
    int where[PROBE_MAX_SLOTS];    /* >= 0: that man of the sorted men;
                                      -1: Black's king, -2: White's king */
} ProbeLayout;

/* The index tables (al0/tablebase/geometry.py) and every layout. */
typedef struct {
    int onto[64];
    int symmetries[8][64];
    int triangle[64];
    int count;
    ProbeLayout layouts[PROBE_MAX_LAYOUTS];
} Prober;

int probe_key(const Position *p);
int probe_value(const Prober *prober, const Position *p);
int probe_best_defence(const Prober *prober, const Position *p, Move *best);

#endif
