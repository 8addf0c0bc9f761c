/* Compiled core of goalkeeper's planner: breadth-first search, blind A* and LM-cut A*,
 * all with strong stubborn sets, and lazy greedy best-first search with h_FF (or
 * h_add) and preferred operators.
 *
 * Optional: setup.py builds it when a C compiler is present, and the pure-Python
 * searches (search/astar.py, search/lmcut_astar.py, search/stubborn.py,
 * heuristics/lmcut.py, search/greedy.py, heuristics/additive.py) are always there. This file mirrors them step by step (same
 * successor order, same heap keys, same LM-cut tie-breaking, same float operations in
 * the same order), so both return the same plans; tests run both on random tasks.
 * The Python side (search/core.py) packs a task into flat arrays once; a Search object
 * then runs in chunks of expansions, with the GIL released, so the race can
 * interleave two searches on one thread.
 *
 * States are bitsets of W 64-bit words (one bit per variable value). Operators are
 * the search's operators in successor-generation order ("positions").
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t word;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- growable arrays */

#define GROW(ptr, cap, need, type)                                                \
    do {                                                                          \
        if ((size_t)(need) > (cap)) {                                             \
            size_t nc_ = (cap) ? (cap) : 16;                                      \
            while (nc_ < (size_t)(need)) nc_ *= 2;                                \
            type *np_ = (type *)realloc((ptr), nc_ * sizeof(type));               \
            if (!np_) goto nomem;                                                 \
            (ptr) = np_;                                                          \
            (cap) = nc_;                                                          \
        }                                                                         \
    } while (0)

typedef struct {
    int *a;
    size_t n, cap;
} IntVec;

static int ivec_push(IntVec *v, int x) {
    GROW(v->a, v->cap, v->n + 1, int);
    v->a[v->n++] = x;
    return 0;
nomem:
    return -1;
}

/* ---------------------------------------------------------------- the packed task */

typedef struct {
    PyObject_HEAD
    int W, nbits, nvars, nops, ngroups, ngoal;
    word *forbid, *keep, *add, *goal_forbid; /* nops*W, nops*W, nops*W, W */
    double *cost;
    int *index;              /* task operator index of each position */
    int *gkey, *gstart;      /* group key bit (-1: test every op), ngroups+1 starts */
    int *bit_var, *var_off, *var_size;
    int *eff_start, *eff_bits; /* per op: bits its effect sets */
    int *pre_start, *pre_vars; /* per op: variables its precondition constrains */
    int *goal_vars;
    double step;             /* cheapest operator cost (blind heuristic) */
    /* stubborn sets: bitsets over positions */
    int NW;
    word *writers_bit;       /* nbits*NW */
    word *writers_var;       /* nvars*NW */
    word *pre_forbid;        /* nbits*NW: ops whose precondition rules the bit out */
    word *intf;              /* nops*NW, computed lazily */
    unsigned char *intf_done;
    /* delete relaxation (heuristics/relaxed.py) */
    int np, nro, rgoal, rtrue, intcost;
    int *rpre_start, *rpre, *radd_start, *radd, *npre;
    double *rcost;
    int *rorig;              /* position of the original operator, -1 for auxiliary */
    int *bit_prop;           /* nbits: proposition of a state bit, -1 if none */
    int *preof_start, *preof, *ach_start, *ach;
} TaskObject;

static void task_dealloc(TaskObject *t) {
    void *ptrs[] = {t->forbid, t->keep, t->add, t->goal_forbid, t->cost, t->index,
                    t->gkey, t->gstart, t->bit_var, t->var_off, t->var_size,
                    t->eff_start, t->eff_bits, t->pre_start, t->pre_vars, t->goal_vars,
                    t->writers_bit, t->writers_var, t->pre_forbid, t->intf, t->intf_done,
                    t->rpre_start, t->rpre, t->radd_start, t->radd, t->npre, t->rcost,
                    t->rorig, t->bit_prop, t->preof_start, t->preof, t->ach_start, t->ach};
    for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++) free(ptrs[i]);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

/* Copy a bytes-like argument into a fresh malloc'd array of the expected size. */
static void *take(PyObject *obj, size_t size, const char *what) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return NULL;
    if ((size_t)view.len != size) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zu bytes, got %zd", what, size, view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    void *p = malloc(size ? size : 1);
    if (!p) {
        PyBuffer_Release(&view);
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(p, view.buf, size);
    PyBuffer_Release(&view);
    return p;
}

static Py_ssize_t blen(PyObject *obj) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return -1;
    Py_ssize_t n = view.len;
    PyBuffer_Release(&view);
    return n;
}

