/* al0.core._core: the CPython face of the native core. It reads what
 * Python prepared (positions as al0.board.position.Position tuples,
 * advice and planners compiled by al0/engine/native.py) and returns plain
 * values: moves as from * 64 + to, a search's tree as nested tuples
 * (height, ((move, subtree), ...)) with shared subtrees shared, a plan's as
 * flat ints in bytes (tree.h). It never parses a table, prints or exits. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "batch.h"
#include "plan.h"
#include "symmetry.h"
#include "tree.h"
#include "probe.h"
#include "retrograde.h"

#define MAX_MEN 8

/* ---------------------------------------------------------- reading input */

/* A position's fields, whatever its number of men: the tuple
 * (white, black, kings, queens, rooks, bishops, knights, pawns, turn,
 * ep_square), ep_square None or a square. */
static int read_fields(PyObject *tuple, Position *p)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != 10) {
        PyErr_SetString(PyExc_TypeError,
                        "a position is a tuple of 8 bitboards, the turn and the en-passant square");
        return -1;
    }
    Bitboard *fields[8] = {&p->white, &p->black, &p->kings, &p->queens, &p->rooks,
                           &p->bishops, &p->knights, &p->pawns};
    for (int i = 0; i < 8; i++) {
        *fields[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(tuple, i));
        if (*fields[i] == (Bitboard)-1 && PyErr_Occurred())
            return -1;
    }
    p->turn = PyObject_IsTrue(PyTuple_GET_ITEM(tuple, 8));
    if (p->turn < 0)
        return -1;
    PyObject *ep = PyTuple_GET_ITEM(tuple, 9);
    p->ep_square = ep == Py_None ? -1 : PyLong_AsLong(ep);
    if (p->ep_square == -1 && PyErr_Occurred())
        return -1;
    if (p->ep_square < -1 || p->ep_square > 63) {
        PyErr_SetString(PyExc_ValueError, "a position's en-passant square is None or a square");
        return -1;
    }
    /* Every man on one square of one colour and one kind: what the move
     * generator and the vocabulary assume of a board. */
    Bitboard men = p->white | p->black, kinds = 0, overlap = p->white & p->black;
    for (int i = 2; i < 8; i++) {
        overlap |= kinds & *fields[i];
        kinds |= *fields[i];
    }
    if (overlap || kinds != men) {
        PyErr_SetString(PyExc_ValueError,
                        "a position's colours and kinds must each hold every man once");
        return -1;
    }
    return 0;
}

/* A position the core may search: pawnless (its moves, symmetries and
 * memo know no pawns yet; a table with pawns plans on the Python twin,
 * al0/engine/plan.py). */
static int read_position(PyObject *tuple, Position *p)
{
    if (read_fields(tuple, p) < 0)
        return -1;
    if (p->pawns || p->ep_square >= 0) {
        PyErr_SetString(PyExc_ValueError, "the native core plays no pawns yet");
        return -1;
    }
    /* The move lists hold MAX_MOVES: eight men have at most 7 * 27 + 8
     * moves, and a search never adds a man. */
    if (popcount(p->white | p->black) > MAX_MEN) {
        PyErr_Format(PyExc_ValueError, "the native core plays at most %d men", MAX_MEN);
        return -1;
    }
    return 0;
}

/* A sequence of ints into a new C array (freed by the caller); an int
 * outside C's int is an OverflowError, never cut to its low bits. */
static int *read_ints(PyObject *sequence, Py_ssize_t *length)
{
    PyObject *fast = PySequence_Fast(sequence, "expected a sequence of ints");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int *ints = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!ints) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (!PyErr_Occurred() && (value < INT_MIN || value > INT_MAX))
            PyErr_Format(PyExc_OverflowError, "%ld is not a C int", value);
        ints[i] = (int)value;
        if (PyErr_Occurred()) {
            PyMem_Free(ints);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *length = n;
    return ints;
}

static PyObject *moves_tuple(const Move *moves, int count)
{
    PyObject *tuple = PyTuple_New(count);
    for (int i = 0; tuple && i < count; i++)
        PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(moves[i]));
    return tuple;
}

/* ------------------------------------------------- moves, for the tests */

static PyObject *py_legal_moves(PyObject *self, PyObject *arg)
{
    Position p;
    Move moves[MAX_MOVES];
    if (read_position(arg, &p) < 0)
        return NULL;
    return moves_tuple(moves, legal_moves(&p, moves));
}

static PyObject *bad_arguments(const int *args, int count)
{
    return PyErr_Format(PyExc_ValueError,
                        "arguments (%d, %d, %d) are not pieces (0-63) or colours (-3 to -1)",
                        args[0], args[1], count > 2 ? args[2] : ANY_COLOUR);
}

/* feature(id, a, b, c, position, us) and predicate(id, a, b, position, us):
 * one entry of the vocabulary at a node, for the differential tests. */
static PyObject *py_feature(PyObject *module, PyObject *args)
{
    int id, a[3], us;
    PyObject *position;
    Position p;
    Node node;
    if (!PyArg_ParseTuple(args, "iiiiOp", &id, &a[0], &a[1], &a[2], &position, &us)
        || read_position(position, &p) < 0)
        return NULL;
    if (id < 0 || id >= FEATURE_COUNT)
        return PyErr_Format(PyExc_ValueError, "no feature %d", id);
    if (!check_arguments(a, 3))
        return bad_arguments(a, 3);
    node_init(&node, &p, us, 0);
    int value = feature(&node, id, a);
    if (value == NO_VALUE)
        Py_RETURN_NONE;
    return PyLong_FromLong(value);
}

static PyObject *py_predicate(PyObject *module, PyObject *args)
{
    int id, a[2], us;
    PyObject *position;
    Position p;
    Node node;
    if (!PyArg_ParseTuple(args, "iiiOp", &id, &a[0], &a[1], &position, &us)
        || read_position(position, &p) < 0)
        return NULL;
    if (id < 0 || id >= PREDICATE_COUNT)
        return PyErr_Format(PyExc_ValueError, "no predicate %d", id);
    if (!check_arguments(a, 2))
        return bad_arguments(a, 2);
    node_init(&node, &p, us, 0);
    return PyBool_FromLong(predicate(&node, id, a));
}

/* ---------------------------------------------------------------- Advice */

/* A compiled piece of advice: goal programs and move constraints, read
 * once from the spec al0/core/program.py writes. */
typedef struct {
    PyObject_HEAD
    Advice advice;
    int *better, *holding;
} AdviceObject;

