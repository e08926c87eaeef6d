/* Python bindings of the native move generator: tablero.engine.movegen._native.
 *
 * Three types, all thin: Generator (rules + word graph, and the generation calls), Board (a
 * tb_board tied to its Generator) and LeaveTable (tb_leaves).  Moves cross into Python as
 * packed records (MOVE_FORMAT below); the typed wrapper is tablero/engine/native.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

/* One move as bytes: struct format "<6B2xid32s" (dir, line, start, len, ntiles, shuffle,
 * score, equity, tiles). */
#define RECORD_SIZE 52

typedef struct {
    PyObject_HEAD
    tb_rules rules;
    tb_kwg kwg;
    uint32_t *nodes;
    tb_game_rules game;
    int has_game;
    tb_wordmap *wordmap; /* built on request (use_wordmap), attached to kwg while in use */
} GeneratorObject;

typedef struct {
    PyObject_HEAD
    GeneratorObject *gen;
    tb_board board;
} BoardObject;

typedef struct {
    PyObject_HEAD
    tb_leaves *leaves;
    Py_ssize_t size;
} LeaveTableObject;

static PyTypeObject GeneratorType;
static PyTypeObject BoardType;
static PyTypeObject LeaveTableType;

/* -- helpers ------------------------------------------------------------------------------- */

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t want, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
        return -1;
    if (want >= 0 && view->len != want) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", what, want, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int read_rack(PyObject *obj, tb_rack *rack)
{
    Py_buffer view;
    if (get_buffer(obj, &view, TB_MAX_CODE + 1, "rack counts") < 0)
        return -1;
    const uint8_t *c = view.buf;
    rack->total = 0;
    for (int i = 0; i <= TB_MAX_CODE; i++) {
        rack->count[i] = c[i];
        rack->total += c[i];
    }
    PyBuffer_Release(&view);
    if (rack->total > TB_MAX_RACK) {
        PyErr_Format(PyExc_ValueError, "a rack of %d tiles: at most %d", rack->total, TB_MAX_RACK);
        return -1;
    }
    return 0;
}

static BoardObject *check_board(GeneratorObject *self, PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &BoardType)) {
        PyErr_SetString(PyExc_TypeError, "expected a native Board");
        return NULL;
    }
    BoardObject *b = (BoardObject *)obj;
    if (b->gen != self) {
        PyErr_SetString(PyExc_ValueError, "this Board belongs to another Generator");
        return NULL;
    }
    return b;
}

static void pack_move(char *out, const tb_move *m)
{
    out[0] = (char)m->dir;
    out[1] = (char)m->line;
    out[2] = (char)m->start;
    out[3] = (char)m->len;
    out[4] = (char)m->ntiles;
    out[5] = (char)m->shuffle;
    out[6] = out[7] = 0;
    int32_t score = m->score;
    memcpy(out + 8, &score, 4);
    double eq = m->equity;
    memcpy(out + 12, &eq, 8);
    memcpy(out + 20, m->tiles, TB_MAX_DIM);
}

static PyObject *pack_moves(const tb_move *moves, size_t n)
{
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * RECORD_SIZE));
    if (!bytes)
        return NULL;
    char *p = PyBytes_AS_STRING(bytes);
    for (size_t i = 0; i < n; i++)
        pack_move(p + i * RECORD_SIZE, &moves[i]);
    return bytes;
}

/* -- Generator ----------------------------------------------------------------------------- */

static void Generator_dealloc(GeneratorObject *self)
{
    tb_kwg_free(&self->kwg);
    tb_wordmap_free(self->wordmap);
    free(self->nodes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int fill_square_array(int16_t dst[2][TB_MAX_DIM][TB_MAX_DIM], const Py_buffer *src,
                             int rows, int cols)
{
    const int16_t *v = src->buf;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int16_t x;
            memcpy(&x, v + r * cols + c, sizeof x);
            dst[0][r][c] = x;
            dst[1][c][r] = x;
        }
    return 0;
}

static int Generator_init(GeneratorObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"nodes",    "rows",      "cols",         "letters",   "values",
                             "lf",       "wmid",      "wend",         "add",       "ex",
                             "start",    "rack_size", "bingo_bonus",  "first_letter",
                             "min_tiles", "first_mult", "first_bonus", NULL};
    PyObject *nodes_o, *values_o, *lf_o, *wmid_o, *wend_o, *add_o, *ex_o, *start_o;
    int rows, cols, rack_size, bingo, first_letter, min_tiles, first_mult, first_bonus;
    unsigned long long letters;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiiKOOOOOOOiiiiii", kwlist, &nodes_o, &rows,
                                     &cols, &letters, &values_o, &lf_o, &wmid_o, &wend_o, &add_o,
                                     &ex_o, &start_o, &rack_size, &bingo, &first_letter,
                                     &min_tiles, &first_mult, &first_bonus))
        return -1;
    if (self->nodes) {
        PyErr_SetString(PyExc_RuntimeError, "a Generator is initialised once");
        return -1;
    }
    if (rows < 1 || cols < 1 || rows > TB_MAX_DIM || cols > TB_MAX_DIM) {
        PyErr_Format(PyExc_ValueError, "board %dx%d: the native generator handles 1..%d a side",
                     rows, cols, TB_MAX_DIM);
        return -1;
    }
    if ((letters & 1ULL) || letters >> (TB_MAX_CODE + 1)) {
        PyErr_SetString(PyExc_ValueError, "letters: codes 1..31 only");
        return -1;
    }
    Py_ssize_t sq = (Py_ssize_t)rows * cols;
    Py_buffer nodes, values, lf, wmid, wend, add, ex, start;
    if (get_buffer(nodes_o, &nodes, -1, "nodes") < 0)
        return -1;
    if (nodes.len % 4 || nodes.len < 8) {
        PyBuffer_Release(&nodes);
        PyErr_SetString(PyExc_ValueError, "nodes: not a whole number of 32-bit nodes");
        return -1;
    }
    int ok = 0;
    if (get_buffer(values_o, &values, 2 * (TB_MAX_CODE + 1), "values") == 0) {
        if (get_buffer(lf_o, &lf, 2 * sq, "lf") == 0) {
            if (get_buffer(wmid_o, &wmid, 2 * sq, "wmid") == 0) {
                if (get_buffer(wend_o, &wend, 2 * sq, "wend") == 0) {
                    if (get_buffer(add_o, &add, 2 * sq, "add") == 0) {
                        if (get_buffer(ex_o, &ex, sq, "ex") == 0) {
                            if (get_buffer(start_o, &start, sq, "start") == 0) {
                                ok = 1;
                                tb_rules *r = &self->rules;
                                memset(r, 0, sizeof *r);
                                r->rows = rows;
                                r->cols = cols;
                                r->rack_size = rack_size;
                                r->bingo_bonus = bingo;
                                r->first_letter = first_letter;
                                r->min_tiles = min_tiles;
                                r->first_mult = first_mult;
                                r->first_bonus = first_bonus;
                                r->letters = (tb_mask)letters;
                                const int16_t *vv = values.buf;
                                for (int c = 1; c <= TB_MAX_CODE; c++) {
                                    int16_t x;
                                    memcpy(&x, vv + c, sizeof x);
                                    r->value[c] = x;
                                }
                                fill_square_array(r->lf, &lf, rows, cols);
                                fill_square_array(r->wmid, &wmid, rows, cols);
                                fill_square_array(r->wend, &wend, rows, cols);
                                fill_square_array(r->add, &add, rows, cols);
                                const uint8_t *exb = ex.buf, *stb = start.buf;
                                for (int y = 0; y < rows; y++)
                                    for (int x = 0; x < cols; x++) {
                                        r->ex[0][y][x] = r->ex[1][x][y] = exb[y * cols + x] != 0;
                                        r->start[0][y][x] = r->start[1][x][y] =
                                            stb[y * cols + x] != 0;
                                    }
                                PyBuffer_Release(&start);
                            }
                            PyBuffer_Release(&ex);
                        }
                        PyBuffer_Release(&add);
                    }
                    PyBuffer_Release(&wend);
                }
                PyBuffer_Release(&wmid);
            }
            PyBuffer_Release(&lf);
        }
        PyBuffer_Release(&values);
    }
    if (!ok) {
        PyBuffer_Release(&nodes);
        return -1;
    }
    uint32_t n = (uint32_t)(nodes.len / 4);
    self->nodes = malloc(nodes.len);
    if (!self->nodes) {
        PyBuffer_Release(&nodes);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(self->nodes, nodes.buf, nodes.len);
    PyBuffer_Release(&nodes);
    /* Memory safety: every arc must stay inside the array and the last node must end its
     * list, so no walk can read past the end (Kwg.from_bytes checks the same). */
    for (uint32_t i = 0; i < n; i++) {
        if ((self->nodes[i] & 0x003FFFFFu) >= n) {
            PyErr_Format(PyExc_ValueError, "nodes: node %u points past the end", i);
            return -1;
        }
    }
    if (!(self->nodes[n - 1] & 0x00400000u)) {
        PyErr_SetString(PyExc_ValueError, "nodes: the last node does not end its list");
        return -1;
    }
    int rc = tb_kwg_init(&self->kwg, self->nodes, n);
    if (rc == -1) {
        PyErr_NoMemory();
        return -1;
    }
    if (rc == -2) {
        PyErr_SetString(PyExc_ValueError,
                        "nodes: a sibling list is not sorted by tile (the native generator needs "
                        "sorted lists, as every known KWG writer makes them)");
        return -1;
    }
    if (rc < 0) {
        PyErr_SetString(PyExc_ValueError, "nodes: the KWG has no GADDAG");
        return -1;
    }
    return 0;
}