static int task_init(TaskObject *t, PyObject *args, PyObject *kw) {
    (void)kw;
    PyObject *forbid, *keep, *add, *goal_forbid, *cost, *index, *gkey, *gstart, *bit_var,
        *var_off, *var_size, *eff_start, *eff_bits, *pre_start, *pre_vars, *goal_vars,
        *rpre_start, *rpre, *radd_start, *radd, *rcost, *rorig, *bit_prop;
    double step;
    if (!PyArg_ParseTuple(args, "iiiiiiOOOOOOOOOOOOOOOOdiiiiiOOOOOOO", &t->W, &t->nbits,
                          &t->nvars, &t->nops, &t->ngroups, &t->ngoal, &forbid, &keep, &add,
                          &goal_forbid, &cost, &index, &gkey, &gstart, &bit_var, &var_off,
                          &var_size, &eff_start, &eff_bits, &pre_start, &pre_vars, &goal_vars,
                          &step, &t->np, &t->nro, &t->rgoal, &t->rtrue, &t->intcost,
                          &rpre_start, &rpre, &radd_start, &radd, &rcost, &rorig, &bit_prop))
        return -1;
    int W = t->W, n = t->nops;
    size_t ws = sizeof(word), is = sizeof(int);
    t->step = step;
#define TAKE(field, obj, size)                                   \
    do {                                                         \
        t->field = take(obj, size, #field);                      \
        if (!t->field) return -1;                                \
    } while (0)
    TAKE(forbid, forbid, (size_t)n * W * ws);
    TAKE(keep, keep, (size_t)n * W * ws);
    TAKE(add, add, (size_t)n * W * ws);
    TAKE(goal_forbid, goal_forbid, (size_t)W * ws);
    TAKE(cost, cost, (size_t)n * sizeof(double));
    TAKE(index, index, (size_t)n * is);
    TAKE(gkey, gkey, (size_t)t->ngroups * is);
    TAKE(gstart, gstart, (size_t)(t->ngroups + 1) * is);
    TAKE(bit_var, bit_var, (size_t)t->nbits * is);
    TAKE(var_off, var_off, (size_t)t->nvars * is);
    TAKE(var_size, var_size, (size_t)t->nvars * is);
    TAKE(eff_start, eff_start, (size_t)(n + 1) * is);
    TAKE(eff_bits, eff_bits, (size_t)t->eff_start[n] * is);
    TAKE(pre_start, pre_start, (size_t)(n + 1) * is);
    TAKE(pre_vars, pre_vars, (size_t)t->pre_start[n] * is);
    TAKE(goal_vars, goal_vars, (size_t)t->ngoal * is);
    TAKE(rpre_start, rpre_start, (size_t)(t->nro + 1) * is);
    TAKE(rpre, rpre, (size_t)t->rpre_start[t->nro] * is);
    TAKE(radd_start, radd_start, (size_t)(t->nro + 1) * is);
    TAKE(radd, radd, (size_t)t->radd_start[t->nro] * is);
    TAKE(rcost, rcost, (size_t)t->nro * sizeof(double));
    TAKE(rorig, rorig, (size_t)t->nro * is);
    TAKE(bit_prop, bit_prop, (size_t)t->nbits * is);
#undef TAKE
    /* stubborn-set tables */
    int NW = t->NW = (n + 63) / 64 ? (n + 63) / 64 : 1;
    t->writers_bit = calloc((size_t)t->nbits * NW + 1, ws);
    t->writers_var = calloc((size_t)t->nvars * NW + 1, ws);
    t->pre_forbid = calloc((size_t)t->nbits * NW + 1, ws);
    t->intf = calloc((size_t)n * NW + 1, ws);
    t->intf_done = calloc((size_t)n + 1, 1);
    t->npre = calloc((size_t)t->nro + 1, is);
    t->preof_start = calloc((size_t)t->np + 1, is);
    t->ach_start = calloc((size_t)t->np + 1, is);
    t->preof = malloc(((size_t)t->rpre_start[t->nro] + 1) * is);
    t->ach = malloc(((size_t)t->radd_start[t->nro] + 1) * is);
    if (!t->writers_bit || !t->writers_var || !t->pre_forbid || !t->intf || !t->intf_done ||
        !t->npre || !t->preof_start || !t->ach_start || !t->preof || !t->ach) {
        PyErr_NoMemory();
        return -1;
    }
    for (int o = 0; o < n; o++) {
        word bit = (word)1 << (o & 63);
        int wo = o >> 6;
        for (int k = t->eff_start[o]; k < t->eff_start[o + 1]; k++) {
            int b = t->eff_bits[k];
            t->writers_bit[(size_t)b * NW + wo] |= bit;
            t->writers_var[(size_t)t->bit_var[b] * NW + wo] |= bit;
        }
        for (int b = 0; b < t->nbits; b++)
            if (t->forbid[(size_t)o * W + (b >> 6)] >> (b & 63) & 1)
                t->pre_forbid[(size_t)b * NW + wo] |= bit;
    }
    /* pre_of and achievers in increasing operator order, as build_relaxed makes them */
    for (int o = 0; o < t->nro; o++) {
        t->npre[o] = t->rpre_start[o + 1] - t->rpre_start[o];
        for (int k = t->rpre_start[o]; k < t->rpre_start[o + 1]; k++) t->preof_start[t->rpre[k] + 1]++;
        for (int k = t->radd_start[o]; k < t->radd_start[o + 1]; k++) t->ach_start[t->radd[k] + 1]++;
    }
    for (int p = 0; p < t->np; p++) {
        t->preof_start[p + 1] += t->preof_start[p];
        t->ach_start[p + 1] += t->ach_start[p];
    }
    int *fill = calloc((size_t)t->np + 1, is), *fill2 = calloc((size_t)t->np + 1, is);
    if (!fill || !fill2) {
        free(fill);
        free(fill2);
        PyErr_NoMemory();
        return -1;
    }
    for (int o = 0; o < t->nro; o++) {
        for (int k = t->rpre_start[o]; k < t->rpre_start[o + 1]; k++) {
            int p = t->rpre[k];
            t->preof[t->preof_start[p] + fill[p]++] = o;
        }
        for (int k = t->radd_start[o]; k < t->radd_start[o + 1]; k++) {
            int p = t->radd[k];
            t->ach[t->ach_start[p] + fill2[p]++] = o;
        }
    }
    free(fill);
    free(fill2);
    return 0;
}

static PyTypeObject TaskType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "goalkeeper.planning._core.Task",
    .tp_basicsize = sizeof(TaskObject),
    .tp_dealloc = (destructor)task_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A task packed for the compiled searches (see search/core.py).",
    .tp_init = (initproc)task_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------- the search */

enum { BFS = 0, BLIND = 1, LMCUT = 2, GREEDY_FF = 3, GREEDY_ADD = 4 };
enum { RUNNING = 0, FOUND = 1, EXHAUSTED = 2, LIMIT = 3, NOMEM = 4 };

typedef struct {
    double g, h;
    int parent, op; /* op: position */
    uint32_t cut_off, ncuts; /* the node's cuts: cut_refs[cut_off .. cut_off + ncuts) */
    unsigned char hknown, evaluated;
} Node;

typedef struct {
    double m;
    uint32_t ops_off, n; /* into cut_ops */
} Cut;

typedef struct {
    double f, h;
    long long seq;
    double g;
    int node;
    int ev;
} Entry;

typedef struct {
    double c;
    long long seq; /* decreasing: among equal costs, the newest first */
    int p;
} PEntry;

/* A greedy open-list entry: a successor queued under its parent's h (lazy search). */
typedef struct {
    double h;
    long long seq; /* increasing: among equal h, the oldest first (heapq's tuples) */
    int node, parent, op;
} GEntry;

typedef struct {
    GEntry *a;
    size_t n, cap;
} GHeap;

typedef struct {
    PyObject_HEAD
    TaskObject *t;
    int kind, status, use_sss;
    long long sss_start; /* expansion at which pruning starts (stubborn.START) */
    long long max_exp; /* -1: none */
    double deadline;   /* <0: none */
    /* nodes and the state table */
    Node *nodes;
    size_t nnodes, nodes_cap;
    word *states;
    size_t states_cap;
    int *table;
    size_t table_cap; /* power of two */
    /* open lists */
    Entry *heap;
    size_t nheap, heap_cap;
    int *queue;
    size_t qhead, qtail, queue_cap;
    long long left;
    IntVec layers;
    long long seq, expanded, generated, napp, nkept;
    double fbound;
    int goal_node;
    double result_cost;
    /* LM-cut. Each cut is stored once, in the pool (cuts, with its operators in
     * cut_ops); a node lists its cuts as 4-byte pool indices (cut_refs), so a cut a
     * successor inherits costs 4 bytes instead of a copy of it (elevators: 16 cuts per
     * evaluated node, most inherited). */
    Cut *cuts;
    size_t ncuts, cuts_cap;
    int *cut_ops;
    size_t ncut_ops, cut_ops_cap;
    uint32_t *cut_refs;
    size_t ncut_refs, cut_refs_cap;
    uint32_t *cut_tab; /* open addressing over the pool: (operators, m) -> index */
    size_t cut_tab_cap;
    double *hv, *val, *wcost, *drop;
    int *pcf, *remaining, *stack, *props;
    unsigned char *zone, *reached;
    IntVec *buckets;
    size_t nbuckets;
    PEntry *pheap;
    size_t npheap, pheap_cap;
    int *newcut;
    /* stubborn sets */
    word *stub, *todo;
    word *succ; /* scratch state */
    int *order; /* state bits with a proposition, in the LM-cut variant's order */
    int norder;
    double h0;
    /* greedy: the open lists (all successors, preferred ones), h_add/h_FF scratch */
    GHeap gopen[2];
    long long prio[2];
    double best;
    double *acc;
    int *sup, *ffstack, *pref_list;
    size_t ffstack_cap;
    int npref;
    unsigned char *seen, *used, *pref;
} SearchObject;

static void search_dealloc(SearchObject *s) {
    free(s->nodes);
    free(s->states);
    free(s->table);
    free(s->heap);
    free(s->queue);
    free(s->layers.a);
    free(s->cuts);
    free(s->cut_ops);
    free(s->cut_refs);
    free(s->cut_tab);
    free(s->hv);
    free(s->val);
    free(s->wcost);
    free(s->drop);
    free(s->pcf);
    free(s->remaining);
    free(s->stack);
    free(s->props);
    free(s->zone);
    free(s->reached);
    if (s->buckets) {
        for (size_t i = 0; i < s->nbuckets; i++) free(s->buckets[i].a);
        free(s->buckets);
    }
    free(s->pheap);
    free(s->newcut);
    free(s->stub);
    free(s->todo);
    free(s->succ);
    free(s->order);
    free(s->gopen[0].a);
    free(s->gopen[1].a);
    free(s->acc);
    free(s->sup);
    free(s->ffstack);
    free(s->pref_list);
    free(s->seen);
    free(s->used);
    free(s->pref);
    Py_XDECREF(s->t);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static inline word *state_of(SearchObject *s, int node) {
    return s->states + (size_t)node * s->t->W;
}

static inline uint64_t hash_state(const word *x, int W) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < W; i++) {
        h ^= x[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

static int table_rehash(SearchObject *s) {
    size_t cap = s->table_cap ? s->table_cap * 2 : 1024;
    int *tab = malloc(cap * sizeof(int));
    if (!tab) return -1;
    memset(tab, 0xff, cap * sizeof(int));
    int W = s->t->W;
    for (size_t i = 0; i < s->nnodes; i++) {
        size_t j = hash_state(state_of(s, (int)i), W) & (cap - 1);
        while (tab[j] >= 0) j = (j + 1) & (cap - 1);
        tab[j] = (int)i;
    }
    free(s->table);
    s->table = tab;
    s->table_cap = cap;
    return 0;
}

/* The node of state x, or a new one (*fresh = 1) with g = INF; -1 on no memory. */
static int lookup_or_add(SearchObject *s, const word *x, int *fresh) {
    int W = s->t->W;
    if ((s->nnodes + 1) * 2 > s->table_cap && table_rehash(s) < 0) return -1;
    size_t mask = s->table_cap - 1;
    size_t j = hash_state(x, W) & mask;
    while (s->table[j] >= 0) {
        int k = s->table[j];
        if (memcmp(state_of(s, k), x, (size_t)W * sizeof(word)) == 0) {
            *fresh = 0;
            return k;
        }
        j = (j + 1) & mask;
    }
    if (s->nnodes >= INT_MAX) return -1; /* node ids are ints (and the table holds them) */
    GROW(s->nodes, s->nodes_cap, s->nnodes + 1, Node);
    GROW(s->states, s->states_cap, (s->nnodes + 1) * (size_t)W, word);
    int id = (int)s->nnodes++;
    memcpy(state_of(s, id), x, (size_t)W * sizeof(word));
    Node *nd = &s->nodes[id];
    nd->g = INFINITY;
    nd->h = 0.0;
    nd->parent = -1;
    nd->op = -1;
    nd->cut_off = 0;
    nd->ncuts = 0;
    nd->hknown = 0;
    nd->evaluated = 0;
    s->table[j] = id;
    *fresh = 1;
    return id;
nomem:
    return -1;
}

static inline int entry_less(const Entry *a, const Entry *b) {
    if (a->f != b->f) return a->f < b->f;
    if (a->h != b->h) return a->h < b->h;
    return a->seq < b->seq;
}

static int heap_push(SearchObject *s, Entry e) {
    GROW(s->heap, s->heap_cap, s->nheap + 1, Entry);
    size_t i = s->nheap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!entry_less(&e, &s->heap[p])) break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = e;
    return 0;
nomem:
    return -1;
}

static Entry heap_pop(SearchObject *s) {
    Entry top = s->heap[0];
    Entry last = s->heap[--s->nheap];
    size_t n = s->nheap, i = 0;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t c = l;
        if (l + 1 < n && entry_less(&s->heap[l + 1], &s->heap[l])) c = l + 1;
        if (!entry_less(&s->heap[c], &last)) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n) s->heap[i] = last;
    return top;
}

static inline int pless(PEntry a, PEntry b) {
    return a.c < b.c || (a.c == b.c && a.seq < b.seq);
}

static int pheap_push(SearchObject *s, double c, long long seq, int p) {
    GROW(s->pheap, s->pheap_cap, s->npheap + 1, PEntry);
    PEntry e = {c, seq, p};
    size_t i = s->npheap++;
    while (i > 0) {
        size_t q = (i - 1) / 2;
        if (!pless(e, s->pheap[q])) break;
        s->pheap[i] = s->pheap[q];
        i = q;
    }
    s->pheap[i] = e;
    return 0;
nomem:
    return -1;
}

static PEntry pheap_pop(SearchObject *s) {
    PEntry top = s->pheap[0];
    PEntry last = s->pheap[--s->npheap];
    size_t n = s->npheap, i = 0;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t c = l;
        if (l + 1 < n && pless(s->pheap[l + 1], s->pheap[l])) c = l + 1;
        if (!pless(s->pheap[c], last)) break;
        s->pheap[i] = s->pheap[c];
        i = c;
    }
    if (n) s->pheap[i] = last;
    return top;
}

