/* A* over a token's movement graph (core.spatial.pathing.MovementGraph), compiled.
 *
 * The graph: a grid of anchors, each with the cost of entering it (int8, 0 or less:
 * blocked) and, per direction, whether a step that way may leave it (one bool grid per
 * direction: the walls between cells). A step costs the direction's weight times the cost
 * of the anchor it enters. The heuristic is octile with its own weights, which the caller
 * keeps at or under the true ones, so the search is exact.
 *
 * The anchors are settled in the order libtcod's Pathfinder settles them on the same graph
 * (tcod.path.CustomGraph with these weights, conditions and heuristic), so among paths of
 * equal cost the same one is chosen: a binary min-heap on f = g + h alone, strict
 * comparisons, the steps relaxed in the order given, a strictly shorter distance needed to
 * improve an anchor; an improved anchor's older entry stays queued (popped, it only counts
 * as reaching the goal). One Search is rooted at one anchor and answers many goals:
 * resolve(x, y) goes on from where the last goal left it, the queue reordered for the new
 * goal; a goal reached before and no longer queued is queued again at its distance, and
 * the search stops when that entry comes out (libtcod's resume). The GIL is released while it searches. It reads
 * the caller's arrays through the buffer protocol and holds them until freed. Not for two
 * threads at once: each thread makes its own. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define DIRECTIONS 8
#define UNREACHED INT64_MAX

typedef struct {
    int64_t f;  /* the priority: g + h when queued or last reordered */
    int64_t g;
    Py_ssize_t node;
} Entry;

typedef struct {
    PyObject_HEAD
    Py_ssize_t width, height;
    Py_buffer cost;
    Py_buffer steps[DIRECTIONS];
    int held;  /* buffers acquired so far (cost first) */
    int dx[DIRECTIONS], dy[DIRECTIONS];
    int64_t weight[DIRECTIONS];
    int64_t guess_orth, guess_diag;
    int64_t *dist;
    int8_t *came;     /* the direction of the step that reached each anchor; -1: none */
    Entry *heap;
    Py_ssize_t heap_size, heap_cap;
    Py_ssize_t root;
    Py_ssize_t target;  /* the goal the heap is ordered for; -1: none yet */
    int busy;
} Search;