static PyObject *Generator_new_board(GeneratorObject *self, PyObject *Py_UNUSED(ignored))
{
    BoardObject *b = PyObject_New(BoardObject, &BoardType);
    if (!b)
        return NULL;
    Py_INCREF(self);
    b->gen = self;
    tb_board_init(&b->board, &self->rules);
    return (PyObject *)b;
}

static PyObject *Generator_count(GeneratorObject *self, PyObject *args)
{
    PyObject *board_o, *rack_o;
    int first_turn;
    if (!PyArg_ParseTuple(args, "OOp", &board_o, &rack_o, &first_turn))
        return NULL;
    BoardObject *b = check_board(self, board_o);
    tb_rack rack;
    if (!b || read_rack(rack_o, &rack) < 0)
        return NULL;
    int64_t sum = 0;
    uint64_t n = tb_count_moves(&self->rules, &self->kwg, &b->board, &rack, first_turn, &sum);
    return Py_BuildValue("KL", (unsigned long long)n, (long long)sum);
}

static PyObject *Generator_generate(GeneratorObject *self, PyObject *args)
{
    PyObject *board_o, *rack_o;
    int first_turn;
    if (!PyArg_ParseTuple(args, "OOp", &board_o, &rack_o, &first_turn))
        return NULL;
    BoardObject *b = check_board(self, board_o);
    tb_rack rack;
    if (!b || read_rack(rack_o, &rack) < 0)
        return NULL;
    tb_movelist list = {NULL, 0, 0};
    if (tb_generate_all(&self->rules, &self->kwg, &b->board, &rack, first_turn, &list) < 0) {
        tb_movelist_free(&list);
        return PyErr_NoMemory();
    }
    PyObject *out = pack_moves(list.moves, list.n);
    tb_movelist_free(&list);
    return out;
}

static PyObject *Generator_best(GeneratorObject *self, PyObject *args)
{
    PyObject *board_o, *rack_o, *leaves_o;
    int first_turn, n, exhaustive = 0;
    if (!PyArg_ParseTuple(args, "OOpiO|p", &board_o, &rack_o, &first_turn, &n, &leaves_o,
                          &exhaustive))
        return NULL;
    BoardObject *b = check_board(self, board_o);
    tb_rack rack;
    if (!b || read_rack(rack_o, &rack) < 0)
        return NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "n must be at least 1");
        return NULL;
    }
    const tb_leaves *leaves = NULL;
    if (leaves_o != Py_None) {
        if (!PyObject_TypeCheck(leaves_o, &LeaveTableType)) {
            PyErr_SetString(PyExc_TypeError, "leaves must be a LeaveTable or None");
            return NULL;
        }
        leaves = ((LeaveTableObject *)leaves_o)->leaves;
    }
    tb_move *moves = malloc((size_t)n * sizeof *moves);
    if (!moves)
        return PyErr_NoMemory();
    int found = exhaustive ? tb_best_moves_exhaustive(&self->rules, &self->kwg, &b->board, &rack,
                                                      first_turn, leaves, n, moves)
                           : tb_best_moves(&self->rules, &self->kwg, &b->board, &rack,
                                           first_turn, leaves, n, moves);
    if (found < 0) {
        free(moves);
        return PyErr_NoMemory();
    }
    PyObject *out = pack_moves(moves, (size_t)found);
    free(moves);
    return out;
}