static void advice_dealloc(AdviceObject *self)
{
    PyMem_Free(self->better);
    PyMem_Free(self->holding);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int *read_program(PyObject *sequence)
{
    Py_ssize_t length;
    int *code = read_ints(sequence, &length);
    if (!code)
        return NULL;
    const char *why = check_program(code, (long long)length);
    if (why) {
        PyErr_Format(PyExc_ValueError, "malformed goal program: %s", why);
        PyMem_Free(code);
        return NULL;
    }
    return code;
}

/* ranges: ((lo, hi), ...) with hi -1 for no end */
static int read_ranges(PyObject *seq, Range *ranges, int *count)
{
    Py_ssize_t n;
    int *ints = read_ints(seq, &n);
    if (!ints)
        return -1;
    if (n % 2 || n / 2 > MAX_RANGES) {
        PyMem_Free(ints);
        PyErr_SetString(PyExc_ValueError, "bad depth ranges");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n / 2; i++)
        ranges[i] = (Range){ints[2 * i], ints[2 * i + 1]};
    *count = (int)(n / 2);
    PyMem_Free(ints);
    return 0;
}

/* alternatives: flat ints, each lo, hi, count, then count (kind, piece) */
static int read_alternatives(PyObject *seq, Alternative *alts, int *count)
{
    Py_ssize_t n, i = 0;
    int *ints = read_ints(seq, &n);
    if (!ints)
        return -1;
    *count = 0;
    while (i < n) {
        if (*count >= MAX_ALTERNATIVES || i + 3 > n || ints[i + 2] < 1
            || ints[i + 2] > MAX_GENERATORS || i + 3 + 2 * ints[i + 2] > n)
            goto bad;
        Alternative *alt = &alts[(*count)++];
        alt->depths = (Range){ints[i], ints[i + 1]};
        alt->count = ints[i + 2];
        for (int g = 0; g < alt->count; g++) {
            alt->generators[g][0] = ints[i + 3 + 2 * g];
            alt->generators[g][1] = ints[i + 4 + 2 * g];
            if (alt->generators[g][0] < 0 || alt->generators[g][0] >= GENERATOR_COUNT
                || !check_arguments(&alt->generators[g][1], 1))
                goto bad;
        }
        i += 3 + 2 * alt->count;
    }
    PyMem_Free(ints);
    return 0;
bad:
    PyMem_Free(ints);
    PyErr_SetString(PyExc_ValueError, "bad move constraint");
    return -1;
}

static PyObject *advice_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *better, *holding, *legal_ours, *legal_theirs, *alt_ours, *alt_theirs;
    int horizon, leaf_in_check, leaf_ours, position_only, mate_alone;
    if (!PyArg_ParseTuple(args, "OOiiiiiOOOO", &better, &holding, &horizon, &leaf_in_check,
                          &leaf_ours, &position_only, &mate_alone, &legal_ours, &legal_theirs,
                          &alt_ours, &alt_theirs))
        return NULL;
    if (horizon < 0 || horizon > 64) {
        PyErr_SetString(PyExc_ValueError, "horizon out of range");
        return NULL;
    }
    AdviceObject *self = (AdviceObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    Advice *a = &self->advice;
    self->better = read_program(better);
    self->holding = self->better ? read_program(holding) : NULL;
    if (!self->holding
        || read_ranges(legal_ours, a->legal[1], &a->legal_count[1]) < 0
        || read_ranges(legal_theirs, a->legal[0], &a->legal_count[0]) < 0
        || read_alternatives(alt_ours, a->alternatives[1], &a->alternative_count[1]) < 0
        || read_alternatives(alt_theirs, a->alternatives[0], &a->alternative_count[0]) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    a->better = self->better;
    a->holding = self->holding;
    a->horizon = horizon;
    a->leaf_in_check = leaf_in_check;
    a->leaf_ours = leaf_ours;
    a->position_only = position_only;
    a->mate_alone = mate_alone;
    return (PyObject *)self;
}

/* Advice.goals(position, root, us, depth): (holding, better) at a node,
 * for the differential tests. */
static PyObject *advice_goals(AdviceObject *self, PyObject *args)
{
    PyObject *position, *root_position;
    int us, depth;
    Position p, r;
    if (!PyArg_ParseTuple(args, "OOpi", &position, &root_position, &us, &depth)
        || read_position(position, &p) < 0 || read_position(root_position, &r) < 0)
        return NULL;
    Node node, root;
    RootParts parts;
    node_init(&node, &p, us, depth);
    node_init(&root, &r, us, 0);
    root_parts_init(&parts, &root);
    int holding = evaluate(self->holding, &node, &parts);
    int better = evaluate(self->better, &node, &parts);
    return Py_BuildValue("(OO)", holding ? Py_True : Py_False, better ? Py_True : Py_False);
}

/* Advice.allowed(position, us, depth, ours): the allowed moves at a node. */
static PyObject *advice_allowed(AdviceObject *self, PyObject *args)
{
    PyObject *position;
    int us, depth, ours;
    Position p;
    Move moves[MAX_MOVES];
    if (!PyArg_ParseTuple(args, "Opip", &position, &us, &depth, &ours)
        || read_position(position, &p) < 0)
        return NULL;
    return moves_tuple(moves, allowed_moves(&self->advice, ours, &p, depth, us, moves));
}

static PyMethodDef advice_methods[] = {
    {"goals", (PyCFunction)advice_goals, METH_VARARGS, "(holding, better) at a node"},
    {"allowed", (PyCFunction)advice_allowed, METH_VARARGS, "the allowed moves at a node"},
    {NULL}
};

static PyTypeObject AdviceType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "al0.core._core.Advice",
    .tp_basicsize = sizeof(AdviceObject),
    .tp_dealloc = (destructor)advice_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A piece of advice compiled for the native core.",
    .tp_new = advice_new,
    .tp_methods = advice_methods,
};

/* ------------------------------------------------------------------ Memo */

/* What searches of one advice from alike roots share (the planner's memo
 * and values): entries, trees and goal values. */
typedef struct {
    PyObject_HEAD
    Memo memo;
    int used;   /* a search has run on it */
    int busy;   /* a search is running on it now */
    PyObject *advice;  /* the Advice its searches are of (NULL: none yet) */
} MemoObject;

static void memo_dealloc(MemoObject *self)
{
    Py_XDECREF(self->advice);
    memo_free(&self->memo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *memo_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    if (!PyArg_ParseTuple(args, ""))
        return NULL;
    MemoObject *self = (MemoObject *)type->tp_alloc(type, 0);
    if (self && memo_init(&self->memo) < 0) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static Py_ssize_t memo_length(MemoObject *self) { return (Py_ssize_t)self->memo.entries; }

static PySequenceMethods memo_sequence = {.sq_length = (lenfunc)memo_length};

static PyTypeObject MemoType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "al0.core._core.Memo",
    .tp_basicsize = sizeof(MemoObject),
    .tp_dealloc = (destructor)memo_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The entries, trees and goal values searches may share.",
    .tp_new = memo_new,
    .tp_as_sequence = &memo_sequence,
};

/* ---------------------------------------------------------------- Prober */

/* A tablebase's probe (probe.h) over its numpy arrays, which it holds
 * (buffers) while it lives. Made by al0/tablebase/probe.py. */
typedef struct {
    PyObject_HEAD
    Prober prober;
    Py_buffer views[PROBE_MAX_LAYOUTS];
    int viewed;
} ProberObject;

static void prober_dealloc(ProberObject *self)
{
    for (int i = 0; i < self->viewed; i++)
        PyBuffer_Release(&self->views[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* `count` ints of a sequence into `out`. */
static int read_int_array(PyObject *sequence, int *out, Py_ssize_t count, const char *what)
{
    Py_ssize_t length;
    int *ints = read_ints(sequence, &length);
    if (!ints)
        return -1;
    if (length != count) {
        PyMem_Free(ints);
        PyErr_Format(PyExc_ValueError, "%s: %zd ints expected, %zd given", what, count, length);
        return -1;
    }
    memcpy(out, ints, (size_t)count * sizeof(int));
    PyMem_Free(ints);
    return 0;
}

/* Prober(onto, symmetries, triangle, layouts): the index tables (64, 8 * 64
 * and 64 squares) and, per kind of men, (key, values, first, where). */
static PyObject *prober_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *onto, *symmetries, *triangle, *layouts;
    if (!PyArg_ParseTuple(args, "OOOO", &onto, &symmetries, &triangle, &layouts))
        return NULL;
    ProberObject *self = (ProberObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    Prober *prober = &self->prober;
    PyObject *fast = NULL;
    if (read_int_array(onto, prober->onto, 64, "onto") < 0
        || read_int_array(symmetries, &prober->symmetries[0][0], 8 * 64, "symmetries") < 0
        || read_int_array(triangle, prober->triangle, 64, "triangle") < 0)
        goto fail;
    /* Squares index the tables: every symmetry's image is a square. */
    for (int i = 0; i < 8 * 64; i++) {
        if (i < 64 && (prober->onto[i] < 0 || prober->onto[i] > 7 || prober->triangle[i] < -1)) {
            PyErr_SetString(PyExc_ValueError, "malformed index tables");
            goto fail;
        }
        if ((&prober->symmetries[0][0])[i] < 0 || (&prober->symmetries[0][0])[i] > 63) {
            PyErr_SetString(PyExc_ValueError, "malformed symmetries: squares are 0 to 63");
            goto fail;
        }
    }
    fast = PySequence_Fast(layouts, "layouts: a sequence");
    if (!fast)
        goto fail;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > PROBE_MAX_LAYOUTS) {
        PyErr_Format(PyExc_ValueError, "at most %d layouts", PROBE_MAX_LAYOUTS);
        goto fail;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        ProbeLayout *layout = &prober->layouts[i];
        PyObject *values, *where;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iOpO", &layout->key, &values,
                              &layout->first, &where))
            goto fail;
        Py_ssize_t slots;
        int *ints = read_ints(where, &slots);
        if (!ints)
            goto fail;
        /* A slot names a king, or one of the men the key counts. */
        int men = 0;
        for (int field = 0; field < 8; field++)
            men += (layout->key >> (2 * field)) & 3;
        int bad = slots < 1 || slots > PROBE_MAX_SLOTS || layout->key < 0 || layout->key > 0xFFFF;
        for (Py_ssize_t s = 0; !bad && s < slots; s++) {
            bad = ints[s] < -2 || ints[s] >= men;
            layout->where[s] = ints[s];
        }
        PyMem_Free(ints);
        if (bad) {
            PyErr_SetString(PyExc_ValueError, "malformed slots");
            goto fail;
        }
        layout->slots = (int)slots;
        if (PyObject_GetBuffer(values, &self->views[i], PyBUF_C_CONTIGUOUS) < 0)
            goto fail;
        self->viewed++;
        Py_ssize_t length = self->views[i].len;
        long long cells = 1;
        for (Py_ssize_t s = 1; s < slots; s++)
            cells *= 64;
        /* Two rows, each at least the triangle's 10 squares by 64 per other
         * slot: an index computed from squares never reads past them. */
        if (self->views[i].itemsize != 1 || length % 2 || length / 2 < 10 * cells) {
            PyErr_SetString(PyExc_ValueError, "values: two rows of bytes, one per side to move");
            goto fail;
        }
        layout->values = self->views[i].buf;
        layout->size = length / 2;
    }
    prober->count = (int)count;
    Py_DECREF(fast);
    return (PyObject *)self;
fail:
    Py_XDECREF(fast);
    Py_DECREF(self);
    return NULL;
}

/* A position a table can hold: one king a side (a table indexes each
 * side's king square; an empty side has none). */
static int read_probed(PyObject *tuple, Position *p)
{
    if (read_fields(tuple, p) < 0)
        return -1;
    if (popcount(p->white | p->black) > MAX_MEN) {
        PyErr_Format(PyExc_ValueError, "the native core plays at most %d men", MAX_MEN);
        return -1;
    }
    if (popcount(p->kings & p->white) != 1 || popcount(p->kings & p->black) != 1) {
        PyErr_SetString(PyExc_ValueError, "a probed position has one king a side");
        return -1;
    }
    return 0;
}

static PyObject *prober_value(ProberObject *self, PyObject *arg)
{
    Position p;
    if (read_probed(arg, &p) < 0)
        return NULL;
    if (p.pawns)
        return PyLong_FromLong(-1);  /* the core's tables hold no pawns yet: the Python twin answers */
    return PyLong_FromLong(probe_value(&self->prober, &p));
}

static PyObject *prober_best_defence(ProberObject *self, PyObject *arg)
{
    Position p;
    Move best = 0;
    if (read_probed(arg, &p) < 0)
        return NULL;
    if (p.pawns)
        return PyLong_FromLong(-1);  /* as value: no table of the core knows pawns yet */
    int found = probe_best_defence(&self->prober, &p, &best);
    return PyLong_FromLong(found < 0 ? found : best);
}

static PyMethodDef prober_methods[] = {
    {"value", (PyCFunction)prober_value, METH_O,
     "value(position): the raw entry (plies, 254 draw, 255 illegal), -1: no table knows its men"},
    {"best_defence", (PyCFunction)prober_best_defence, METH_O,
     "best_defence(position): the defender's move (from * 64 + to); -1: a position of no "
     "table's men, -2: no legal move"},
    {NULL}
};

static PyTypeObject ProberType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "al0.core._core.Prober",
    .tp_basicsize = sizeof(ProberObject),
    .tp_dealloc = (destructor)prober_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A tablebase's probe over its arrays.",
    .tp_new = prober_new,
    .tp_methods = prober_methods,
};

/* ---------------------------------------------------------------- search */

/* What the search polls between nodes (search.h's PollFn): with the GIL
 * taken back for a moment, the wall clock against the deadline, the stop
 * flag (a threading.Event another thread may set) and Ctrl-C. */
typedef struct {
    PyThreadState *released;
    PyObject *clock, *stop;
    double deadline;
} Poll;

/* The look itself, with the GIL held: Ctrl-C, the clock, the stop flag. */
static int look_with_gil(PyObject *clock, double deadline, PyObject *stop)
{
    if (PyErr_CheckSignals() < 0)
        return PYTHON_ERROR;
    PyObject *now = PyObject_CallNoArgs(clock);
    if (!now)
        return PYTHON_ERROR;
    double seconds = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (seconds == -1.0 && PyErr_Occurred())
        return PYTHON_ERROR;  /* the clock gave no number: its error is raised */
    if (seconds > deadline)
        return TIME_LIMIT;
    if (stop != Py_None) {
        PyObject *set = PyObject_CallMethod(stop, "is_set", NULL);
        int is_set = set ? PyObject_IsTrue(set) : -1;
        Py_XDECREF(set);
        if (is_set < 0)
            return PYTHON_ERROR;
        if (is_set)
            return STOPPED;
    }
    return DONE;
}

static int poll_python(void *context)
{
    Poll *poll = context;
    PyEval_RestoreThread(poll->released);
    int reason = look_with_gil(poll->clock, poll->deadline, poll->stop);
    poll->released = PyEval_SaveThread();
    return reason;
}

/* A tree as nested tuples, each subtree made once (seen: pointer -> tuple). */
static PyObject *tree_tuple(const Tree *tree, PyObject *seen)
{
    PyObject *key = PyLong_FromVoidPtr((void *)tree);
    if (!key)
        return NULL;
    PyObject *found = PyDict_GetItemWithError(seen, key);
    if (found || PyErr_Occurred()) {
        Py_DECREF(key);
        Py_XINCREF(found);
        return found;
    }
    PyObject *branches = PyTuple_New(tree->count);
    for (int i = 0; branches && i < tree->count; i++) {
        PyObject *subtree = tree_tuple(tree->branches[i].subtree, seen);
        PyObject *branch = subtree ? Py_BuildValue("(iN)", tree->branches[i].move, subtree) : NULL;
        if (!branch) {
            Py_CLEAR(branches);
            break;
        }
        PyTuple_SET_ITEM(branches, i, branch);
    }
    PyObject *result = branches ? Py_BuildValue("(iN)", tree->height, branches) : NULL;
    if (result && PyDict_SetItem(seen, key, result) < 0)
        Py_CLEAR(result);
    Py_DECREF(key);
    return result;
}

static const char *REASONS[] = {"done", "nodes", "moves", "time", "stopped", "memory", "error"};

/* Made once, when the module is: the reasons as (interned) strings, the
 * names of a PackedTree's fields, the empty tuple and 0. */
static PyObject *REASON_NAMES[7], *HEIGHT, *CODE, *AT, *MADE, *EMPTY, *ZERO;

static int make_constants(void)
{
    for (int i = 0; i < 7; i++)
        if (!(REASON_NAMES[i] = PyUnicode_InternFromString(REASONS[i])))
            return -1;
    HEIGHT = PyUnicode_InternFromString("height");
    CODE = PyUnicode_InternFromString("_code");
    AT = PyUnicode_InternFromString("_at");
    MADE = PyUnicode_InternFromString("_made");
    EMPTY = PyTuple_New(0);
    ZERO = PyLong_FromLong(0);
    return HEIGHT && CODE && AT && MADE && EMPTY && ZERO ? 0 : -1;
}

/* search(advice, root, us, memo, shared, nodes, moves, deadline, clock, stop
 * [, excluded, reach]) -> (reason, tree or None, nodes, moves): the search
 * runs without the GIL. ``excluded`` is a sequence of positions our moves
 * may not lead to at depths up to ``reach`` (the game has seen them). */
static PyObject *py_search(PyObject *module, PyObject *args)
{
    AdviceObject *advice;
    MemoObject *memo;
    PyObject *root_position, *clock, *stop, *seen = NULL;
    int us, shared, reach = -1;
    long long node_limit, move_limit;
    double deadline;
    Position root;
    if (!PyArg_ParseTuple(args, "O!OpO!pLLdOO|Oi", &AdviceType, &advice, &root_position, &us,
                          &MemoType, &memo, &shared, &node_limit, &move_limit, &deadline,
                          &clock, &stop, &seen, &reach)
        || read_position(root_position, &root) < 0)
        return NULL;
    /* The excluded positions as a memo's values (its hash of positions). */
    Memo excluded;
    int excluding = seen && seen != Py_None;
    if (excluding) {
        PyObject *items = PySequence_Fast(seen, "excluded positions are a sequence");
        if (!items)
            return NULL;
        if (memo_init(&excluded) < 0) {
            memo_free(&excluded);
            Py_DECREF(items);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(items); i++) {
            Position p;
            int failed = read_position(PySequence_Fast_GET_ITEM(items, i), &p) < 0;
            if (!failed && value_set(&excluded, &p, HOLDS) < 0) {
                PyErr_NoMemory();
                failed = 1;
            }
            if (failed) {
                memo_free(&excluded);
                Py_DECREF(items);
                return NULL;
            }
        }
        Py_DECREF(items);
    }
    if (memo->busy) {
        if (excluding)
            memo_free(&excluded);
        PyErr_SetString(PyExc_RuntimeError, "a search is already running on this memo");
        return NULL;
    }
    /* A memo's entries and trees are one advice's (its horizon sizes what
     * a search reads of them): another advice's search is refused. */
    if (memo->advice && memo->advice != (PyObject *)advice) {
        if (excluding)
            memo_free(&excluded);
        PyErr_SetString(PyExc_ValueError, "a memo holds the searches of one advice");
        return NULL;
    }
    if (!memo->advice) {
        Py_INCREF(advice);
        memo->advice = (PyObject *)advice;
    }
    Search s;
    Poll poll = {NULL, clock, stop, deadline};
    if (search_init(&s, &advice->advice, &memo->memo, shared, &root, us, node_limit, move_limit,
                    poll_python, &poll) < 0) {
        search_free(&s);
        if (excluding)
            memo_free(&excluded);
        return PyErr_NoMemory();
    }
    if (excluding) {
        s.excluded = &excluded;
        s.reach = reach;
    }
    memo->busy = 1;
    Py_INCREF(memo);
    Py_INCREF(advice);
    poll.released = PyEval_SaveThread();
    Tree *tree = search_run(&s);
    PyEval_RestoreThread(poll.released);
    memo->busy = 0;
    memo->used = 1;
    search_free(&s);
    if (excluding)
        memo_free(&excluded);
    PyObject *result = NULL;
    if (s.reason == PYTHON_ERROR) {
        /* the poll's exception (Ctrl-C) is set: raise it */
    } else if (s.reason == DONE && tree) {
        PyObject *seen = PyDict_New();
        PyObject *t = seen ? tree_tuple(tree, seen) : NULL;
        Py_XDECREF(seen);
        if (t)
            result = Py_BuildValue("(sNLL)", REASONS[s.reason], t, s.nodes, s.moves);
    } else {
        result = Py_BuildValue("(sOLL)", REASONS[s.reason], Py_None, s.nodes, s.moves);
    }
    Py_DECREF(advice);
    Py_DECREF(memo);
    return result;
}

/* ---------------------------------------------------------------- batch */

/* The rows of `boards` (a C-contiguous buffer of uint64, ROW_BOARDS a
 * row) and `out` (a writable C-contiguous buffer of `count` items of
 * `itemsize` bytes); both views are held on success. */
static long long column_buffers(PyObject *boards, PyObject *out, Py_ssize_t itemsize,
                                Py_buffer *rows, Py_buffer *values)
{
    if (PyObject_GetBuffer(boards, rows, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (rows->len % (ROW_BOARDS * 8)) {
        PyBuffer_Release(rows);
        PyErr_SetString(PyExc_ValueError, "boards: rows of seven 64-bit bitboards");
        return -1;
    }
    long long count = rows->len / (ROW_BOARDS * 8);
    if (PyObject_GetBuffer(out, values, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(rows);
        return -1;
    }
    if (values->len != count * itemsize) {
        PyBuffer_Release(rows);
        PyBuffer_Release(values);
        PyErr_Format(PyExc_ValueError, "out: %lld items of %zd bytes, one a row", count, itemsize);
        return -1;
    }
    /* Read and written as 64-bit ints: a view that starts mid-word (a
     * slice of a bytearray) would be read unaligned. */
    if ((uintptr_t)rows->buf % 8 || (uintptr_t)values->buf % itemsize) {
        PyBuffer_Release(rows);
        PyBuffer_Release(values);
        PyErr_SetString(PyExc_ValueError, "boards and out must start on a boundary of their items");
        return -1;
    }
    return count;
}

static PyObject *column_done(Py_buffer *rows, Py_buffer *values, long long bad)
{
    PyBuffer_Release(rows);
    PyBuffer_Release(values);
    if (bad >= 0)
        return PyErr_Format(PyExc_ValueError, "row %lld: more than %d men", bad, COLUMN_MAX_MEN);
    Py_RETURN_NONE;
}

/* feature_column(id, a, b, c, us, turn, boards, out): a feature at every
 * row into out (int64; COLUMN_NO_VALUE, the least int64, for none). */
static PyObject *py_feature_column(PyObject *module, PyObject *args)
{
    int id, a[3], us, turn;
    PyObject *boards, *out;
    Py_buffer rows, values;
    if (!PyArg_ParseTuple(args, "iiiippOO", &id, &a[0], &a[1], &a[2], &us, &turn, &boards, &out))
        return NULL;
    if (id < 0 || id >= FEATURE_COUNT)
        return PyErr_Format(PyExc_ValueError, "no feature %d", id);
    if (!check_arguments(a, 3))
        return bad_arguments(a, 3);
    long long count = column_buffers(boards, out, 8, &rows, &values), bad;
    if (count < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    bad = feature_column(id, a, us, turn, rows.buf, count, values.buf);
    Py_END_ALLOW_THREADS
    return column_done(&rows, &values, bad);
}

/* goal_column(program, us, depth, turn, boards, out): a goal program at
 * every row, each its own root, into out (one byte a row: 0 or 1). */
static PyObject *py_goal_column(PyObject *module, PyObject *args)
{
    int us, depth, turn;
    PyObject *program, *boards, *out;
    Py_buffer rows, values;
    if (!PyArg_ParseTuple(args, "OpipOO", &program, &us, &depth, &turn, &boards, &out))
        return NULL;
    int *code = read_program(program);
    if (!code)
        return NULL;
    long long count = column_buffers(boards, out, 1, &rows, &values), bad;
    if (count < 0) {
        PyMem_Free(code);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    bad = goal_column(code, us, depth, turn, rows.buf, count, values.buf);
    Py_END_ALLOW_THREADS
    PyMem_Free(code);
    return column_done(&rows, &values, bad);
}

/* --------------------------------------------------------------- Planner */

/* A table's planner on the core (plan.h): its rules, its advice (the
 * Advice objects kept alive here) and the memos its searches share; and
 * what a plan returns, made once: each rule's name and, by place, its
 * advice's name and the advice passed over before it. */
typedef struct {
    PyObject_HEAD
    Planner planner;
    PyObject *advice_objects;  /* a tuple of AdviceObject */
    PlanAdvice *advice;
    Rule *rules;
    int **programs;            /* each rule's precondition (NULL: true) and advice list */
    int rule_count;
    PyObject *rule_info;       /* by rule: (precondition, indices, name, names, tried) */
    PyObject *tree_type;       /* engine/tree.py's PackedTree */
    TreeCode code;
    int busy;                  /* a plan is being made now */
} PlannerObject;

static void planner_dealloc(PlannerObject *self)
{
    planner_free(&self->planner);
    tree_code_free(&self->code);
    for (int r = 0; self->programs && r < 2 * self->rule_count; r++)
        PyMem_Free(self->programs[r]);
    PyMem_Free(self->programs);
    PyMem_Free(self->rules);
    PyMem_Free(self->advice);
    Py_XDECREF(self->advice_objects);
    Py_XDECREF(self->rule_info);
    Py_XDECREF(self->tree_type);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* advice: ((Advice, cost, shares, key ints: 4 a feature), ...) */
static int read_plan_advice(PlannerObject *self, PyObject *advice)
{
    PyObject *fast = PySequence_Fast(advice, "the advice is a sequence");
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *objects = PyTuple_New(n);
    self->advice = PyMem_Calloc((size_t)(n ? n : 1), sizeof(PlanAdvice));
    self->advice_objects = objects;
    if (!objects || !self->advice) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        AdviceObject *object;
        PyObject *key;
        PlanAdvice *a = &self->advice[i];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "O!ipO", &AdviceType, &object, &a->cost,
                              &a->shares, &key)) {
            Py_DECREF(fast);
            return -1;
        }
        Py_INCREF(object);
        PyTuple_SET_ITEM(objects, i, (PyObject *)object);
        a->advice = &object->advice;
        Py_ssize_t length;
        int *ints = read_ints(key, &length);
        if (!ints) {
            Py_DECREF(fast);
            return -1;
        }
        if (a->cost < 1 || length % 4 || length / 4 > MAX_KEY) {
            PyMem_Free(ints);
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "bad cost or root key");
            return -1;
        }
        a->key_count = (int)(length / 4);
        for (int k = 0; k < a->key_count; k++) {
            memcpy(a->key[k], ints + 4 * k, 4 * sizeof(int));
            if (a->key[k][0] < 0 || a->key[k][0] >= FEATURE_COUNT || !check_arguments(a->key[k] + 1, 3)) {
                PyMem_Free(ints);
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "bad feature in a root key");
                return -1;
            }
        }
        PyMem_Free(ints);
    }
    Py_DECREF(fast);
    return (int)n;
}

/* rules: ((precondition program or None, (advice index, ...), name,
 * (advice name, ...), (tried by place, ...)), ...) */
static int read_rules(PlannerObject *self, PyObject *rules, int advice_count)
{
    PyObject *fast = PySequence_Tuple(rules);
    if (!fast)
        return -1;
    self->rule_info = fast;
    Py_INCREF(fast);
    Py_ssize_t n = PyTuple_GET_SIZE(fast);
    self->rules = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Rule));
    self->programs = PyMem_Calloc((size_t)(2 * n + 1), sizeof(int *));
    if (!self->rules || !self->programs) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    self->rule_count = (int)n;
    for (Py_ssize_t r = 0; r < n; r++) {
        PyObject *precondition, *indices, *name, *names, *tried;
        Py_ssize_t count;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(fast, r), "OOUO!O!", &precondition, &indices, &name,
                              &PyTuple_Type, &names, &PyTuple_Type, &tried)
            || (precondition != Py_None && !(self->programs[2 * r] = read_program(precondition)))
            || !(self->programs[2 * r + 1] = read_ints(indices, &count))) {
            Py_DECREF(fast);
            return -1;
        }
        if (PyTuple_GET_SIZE(names) != count || PyTuple_GET_SIZE(tried) != count + 1) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a rule's names and tried do not match its advice");
            return -1;
        }
        for (Py_ssize_t i = 0; i < count; i++)
            if (self->programs[2 * r + 1][i] < 0 || self->programs[2 * r + 1][i] >= advice_count) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "a rule names no advice");
                return -1;
            }
        self->rules[r] = (Rule){self->programs[2 * r], (int)count, self->programs[2 * r + 1]};
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *planner_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *advice, *rules, *tree_type;
    int cache;
    long long shared_nodes;
    if (!PyArg_ParseTuple(args, "OOpLO!", &advice, &rules, &cache, &shared_nodes, &PyType_Type, &tree_type))
        return NULL;
    PlannerObject *self = (PlannerObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    tree_code_init(&self->code);
    Py_INCREF(tree_type);
    self->tree_type = tree_type;
    int advice_count = read_plan_advice(self, advice);
    if (advice_count < 0 || read_rules(self, rules, advice_count) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    planner_init(&self->planner, self->rules, self->rule_count, self->advice, advice_count, cache,
                 shared_nodes);
    return (PyObject *)self;
}

/* What a plan's searches read of the clock and the stop flag. A plan runs
 * with the GIL held (most take microseconds, less than letting it go and
 * taking it back); every few thousand nodes the poll lets other threads
 * run (the UCI worker's reader, which sets the flag), then looks. */
typedef struct {
    PyObject *clock, *stop;
    double seconds, deadline;
    int failed;  /* the clock raised: its exception is set */
} HeldPoll;

static void start_clock(void *context)
{
    HeldPoll *poll = context;
    if (poll->failed)
        return;
    PyObject *now = PyObject_CallNoArgs(poll->clock);
    if (!now) {
        poll->failed = 1;
        return;
    }
    double seconds = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (seconds == -1.0 && PyErr_Occurred())
        poll->failed = 1;
    poll->deadline = seconds + poll->seconds;
}

static int poll_held(void *context)
{
    HeldPoll *poll = context;
    if (poll->failed)
        return PYTHON_ERROR;
    Py_BEGIN_ALLOW_THREADS
    Py_END_ALLOW_THREADS
    return look_with_gil(poll->clock, poll->deadline, poll->stop);
}

/* The root of a PackedTree (engine/tree.py) over the ints written: made
 * as object.__new__(PackedTree) with its fields set in its dict, as
 * tree.py's _packed_node makes one (the rest is read there, on demand). */
static PyObject *packed_tree(PlannerObject *self)
{
    PyObject *code = PyBytes_FromStringAndSize((const char *)self->code.ints,
                                               (Py_ssize_t)(self->code.length * sizeof(int)));
    PyObject *made = PyDict_New(), *height = PyLong_FromLong(self->code.ints[0]);
    PyObject *tree = NULL, *fields = NULL;
    if (code && made && height)
        tree = PyBaseObject_Type.tp_new((PyTypeObject *)self->tree_type, EMPTY, NULL);
    if (tree)
        fields = PyObject_GenericGetDict(tree, NULL);
    if (!fields || PyDict_SetItem(fields, HEIGHT, height) < 0 || PyDict_SetItem(fields, CODE, code) < 0
        || PyDict_SetItem(fields, AT, ZERO) < 0 || PyDict_SetItem(fields, MADE, made) < 0)
        Py_CLEAR(tree);
    Py_XDECREF(fields);
    Py_XDECREF(code);
    Py_XDECREF(made);
    Py_XDECREF(height);
    return tree;
}

/* Planner.plan(position, us, symmetric, nodes, moves, seconds, clock, stop)
 * -> (reason, rule, advice, tried, nodes, tree), or None for more men than
 * the core holds. symmetric: plan in the class's canonical orientation,
 * the tree's moves mapped back. rule is the rule's name (None: no
 * precondition held), advice the plan's advice (None: none gave a move),
 * tried the advice passed over, tree a PackedTree or None. A search that
 * stopped gives its reason ("nodes", "moves", "time", "stopped",
 * "memory") and, as advice, the advice it searched. */
static PyObject *planner_plan(PlannerObject *self, PyObject *args)
{
    PyObject *position, *clock, *stop;
    int us, symmetric;
    long long nodes, moves;
    double seconds;
    Position p;
    if (!PyArg_ParseTuple(args, "OppLLdOO", &position, &us, &symmetric, &nodes, &moves, &seconds, &clock,
                          &stop))
        return NULL;
    if (read_fields(position, &p) < 0)
        return NULL;
    if (popcount(p.white | p.black) > MAX_MEN || p.pawns)
        Py_RETURN_NONE;  /* more men than the core's move lists hold, or pawns: the caller's Python loop plans */
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "a plan is already being made by this planner");
        return NULL;
    }
    int symmetry = symmetric ? canonical_symmetry(&p, us) : 0;
    Position image = transform_position(&p, symmetry);
    HeldPoll poll = {clock, stop, seconds, 0.0, 0};
    PlanLimits limits = {nodes, moves, start_clock, poll_held, &poll};
    PlanResult result;
    self->busy = 1;
    plan_run(&self->planner, &image, us, &limits, &result);
    PyObject *tree = Py_None, *answer = NULL;
    Py_INCREF(tree);
    if (result.reason == DONE && result.tree) {
        Py_DECREF(tree);
        tree = tree_encode(&self->code, result.tree, symmetry ? SQUARE_MAPS[INVERSE[symmetry]] : NULL) < 0
             ? PyErr_NoMemory() : packed_tree(self);
    }
    /* After the tree is read: it may live in a memo dropped here. */
    planner_bound_shared(&self->planner);
    self->busy = 0;
    if (poll.failed || result.reason == PYTHON_ERROR || !tree) {
        Py_XDECREF(tree);
        return NULL;  /* the exception (Ctrl-C, the clock's, memory) is set */
    }
    PyObject *rule = Py_None, *advice = Py_None, *tried = EMPTY;
    if (result.rule >= 0) {
        PyObject *info = PyTuple_GET_ITEM(self->rule_info, result.rule);
        int place = result.chosen >= 0 ? result.chosen : self->rules[result.rule].count;
        rule = PyTuple_GET_ITEM(info, 2);
        if (result.chosen >= 0)
            advice = PyTuple_GET_ITEM(PyTuple_GET_ITEM(info, 3), result.chosen);
        tried = PyTuple_GET_ITEM(PyTuple_GET_ITEM(info, 4), place);
    }
    answer = Py_BuildValue("(OOOOLN)", REASON_NAMES[result.reason], rule, advice, tried, result.nodes, tree);
    return answer;
}