static void sift_up(Entry *heap, Py_ssize_t i) {
    Entry item = heap[i];
    while (i > 0) {
        Py_ssize_t parent = (i - 1) / 2;
        if (!(item.f < heap[parent].f)) break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = item;
}

/* Moves heap[i] down: to the left child if it is strictly smaller, else to the right one if
 * that is (a tie between the children goes left). */
static void sift_down(Entry *heap, Py_ssize_t size, Py_ssize_t i) {
    Entry item = heap[i];
    for (;;) {
        Py_ssize_t left = 2 * i + 1, right = left + 1, next = -1;
        int64_t least = item.f;
        if (left < size && heap[left].f < least) {
            next = left;
            least = heap[left].f;
        }
        if (right < size && heap[right].f < least) next = right;
        if (next < 0) break;
        heap[i] = heap[next];
        i = next;
    }
    heap[i] = item;
}

static inline int64_t guess(const Search *s, Py_ssize_t node) {
    Py_ssize_t x = node % s->width, y = node / s->width;
    Py_ssize_t tx = s->target % s->width, ty = s->target / s->width;
    int64_t ax = x > tx ? x - tx : tx - x, ay = y > ty ? y - ty : ty - y;
    int64_t diagonal = ax < ay ? ax : ay, straight = (ax < ay ? ay : ax) - diagonal;
    return s->guess_orth * straight + s->guess_diag * diagonal;
}

/* Called without the GIL: raw allocator only. Returns 0 when out of memory. */
static int push(Search *s, int64_t f, int64_t g, Py_ssize_t node) {
    if (s->heap_size == s->heap_cap) {
        Py_ssize_t cap = s->heap_cap * 2;
        Entry *grown = PyMem_RawRealloc(s->heap, (size_t)cap * sizeof(Entry));
        if (grown == NULL) return 0;
        s->heap = grown;
        s->heap_cap = cap;
    }
    Entry *entry = &s->heap[s->heap_size];
    entry->f = f;
    entry->g = g;
    entry->node = node;
    sift_up(s->heap, s->heap_size++);
    return 1;
}

/* The queue ordered for the current target: every entry's f recomputed, then heapified. */
static void reorder(Search *s) {
    for (Py_ssize_t i = 0; i < s->heap_size; i++)
        s->heap[i].f = s->heap[i].g + guess(s, s->heap[i].node);
    for (Py_ssize_t i = s->heap_size / 2; i >= 0; i--) sift_down(s->heap, s->heap_size, i);
}

static inline int step_allowed(const Search *s, int direction, Py_ssize_t node) {
    return ((const uint8_t *)s->steps[direction].buf)[node] != 0;
}

/* Relax the steps out of ``node``. Returns 0 when out of memory. */
static int expand(Search *s, Py_ssize_t node) {
    const int8_t *cost = (const int8_t *)s->cost.buf;
    Py_ssize_t x = node % s->width, y = node / s->width;
    int64_t g = s->dist[node];
    for (int d = 0; d < DIRECTIONS; d++) {
        if (!step_allowed(s, d, node)) continue;
        Py_ssize_t nx = x + s->dx[d], ny = y + s->dy[d];
        if (nx < 0 || ny < 0 || nx >= s->width || ny >= s->height) continue;
        Py_ssize_t next = ny * s->width + nx;
        int64_t step = s->weight[d] * cost[next];
        if (step <= 0) continue;
        int64_t ng = g + step;
        if (ng >= s->dist[next]) continue;
        s->dist[next] = ng;
        s->came[next] = (int8_t)d;
        if (!push(s, ng + guess(s, next), ng, next)) return 0;
    }
    return 1;
}

static int queued(const Search *s, Py_ssize_t node) {
    for (Py_ssize_t i = 0; i < s->heap_size; i++)
        if (s->heap[i].node == node) return 1;
    return 0;
}

/* Takes the queue's first entry out and relaxes the steps out of its anchor, unless the
 * anchor was improved since (expanding it again would improve nothing); ``node``: the
 * anchor. Returns 0 when out of memory. */
static int settle_next(Search *s, Py_ssize_t *node) {
    Entry top = s->heap[0];
    s->heap[0] = s->heap[--s->heap_size];
    sift_down(s->heap, s->heap_size, 0);
    *node = top.node;
    return top.g != s->dist[top.node] || expand(s, top.node);
}

/* Search on until an entry of ``goal`` comes out of the queue or the queue is empty (an
 * entry whose anchor was improved since is not expanded again: it would improve nothing).
 * Returns 0 when out of memory. */
static int run(Search *s, Py_ssize_t goal) {
    if (s->dist[goal] != UNREACHED && !queued(s, goal)) {
        if (s->heap_size == 0) return 1;
        if (!push(s, s->dist[goal], s->dist[goal], goal)) return 0;
    }
    if (s->target != goal) {
        s->target = goal;
        reorder(s);
    }
    Py_ssize_t settled = -1;
    while (s->heap_size > 0 && settled != goal)
        if (!settle_next(s, &settled)) return 0;
    return 1;
}

/* Search on until the queue is empty: every anchor's distance is final (the flood of a
 * search made with a zero heuristic: Dijkstra's). Returns 0 when out of memory. */
static int exhaust(Search *s) {
    Py_ssize_t settled;
    while (s->heap_size > 0)
        if (!settle_next(s, &settled)) return 0;
    return 1;
}

static int claim(Search *s) {
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is in use by another thread");
        return 0;
    }
    return 1;
}

static int anchor_of(Search *s, PyObject *args, Py_ssize_t *node) {
    Py_ssize_t x, y;
    if (!claim(s) || !PyArg_ParseTuple(args, "nn", &x, &y)) return 0;
    if (x < 0 || y < 0 || x >= s->width || y >= s->height) {
        PyErr_Format(PyExc_IndexError, "(%zd, %zd) is off the %zd x %zd grid", x, y,
                     s->width, s->height);
        return 0;
    }
    *node = y * s->width + x;
    return 1;
}

static PyObject *Search_resolve(Search *s, PyObject *args) {
    Py_ssize_t goal;
    if (!anchor_of(s, args, &goal)) return NULL;
    s->busy = 1;
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = run(s, goal);
    Py_END_ALLOW_THREADS
    s->busy = 0;
    if (!ok) return PyErr_NoMemory();
    return PyBool_FromLong(s->dist[goal] != UNREACHED);
}