static PyObject *Generator_set_game(GeneratorObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tiles",
                             "blank_value",
                             "counterclockwise",
                             "exchange_allowed",
                             "exchange_min_bag",
                             "exchange_max_tiles",
                             "exchange_per_game",
                             "exchange_only_when_blocked",
                             "ex_min_bag",
                             "going_out",
                             "no_one_can_play",
                             "scoreless_rounds",
                             "scoreless_passes",
                             "scoreless_exchanges",
                             "subtract_own_rack",
                             "going_out_gains_others",
                             "unplayed_blank_penalty",
                             NULL};
    tb_game_rules g;
    memset(&g, 0, sizeof g);
    Py_buffer tiles;
    if (!PyArg_ParseTupleAndKeywords(
            args, kwds, "y*iiiiiiiiiiiiiiii", kwlist, &tiles, &g.blank_value, &g.counterclockwise,
            &g.exchange_allowed, &g.exchange_min_bag, &g.exchange_max_tiles, &g.exchange_per_game,
            &g.exchange_only_when_blocked, &g.ex_min_bag, &g.going_out, &g.no_one_can_play,
            &g.scoreless_rounds, &g.scoreless_passes, &g.scoreless_exchanges, &g.subtract_own_rack,
            &g.going_out_gains_others, &g.unplayed_blank_penalty))
        return NULL;
    int total = 0;
    const uint8_t *t = tiles.buf;
    if (tiles.len == TB_MAX_CODE + 1)
        for (int c = 0; c <= TB_MAX_CODE; c++) {
            if (c && t[c] && !((self->rules.letters >> c) & 1))
                total = TB_MAX_BAG + 1;
            g.tiles[c] = t[c];
            total += t[c];
        }
    Py_ssize_t len = tiles.len;
    PyBuffer_Release(&tiles);
    if (len != TB_MAX_CODE + 1 || total > TB_MAX_BAG) {
        PyErr_Format(PyExc_ValueError,
                     "tiles: %d counts by code for the game's letters, %d tiles at most",
                     TB_MAX_CODE + 1, TB_MAX_BAG);
        return NULL;
    }
    self->game = g;
    self->has_game = 1;
    Py_RETURN_NONE;
}

static PyObject *result_tuple(const tb_game_result *r)
{
    PyObject *lists[8];
    const int *src[8] = {r->score, r->before,    r->moves,    r->bingos,
                         r->exchanges, r->passes, r->shuffles, r->rack_left};
    for (int i = 0; i < 8; i++) {
        lists[i] = PyTuple_New(r->n_players);
        if (!lists[i]) {
            for (int j = 0; j < i; j++)
                Py_DECREF(lists[j]);
            return NULL;
        }
        for (int s = 0; s < r->n_players; s++)
            PyTuple_SET_ITEM(lists[i], s, PyLong_FromLong(src[i][s]));
    }
    return Py_BuildValue("(iiiNNNNNNNN)", r->reason, r->turns, r->went_out, lists[0], lists[1],
                         lists[2], lists[3], lists[4], lists[5], lists[6], lists[7]);
}

/* The leave table of each seat from a sequence of LeaveTable or None, one entry per seat:
 * 0, or -1 with the error set.  The tables stay owned by the caller's argument. */
static int seat_leaves(PyObject *leaves_o, int n_players, const tb_leaves *out[TB_MAX_PLAYERS])
{
    PyObject *seq = PySequence_Fast(leaves_o, "leaves: a sequence of LeaveTable or None");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n_players) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "leaves: one entry per player");
        return -1;
    }
    for (int s = 0; s < TB_MAX_PLAYERS; s++)
        out[s] = NULL;
    for (int s = 0; s < n_players; s++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, s);
        if (o == Py_None)
            continue;
        if (!PyObject_TypeCheck(o, &LeaveTableType)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "leaves: a sequence of LeaveTable or None");
            return -1;
        }
        out[s] = ((LeaveTableObject *)o)->leaves;
    }
    Py_DECREF(seq);
    return 0;
}

/* selfplay(games, seed, ...) plays game i from seed + GAME_SEED_STEP * (i + 1): the module
 * exports the step, so that Python can replay one of those games alone (selfplay_log). */
#define GAME_SEED_STEP 0x9E3779B97F4A7C15ULL

static PyObject *Generator_selfplay(GeneratorObject *self, PyObject *args)
{
    int games, n_players;
    unsigned long long seed;
    PyObject *leaves_o;
    if (!PyArg_ParseTuple(args, "iKiO", &games, &seed, &n_players, &leaves_o))
        return NULL;
    if (!self->has_game) {
        PyErr_SetString(PyExc_ValueError, "set_game() first");
        return NULL;
    }
    if (games < 0 || n_players < 1 || n_players > TB_MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "games >= 0 and 1..4 players");
        return NULL;
    }
    const tb_leaves *leaves[TB_MAX_PLAYERS];
    if (seat_leaves(leaves_o, n_players, leaves))
        return NULL;
    tb_game_result *results = malloc((size_t)(games ? games : 1) * sizeof *results);
    if (!results)
        return PyErr_NoMemory();
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < games && !failed; i++) {
        uint64_t s = seed + GAME_SEED_STEP * (uint64_t)(i + 1);
        failed = tb_selfplay_game(&self->rules, &self->kwg, &self->game, leaves, n_players,
                                  i % n_players, s, &results[i], NULL) != 0;
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        free(results);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(games);
    for (int i = 0; out && i < games; i++) {
        PyObject *t = result_tuple(&results[i]);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, t);
    }
    free(results);
    return out;
}

/* One game with every turn: (result tuple, [(seat, kind, rack counts, bag, move record or
 * kept counts), ...]).  For tests of the loop and for learning from every turn. */
static PyObject *Generator_selfplay_log(GeneratorObject *self, PyObject *args)
{
    int n_players, first;
    unsigned long long seed;
    PyObject *leaves_o;
    if (!PyArg_ParseTuple(args, "KiiO", &seed, &n_players, &first, &leaves_o))
        return NULL;
    if (!self->has_game) {
        PyErr_SetString(PyExc_ValueError, "set_game() first");
        return NULL;
    }
    if (n_players < 1 || n_players > TB_MAX_PLAYERS || first < 0 || first >= n_players) {
        PyErr_SetString(PyExc_ValueError, "1..4 players and a first seat among them");
        return NULL;
    }
    const tb_leaves *per_seat[TB_MAX_PLAYERS];
    if (seat_leaves(leaves_o, n_players, per_seat))
        return NULL;
    tb_turn *log = malloc(TB_MAX_TURNS * sizeof *log);
    if (!log)
        return PyErr_NoMemory();
    tb_game_result result;
    if (tb_selfplay_game(&self->rules, &self->kwg, &self->game, per_seat, n_players, first, seed,
                         &result, log) != 0) {
        free(log);
        return PyErr_NoMemory();
    }
    PyObject *turns = PyList_New(result.turns);
    for (int i = 0; turns && i < result.turns; i++) {
        const tb_turn *t = &log[i];
        char record[RECORD_SIZE];
        pack_move(record, &t->move);
        PyObject *item = Py_BuildValue(
            "(iiy#iy#y#)", t->seat, t->kind, (const char *)t->rack.count,
            (Py_ssize_t)(TB_MAX_CODE + 1), t->bag, record,
            (Py_ssize_t)(t->kind == TB_TURN_PLACE ? RECORD_SIZE : 0), (const char *)t->kept,
            (Py_ssize_t)(t->kind == TB_TURN_EXCHANGE ? TB_MAX_CODE + 1 : 0));
        if (!item) {
            Py_CLEAR(turns);
            break;
        }
        PyList_SET_ITEM(turns, i, item);
    }
    free(log);
    if (!turns)
        return NULL;
    PyObject *res = result_tuple(&result);
    if (!res) {
        Py_DECREF(turns);
        return NULL;
    }
    return Py_BuildValue("(NN)", res, turns);
}

