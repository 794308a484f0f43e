/* A feature or a goal over many positions at once: the loop that
 * al0/progress/batch.py runs position by position on the twin. */
#include "batch.h"

/* The position of one row, `turn` to move; 0 where it has too many men. */
static int position_at(const Bitboard *row, int turn, Position *p)
{
    p->white = row[0];
    p->black = row[1];
    p->kings = row[2];
    p->queens = row[3];
    p->rooks = row[4];
    p->bishops = row[5];
    p->knights = row[6];
    p->pawns = 0;
    p->turn = turn;
    p->ep_square = -1;
    return popcount(p->white | p->black) <= COLUMN_MAX_MEN;
}

long long feature_column(int id, const int *args, int us, int turn, const Bitboard *rows,
                         long long count, long long *out)
{
    Position p;
    Node node;
    for (long long i = 0; i < count; i++) {
        if (!position_at(rows + i * ROW_BOARDS, turn, &p))
            return i;
        node_init(&node, &p, us, 0);
        int value = feature(&node, id, args);
        out[i] = value == NO_VALUE ? COLUMN_NO_VALUE : value;
    }
    return -1;
}

long long goal_column(const int *code, int us, int depth, int turn, const Bitboard *rows,
                      long long count, unsigned char *out)
{
    Position p;
    Node node;
    RootParts parts;
    for (long long i = 0; i < count; i++) {
        if (!position_at(rows + i * ROW_BOARDS, turn, &p))
            return i;
        /* A condition reads its node as its own root (root.F is F). */
        node_init(&node, &p, us, depth);
        root_parts_init(&parts, &node);
        out[i] = (unsigned char)evaluate(code, &node, &parts);
    }
    return -1;
}