static PyObject *Search_flood(Search *s, PyObject *Py_UNUSED(ignored)) {
    if (!claim(s)) return NULL;
    s->busy = 1;
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = exhaust(s);
    Py_END_ALLOW_THREADS
    s->busy = 0;
    if (!ok) return PyErr_NoMemory();
    return PyBytes_FromStringAndSize((const char *)s->dist,
                                     s->width * s->height * (Py_ssize_t)sizeof(int64_t));
}

static PyObject *Search_reached(Search *s, PyObject *args) {
    Py_ssize_t node;
    if (!anchor_of(s, args, &node)) return NULL;
    return PyBool_FromLong(s->dist[node] != UNREACHED);
}

static PyObject *Search_distance(Search *s, PyObject *args) {
    Py_ssize_t node;
    if (!anchor_of(s, args, &node)) return NULL;
    if (s->dist[node] == UNREACHED) Py_RETURN_NONE;
    return PyLong_FromLongLong(s->dist[node]);
}

/* The anchor the step into ``node`` came from. */
static inline Py_ssize_t back(const Search *s, Py_ssize_t node) {
    int d = s->came[node];
    return node - (s->dy[d] * s->width + s->dx[d]);
}

static PyObject *Search_path(Search *s, PyObject *args) {
    Py_ssize_t goal;
    if (!anchor_of(s, args, &goal)) return NULL;
    if (s->dist[goal] == UNREACHED) {
        PyErr_SetString(PyExc_ValueError, "no path has reached that anchor");
        return NULL;
    }
    Py_ssize_t length = 1;
    for (Py_ssize_t node = goal; node != s->root; node = back(s, node)) length++;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, length * 2 * (Py_ssize_t)sizeof(int));
    if (out == NULL) return NULL;
    int *xy = (int *)PyByteArray_AS_STRING(out);
    Py_ssize_t node = goal;
    for (Py_ssize_t i = length - 1; i >= 0; i--) {
        xy[2 * i] = (int)(node % s->width);
        xy[2 * i + 1] = (int)(node / s->width);
        if (i > 0) node = back(s, node);
    }
    return out;
}

static PyObject *Search_reached_count(Search *s, PyObject *Py_UNUSED(ignored)) {
    Py_ssize_t count = 0, size = s->width * s->height;
    for (Py_ssize_t i = 0; i < size; i++) count += s->dist[i] != UNREACHED;
    return PyLong_FromSsize_t(count);
}

static int hold_grid(Search *s, PyObject *array, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(array, view, PyBUF_C_CONTIGUOUS) < 0) return 0;
    s->held++;
    if (view->ndim != 2 || view->itemsize != 1) {
        PyErr_Format(PyExc_ValueError, "%s must be a 2-d array of 1-byte items", what);
        return 0;
    }
    if (s->held == 1) {
        s->height = view->shape[0];
        s->width = view->shape[1];
    } else if (view->shape[0] != s->height || view->shape[1] != s->width) {
        PyErr_Format(PyExc_ValueError, "%s must have the cost grid's shape", what);
        return 0;
    }
    return 1;
}

static int read_pair(PyObject *pair, int64_t *a, int64_t *b, const char *what) {
    long long first, second;
    if (!PyArg_ParseTuple(pair, "LL", &first, &second)) return 0;
    if (first < 0 || second < 0 || first > INT32_MAX || second > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s must be whole numbers from 0 to 2**31 - 1", what);
        return 0;
    }
    *a = first;
    *b = second;
    return 1;
}

static int read_steps(Search *s, PyObject *steps, PyObject *deltas, PyObject *weights) {
    PyObject *grids = PySequence_Fast(steps, "steps must be a sequence");
    PyObject *moves = grids ? PySequence_Fast(deltas, "deltas must be a sequence") : NULL;
    PyObject *costs = moves ? PySequence_Fast(weights, "weights must be a sequence") : NULL;
    int ok = costs != NULL;
    if (ok && (PySequence_Fast_GET_SIZE(grids) != DIRECTIONS
               || PySequence_Fast_GET_SIZE(moves) != DIRECTIONS
               || PySequence_Fast_GET_SIZE(costs) != DIRECTIONS)) {
        PyErr_SetString(PyExc_ValueError, "steps, deltas and weights need 8 items each");
        ok = 0;
    }
    for (int d = 0; ok && d < DIRECTIONS; d++) {
        int dx, dy;
        long long weight = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(costs, d));
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(moves, d), "ii", &dx, &dy)
             && !(weight == -1 && PyErr_Occurred())
             && hold_grid(s, PySequence_Fast_GET_ITEM(grids, d), &s->steps[d], "a step grid");
        if (ok && (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)
                   || weight < 0 || weight > INT32_MAX)) {
            PyErr_SetString(PyExc_ValueError,
                            "a step moves one anchor and weighs 0 to 2**31 - 1");
            ok = 0;
        }
        if (ok) {
            s->dx[d] = dx;
            s->dy[d] = dy;
            s->weight[d] = weight;
        }
    }
    Py_XDECREF(grids);
    Py_XDECREF(moves);
    Py_XDECREF(costs);
    return ok;
}