/* Candidates cross in as move records (RECORD_SIZE each, the format of pack_move) whose
 * padding byte 6 is the kind (0 place, 1 exchange, 2 pass); an exchange's 32 tile bytes are
 * the counts returned by code.  Checked to fit the board; legality is the wrapper's job. */
static int read_candidate(const tb_rules *r, const tb_board *b, const uint8_t *rec,
                          tb_candidate *c)
{
    memset(c, 0, sizeof *c);
    c->kind = rec[6];
    if (c->kind == TB_CAND_PASS)
        return 0;
    if (c->kind == TB_CAND_EXCHANGE) {
        memcpy(c->back, rec + 20, TB_MAX_CODE + 1);
        return 0;
    }
    if (c->kind != TB_CAND_PLACE)
        return -1;
    tb_move *m = &c->move;
    m->dir = rec[0];
    m->line = rec[1];
    m->start = rec[2];
    m->len = rec[3];
    m->shuffle = rec[5] != 0;
    memcpy(&m->score, rec + 8, 4);
    memcpy(&m->equity, rec + 12, 8);
    memcpy(m->tiles, rec + 20, TB_MAX_DIM);
    int lines = m->dir ? r->cols : r->rows, len = m->dir ? r->rows : r->cols;
    if (m->dir > 1 || m->line >= lines || m->len < 1 || m->start + m->len > len)
        return -1;
    m->ntiles = 0;
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i], sq = b->tile[m->dir][m->line][m->start + i];
        if (!t) {
            if (!sq)
                return -1;
            continue;
        }
        if (sq || (t & ~(TB_BLANK | TB_CODE)) || !((r->letters >> (t & TB_CODE)) & 1))
            return -1;
        m->ntiles++;
    }
    for (int i = m->len; i < TB_MAX_DIM; i++)
        m->tiles[i] = 0;
    return m->ntiles ? 0 : -1;
}

/* simulate(board, rack, unseen, n_players, candidates, plies, iterations, seed, leaves,
 *          scoreless[, behind[, per_deal[, known, known_seat]]]) -> [(iterations, mean, sd), ...]
 * per candidate; with per_deal true each tuple also carries the playouts' values (float64
 * bytes) and the tiles unseen at each playout's end (int8 bytes, -1 where the game ended).
 * `known`: partial racks of the opponent at `known_seat`, counts by code one after another,
 * deal `it` taking the (it % n)-th (tb_sim_known); None or empty: nothing known.  The GIL is
 * released while it runs. */
static PyObject *Generator_simulate(GeneratorObject *self, PyObject *args)
{
    PyObject *board_o, *rack_o, *leaves_o, *behind_o = Py_None;
    Py_buffer unseen_b, cands_b, known_b = {0}; /* known: None leaves it empty */
    int n_players, plies, iterations, scoreless, per_deal = 0, known_seat = 1;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOy*iy*iiKOi|Opz*i", &board_o, &rack_o, &unseen_b, &n_players,
                          &cands_b, &plies, &iterations, &seed, &leaves_o, &scoreless,
                          &behind_o, &per_deal, &known_b, &known_seat))
        return NULL;
    int32_t behind[TB_MAX_PLAYERS] = {0};
    int has_behind = 0;
    if (behind_o != Py_None) {
        PyObject *seq = PySequence_Fast(behind_o, "behind: a sequence of scores");
        if (!seq) {
            PyBuffer_Release(&unseen_b);
            PyBuffer_Release(&cands_b);
            PyBuffer_Release(&known_b);
            return NULL;
        }
        Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < count && i < TB_MAX_PLAYERS; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (v == -1 && PyErr_Occurred())
                break;
            behind[i] = (int32_t)v;
        }
        Py_DECREF(seq);
        if (PyErr_Occurred() || count != n_players) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "behind: one score difference per player");
            PyBuffer_Release(&unseen_b);
            PyBuffer_Release(&cands_b);
            PyBuffer_Release(&known_b);
            return NULL;
        }
        has_behind = 1;
    }
    PyObject *out = NULL;
    tb_candidate *cands = NULL;
    tb_sim_stat *stats = NULL;
    double *values = NULL;
    int8_t *unseen_end = NULL;
    tb_sim_known known = {known_b.buf, (int)(known_b.len / (TB_MAX_CODE + 1)), known_seat};
    BoardObject *b = check_board(self, board_o);
    tb_rack rack;
    const tb_leaves *leaves = NULL;
    Py_ssize_t n = cands_b.len / RECORD_SIZE;
    int unseen_total = 0;
    if (unseen_b.len == TB_MAX_CODE + 1)
        for (int c = 0; c <= TB_MAX_CODE; c++)
            unseen_total += ((const uint8_t *)unseen_b.buf)[c];
    if (!b || read_rack(rack_o, &rack) < 0)
        goto done;
    if (!self->has_game) {
        PyErr_SetString(PyExc_ValueError, "set_game() first");
        goto done;
    }
    if (unseen_b.len != TB_MAX_CODE + 1 || unseen_total > TB_MAX_BAG) {
        PyErr_Format(PyExc_ValueError, "unseen: %d counts by code, %d tiles at most",
                     TB_MAX_CODE + 1, TB_MAX_BAG);
        goto done;
    }
    if (known_b.len % (TB_MAX_CODE + 1)) {
        PyErr_Format(PyExc_ValueError, "known: whole racks of %d counts by code",
                     TB_MAX_CODE + 1);
        goto done;
    }
    if (n_players < 1 || n_players > TB_MAX_PLAYERS || plies < 0 || iterations < 0 ||
        cands_b.len % RECORD_SIZE) {
        PyErr_SetString(PyExc_ValueError,
                        "1..4 players, plies >= 0, iterations >= 0, whole candidate records");
        goto done;
    }
    if (leaves_o != Py_None) {
        if (!PyObject_TypeCheck(leaves_o, &LeaveTableType)) {
            PyErr_SetString(PyExc_TypeError, "leaves must be a LeaveTable or None");
            goto done;
        }
        leaves = ((LeaveTableObject *)leaves_o)->leaves;
    }
    cands = malloc((size_t)(n ? n : 1) * sizeof *cands);
    stats = malloc((size_t)(n ? n : 1) * sizeof *stats);
    if (!cands || !stats) {
        PyErr_NoMemory();
        goto done;
    }
    if (per_deal) {
        size_t cells = (size_t)(n ? n : 1) * (size_t)(iterations ? iterations : 1);
        values = malloc(cells * sizeof *values);
        unseen_end = malloc(cells * sizeof *unseen_end);
        if (!values || !unseen_end) {
            PyErr_NoMemory();
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (read_candidate(&self->rules, &b->board,
                           (const uint8_t *)cands_b.buf + i * RECORD_SIZE, &cands[i]) < 0) {
            PyErr_Format(PyExc_ValueError, "candidate %zd does not fit the board", i);
            goto done;
        }
    int rc;
    tb_board *board_copy = malloc(sizeof *board_copy);
    if (!board_copy) {
        PyErr_NoMemory();
        goto done;
    }
    *board_copy = b->board; /* the Board object may change while the GIL is released */
    Py_BEGIN_ALLOW_THREADS
    rc = tb_simulate(&self->rules, &self->kwg, &self->game, board_copy, &rack,
                     (const uint8_t *)unseen_b.buf, n_players, cands, (int)n, plies, iterations,
                     seed, leaves, scoreless, has_behind ? behind : NULL,
                     known.n ? &known : NULL, stats, values, unseen_end);
    Py_END_ALLOW_THREADS
    free(board_copy);
    if (rc == -2) {
        PyErr_NoMemory();
        goto done;
    }
    if (rc < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "a candidate takes tiles the rack does not have, an unseen tile is not "
                        "one of the game's, or a known rack is not part of the unseen tiles");
        goto done;
    }
    out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *t;
        if (per_deal)
            t = Py_BuildValue("(iddy#y#)", stats[i].iterations, stats[i].mean, stats[i].sd,
                              (const char *)(values + i * iterations),
                              (Py_ssize_t)((size_t)iterations * sizeof *values),
                              (const char *)(unseen_end + i * iterations),
                              (Py_ssize_t)iterations);
        else
            t = Py_BuildValue("(idd)", stats[i].iterations, stats[i].mean, stats[i].sd);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, t);
    }