/* Planner.shared(): how many shared memos hold entries (for the tests). */
static PyObject *planner_shared(PlannerObject *self, PyObject *unused)
{
    return PyLong_FromSize_t(planner_shared_in_use(&self->planner));
}

static PyMethodDef planner_methods[] = {
    {"plan", (PyCFunction)planner_plan, METH_VARARGS,
     "plan(position, us, symmetric, nodes, moves, seconds, clock, stop)"},
    {"shared", (PyCFunction)planner_shared, METH_NOARGS, "how many shared memos hold entries"},
    {NULL}
};

static PyTypeObject PlannerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "al0.core._core.Planner",
    .tp_basicsize = sizeof(PlannerObject),
    .tp_dealloc = (destructor)planner_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A table's planner: its rules, advice and shared memos.",
    .tp_new = planner_new,
    .tp_methods = planner_methods,
};

/* canonical(position, us) -> (symmetry, image as a tuple): the symmetry
 * that takes position to its class's canonical orientation. */
static PyObject *py_canonical(PyObject *module, PyObject *args)
{
    PyObject *position;
    int us;
    Position p;
    if (!PyArg_ParseTuple(args, "Op", &position, &us) || read_fields(position, &p) < 0)
        return NULL;
    if (p.pawns || p.ep_square >= 0) {
        PyErr_SetString(PyExc_ValueError, "the native core's symmetries know no pawns yet");
        return NULL;
    }
    int symmetry = canonical_symmetry(&p, us);
    Position i = transform_position(&p, symmetry);
    return Py_BuildValue("(i(KKKKKKKKOO))", symmetry, i.white, i.black, i.kings, i.queens, i.rooks,
                         i.bishops, i.knights, i.pawns, i.turn ? Py_True : Py_False, Py_None);
}