static int allocate(Search *s) {
    size_t size = (size_t)(s->width * s->height);
    s->dist = PyMem_RawMalloc(size * sizeof(int64_t));
    s->came = PyMem_RawMalloc(size);
    s->heap_cap = s->width + s->height + 16;
    s->heap = PyMem_RawMalloc((size_t)s->heap_cap * sizeof(Entry));
    if (!s->dist || !s->came || !s->heap) {
        PyErr_NoMemory();
        return 0;
    }
    for (size_t i = 0; i < size; i++) s->dist[i] = UNREACHED;
    memset(s->came, -1, size);
    return 1;
}

static int Search_init(Search *s, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"cost", "steps", "deltas", "weights", "heuristic", "start",
                               NULL};
    PyObject *cost, *steps, *deltas, *weights, *heuristic, *start;
    int64_t x, y;
    if (s->held) {
        PyErr_SetString(PyExc_RuntimeError, "a Search is set up once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOO", keywords, &cost, &steps,
                                     &deltas, &weights, &heuristic, &start)) return -1;
    if (!hold_grid(s, cost, &s->cost, "cost") || !read_steps(s, steps, deltas, weights)
        || !read_pair(heuristic, &s->guess_orth, &s->guess_diag, "the heuristic's weights")
        || !read_pair(start, &x, &y, "the start")) return -1;
    if (x >= s->width || y >= s->height) {
        PyErr_SetString(PyExc_IndexError, "the start is off the grid");
        return -1;
    }
    if (!allocate(s)) return -1;
    s->root = (Py_ssize_t)(y * s->width + x);
    s->target = -1;
    s->dist[s->root] = 0;
    s->heap[0] = (Entry){0, 0, s->root};
    s->heap_size = 1;
    return 0;
}

static void Search_dealloc(Search *s) {
    if (s->held > 0) PyBuffer_Release(&s->cost);
    for (int d = 0; d < s->held - 1; d++) PyBuffer_Release(&s->steps[d]);
    PyMem_RawFree(s->dist);
    PyMem_RawFree(s->came);
    PyMem_RawFree(s->heap);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyMethodDef Search_methods[] = {
    {"resolve", (PyCFunction)Search_resolve, METH_VARARGS,
     "resolve(x, y) -> bool: search on until (x, y) is settled; whether a path reaches it."},
    {"flood", (PyCFunction)Search_flood, METH_NOARGS,
     "flood() -> bytes: search until the queue is empty; every anchor's distance (native "
     "int64, row by row; 2**63 - 1: unreached)."},
    {"reached", (PyCFunction)Search_reached, METH_VARARGS,
     "reached(x, y) -> bool: whether some path has reached (x, y) so far."},
    {"distance", (PyCFunction)Search_distance, METH_VARARGS,
     "distance(x, y) -> int | None: the best cost to (x, y) found so far."},
    {"path", (PyCFunction)Search_path, METH_VARARGS,
     "path(x, y) -> bytearray: the anchors (C ints x, y) from the start to (x, y)."},
    {"reached_count", (PyCFunction)Search_reached_count, METH_NOARGS,
     "reached_count() -> int: how many anchors some path has reached so far."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "core.spatial._search.Search",
    .tp_doc = PyDoc_STR("Search(cost, steps, deltas, weights, heuristic, start): A* over a "
                        "grid rooted at start (x, y), resumed for each goal."),
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};

static struct PyModuleDef search_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "core.spatial._search",
    .m_doc = "A* over a token's movement graph (see core.spatial.pathing).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__search(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *module = PyModule_Create(&search_module);
    if (module == NULL) return NULL;
    if (PyModule_AddObjectRef(module, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