done:
    free(cands);
    free(stats);
    free(values);
    free(unseen_end);
    PyBuffer_Release(&unseen_b);
    PyBuffer_Release(&cands_b);
    PyBuffer_Release(&known_b);
    return out;
}

/* endgame(board, me, them, scoreless, max_depth, width, seconds, max_nodes, tt_bits,
 *         cambios_me, cambios_them)
 *   -> (found, exact, depth, value2, nodes, [(kind, record), ...])
 * The exact endgame search (tb_endgame); the GIL is released while it runs.  A line step's
 * record is a placement's move record, b"" for the pass, and (row, col, tile byte, old tile
 * byte, score) for a CAMBIO. */
static PyObject *Generator_endgame(GeneratorObject *self, PyObject *args)
{
    PyObject *board_o, *me_o, *them_o;
    tb_eg_config config;
    unsigned long long max_nodes;
    if (!PyArg_ParseTuple(args, "OOOiiidKiii", &board_o, &me_o, &them_o, &config.scoreless,
                          &config.max_depth, &config.width, &config.seconds, &max_nodes,
                          &config.tt_bits, &config.cambios_left[0], &config.cambios_left[1]))
        return NULL;
    config.max_nodes = max_nodes;
    BoardObject *b = check_board(self, board_o);
    tb_rack me, them;
    if (!b || read_rack(me_o, &me) < 0 || read_rack(them_o, &them) < 0)
        return NULL;
    if (!self->has_game) {
        PyErr_SetString(PyExc_ValueError, "set_game() first");
        return NULL;
    }
    if (config.max_depth < 1 || config.max_depth > TB_EG_MAX_DEPTH || config.tt_bits < 10 ||
        config.tt_bits > 30 || config.width < 0 || config.scoreless < 0 || !me.total ||
        self->game.scoreless_rounds > 60 || config.cambios_left[0] < 0 ||
        config.cambios_left[1] < 0 || config.cambios_left[0] > TB_EG_MAX_CAMBIOS ||
        config.cambios_left[1] > TB_EG_MAX_CAMBIOS) {
        PyErr_Format(PyExc_ValueError,
                     "max_depth 1..%d, tt_bits 10..30, width >= 0, scoreless >= 0, a rack to "
                     "move, at most 60 scoreless rounds, 0..%d CAMBIOs left a side",
                     TB_EG_MAX_DEPTH, TB_EG_MAX_CAMBIOS);
        return NULL;
    }
    tb_board *root = malloc(sizeof *root);
    tb_eg_result *res = malloc(sizeof *res);
    if (!root || !res) {
        free(root);
        free(res);
        return PyErr_NoMemory();
    }
    *root = b->board; /* the Board object may change while the GIL is released */
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = tb_endgame(&self->rules, &self->kwg, &self->game, root, &me, &them, &config, res);
    Py_END_ALLOW_THREADS
    free(root);
    if (rc < 0) {
        free(res);
        if (rc == -2)
            return PyErr_NoMemory();
        PyErr_SetString(PyExc_ValueError, "the endgame search refused its arguments");
        return NULL;
    }
    PyObject *line = PyList_New(res->line_len);
    for (int i = 0; line && i < res->line_len; i++) {
        const tb_eg_step *step = &res->line[i];
        PyObject *item;
        if (step->kind == TB_EG_CAMBIO) {
            const tb_cambio *c = &step->cambio;
            item = Py_BuildValue("(i(iiiii))", step->kind, c->row, c->col, c->tile, c->old,
                                 c->score);
        } else {
            char record[RECORD_SIZE];
            pack_move(record, &step->move);
            const Py_ssize_t size = step->kind == TB_EG_PLACE ? RECORD_SIZE : 0;
            item = Py_BuildValue("(iy#)", step->kind, record, size);
        }
        if (!item) {
            Py_CLEAR(line);
            break;
        }
        PyList_SET_ITEM(line, i, item);
    }
    PyObject *out = NULL;
    if (line)
        out = Py_BuildValue("(OOiiKN)", res->found ? Py_True : Py_False,
                            res->exact ? Py_True : Py_False, res->depth, res->value2,
                            (unsigned long long)res->nodes, line);
    free(res);
    return out;
}

/* Build the word map once and attach it to the searches, or detach it (kept, never freed
 * before the generator: a search running in another thread may hold it).  The build keeps
 * the GIL, so two threads cannot build it twice. */
static PyObject *Generator_use_wordmap(GeneratorObject *self, PyObject *arg)
{
    const int on = PyObject_IsTrue(arg);
    if (on < 0)
        return NULL;
    if (on && !self->wordmap && self->kwg.edges)
        self->wordmap = tb_wordmap_build(&self->kwg);
    self->kwg.wordmap = on ? self->wordmap : NULL;
    return PyBool_FromLong(self->kwg.wordmap != NULL);
}

/* The words of a multiset given as 32 counts by code (count[0] ignored), for tests. */
/* The word-map key of 32 letter counts: 1 and its length in *len, 0 if a letter is there
 * sixteen times or more (no word has that), -1 with an exception set. */