static inline int is_goal(const TaskObject *t, const word *x) {
    for (int i = 0; i < t->W; i++)
        if (x[i] & t->goal_forbid[i]) return 0;
    return 1;
}

static inline int bit_set(const word *x, int b) { return (int)(x[b >> 6] >> (b & 63) & 1); }

/* Whether state x violates the condition "forbid" on variable v. */
static inline int violates(const TaskObject *t, const word *x, const word *forbid, int v) {
    int off = t->var_off[v], end = off + t->var_size[v];
    for (int b = off; b < end; b++)
        if (bit_set(x, b)) return bit_set(forbid, b);
    return 0;
}

/* ---------------------------------------------------------------- stubborn sets */

static const word *interferers(TaskObject *t, int o) {
    int NW = t->NW;
    word *out = t->intf + (size_t)o * NW;
    if (t->intf_done[o]) return out;
    for (int k = t->eff_start[o]; k < t->eff_start[o + 1]; k++) {
        int b = t->eff_bits[k];
        const word *wv = t->writers_var + (size_t)t->bit_var[b] * NW;
        const word *wb = t->writers_bit + (size_t)b * NW;
        const word *pf = t->pre_forbid + (size_t)b * NW;
        for (int i = 0; i < NW; i++) out[i] |= (wv[i] & ~wb[i]) | pf[i];
    }
    const word *fb = t->forbid + (size_t)o * t->W;
    for (int b = 0; b < t->nbits; b++)
        if (bit_set(fb, b)) {
            const word *wb = t->writers_bit + (size_t)b * NW;
            for (int i = 0; i < NW; i++) out[i] |= wb[i];
        }
    t->intf_done[o] = 1;
    return out;
}

/* stub |= new, todo |= new, where new = achievers of "not forbid" on v, minus stub. */
static void add_achievers(SearchObject *s, const word *forbid, int v) {
    TaskObject *t = s->t;
    int NW = t->NW, off = t->var_off[v], end = off + t->var_size[v];
    for (int b = off; b < end; b++) {
        if (bit_set(forbid, b)) continue;
        const word *wb = t->writers_bit + (size_t)b * NW;
        for (int i = 0; i < NW; i++) {
            word nw = wb[i] & ~s->stub[i];
            s->stub[i] |= nw;
            s->todo[i] |= nw;
        }
    }
}

static void compute_stubborn(SearchObject *s, const word *x) {
    TaskObject *t = s->t;
    int NW = t->NW;
    memset(s->stub, 0, (size_t)NW * sizeof(word));
    memset(s->todo, 0, (size_t)NW * sizeof(word));
    for (int k = 0; k < t->ngoal; k++) {
        int v = t->goal_vars[k];
        if (violates(t, x, t->goal_forbid, v)) {
            add_achievers(s, t->goal_forbid, v);
            break;
        }
    }
    for (;;) {
        int i = 0;
        while (i < NW && !s->todo[i]) i++;
        if (i == NW) break;
        int o = i * 64 + __builtin_ctzll(s->todo[i]);
        s->todo[i] &= s->todo[i] - 1;
        const word *fb = t->forbid + (size_t)o * t->W;
        int applicable = 1;
        for (int w = 0; w < t->W; w++)
            if (x[w] & fb[w]) {
                applicable = 0;
                break;
            }
        if (applicable) {
            const word *in = interferers(t, o);
            for (int w = 0; w < NW; w++) {
                word nw = in[w] & ~s->stub[w];
                s->stub[w] |= nw;
                s->todo[w] |= nw;
            }
        } else {
            for (int k = t->pre_start[o]; k < t->pre_start[o + 1]; k++) {
                int v = t->pre_vars[k];
                if (violates(t, x, fb, v)) {
                    add_achievers(s, fb, v);
                    break;
                }
            }
        }
    }
}