/* ------------------------------------------------------------ retrograde */

/* A layout from a sequence of piece types and one of sides (0 or 1). */
static int read_layout(PyObject *types, PyObject *sides, TableLayout *layout)
{
    Py_ssize_t men, count;
    int *t = read_ints(types, &men), *s = t ? read_ints(sides, &count) : NULL;
    int bad = !s || men != count;
    /* Every type and side in range before layout_init indexes by them. */
    for (Py_ssize_t i = 0; s && !bad && i < men; i++)
        bad = t[i] < PAWN || t[i] > KING || (s[i] != 0 && s[i] != 1);
    bad = bad || layout_init(layout, (int)men, t, s) < 0;
    if (s && bad)
        PyErr_SetString(PyExc_ValueError, "a table's men: a king first, at most four, sides 0 or 1");
    PyMem_Free(t);
    PyMem_Free(s);
    return bad ? -1 : 0;
}

static int has_exit(const RetroExit *exits, int count, int taken, int promoted, int promotion)
{
    for (int i = 0; i < count; i++)
        if (exits[i].taken == taken && exits[i].promoted == promoted && exits[i].promotion == promotion)
            return 1;
    return 0;
}

/* Whether a capture or a promotion the men can make has no exit: every
 * man but a king may be taken, every pawn promote, taking a man of the
 * other side or none. */