static int wordmap_key(GeneratorObject *self, PyObject *arg, uint64_t key[2], int *len)
{
    if (!self->wordmap) {
        PyErr_SetString(PyExc_ValueError, "no word map: call use_wordmap(True) first");
        return -1;
    }
    Py_buffer view;
    if (get_buffer(arg, &view, TB_MAX_CODE + 1, "letter counts") < 0)
        return -1;
    key[0] = key[1] = 0;
    *len = 0;
    const uint8_t *counts = view.buf;
    int ok = 1;
    for (int c = 1; c <= TB_MAX_CODE && ok; c++)
        for (int x = 0; x < counts[c] && ok; x++, (*len)++)
            ok = tb_wmkey_add_checked(key, (unsigned)c);
    PyBuffer_Release(&view);
    return ok;
}

static PyObject *Generator_wordmap_find(GeneratorObject *self, PyObject *arg)
{
    uint64_t key[2];
    int len;
    const int ok = wordmap_key(self, arg, key, &len);
    if (ok < 0)
        return NULL;
    if (!ok)
        return PyList_New(0);
    uint32_t n = 0;
    const uint8_t *words = len ? tb_wordmap_find(self->wordmap, key, &n) : NULL;
    PyObject *out = PyList_New(n);
    if (!out)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        PyObject *w = PyBytes_FromStringAndSize((const char *)words + (size_t)i * len, len);
        if (!w) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, w);
    }
    return out;
}

static PyObject *Generator_wordmap_completions(GeneratorObject *self, PyObject *arg)
{
    uint64_t key[2];
    int len;
    const int ok = wordmap_key(self, arg, key, &len);
    if (ok < 0)
        return NULL;
    return PyLong_FromUnsignedLong(ok ? tb_wordmap_completions(self->wordmap, key) : 0);
}

static PyObject *Generator_wordmap_stats(GeneratorObject *self, PyObject *unused)
{
    if (!self->wordmap)
        Py_RETURN_NONE;
    size_t words, classes, bytes;
    tb_wordmap_stats(self->wordmap, &words, &classes, &bytes);
    return Py_BuildValue("(nnn)", (Py_ssize_t)words, (Py_ssize_t)classes, (Py_ssize_t)bytes);
}

static PyMethodDef Generator_methods[] = {
    {"use_wordmap", (PyCFunction)Generator_use_wordmap, METH_O,
     "use_wordmap(on) -> whether the ranked searches now use the word map (built on first use)"},
    {"wordmap_find", (PyCFunction)Generator_wordmap_find, METH_O,
     "wordmap_find(letter_counts) -> the words with exactly these letters, as code bytes"},
    {"wordmap_completions", (PyCFunction)Generator_wordmap_completions, METH_O,
     "wordmap_completions(letter_counts) -> mask of the letters that make them a word's"},
    {"wordmap_stats", (PyCFunction)Generator_wordmap_stats, METH_NOARGS,
     "wordmap_stats() -> (words, classes, bytes) or None when not built"},
    {"selfplay_log", (PyCFunction)Generator_selfplay_log, METH_VARARGS,
     "selfplay_log(seed, n_players, first, leaves) -> (result, turns): one game, every turn\n"
     "(leaves: one LeaveTable or None per seat)."},
    {"set_game", (PyCFunction)(void (*)(void))Generator_set_game, METH_VARARGS | METH_KEYWORDS,
     "The tile set, exchange and end rules that selfplay() needs."},
    {"selfplay", (PyCFunction)Generator_selfplay, METH_VARARGS,
     "selfplay(games, seed, n_players, leaves) -> list of result tuples (GIL released)."},
    {"simulate", (PyCFunction)Generator_simulate, METH_VARARGS,
     "simulate(board, rack, unseen, n_players, candidates, plies, iterations, seed, leaves) "
     "-> [(iterations, mean, sd)] (GIL released)."},
    {"endgame", (PyCFunction)Generator_endgame, METH_VARARGS,
     "endgame(board, me, them, scoreless, max_depth, width, seconds, max_nodes, tt_bits, "
     "cambios_me, cambios_them) -> "
     "(found, exact, depth, value in half points, nodes, [(kind, record), ...]) (GIL released)."},
    {"new_board", (PyCFunction)Generator_new_board, METH_NOARGS, "An empty native board."},
    {"count", (PyCFunction)Generator_count, METH_VARARGS,
     "count(board, rack_counts, first_turn) -> (moves, sum of scores)"},
    {"generate", (PyCFunction)Generator_generate, METH_VARARGS,
     "generate(board, rack_counts, first_turn) -> packed move records"},
    {"best", (PyCFunction)Generator_best, METH_VARARGS,
     "best(board, rack_counts, first_turn, n, leaves, exhaustive=False) -> packed records"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GeneratorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tablero.engine.movegen._native.Generator",
    .tp_basicsize = sizeof(GeneratorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rules of one game and a word graph, with the generation calls.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Generator_init,
    .tp_dealloc = (destructor)Generator_dealloc,
    .tp_methods = Generator_methods,
};

/* -- Board --------------------------------------------------------------------------------- */

static void Board_dealloc(BoardObject *self)
{
    Py_XDECREF(self->gen);
    PyObject_Free(self);
}

static PyObject *Board_set_tiles(BoardObject *self, PyObject *arg)
{
    const tb_rules *r = &self->gen->rules;
    Py_buffer view;
    if (get_buffer(arg, &view, (Py_ssize_t)r->rows * r->cols, "tiles") < 0)
        return NULL;
    const uint8_t *t = view.buf;
    for (Py_ssize_t i = 0; i < view.len; i++) {
        int code = t[i] & TB_CODE;
        if (t[i] && ((t[i] & ~(TB_BLANK | TB_CODE)) || !((r->letters >> code) & 1))) {
            PyBuffer_Release(&view);
            PyErr_Format(PyExc_ValueError, "tiles: byte %zd (0x%02x) is not a tile of the game",
                         i, t[i]);
            return NULL;
        }
    }
    tb_board_set_tiles(&self->board, r, &self->gen->kwg, t);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* One row-major byte per square of an across-layout grid (tiles, anchors): rows * cols bytes. */
static PyObject *grid_bytes(const tb_board *b, const uint8_t grid[TB_MAX_DIM][TB_MAX_DIM])
{
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)b->rows * b->cols);
    if (!out)
        return NULL;
    char *p = PyBytes_AS_STRING(out);
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < b->cols; c++)
            p[r * b->cols + c] = (char)grid[r][c];
    return out;
}

static PyObject *Board_tiles(BoardObject *self, PyObject *Py_UNUSED(ignored))
{
    return grid_bytes(&self->board, self->board.tile[0]);
}