static inline int worth_it(long long applicable, long long kept) {
    return (double)kept <= (1.0 - 0.2) * (double)applicable;
}

#define CHECK_AFTER 1000

/* ---------------------------------------------------------------- LM-cut */

static int bucket_push(SearchObject *s, long k, int p) {
    if ((size_t)k >= s->nbuckets) {
        size_t nb = s->nbuckets ? s->nbuckets : 16;
        while (nb <= (size_t)k) nb *= 2;
        IntVec *b = realloc(s->buckets, nb * sizeof(IntVec));
        if (!b) return -1;
        memset(b + s->nbuckets, 0, (nb - s->nbuckets) * sizeof(IntVec));
        s->buckets = b;
        s->nbuckets = nb;
    }
    return ivec_push(&s->buckets[k], p);
}

/* h_max of every proposition (s->hv) and operator (s->val) with the precondition
 * choice (s->pcf) under s->wcost, equal costs last in, first out. Mirrors
 * heuristics/lmcut.py:_explore. Returns -1 on no memory. */
static int explore(SearchObject *s, int nprops) {
    TaskObject *t = s->t;
    int np = t->np, nro = t->nro;
    double *hv = s->hv, *val = s->val, *cost = s->wcost;
    int *pcf = s->pcf, *remaining = s->remaining, *props = s->props;
    for (int p = 0; p < np; p++) hv[p] = INFINITY;
    for (int o = 0; o < nro; o++) {
        val[o] = INFINITY;
        pcf[o] = -1;
        remaining[o] = t->npre[o];
    }
    if (t->intcost) {
        size_t used = 1;
        for (size_t i = 0; i < s->nbuckets; i++) s->buckets[i].n = 0;
        for (int i = 0; i < nprops; i++) {
            int p = props[i];
            if (hv[p] != 0.0) {
                hv[p] = 0.0;
                if (bucket_push(s, 0, p) < 0) return -1;
            }
        }
        for (long c = 0; (size_t)c < used; c++) {
            if ((size_t)c >= s->nbuckets) break;
            while (s->buckets[c].n) {
                int p = s->buckets[c].a[--s->buckets[c].n];
                if (hv[p] != (double)c) continue;
                for (int k = t->preof_start[p]; k < t->preof_start[p + 1]; k++) {
                    int o = t->preof[k];
                    if (--remaining[o] == 0) {
                        val[o] = (double)c;
                        pcf[o] = p;
                        double nc = (double)c + cost[o];
                        for (int a = t->radd_start[o]; a < t->radd_start[o + 1]; a++) {
                            int q = t->radd[a];
                            if (nc < hv[q]) {
                                hv[q] = nc;
                                long kk = (long)nc;
                                if (bucket_push(s, kk, q) < 0) return -1;
                                if ((size_t)kk + 1 > used) used = (size_t)kk + 1;
                            }
                        }
                    }
                }
            }
        }
        return 0;
    }
    s->npheap = 0;
    long long seq = 0;
    for (int i = 0; i < nprops; i++) {
        int p = props[i];
        if (hv[p] != 0.0) {
            hv[p] = 0.0;
            if (pheap_push(s, 0.0, --seq, p) < 0) return -1;
        }
    }
    while (s->npheap) {
        PEntry e = pheap_pop(s);
        int p = e.p;
        if (e.c > hv[p]) continue;
        for (int k = t->preof_start[p]; k < t->preof_start[p + 1]; k++) {
            int o = t->preof[k];
            if (--remaining[o] == 0) {
                val[o] = e.c;
                pcf[o] = p;
                double nc = e.c + cost[o];
                for (int a = t->radd_start[o]; a < t->radd_start[o + 1]; a++) {
                    int q = t->radd[a];
                    if (nc < hv[q]) {
                        hv[q] = nc;
                        if (pheap_push(s, nc, --seq, q) < 0) return -1;
                    }
                }
            }
        }
    }
    return 0;
}

static uint64_t cut_hash(const int *ops, size_t n, double m) {
    uint64_t h = 0xcbf29ce484222325ULL, mb;
    memcpy(&mb, &m, sizeof mb);
    h = (h ^ mb) * 0x100000001b3ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint32_t)ops[i]) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

static inline int cut_is(const SearchObject *s, const Cut *c, const int *ops, size_t n,
                         double m) {
    return c->n == n && c->m == m &&
           memcmp(s->cut_ops + c->ops_off, ops, n * sizeof(int)) == 0;
}

/* The pool index of the cut (ops[0..n), m), added if new; -1 on no memory. Sibling
 * evaluations find the same new cuts again (elevators: 4 of 5 pool entries and half
 * the operators were duplicates), so the pool keeps one copy. */
static long cut_intern(SearchObject *s, const int *ops, size_t n, double m) {
    if ((s->ncuts + 1) * 2 > s->cut_tab_cap) {
        size_t cap = s->cut_tab_cap ? s->cut_tab_cap * 2 : 1024;
        uint32_t *tab = malloc(cap * sizeof(uint32_t));
        if (!tab) return -1;
        memset(tab, 0xff, cap * sizeof(uint32_t));
        for (size_t i = 0; i < s->ncuts; i++) {
            const Cut *c = &s->cuts[i];
            size_t j = cut_hash(s->cut_ops + c->ops_off, c->n, c->m) & (cap - 1);
            while (tab[j] != UINT32_MAX) j = (j + 1) & (cap - 1);
            tab[j] = (uint32_t)i;
        }
        free(s->cut_tab);
        s->cut_tab = tab;
        s->cut_tab_cap = cap;
    }
    size_t mask = s->cut_tab_cap - 1;
    size_t j = cut_hash(ops, n, m) & mask;
    while (s->cut_tab[j] != UINT32_MAX) {
        if (cut_is(s, &s->cuts[s->cut_tab[j]], ops, n, m)) return (long)s->cut_tab[j];
        j = (j + 1) & mask;
    }
    /* indices and offsets are 32-bit: refuse to grow past them (the memory budget
     * stops a search long before, at 16 GB of operators) */
    if (s->ncuts >= UINT32_MAX - 1 || s->ncut_ops + n >= UINT32_MAX) return -1;
    GROW(s->cuts, s->cuts_cap, s->ncuts + 1, Cut);
    GROW(s->cut_ops, s->cut_ops_cap, s->ncut_ops + n, int);
    Cut *c = &s->cuts[s->ncuts];
    c->m = m;
    c->ops_off = (uint32_t)s->ncut_ops;
    c->n = (uint32_t)n;
    memcpy(s->cut_ops + s->ncut_ops, ops, n * sizeof(int));
    s->ncut_ops += n;
    s->cut_tab[j] = (uint32_t)s->ncuts;
    return (long)s->ncuts++;
nomem:
    return -1;
}

/* LM-cut of the state whose propositions are s->props[0..nprops) under s->wcost (left
 * holding the residual costs); new cuts are appended to the cut arena. Returns the
 * value of the new cuts (INFINITY for a relaxed dead end), -2 on no memory. Mirrors
 * heuristics/lmcut.py:lmcut_cuts. */