static int missing_exit(const TableLayout *l, const RetroExit *exits, int count)
{
    for (int slot = 0; slot < l->men; slot++) {
        if (l->types[slot] != KING && !has_exit(exits, count, slot, -1, 0))
            return 1;
        for (int piece = 0; l->types[slot] == PAWN && piece < 4; piece++) {
            if (!has_exit(exits, count, -1, slot, RETRO_PROMOTIONS[piece]))
                return 1;
            for (int other = 0; other < l->men; other++)
                if (l->sides[other] != l->sides[slot] && l->types[other] != KING
                    && !has_exit(exits, count, other, slot, RETRO_PROMOTIONS[piece]))
                    return 1;
        }
    }
    return 0;
}

/* retrograde(types, sides, exits, threads, out) -> plies of the last level:
 * the table of the men of `types` and `sides` into `out` (two rows of the
 * layout's size, bytes), given per exit (taken, promoted, promotion,
 * types, sides, mapping, swapped, values) the table it leads to: every
 * capture and promotion the men can make. Made by
 * al0/tablebase/retrograde.py. */
static PyObject *py_retrograde(PyObject *module, PyObject *args)
{
    PyObject *types, *sides, *exits, *out;
    int threads;
    TableLayout layout;
    RetroExit found[RETRO_MAX_EXITS];
    Py_buffer views[RETRO_MAX_EXITS], target;
    int viewed = 0, level = -1;
    if (!PyArg_ParseTuple(args, "OOOiO", &types, &sides, &exits, &threads, &out)
        || read_layout(types, sides, &layout) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(exits, "exits: a sequence");
    if (!fast)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > RETRO_MAX_EXITS) {
        PyErr_Format(PyExc_ValueError, "exits: at most %d", RETRO_MAX_EXITS);
        goto fail;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        RetroExit *exit = &found[i];
        PyObject *small_types, *small_sides, *mapping, *values;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iiiOOOpO", &exit->taken, &exit->promoted,
                              &exit->promotion, &small_types, &small_sides, &mapping, &exit->swapped,
                              &values)
            || read_layout(small_types, small_sides, &exit->layout) < 0
            || read_int_array(mapping, exit->mapping, exit->layout.men, "mapping") < 0)
            goto fail;
        int taken = exit->taken, promoted = exit->promoted;
        int bad = taken < -1 || taken >= layout.men || (taken >= 0 && layout.types[taken] == KING)
               || promoted < -1 || promoted >= layout.men || (promoted >= 0 && layout.types[promoted] != PAWN)
               || (promoted >= 0) != (exit->promotion != 0) || exit->promotion < 0
               || (exit->promotion && (exit->promotion < KNIGHT || exit->promotion > QUEEN))
               || (taken < 0 && promoted < 0) || exit->layout.men != layout.men - (taken >= 0);
        for (int j = 0; j < i; j++)
            bad |= found[j].taken == taken && found[j].promoted == promoted
                && found[j].promotion == exit->promotion;
        for (int slot = 0; slot < exit->layout.men; slot++)
            bad |= exit->mapping[slot] < 0 || exit->mapping[slot] >= layout.men || exit->mapping[slot] == taken;
        if (bad) {
            PyErr_SetString(PyExc_ValueError,
                            "exits: the man taken, the piece promoted to, its table's men and their slots here");
            goto fail;
        }
        if (PyObject_GetBuffer(values, &views[viewed], PyBUF_C_CONTIGUOUS) < 0)
            goto fail;
        viewed++;
        if (views[i].itemsize != 1 || views[i].len != 2 * exit->layout.size) {
            PyErr_SetString(PyExc_ValueError, "exits: values of two rows of the smaller table's size");
            goto fail;
        }
        exit->values = views[i].buf;
    }
    if (missing_exit(&layout, found, (int)count)) {
        PyErr_SetString(PyExc_ValueError, "exits: one for every capture and promotion the men can make");
        goto fail;
    }
    if (PyObject_GetBuffer(out, &target, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0)
        goto fail;
    if (target.itemsize != 1 || target.len != 2 * layout.size) {
        PyBuffer_Release(&target);
        PyErr_Format(PyExc_ValueError, "out: two rows of %lld bytes", layout.size);
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    level = retrograde_build(&layout, found, (int)count, threads, target.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&target);
    if (level < 0)
        PyErr_NoMemory();
fail:
    for (int i = 0; i < viewed; i++)
        PyBuffer_Release(&views[i]);
    Py_DECREF(fast);
    return level < 0 ? NULL : PyLong_FromLong(level);
}

/* --------------------------------------------------------------- module */

static PyObject *names_tuple(const char **names, int count)
{
    PyObject *tuple = PyTuple_New(count);
    for (int i = 0; tuple && i < count; i++)
        PyTuple_SET_ITEM(tuple, i, PyUnicode_FromString(names[i]));
    return tuple;
}

static PyMethodDef core_methods[] = {
    {"legal_moves", py_legal_moves, METH_O,
     "legal_moves(position): the legal moves (from * 64 + to) in python-chess's order"},
    {"feature", py_feature, METH_VARARGS,
     "feature(id, a, b, c, position, us): a vocabulary feature at a node (None: no value)"},
    {"predicate", py_predicate, METH_VARARGS,
     "predicate(id, a, b, position, us): a vocabulary predicate at a node"},
    {"feature_column", py_feature_column, METH_VARARGS,
     "feature_column(id, a, b, c, us, turn, boards, out): a feature at every row of boards"},
    {"goal_column", py_goal_column, METH_VARARGS,
     "goal_column(program, us, depth, turn, boards, out): a goal at every row of boards"},
    {"search", py_search, METH_VARARGS,
     "search(advice, root, us, memo, shared, nodes, moves, deadline, clock, stop[, excluded, reach])"},
    {"canonical", py_canonical, METH_VARARGS,
     "canonical(position, us): (symmetry, image) of the class's canonical orientation"},
    {"retrograde", py_retrograde, METH_VARARGS,
     "retrograde(types, sides, exits, threads, out): a tablebase's values into out"},
    {NULL}
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "al0's native core (see al0/core/__init__.py).", -1,
    core_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    init_tables();
    init_vocabulary();
    init_symmetry();
    if (make_constants() < 0)
        return NULL;
    if (PyType_Ready(&AdviceType) < 0 || PyType_Ready(&MemoType) < 0 || PyType_Ready(&PlannerType) < 0
        || PyType_Ready(&ProberType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (!module)
        return NULL;
    if (PyModule_AddObject(module, "FEATURES", names_tuple(FEATURE_NAMES, FEATURE_COUNT)) < 0
        || PyModule_AddObject(module, "PREDICATES", names_tuple(PREDICATE_NAMES, PREDICATE_COUNT)) < 0
        || PyModule_AddObject(module, "GENERATORS", names_tuple(GENERATOR_NAMES, GENERATOR_COUNT)) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&AdviceType);
    PyModule_AddObject(module, "Advice", (PyObject *)&AdviceType);
    Py_INCREF(&MemoType);
    PyModule_AddObject(module, "Memo", (PyObject *)&MemoType);
    Py_INCREF(&PlannerType);
    PyModule_AddObject(module, "Planner", (PyObject *)&PlannerType);
    Py_INCREF(&ProberType);
    PyModule_AddObject(module, "Prober", (PyObject *)&ProberType);
    return module;
}