static PyObject *Board_apply(BoardObject *self, PyObject *args)
{
    int dir, line, start;
    Py_buffer tiles;
    if (!PyArg_ParseTuple(args, "iiiy*", &dir, &line, &start, &tiles))
        return NULL;
    tb_board *b = &self->board;
    const tb_rules *r = &self->gen->rules;
    int lines = dir ? b->cols : b->rows, len = dir ? b->rows : b->cols;
    const char *err = NULL;
    if (dir != 0 && dir != 1)
        err = "dir must be 0 (across) or 1 (down)";
    else if (line < 0 || line >= lines || start < 0 || tiles.len < 1 || start + tiles.len > len)
        err = "the word does not fit on the board";
    tb_move m;
    memset(&m, 0, sizeof m);
    if (!err) {
        const uint8_t *t = tiles.buf;
        for (Py_ssize_t i = 0; i < tiles.len && !err; i++) {
            uint8_t sq = b->tile[dir][line][start + i];
            if (!t[i])
                continue;
            if ((t[i] & ~(TB_BLANK | TB_CODE)) || !((r->letters >> (t[i] & TB_CODE)) & 1))
                err = "a tile byte is not a tile of the game";
            else if (sq)
                err = "a new tile is on an occupied square";
            m.tiles[i] = t[i];
            m.ntiles++;
        }
    }
    if (err) {
        PyBuffer_Release(&tiles);
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    m.dir = (uint8_t)dir;
    m.line = (uint8_t)line;
    m.start = (uint8_t)start;
    m.len = (uint8_t)tiles.len;
    PyBuffer_Release(&tiles);
    tb_board_apply(b, r, &self->gen->kwg, &m);
    Py_RETURN_NONE;
}

static PyObject *Board_copy(BoardObject *self, PyObject *Py_UNUSED(ignored))
{
    BoardObject *b = PyObject_New(BoardObject, &BoardType);
    if (!b)
        return NULL;
    Py_INCREF(self->gen);
    b->gen = self->gen;
    b->board = self->board;
    return (PyObject *)b;
}

static PyObject *Board_cross_set(BoardObject *self, PyObject *args)
{
    int dir, row, col;
    if (!PyArg_ParseTuple(args, "iii", &dir, &row, &col))
        return NULL;
    const tb_board *b = &self->board;
    if (dir < 0 || dir > 1 || row < 0 || row >= b->rows || col < 0 || col >= b->cols) {
        PyErr_SetString(PyExc_ValueError, "no such square or direction");
        return NULL;
    }
    int line = dir ? col : row, pos = dir ? row : col;
    return Py_BuildValue("(kiiO)", (unsigned long)b->xmask[dir][line][pos],
                         (int)b->xbase[dir][line][pos], (int)b->xlfm[dir][line][pos],
                         b->hasx[dir][line][pos] ? Py_True : Py_False);
}

static PyObject *Board_extension_set(BoardObject *self, PyObject *args)
{
    int dir, row, col;
    if (!PyArg_ParseTuple(args, "iii", &dir, &row, &col))
        return NULL;
    const tb_board *b = &self->board;
    if (dir < 0 || dir > 1 || row < 0 || row >= b->rows || col < 0 || col >= b->cols) {
        PyErr_SetString(PyExc_ValueError, "no such square or direction");
        return NULL;
    }
    return PyLong_FromUnsignedLong(b->emask[dir][dir ? col : row][dir ? row : col]);
}

static PyObject *Board_anchors(BoardObject *self, PyObject *Py_UNUSED(ignored))
{
    return grid_bytes(&self->board, self->board.anchor[0]);
}

static PyObject *Board_n_tiles(BoardObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->board.n_tiles);
}