static double lmcut_cuts(SearchObject *s, int nprops) {
    TaskObject *t = s->t;
    int np = t->np, goal = t->rgoal;
    double *cost = s->wcost;
    int *pcf = s->pcf, *props = s->props;
    unsigned char *zone = s->zone, *reached = s->reached;
    int *stack = s->stack;
    double total = 0.0;
    for (;;) {
        if (explore(s, nprops) < 0) return -2;
        double hg = s->hv[goal];
        if (hg == INFINITY) return INFINITY;
        if (hg == 0.0) return total;
        memset(zone, 0, (size_t)np);
        zone[goal] = 1;
        int sp = 0;
        stack[sp++] = goal;
        while (sp) {
            int p = stack[--sp];
            for (int k = t->ach_start[p]; k < t->ach_start[p + 1]; k++) {
                int o = t->ach[k];
                if (cost[o] == 0.0) {
                    int q = pcf[o];
                    if (q >= 0 && !zone[q]) {
                        zone[q] = 1;
                        stack[sp++] = q;
                    }
                }
            }
        }
        memset(reached, 0, (size_t)np);
        sp = 0;
        for (int i = 0; i < nprops; i++) {
            int p = props[i];
            if (!reached[p]) {
                reached[p] = 1;
                stack[sp++] = p;
            }
        }
        int ncut = 0;
        int *cut = s->newcut;
        while (sp) {
            int p = stack[--sp];
            for (int k = t->preof_start[p]; k < t->preof_start[p + 1]; k++) {
                int o = t->preof[k];
                if (pcf[o] != p) continue;
                int crosses = 0;
                for (int a = t->radd_start[o]; a < t->radd_start[o + 1]; a++)
                    if (zone[t->radd[a]]) {
                        crosses = 1;
                        break;
                    }
                if (crosses) {
                    cut[ncut++] = o;
                    continue;
                }
                for (int a = t->radd_start[o]; a < t->radd_start[o + 1]; a++) {
                    int q = t->radd[a];
                    if (!reached[q]) {
                        reached[q] = 1;
                        stack[sp++] = q;
                    }
                }
            }
        }
        if (ncut == 0) return total; /* cannot happen while h_max(goal) > 0; guards cut[0] */
        double m = cost[cut[0]];
        for (int i = 1; i < ncut; i++)
            if (cost[cut[i]] < m) m = cost[cut[i]];
        total += m;
        long ref = cut_intern(s, cut, ncut, m);
        if (ref < 0) return -2;
        if (s->ncut_refs >= UINT32_MAX) return -2;
        GROW(s->cut_refs, s->cut_refs_cap, s->ncut_refs + 1, uint32_t);
        s->cut_refs[s->ncut_refs++] = (uint32_t)ref;
        for (int i = 0; i < ncut; i++) cost[cut[i]] -= m;
    }
nomem:
    return -2;
}

/* Whether cut c contains the operator at position pos. */
static inline int cut_has(const SearchObject *s, const Cut *c, int pos) {
    const int *ops = s->cut_ops + c->ops_off;
    for (uint32_t i = 0; i < c->n; i++)
        if (s->t->rorig[ops[i]] == pos) return 1;
    return 0;
}

/* Evaluate node id (reached from via_node by via_op, or -1): sets its cuts and
 * returns h, INFINITY for a dead end, -2 on no memory. Mirrors lmcut_astar.evaluate. */
static double evaluate(SearchObject *s, int id, int via_node, int via_op) {
    TaskObject *t = s->t;
    const word *x = state_of(s, id);
    if (is_goal(t, x)) {
        s->nodes[id].cut_off = 0;
        s->nodes[id].ncuts = 0;
        s->nodes[id].evaluated = 1;
        return 0.0;
    }
    memcpy(s->wcost, t->rcost, (size_t)t->nro * sizeof(double));
    size_t start = s->ncut_refs;
    if (via_node >= 0) {
        Node *pn = &s->nodes[via_node];
        for (uint32_t k = 0; k < pn->ncuts; k++) {
            /* pointer may move as the references grow: index afresh */
            uint32_t ref = s->cut_refs[pn->cut_off + k];
            Cut c = s->cuts[ref];
            if (cut_has(s, &c, via_op)) continue;
            if (s->ncut_refs >= UINT32_MAX) return -2;
            GROW(s->cut_refs, s->cut_refs_cap, s->ncut_refs + 1, uint32_t);
            s->cut_refs[s->ncut_refs++] = ref;
            const int *ops = s->cut_ops + c.ops_off;
            for (uint32_t i = 0; i < c.n; i++) s->wcost[ops[i]] -= c.m;
        }
    }
    int nprops = 0;
    s->props[nprops++] = t->rtrue;
    for (int i = 0; i < s->norder; i++) {
        int b = s->order[i];
        if (bit_set(x, b)) s->props[nprops++] = t->bit_prop[b];
    }
    double hv = lmcut_cuts(s, nprops);
    if (hv == -2) return -2;
    if (hv == INFINITY) {
        /* drop the references this evaluation appended (the pool got nothing: the goal
         * is relaxed-unreachable at the first exploration, before any cut) */
        s->ncut_refs = start;
        return INFINITY;
    }
    Node *nd = &s->nodes[id];
    nd->cut_off = (uint32_t)start;
    nd->ncuts = (uint32_t)(s->ncut_refs - start);
    nd->evaluated = 1;
    double sum = 0.0;
    for (size_t k = start; k < s->ncut_refs; k++) sum += s->cuts[s->cut_refs[k]].m;
    return sum;
nomem:
    return -2;
}

/* ---------------------------------------------------------------- search loops */

static int expand_check(SearchObject *s) {
    if (s->max_exp >= 0 && s->expanded >= s->max_exp) return 1;
    return s->deadline >= 0 && (s->expanded & 255) == 0 && now_seconds() > s->deadline;
}

static inline int applicable(const TaskObject *t, const word *x, int o) {
    const word *fb = t->forbid + (size_t)o * t->W;
    for (int w = 0; w < t->W; w++)
        if (x[w] & fb[w]) return 0;
    return 1;
}

static inline void apply_op(const TaskObject *t, const word *x, int o, word *out) {
    const word *kp = t->keep + (size_t)o * t->W, *ad = t->add + (size_t)o * t->W;
    for (int w = 0; w < t->W; w++) out[w] = (x[w] & kp[w]) | ad[w];
}

static inline int in_stub(const SearchObject *s, int o) {
    return !s->use_sss || (int)(s->stub[o >> 6] >> (o & 63) & 1);
}

static int queue_push(SearchObject *s, int node) {
    GROW(s->queue, s->queue_cap, s->qtail + 1, int);
    s->queue[s->qtail++] = node;
    return 0;
nomem:
    return -1;
}

/* One call: up to chunk expansions of breadth-first search (mirrors astar.bfs_steps). */
static int run_bfs(SearchObject *s, long long chunk) {
    TaskObject *t = s->t;
    word *succ = s->succ;
    for (long long done = 0; done < chunk;) {
        if (s->qhead == s->qtail) return EXHAUSTED;
        if (expand_check(s)) return LIMIT;
        if (!s->left) {
            s->left = (long long)(s->qtail - s->qhead);
            if (ivec_push(&s->layers, (int)s->left) < 0) return NOMEM;
        }
        s->left--;
        int id = s->queue[s->qhead++];
        s->expanded++;
        done++;
        if (s->expanded == s->sss_start) { /* as search/stubborn.py */
            s->use_sss = 1;
            s->napp = s->nkept = 0;
        }
        if (s->use_sss) compute_stubborn(s, state_of(s, id));
        for (int gi = 0; gi < t->ngroups; gi++) {
            int key = t->gkey[gi];
            if (key >= 0 && !bit_set(state_of(s, id), key)) continue;
            for (int o = t->gstart[gi]; o < t->gstart[gi + 1]; o++) {
                const word *x = state_of(s, id);
                if (!applicable(t, x, o)) continue;
                s->napp++;
                if (!in_stub(s, o)) continue;
                s->nkept++;
                apply_op(t, x, o, succ);
                int fresh;
                int n = lookup_or_add(s, succ, &fresh);
                if (n < 0) return NOMEM;
                if (!fresh) continue;
                s->nodes[n].parent = id;
                s->nodes[n].op = o;
                if (is_goal(t, succ)) {
                    s->goal_node = n;
                    return FOUND;
                }
                if (queue_push(s, n) < 0) return NOMEM;
            }
        }
        if (s->expanded == CHECK_AFTER && s->use_sss && !worth_it(s->napp, s->nkept))
            s->use_sss = 0;
    }
    return RUNNING;
}

/* Blind A* (mirrors astar.astar_steps with the blind heuristic, evaluated eagerly). */
static int run_blind(SearchObject *s, long long chunk) {
    TaskObject *t = s->t;
    word *succ = s->succ;
    for (long long done = 0; done < chunk;) {
        if (!s->nheap) return EXHAUSTED;
        Entry e = heap_pop(s);
        int id = e.node;
        if (e.g > s->nodes[id].g) continue;
        if (is_goal(t, state_of(s, id))) {
            s->goal_node = id;
            s->result_cost = e.g;
            return FOUND;
        }
        if (expand_check(s)) return LIMIT;
        s->expanded++;
        done++;
        if (s->expanded == s->sss_start) { /* as search/stubborn.py */
            s->use_sss = 1;
            s->napp = s->nkept = 0;
        }
        if (s->use_sss) compute_stubborn(s, state_of(s, id));
        double g = e.g;
        for (int gi = 0; gi < t->ngroups; gi++) {
            int key = t->gkey[gi];
            if (key >= 0 && !bit_set(state_of(s, id), key)) continue;
            for (int o = t->gstart[gi]; o < t->gstart[gi + 1]; o++) {
                const word *x = state_of(s, id);
                if (!applicable(t, x, o)) continue;
                s->napp++;
                if (!in_stub(s, o)) continue;
                s->nkept++;
                apply_op(t, x, o, succ);
                double ng = g + t->cost[o];
                int fresh;
                int n = lookup_or_add(s, succ, &fresh);
                if (n < 0) return NOMEM;
                Node *nd = &s->nodes[n];
                if (!fresh && nd->g <= ng) continue;
                nd->g = ng;
                nd->parent = id;
                nd->op = o;
                s->generated++;
                s->seq--;
                if (!nd->hknown) {
                    nd->h = is_goal(t, succ) ? 0.0 : t->step;
                    nd->hknown = 1;
                }
                Entry ne = {ng + nd->h, nd->h, s->seq, ng, n, 1};
                if (heap_push(s, ne) < 0) return NOMEM;
            }
        }
        if (s->expanded == CHECK_AFTER && s->use_sss && !worth_it(s->napp, s->nkept))
            s->use_sss = 0;
    }
    return RUNNING;
}

/* LM-cut A* (mirrors lmcut_astar.lmcut_steps). */
static int run_lmcut(SearchObject *s, long long chunk) {
    TaskObject *t = s->t;
    word *succ = s->succ;
    double *drop = s->drop;
    for (long long done = 0; done < chunk;) {
        if (!s->nheap) return EXHAUSTED;
        Entry e = heap_pop(s);
        int id = e.node;
        double g = e.g, hs = e.h;
        if (g > s->nodes[id].g) continue;
        s->fbound = e.f;
        if (!e.ev) {
            Node *nd = &s->nodes[id];
            double hv;
            if (!nd->hknown) {
                hv = evaluate(s, id, nd->parent, nd->op);
                if (hv == -2) return NOMEM;
                nd = &s->nodes[id];
                if (hv < hs) hv = hs;
                nd->h = hv;
                nd->hknown = 1;
            } else {
                hv = nd->h;
            }
            if (hv == INFINITY) continue;
            if (g + hv > e.f) {
                Entry ne = {g + hv, hv, e.seq, g, id, 1};
                if (heap_push(s, ne) < 0) return NOMEM;
                continue;
            }
            hs = hv;
        }
        if (is_goal(t, state_of(s, id))) {
            s->goal_node = id;
            s->result_cost = g;
            return FOUND;
        }
        if (expand_check(s)) return LIMIT;
        s->expanded++;
        done++;
        Node *cur = &s->nodes[id];
        double hsum = 0.0;
        /* drop[pos]: cost shares of the cuts containing pos (touched ones reset below) */
        for (uint32_t k = 0; k < cur->ncuts; k++) {
            const Cut *c = &s->cuts[s->cut_refs[cur->cut_off + k]];
            hsum += c->m;
            const int *ops = s->cut_ops + c->ops_off;
            for (uint32_t i = 0; i < c->n; i++) {
                int pos = t->rorig[ops[i]];
                if (pos >= 0) drop[pos] += c->m;
            }
        }
        uint32_t cut_off = cur->cut_off, ncuts = cur->ncuts;
        if (s->expanded == s->sss_start) { /* as search/stubborn.py */
            s->use_sss = 1;
            s->napp = s->nkept = 0;
        }
        if (s->use_sss) compute_stubborn(s, state_of(s, id));
        for (int gi = 0; gi < t->ngroups; gi++) {
            int key = t->gkey[gi];
            if (key >= 0 && !bit_set(state_of(s, id), key)) continue;
            for (int o = t->gstart[gi]; o < t->gstart[gi + 1]; o++) {
                const word *x = state_of(s, id);
                if (!applicable(t, x, o)) continue;
                s->napp++;
                if (!in_stub(s, o)) continue;
                s->nkept++;
                apply_op(t, x, o, succ);
                double c = t->cost[o];
                double ng = g + c;
                int fresh;
                int n = lookup_or_add(s, succ, &fresh);
                if (n < 0) return NOMEM;
                Node *nd = &s->nodes[n];
                if (!fresh && nd->g <= ng) continue;
                nd->g = ng;
                nd->parent = id;
                nd->op = o;
                s->generated++;
                s->seq--;
                double lb = hsum - drop[o];
                if (hs - c > lb) lb = hs - c;
                if (lb < 0.0) lb = 0.0;
                if (!nd->hknown) {
                    Entry ne = {ng + lb, lb, s->seq, ng, n, 0};
                    if (heap_push(s, ne) < 0) return NOMEM;
                    continue;
                }
                double ht = nd->h;
                if (ht == INFINITY) continue;
                if (lb > ht) ht = nd->h = lb;
                Entry ne = {ng + ht, ht, s->seq, ng, n, 1};
                if (heap_push(s, ne) < 0) return NOMEM;
            }
        }
        for (uint32_t k = 0; k < ncuts; k++) {
            const Cut *c = &s->cuts[s->cut_refs[cut_off + k]];
            const int *ops = s->cut_ops + c->ops_off;
            for (uint32_t i = 0; i < c->n; i++) {
                int pos = t->rorig[ops[i]];
                if (pos >= 0) drop[pos] = 0.0;
            }
        }
        if (s->expanded == CHECK_AFTER && s->use_sss && !worth_it(s->napp, s->nkept))
            s->use_sss = 0;
    }
    return RUNNING;
}

/* ---------------------------------------------------------------- greedy search */

static inline int gless(const GEntry *a, const GEntry *b) {
    return a->h < b->h || (a->h == b->h && a->seq < b->seq);
}

static int gheap_push(GHeap *q, GEntry e) {
    GROW(q->a, q->cap, q->n + 1, GEntry);
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!gless(&e, &q->a[p])) break;
        q->a[i] = q->a[p];
        i = p;
    }
    q->a[i] = e;
    return 0;
nomem:
    return -1;
}

static GEntry gheap_pop(GHeap *q) {
    GEntry top = q->a[0];
    GEntry last = q->a[--q->n];
    size_t n = q->n, i = 0;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n) break;
        size_t c = l;
        if (l + 1 < n && gless(&q->a[l + 1], &q->a[l])) c = l + 1;
        if (!gless(&q->a[c], &last)) break;
        q->a[i] = q->a[c];
        i = c;
    }
    if (n) q->a[i] = last;
    return top;
}

/* h_add of every proposition up to the goal (s->hv) with best supporters (s->sup), from
 * the propositions true in x. Mirrors heuristics/additive.py:hadd_values: propositions
 * leave the heap in (cost, index) order (all keys differ: a proposition is pushed again
 * only at a strictly lower cost), so any correct heap pops them in heapq's order.
 * Returns -1 on no memory. */