static PyMethodDef Board_methods[] = {
    {"set_tiles", (PyCFunction)Board_set_tiles, METH_O,
     "Replace every tile (row-major bytes) and recompute cross-sets and anchors."},
    {"tiles", (PyCFunction)Board_tiles, METH_NOARGS, "The tiles, row-major bytes."},
    {"apply", (PyCFunction)Board_apply, METH_VARARGS,
     "apply(dir, line, start, tiles): put a word's new tiles (0 = already there) down."},
    {"copy", (PyCFunction)Board_copy, METH_NOARGS, "An independent copy."},
    {"cross_set", (PyCFunction)Board_cross_set, METH_VARARGS,
     "cross_set(dir, row, col) -> (letter mask, cross base, letter multiplier, has cross)"},
    {"extension_set", (PyCFunction)Board_extension_set, METH_VARARGS,
     "extension_set(dir, row, col) -> the letter mask the tiles beside it in its line allow"},
    {"anchors", (PyCFunction)Board_anchors, METH_NOARGS, "Anchor flags, row-major bytes."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Board_getset[] = {
    {"n_tiles", (getter)Board_n_tiles, NULL, "tiles on the board", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tablero.engine.movegen._native.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A native board (tiles, cross-sets, anchors); made by Generator.new_board().",
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
};

/* -- LeaveTable ---------------------------------------------------------------------------- */

static void LeaveTable_dealloc(LeaveTableObject *self)
{
    tb_leaves_free(self->leaves);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int LeaveTable_init(LeaveTableObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"keys", "values", NULL};
    PyObject *keys_o, *values_o;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO", kwlist, &keys_o, &values_o))
        return -1;
    Py_buffer keys, values;
    if (get_buffer(keys_o, &keys, -1, "keys") < 0)
        return -1;
    if (keys.len % 8 || get_buffer(values_o, &values, keys.len, "values") < 0) {
        if (keys.len % 8)
            PyErr_SetString(PyExc_ValueError, "keys: not a whole number of 64-bit keys");
        PyBuffer_Release(&keys);
        return -1;
    }
    size_t n = (size_t)keys.len / 8;
    uint64_t *k = malloc(n * 8 + 8);
    double *v = malloc(n * 8 + 8);
    if (!k || !v) {
        free(k);
        free(v);
        PyBuffer_Release(&keys);
        PyBuffer_Release(&values);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(k, keys.buf, n * 8);
    memcpy(v, values.buf, n * 8);
    PyBuffer_Release(&keys);
    PyBuffer_Release(&values);
    tb_leaves_free(self->leaves);
    self->leaves = tb_leaves_new(k, v, n);
    self->size = (Py_ssize_t)n;
    free(k);
    free(v);
    if (!self->leaves) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *LeaveTable_get(LeaveTableObject *self, PyObject *arg)
{
    unsigned long long key = PyLong_AsUnsignedLongLong(arg);
    if (key == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    if (!self->leaves) {
        PyErr_SetString(PyExc_ValueError, "LeaveTable not initialised");
        return NULL;
    }
    return PyFloat_FromDouble(tb_leaves_get(self->leaves, key));
}

static Py_ssize_t LeaveTable_len(LeaveTableObject *self) { return self->size; }

static PyMethodDef LeaveTable_methods[] = {
    {"get", (PyCFunction)LeaveTable_get, METH_O, "Value of a leave key (0.0 if absent)."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods LeaveTable_as_sequence = {
    .sq_length = (lenfunc)LeaveTable_len,
};

static PyTypeObject LeaveTableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tablero.engine.movegen._native.LeaveTable",
    .tp_basicsize = sizeof(LeaveTableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Leave values by key (see leave_key).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)LeaveTable_init,
    .tp_dealloc = (destructor)LeaveTable_dealloc,
    .tp_methods = LeaveTable_methods,
    .tp_as_sequence = &LeaveTable_as_sequence,
};

/* -- module -------------------------------------------------------------------------------- */

static PyObject *mod_leave_key(PyObject *Py_UNUSED(module), PyObject *arg)
{
    Py_buffer view;
    if (get_buffer(arg, &view, -1, "codes") < 0)
        return NULL;
    if (view.len > TB_MAX_RACK) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "a leave of %zd tiles: at most %d", view.len, TB_MAX_RACK);
        return NULL;
    }
    const uint8_t *c = view.buf;
    for (Py_ssize_t i = 0; i < view.len; i++)
        if (c[i] > TB_MAX_CODE) {
            PyBuffer_Release(&view);
            PyErr_Format(PyExc_ValueError, "code %d is not a rack code (0..%d)", c[i],
                         TB_MAX_CODE);
            return NULL;
        }
    uint64_t key = tb_leave_key(c, (int)view.len);
    PyBuffer_Release(&view);
    return PyLong_FromUnsignedLongLong(key);
}

/* The table key of every word of a KWG's DAWG, in the order a depth-first walk accepts them
 * (the order of a KLV's values): what LearnedLeaveValues.table needs, a million keys, without
 * a Python loop over them.  Each node: tile in the top 8 bits, accepts 0x800000, end of its
 * list 0x400000, first child's index in the low 22 bits (docs/lexicon formats). */
static PyObject *mod_leave_keys(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *nodes_o;
    unsigned long root;
    if (!PyArg_ParseTuple(args, "Ok", &nodes_o, &root))
        return NULL;
    Py_buffer view;
    if (get_buffer(nodes_o, &view, -1, "nodes") < 0)
        return NULL;
    const uint32_t *nodes = view.buf;
    const size_t n = (size_t)view.len / 4;
    size_t cap = 1 << 16, count = 0;
    uint64_t *keys = malloc(cap * sizeof *keys);
    const char *error = keys ? NULL : "out of memory";
    uint32_t stack[TB_MAX_RACK];
    uint8_t codes[TB_MAX_RACK];
    int depth = 0;
    size_t i = root;
    if (view.len % 4)
        error = "nodes: not a whole number of 32-bit nodes";
    while (root && !error) {
        if (i >= n) {
            error = "a node points past the end of the word graph";
            break;
        }
        const uint32_t node = nodes[i];
        const unsigned code = node >> 24;
        if (code > TB_MAX_CODE) {
            error = "a leave holds a tile code above the rack's";
            break;
        }
        codes[depth] = (uint8_t)code;
        if (node & 0x00800000u) {
            if (count == cap) {
                uint64_t *grown = realloc(keys, 2 * cap * sizeof *keys);
                if (!grown) {
                    error = "out of memory";
                    break;
                }
                keys = grown;
                cap *= 2;
            }
            keys[count++] = tb_leave_key(codes, depth + 1);
        }
        const uint32_t child = node & 0x003FFFFFu;
        if (child) {
            if (depth + 1 >= TB_MAX_RACK) {
                error = "a leave longer than the largest rack";
                break;
            }
            stack[depth++] = (uint32_t)i;
            i = child;
            continue;
        }
        /* the next sibling, or the next sibling of the nearest ancestor that has one */
        while (nodes[i] & 0x00400000u) {
            if (!depth) {
                root = 0; /* the root's list is done */
                break;
            }
            i = stack[--depth];
        }
        i++;
    }
    PyBuffer_Release(&view);
    if (error) {
        free(keys);
        PyErr_SetString(strcmp(error, "out of memory") ? PyExc_ValueError : PyExc_MemoryError,
                        error);
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize((const char *)keys, (Py_ssize_t)(count * 8));
    free(keys);
    return out;
}

static PyObject *mod_search_stats(PyObject *self, PyObject *args)
{
#ifdef TB_STATS
    const tb_search_stats *st = &tb_stats;
    return Py_BuildValue("{sKsKsKsKsKsKsKsKsK}", "searches", st->searches, "anchors",
                         st->anchors, "searched", st->searched, "nodes", st->nodes,
                         "nodes_no_insert", st->nodes_no_insert, "nodes_top", st->nodes_top,
                         "nodes_bingo", st->nodes_bingo, "nodes_no_insert_no_board",
                         st->nodes_no_insert_no_board, "nodes_no_insert_one_board",
                         st->nodes_no_insert_one_board);
#else
    Py_RETURN_NONE;
#endif
}

static PyObject *mod_reset_search_stats(PyObject *self, PyObject *args)
{
#ifdef TB_STATS
    memset(&tb_stats, 0, sizeof tb_stats);
#endif
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"search_stats", (PyCFunction)mod_search_stats, METH_NOARGS,
     "search_stats() -> dict | None: the ranked search's walk counts (a -DTB_STATS build), "
     "else None."},
    {"reset_search_stats", (PyCFunction)mod_reset_search_stats, METH_NOARGS,
     "reset_search_stats(): set the counts of a -DTB_STATS build to zero."},
    {"leave_key", (PyCFunction)mod_leave_key, METH_O,
     "leave_key(codes: bytes) -> int: the table key of a multiset of rack codes (blank 0)."},
    {"leave_keys", (PyCFunction)mod_leave_keys, METH_VARARGS,
     "leave_keys(nodes, root) -> bytes: the table keys (64-bit, native order) of a KWG's words "
     "from root, in the order of a depth-first walk."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tablero.engine.movegen._native",
    .m_doc = "Native move generation core (see tablero.engine.movegen.native for the typed API).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    if (PyType_Ready(&GeneratorType) < 0 || PyType_Ready(&BoardType) < 0 ||
        PyType_Ready(&LeaveTableType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    PyObject *step = PyLong_FromUnsignedLongLong(GAME_SEED_STEP);
    const int added = step ? PyModule_AddObjectRef(m, "GAME_SEED_STEP", step) : -1;
    Py_XDECREF(step);
    if (added < 0 || PyModule_AddIntConstant(m, "RECORD_SIZE", RECORD_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_DIM", TB_MAX_DIM) < 0 ||
        PyModule_AddIntConstant(m, "MAX_RACK", TB_MAX_RACK) < 0 ||
        PyModule_AddIntConstant(m, "MAX_CODE", TB_MAX_CODE) < 0 ||
        PyModule_AddIntConstant(m, "EG_MAX_CAMBIOS", TB_EG_MAX_CAMBIOS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&GeneratorType);
    Py_INCREF(&BoardType);
    Py_INCREF(&LeaveTableType);
    if (PyModule_AddObject(m, "Generator", (PyObject *)&GeneratorType) < 0 ||
        PyModule_AddObject(m, "Board", (PyObject *)&BoardType) < 0 ||
        PyModule_AddObject(m, "LeaveTable", (PyObject *)&LeaveTableType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