static int hadd_explore(SearchObject *s, const word *x) {
    TaskObject *t = s->t;
    int np = t->np, nro = t->nro, goal = t->rgoal;
    double *hv = s->hv, *acc = s->acc, *cost = t->rcost;
    int *sup = s->sup, *remaining = s->remaining;
    for (int p = 0; p < np; p++) {
        hv[p] = INFINITY;
        sup[p] = -1;
    }
    for (int o = 0; o < nro; o++) {
        remaining[o] = t->npre[o];
        acc[o] = 0.0;
    }
    s->npheap = 0;
    hv[t->rtrue] = 0.0;
    if (pheap_push(s, 0.0, t->rtrue, t->rtrue) < 0) return -1;
    for (int i = 0; i < s->norder; i++) {
        int b = s->order[i];
        int p = t->bit_prop[b];
        if (bit_set(x, b) && hv[p] != 0.0) {
            hv[p] = 0.0;
            if (pheap_push(s, 0.0, p, p) < 0) return -1;
        }
    }
    while (s->npheap) {
        PEntry e = pheap_pop(s);
        int p = e.p;
        double c = e.c;
        if (c > hv[p]) continue;
        if (p == goal) break;
        for (int k = t->preof_start[p]; k < t->preof_start[p + 1]; k++) {
            int o = t->preof[k];
            int r = --remaining[o];
            double sum = acc[o] + c;
            acc[o] = sum;
            if (r == 0) {
                double nc = sum + cost[o];
                for (int a = t->radd_start[o]; a < t->radd_start[o + 1]; a++) {
                    int q = t->radd[a];
                    if (nc < hv[q]) {
                        hv[q] = nc;
                        sup[q] = o;
                        if (pheap_push(s, nc, q, q) < 0) return -1;
                    }
                }
            }
        }
    }
    return 0;
}

/* h_FF (or h_add) of state x, INFINITY for a relaxed dead end, -2 on no memory. For
 * h_FF, marks the preferred operators (those of the relaxed plan applicable in x) in
 * s->pref, listed in s->pref_list. Mirrors additive.py:hff's with_preferred: the same
 * depth-first walk from the goal, so the same float sum in the same order. */
static double greedy_eval(SearchObject *s, const word *x) {
    TaskObject *t = s->t;
    for (int i = 0; i < s->npref; i++) s->pref[s->pref_list[i]] = 0;
    s->npref = 0;
    if (is_goal(t, x)) return 0.0;
    if (hadd_explore(s, x) < 0) return -2;
    int goal = t->rgoal;
    if (s->hv[goal] == INFINITY) return INFINITY;
    if (s->kind == GREEDY_ADD) return s->hv[goal];
    unsigned char *seen = s->seen, *used = s->used;
    memset(seen, 0, (size_t)t->np);
    memset(used, 0, (size_t)t->nro);
    seen[t->rtrue] = 1;
    for (int i = 0; i < s->norder; i++) {
        int b = s->order[i];
        if (bit_set(x, b)) seen[t->bit_prop[b]] = 1;
    }
    /* each operator pushes its preconditions at most once (used), so the stack never
     * holds more than 1 + all preconditions: ffstack_cap */
    int *stack = s->ffstack;
    size_t sp = 0;
    stack[sp++] = goal;
    double total = 0.0;
    while (sp) {
        int p = stack[--sp];
        if (seen[p]) continue;
        seen[p] = 1;
        int o = s->sup[p];
        if (o < 0 || used[o]) continue; /* o < 0 cannot happen (p was reached): no UB */
        used[o] = 1;
        total += t->rcost[o];
        for (int k = t->rpre_start[o]; k < t->rpre_start[o + 1]; k++) {
            if (sp >= s->ffstack_cap) return -2; /* unreachable by the bound above */
            stack[sp++] = t->rpre[k];
        }
        int pos = t->rorig[o];
        if (pos >= 0 && !s->pref[pos] && applicable(t, x, pos)) {
            s->pref[pos] = 1;
            s->pref_list[s->npref++] = pos;
        }
    }
    return total;
}

#define BOOST 1000 /* search/greedy.py: the preferred list's head start on progress */

/* Up to chunk evaluations of lazy greedy best-first search (mirrors greedy.greedy). */
static int run_greedy(SearchObject *s, long long chunk) {
    TaskObject *t = s->t;
    word *succ = s->succ;
    GHeap *all = &s->gopen[0], *prf = &s->gopen[1];
    for (long long done = 0; done < chunk;) {
        if (!all->n && !prf->n) return EXHAUSTED;
        int which = prf->n && (!all->n || s->prio[1] <= s->prio[0]);
        GEntry e = gheap_pop(which ? prf : all);
        int id = e.node;
        if (s->nodes[id].evaluated) continue; /* closed */
        s->prio[which]++;
        s->nodes[id].evaluated = 1;
        if (e.op >= 0) {
            s->nodes[id].parent = e.parent;
            s->nodes[id].op = e.op;
        }
        if (expand_check(s)) return LIMIT;
        double hs = greedy_eval(s, state_of(s, id));
        done++;
        if (hs == -2) return NOMEM;
        if (hs == INFINITY) continue;
        s->expanded++;
        if (hs < s->best) {
            s->best = hs;
            s->prio[1] -= BOOST;
        }
        for (int gi = 0; gi < t->ngroups; gi++) {
            int key = t->gkey[gi];
            if (key >= 0 && !bit_set(state_of(s, id), key)) continue;
            for (int o = t->gstart[gi]; o < t->gstart[gi + 1]; o++) {
                const word *x = state_of(s, id); /* the arena may move: index afresh */
                if (!applicable(t, x, o)) continue;
                apply_op(t, x, o, succ);
                int fresh;
                int n = lookup_or_add(s, succ, &fresh);
                if (n < 0) return NOMEM;
                if (s->nodes[n].evaluated) continue;
                s->generated++;
                if (is_goal(t, succ)) {
                    s->nodes[n].parent = id;
                    s->nodes[n].op = o;
                    s->goal_node = n;
                    return FOUND;
                }
                s->seq++;
                GEntry ne = {hs, s->seq, n, id, o};
                if (gheap_push(all, ne) < 0) return NOMEM;
                if (s->pref[o] && gheap_push(prf, ne) < 0) return NOMEM;
            }
        }
    }
    return RUNNING;
}

static int greedy_init(SearchObject *s, int id) {
    TaskObject *t = s->t;
    s->acc = malloc(((size_t)t->nro + 1) * sizeof(double));
    s->sup = malloc(((size_t)t->np + 1) * sizeof(int));
    s->ffstack_cap = (size_t)t->rpre_start[t->nro] + 1;
    s->ffstack = malloc(s->ffstack_cap * sizeof(int));
    s->pref_list = malloc(((size_t)t->nops + 1) * sizeof(int));
    s->seen = malloc((size_t)t->np + 1);
    s->used = malloc((size_t)t->nro + 1);
    s->pref = calloc((size_t)t->nops + 1, 1);
    if (!s->acc || !s->sup || !s->ffstack || !s->pref_list || !s->seen || !s->used || !s->pref)
        return -1;
    s->best = INFINITY;
    GEntry e = {0.0, 0, id, id, -1};
    return gheap_push(&s->gopen[0], e);
}

static int search_init(SearchObject *s, PyObject *args, PyObject *kw) {
    (void)kw;
    TaskObject *t;
    int kind;
    long long sss_start;
    PyObject *init, *order;
    long long max_exp;
    double deadline;
    if (!PyArg_ParseTuple(args, "O!iOLdLO", &TaskType, &t, &kind, &init, &max_exp, &deadline,
                          &sss_start, &order))
        return -1;
    if (kind < BFS || kind > GREEDY_ADD) {
        PyErr_SetString(PyExc_ValueError, "unknown search kind");
        return -1;
    }
    Py_INCREF(t);
    s->t = t;
    s->kind = kind;
    s->sss_start = sss_start;
    s->use_sss = 0;
    s->max_exp = max_exp;
    s->deadline = deadline;
    s->goal_node = -1;
    int W = t->W;
    Py_ssize_t olen = blen(order);
    if (olen < 0) return -1;
    s->norder = (int)(olen / (Py_ssize_t)sizeof(int));
    s->order = take(order, (size_t)s->norder * sizeof(int), "order");
    if (!s->order) return -1;
    for (int i = 0; i < s->norder; i++)
        if (s->order[i] < 0 || s->order[i] >= t->nbits || t->bit_prop[s->order[i]] < 0) {
            PyErr_SetString(PyExc_ValueError, "order: not a proposition bit");
            return -1;
        }
    word *x = take(init, (size_t)W * sizeof(word), "init");
    if (!x) return -1;
    s->succ = calloc((size_t)W + 1, sizeof(word));
    s->stub = calloc((size_t)t->NW + 1, sizeof(word));
    s->todo = calloc((size_t)t->NW + 1, sizeof(word));
    s->drop = calloc((size_t)t->nops + 1, sizeof(double));
    int greedy = kind == GREEDY_FF || kind == GREEDY_ADD;
    if (kind == LMCUT || greedy) {
        s->hv = malloc(((size_t)t->np + 1) * sizeof(double));
        s->val = malloc(((size_t)t->nro + 1) * sizeof(double));
        s->wcost = malloc(((size_t)t->nro + 1) * sizeof(double));
        s->pcf = malloc(((size_t)t->nro + 1) * sizeof(int));
        s->remaining = malloc(((size_t)t->nro + 1) * sizeof(int));
        /* a proposition enters the DFS stack at most once per pass */
        s->stack = malloc(((size_t)t->np + 1) * sizeof(int));
        s->props = malloc(((size_t)t->nbits + 2) * sizeof(int));
        s->zone = malloc((size_t)t->np + 1);
        s->reached = malloc((size_t)t->np + 1);
        s->newcut = malloc(((size_t)t->nro + 1) * sizeof(int));
    }
    if (!s->succ || !s->stub || !s->todo || !s->drop ||
        ((kind == LMCUT || greedy) && (!s->hv || !s->val || !s->wcost || !s->pcf || !s->remaining ||
                           !s->stack || !s->props || !s->zone || !s->reached || !s->newcut))) {
        free(x);
        PyErr_NoMemory();
        return -1;
    }
    int fresh;
    int id = lookup_or_add(s, x, &fresh);
    free(x);
    if (id < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->nodes[id].g = 0.0;
    if (greedy) {
        if (greedy_init(s, id) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        return 0;
    }
    if (kind == BFS) {
        s->left = 1;
        if (queue_push(s, id) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        return 0;
    }
    double h0;
    if (kind == BLIND) {
        h0 = is_goal(t, state_of(s, id)) ? 0.0 : t->step;
    } else {
        h0 = evaluate(s, id, -1, -1);
        if (h0 == -2) {
            PyErr_NoMemory();
            return -1;
        }
    }
    s->h0 = h0;
    s->nodes[id].h = h0;
    s->nodes[id].hknown = 1;
    if (h0 == INFINITY) {
        s->status = EXHAUSTED;
        return 0;
    }
    Entry e = {h0, h0, 0, 0.0, id, 1};
    if (heap_push(s, e) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* run(chunk) -> None while running, else (status, plan, cost, expanded, generated)
 * with status "found", "exhausted" or "limit"; plan lists task operator indices. */
static PyObject *search_run(SearchObject *s, PyObject *arg) {
    long long chunk = PyLong_AsLongLong(arg);
    if (chunk == -1 && PyErr_Occurred()) return NULL;
    if (s->status == RUNNING) {
        int st;
        Py_BEGIN_ALLOW_THREADS
        if (s->kind == BFS)
            st = run_bfs(s, chunk);
        else if (s->kind == BLIND)
            st = run_blind(s, chunk);
        else if (s->kind == GREEDY_FF || s->kind == GREEDY_ADD)
            st = run_greedy(s, chunk);
        else
            st = run_lmcut(s, chunk);
        Py_END_ALLOW_THREADS
        s->status = st;
    }
    if (s->status == RUNNING) Py_RETURN_NONE;
    if (s->status == NOMEM) return PyErr_NoMemory();
    long long generated = s->kind == BFS ? (long long)s->nnodes - 1 : s->generated;
    PyObject *plan;
    double cost = INFINITY;
    if (s->status == FOUND) {
        int len = 0;
        for (int n = s->goal_node; s->nodes[n].parent >= 0; n = s->nodes[n].parent) len++;
        plan = PyList_New(len);
        if (!plan) return NULL;
        int i = len;
        cost = 0.0;
        for (int n = s->goal_node; s->nodes[n].parent >= 0; n = s->nodes[n].parent) {
            int o = s->nodes[n].op;
            PyObject *v = PyLong_FromLong(s->t->index[o]);
            if (!v) {
                Py_DECREF(plan);
                return NULL;
            }
            PyList_SET_ITEM(plan, --i, v);
        }
        /* breadth-first and greedy search: the Python side sums the plan's costs in
         * plan order */
        cost = s->kind == BFS || s->kind >= GREEDY_FF ? 0.0 : s->result_cost;
    } else {
        plan = Py_None;
        Py_INCREF(plan);
    }
    const char *status = s->status == FOUND ? "found" : s->status == EXHAUSTED ? "exhausted" : "limit";
    return Py_BuildValue("(sNdLL)", status, plan, cost, s->expanded, generated);
}

static PyObject *search_layers(SearchObject *s, PyObject *unused) {
    (void)unused;
    PyObject *out = PyList_New((Py_ssize_t)s->layers.n);
    if (!out) return NULL;
    for (size_t i = 0; i < s->layers.n; i++) {
        PyObject *v = PyLong_FromLong(s->layers.a[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, v);
    }
    return out;
}

static PyObject *search_fbound(SearchObject *s, void *closure) {
    (void)closure;
    return PyFloat_FromDouble(s->fbound);
}

static PyObject *search_h0(SearchObject *s, void *closure) {
    (void)closure;
    return PyFloat_FromDouble(s->h0);
}

static PyObject *search_nlayers(SearchObject *s, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(s->layers.n);
}

/* stats() -> (nodes, cuts in the pool, cut references, cut operator entries, open
 * entries, evaluated nodes):
 * what the search holds, for memory measurements. */
static PyObject *search_stats(SearchObject *s, PyObject *unused) {
    (void)unused;
    long long ev = 0;
    for (size_t i = 0; i < s->nnodes; i++) ev += s->nodes[i].evaluated;
    return Py_BuildValue("(nnnnnL)", (Py_ssize_t)s->nnodes, (Py_ssize_t)s->ncuts,
                         (Py_ssize_t)s->ncut_refs, (Py_ssize_t)s->ncut_ops,
                         (Py_ssize_t)(s->nheap + s->gopen[0].n + s->gopen[1].n), ev);
}

static PyMethodDef search_methods[] = {
    {"stats", (PyCFunction)search_stats, METH_NOARGS, "What the search holds (counts)."},
    {"run", (PyCFunction)search_run, METH_O, "Run up to N expansions."},
    {"layers", (PyCFunction)search_layers, METH_NOARGS, "Sizes of the finished BFS layers."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef search_getset[] = {
    {"fbound", (getter)search_fbound, NULL, "f of the last state popped", NULL},
    {"nlayers", (getter)search_nlayers, NULL, "number of BFS layers begun", NULL},
    {"h0", (getter)search_h0, NULL, "heuristic value of the initial state", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "goalkeeper.planning._core.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One compiled search, run in chunks (see search/core.py).",
    .tp_methods = search_methods,
    .tp_getset = search_getset,
    .tp_init = (initproc)search_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled optimal searches (optional).", -1, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&TaskType) < 0 || PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&TaskType);
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Task", (PyObject *)&TaskType) < 0 ||
        PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
