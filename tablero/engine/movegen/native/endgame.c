/* The exact endgame search in C: negamax with alpha-beta over both players' placements and the
 * pass, a transposition table whose entries know whether their value is proven (complete),
 * and iterative deepening.
 *
 * It computes what tablero/engine/search/endgame.py computes (docs/endgame.md §1-5): the same
 * tree, windows, table semantics, move order and root loop, so an exact answer is the same
 * value.  How it gets there differs (docs/endgame.md §7):
 *
 *   - a node's board is its parent's copied into the ply's slot with the move applied
 *     (tb_board_apply updates cross-sets incrementally), built only when the node needs it;
 *     a pass shares its parent's board;
 *   - positions are keyed by a Zobrist hash (tiles put down since the root, both racks, the
 *     side to move, the scoreless run), and the table is a fixed array of 4-entry buckets;
 *   - three rules of search that change no exact value: a horizon node is a guess without
 *     asking whether anyone can still play, a forced pass after a scoring turn costs no ply,
 *     and a pass the other side can only answer with a pass is valued as the game's end;
 *   - moves are ordered through an index array, chosen lazily (most nodes are cut off after
 *     the first few moves);
 *   - the principal line is proven move by move when the answer is exact;
 *   - Crucigrama's CAMBIO is a move like a placement (cambio.c generates it; docs/endgame.md
 *     §7.8): it swaps one board letter and one rack tile, and each side's CAMBIOs left are
 *     part of the key.
 *
 * Values are integers in half points: the horizon guess is a half of two integer sums.
 * Nothing is allocated inside the search: the table, the per-ply boards, move lists and order
 * arrays are taken first (the lists grow, rarely, by doubling) and freed at the end.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movegen.h"

#define INF (1 << 28) /* beyond any spread, in half points */

/* An entry's flags: the bound (2 bits), why it is incomplete, and "in use". */
enum { B_EXACT = 0, B_LOWER = 1, B_UPPER = 2, B_MASK = 3 };
#define F_HORIZON 4u /* a line below stopped at a horizon guess */
#define F_TRUNC 8u   /* a node below had more placements than the width: some were left out */
#define F_INCOMPLETE (F_HORIZON | F_TRUNC)
#define F_USED 0x80u

#define WAYS 4 /* entries per bucket: 64 bytes, one cache line */
#define NO_BEST 0xFFFF /* an entry's best option is not recorded (an index past 65534) */

typedef struct {
    uint64_t key;
    int32_t value;  /* half points, for the side to move */
    uint16_t best;  /* the best option's index in the node's ordered list (n = the pass) */
    uint8_t depth;  /* plies searched below it */
    uint8_t flags;
} entry;

typedef struct {
    const tb_rules *r;
    const tb_kwg *k;
    const tb_game_rules *g;
    int width, limit, max_depth;
    int plies; /* per-ply slots: forced passes cost no depth, so a line can be 2 x deep */
    /* budget */
    uint64_t nodes, max_nodes;
    double deadline; /* CLOCK_MONOTONIC seconds; 0: none */
    int stopped, oom;
    /* the table */
    entry *tt;
    uint64_t tt_mask; /* buckets - 1 */
    /* Zobrist keys */
    int cols;
    uint64_t *z_square;                          /* [square][tile index: code + 32 * blank] */
    uint64_t z_rack[2][TB_MAX_CODE + 1][TB_MAX_RACK + 1]; /* [seat][code][count] */
    uint64_t z_side;                             /* seat 1 to move */
    uint64_t z_run[128];                         /* the scoreless run */
    uint64_t z_cambio[2][TB_EG_MAX_CAMBIOS + 1]; /* [seat][CAMBIOs it has left] */
    int max_run;
    /* per ply */
    tb_board *boards;   /* [plies] */
    tb_movelist *lists; /* [plies] */
    uint64_t **order;   /* [plies], each with its list's capacity */
    size_t *order_cap;
    tb_cambio **cambios; /* [plies]: the node's CAMBIOs, listed after its placements */
    size_t *cambio_cap;
    int *n_place;        /* [plies]: placements generated (option ids below it are placements) */
    /* the position */
    tb_rack rack[2];
    int cambios_left[2];
    unsigned flags; /* F_HORIZON | F_TRUNC: what the subtree being searched rests on */
} search;

/* -- the game's end ----------------------------------------------------------------------- */

static int rack_value(const search *s, const tb_rack *rack)
{
    return tb_rack_points(s->g, s->r, rack);
}

/* The end adjustments, in points, for `me` (who went out if `out`). */
static int finish(const search *s, const tb_rack *me, const tb_rack *them, int out)
{
    const tb_game_rules *g = s->g;
    int v = 0;
    if (g->subtract_own_rack)
        v += rack_value(s, them) - rack_value(s, me);
    v += g->unplayed_blank_penalty * (them->count[0] - me->count[0]);
    if (out && g->going_out_gains_others)
        v += rack_value(s, them);
    return v;
}

/* The guess at a line cut by the horizon, in half points: half the adjustments as if the game
 * ended now, half the plain difference of the racks' values. */
static int horizon(const search *s, const tb_rack *me, const tb_rack *them)
{
    return finish(s, me, them, 0) + rack_value(s, them) - rack_value(s, me);
}

/* -- keys and the table ------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t z_tile(const search *s, int row, int col, uint8_t t)
{
    int index = (t & TB_CODE) + ((t & TB_BLANK) ? 32 : 0);
    return s->z_square[(row * s->cols + col) * 64 + index];
}

static inline uint64_t z_run(const search *s, int run)
{
    return s->z_run[run < s->max_run ? run : s->max_run];
}

static inline entry *bucket(const search *s, uint64_t key)
{
    return &s->tt[(key & s->tt_mask) * WAYS];
}

static entry *tt_find(const search *s, uint64_t key)
{
    entry *b = bucket(s, key);
    for (int i = 0; i < WAYS; i++)
        if (b[i].key == key && (b[i].flags & F_USED))
            return &b[i];
    return NULL;
}

/* Store a node's result.  Its own slot if it has one (the newest result wins, as in the
 * reference); otherwise a free slot, else the one whose loss costs least: an incomplete value
 * before a complete one, then the shallowest. */
static void tt_store(search *s, uint64_t key, int depth, int value, unsigned bound, int best,
                     unsigned incomplete)
{
    entry *b = bucket(s, key), *victim = NULL;
    int victim_worth = 1 << 30;
    for (int i = 0; i < WAYS; i++) {
        if (!(b[i].flags & F_USED) || b[i].key == key) {
            victim = &b[i];
            break;
        }
        int worth = 2 * b[i].depth + ((b[i].flags & F_INCOMPLETE) ? 0 : 128);
        if (worth < victim_worth) {
            victim_worth = worth;
            victim = &b[i];
        }
    }
    victim->key = key;
    victim->value = value;
    victim->best = (uint16_t)(best >= 0 && best < NO_BEST ? best : NO_BEST);
    victim->depth = (uint8_t)depth;
    victim->flags = (uint8_t)(F_USED | bound | incomplete);
}

/* -- budget ------------------------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Count a node; 1 if the budget is spent (the search then unwinds without storing). */
static int tick(search *s)
{
    s->nodes++;
    if (s->max_nodes && s->nodes > s->max_nodes)
        s->stopped = 1;
    else if (s->deadline > 0 && (s->nodes & 255) == 0 && now() > s->deadline)
        s->stopped = 1;
    return s->stopped;
}

/* -- moves -------------------------------------------------------------------------------- */

/* One option of a node: a placement, a CAMBIO, or (both NULL) the pass. */
typedef struct option {
    const tb_move *place;
    const tb_cambio *cambio;
} option;

static const option PASS = {NULL, NULL};

static int by_rank(const void *x, const void *y)
{
    const tb_move *a = x, *b = y;
    return tb_move_before(a, b) ? -1 : tb_move_before(b, a) ? 1 : 0;
}

/* Make room for n order keys at ply `ply`; -1 out of memory. */
static int order_room(search *s, int ply, size_t n)
{
    if (s->order_cap[ply] >= n)
        return 0;
    size_t cap = s->lists[ply].cap > n ? s->lists[ply].cap : n;
    uint64_t *grown = realloc(s->order[ply], cap * sizeof *grown);
    if (!grown)
        return -1;
    s->order[ply] = grown;
    s->order_cap[ply] = cap;
    return 0;
}

static int by_key_desc(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

/* Every option of `seat`'s rack at ply `ply` but the pass: its placements, then (while it has
 * CAMBIOs left) its CAMBIOs, ordered as the search takes them: going out first, then the most
 * points, then the order listed (as the reference sorts).  Past `width` options only the
 * width best are kept and the node is marked truncated: by the generator's ranking when there
 * are only placements, by that order when there are CAMBIOs too (the reference's rule).
 * Returns how many, or -1 out of memory. */
static int gen_moves(search *s, int ply, const tb_board *b, int seat)
{
    const tb_rack *rack = &s->rack[seat];
    tb_movelist *l = &s->lists[ply];
    l->n = 0;
    if (tb_generate_all(s->r, s->k, b, rack, 0, l) < 0) {
        s->oom = s->stopped = 1;
        return -1;
    }
    size_t n = l->n, nc = 0;
    if (s->cambios_left[seat] > 0) {
        const int found = tb_cambios(s->r, s->k, b, rack, &s->cambios[ply], &s->cambio_cap[ply]);
        if (found < 0) {
            s->oom = s->stopped = 1;
            return -1;
        }
        nc = (size_t)found;
    }
    if (!nc && s->width > 0 && n > (size_t)s->width) {
        /* the equity of a listed move is its score: the generator's best-by-score order */
        qsort(l->moves, n, sizeof *l->moves, by_rank);
        n = l->n = (size_t)s->width;
        s->flags |= F_TRUNC;
    }
    s->n_place[ply] = (int)n;
    if (order_room(s, ply, n + nc) < 0) {
        s->oom = s->stopped = 1;
        return -1;
    }
    uint64_t *ord = s->order[ply];
    for (size_t i = 0; i < n; i++) {
        const tb_move *m = &l->moves[i];
        const uint64_t out = m->ntiles == rack->total ? 1u << 30 : 0;
        const uint64_t rank = (uint64_t)(m->score + (1 << 20)) + out;
        ord[i] = (rank << 24) | (uint64_t)(0xFFFFFF - i);
    }
    for (size_t j = 0; j < nc; j++) {
        const uint64_t rank = (uint64_t)(s->cambios[ply][j].score + (1 << 20));
        ord[n + j] = (rank << 24) | (uint64_t)(0xFFFFFF - (n + j));
    }
    size_t total = n + nc;
    if (nc && s->width > 0 && total > (size_t)s->width) {
        qsort(ord, total, sizeof *ord, by_key_desc);
        total = (size_t)s->width;
        s->flags |= F_TRUNC;
    }
    return (int)total;
}

/* Bring the biggest of ord[i..n) to position i: the order is settled one move at a time, so a
 * node cut off after its first moves never sorts the rest.  Keys are distinct, so this gives
 * exactly the order a full sort would. */
static inline void select_next(uint64_t *ord, int i, int n)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (ord[j] > ord[best])
            best = j;
    uint64_t t = ord[i];
    ord[i] = ord[best];
    ord[best] = t;
}

static inline int move_of(uint64_t ord_key) { return (int)(0xFFFFFF - (ord_key & 0xFFFFFF)); }

/* The option at `index` of the node at `ply` (n options; index n is the pass). */
static inline option option_at(const search *s, int ply, int n, int index)
{
    option o = PASS;
    if (index >= n)
        return o;
    const int id = move_of(s->order[ply][index]);
    if (id < s->n_place[ply])
        o.place = &s->lists[ply].moves[id];
    else
        o.cambio = &s->cambios[ply][id - s->n_place[ply]];
    return o;
}

/* The option a node searches at `step`: the table's best first (if it has one), then the
 * ordered list without it; the pass (index n) is last in that list. */
static inline int option_order(int step, int tt_best)
{
    if (tt_best < 0)
        return step;
    if (step == 0)
        return tt_best;
    return step - 1 < tt_best ? step - 1 : step;
}

/* Take a placement's tiles off the seat's rack, updating the key. */
static uint64_t take_tiles(search *s, int seat, const tb_move *m, uint64_t key)
{
    tb_rack *rack = &s->rack[seat];
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (!t)
            continue;
        int c = (t & TB_BLANK) ? 0 : t;
        key ^= s->z_rack[seat][c][rack->count[c]];
        rack->count[c]--;
        key ^= s->z_rack[seat][c][rack->count[c]];
        int row = m->dir ? m->start + i : m->line, col = m->dir ? m->line : m->start + i;
        key ^= z_tile(s, row, col, t);
    }
    rack->total -= m->ntiles;
    return key;
}

static void give_back(search *s, int seat, const tb_move *m)
{
    tb_rack *rack = &s->rack[seat];
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (t)
            rack->count[(t & TB_BLANK) ? 0 : t]++;
    }
    rack->total += m->ntiles;
}

/* Make a CAMBIO for `seat`: the tile from its rack on the square, the letter there to its rack,
 * one CAMBIO fewer left; returns the key updated.  swap_back undoes it (but the key). */
static uint64_t swap_in(search *s, int seat, const tb_cambio *c, uint64_t key)
{
    tb_rack *rack = &s->rack[seat];
    const int given = (c->tile & TB_BLANK) ? 0 : c->tile, got = c->old & TB_CODE;
    key ^= s->z_rack[seat][given][rack->count[given]];
    rack->count[given]--;
    key ^= s->z_rack[seat][given][rack->count[given]];
    key ^= s->z_rack[seat][got][rack->count[got]];
    rack->count[got]++;
    key ^= s->z_rack[seat][got][rack->count[got]];
    key ^= z_tile(s, c->row, c->col, c->old) ^ z_tile(s, c->row, c->col, c->tile);
    key ^= s->z_cambio[seat][s->cambios_left[seat]];
    s->cambios_left[seat]--;
    return key ^ s->z_cambio[seat][s->cambios_left[seat]];
}

static void swap_back(search *s, int seat, const tb_cambio *c)
{
    tb_rack *rack = &s->rack[seat];
    rack->count[(c->tile & TB_BLANK) ? 0 : c->tile]++;
    rack->count[c->old & TB_CODE]--;
    s->cambios_left[seat]++;
}

/* -- negamax ------------------------------------------------------------------------------ */

static int expand(search *s, int ply, const tb_board *parent, option played, int seat, int run,
                  int depth, int alpha, int beta, uint64_t key, int tt_best);

/* The best (our points - theirs) from here to the end, in half points, for `seat` to move:
 * exact if strictly inside (alpha, beta), else a bound (fail-soft).  `key` is the node's. */
static int negamax(search *s, int ply, const tb_board *parent, option played, int seat, int run,
                   int depth, int alpha, int beta, uint64_t key)
{
    if (tick(s))
        return 0;
    const entry *e = tt_find(s, key);
    unsigned guessed = 0;
    int tt_best = -1;
    if (e) {
        tt_best = e->best == NO_BEST ? -1 : e->best;
        unsigned incomplete = e->flags & F_INCOMPLETE;
        if (!incomplete || e->depth >= depth) {
            const int v = e->value, a0 = alpha, b0 = beta;
            const unsigned bound = e->flags & B_MASK;
            if (bound == B_LOWER && v > alpha)
                alpha = v;
            else if (bound == B_UPPER && v < beta)
                beta = v;
            /* what the table told rests on a guess if the entry is incomplete: then so does
             * whatever this node finds with it */
            if (bound == B_EXACT || alpha != a0 || beta != b0)
                guessed = incomplete;
            if (bound == B_EXACT || alpha >= beta) {
                s->flags |= guessed;
                return v;
            }
        }
    }
    const unsigned outer = s->flags;
    s->flags = guessed;
    const int v = expand(s, ply, parent, played, seat, run, depth, alpha, beta, key, tt_best);
    s->flags |= outer;
    return v;
}

/* The depth a node's child is searched to.  A pass that is the mover's only option, right
 * after a scoring turn, costs no ply: it is forced, so it branches nothing, and a side stuck
 * with unplayable tiles would otherwise double the depth every line of the other needs.  The
 * run of scoreless turns is then 1, so two such passes never follow each other (in a game
 * where a pass counts as scoreless: every game here; elsewhere passes cost a ply). */
static inline int child_depth(const search *s, int n, int run, int depth)
{
    return n == 0 && run == 0 && s->g->scoreless_passes ? depth : depth - 1;
}

/* The value of one option at a node (a placement, a CAMBIO or the pass) for the side to
 * move, its child searched to `depth`: exact if strictly inside (alpha, beta), else a
 * bound.  The child's board goes to ply + 1's slot; the racks are as before on return. */
static int option_value(search *s, int ply, const tb_board *b, int seat, int run, int depth,
                        option o, int alpha, int beta, uint64_t key)
{
    tb_rack *me = &s->rack[seat], *them = &s->rack[1 - seat];
    const uint64_t turn = s->z_side ^ z_run(s, run);
    const tb_move *m = o.place;
    if (o.cambio) {
        /* a CAMBIO scores and keeps the rack's size: it ends the scoreless run, never the game */
        const int score2 = 2 * o.cambio->score;
        const uint64_t child = swap_in(s, seat, o.cambio, key) ^ turn ^ z_run(s, 0);
        const int value = score2 - negamax(s, ply + 1, b, o, 1 - seat, 0, depth, score2 - beta,
                                           score2 - alpha, child);
        swap_back(s, seat, o.cambio);
        return value;
    }
    if (!m) {
        const int after = tb_scoreless_run(s->g, run, TB_TURN_PASS);
        if (s->limit && after >= s->limit)
            return 2 * finish(s, me, them, 0);
        /* If the other side cannot place a tile here (nor make a CAMBIO), it must pass back,
         * and we are where we were with two more scoreless turns.  Our moves lead to the same
         * positions whatever the run (a placement or a CAMBIO ends it), so passing can add
         * nothing to them but the end the passes bring: the node is worth max(our moves,
         * adjustments now), and the pass may be valued as the adjustments.  (Where passes do
         * not count towards a scoreless limit they could go on for ever: then it is searched
         * as any move.) */
        if (s->limit && s->g->scoreless_passes && !s->cambios_left[1 - seat] &&
            !tb_has_move(s->r, s->k, b, them))
            return 2 * finish(s, me, them, 0);
        return -negamax(s, ply + 1, b, PASS, 1 - seat, after, depth, -beta, -alpha,
                        key ^ turn ^ z_run(s, after));
    }
    const int score2 = 2 * m->score;
    const uint64_t child = take_tiles(s, seat, m, key) ^ turn ^ z_run(s, 0);
    int value;
    if (!me->total) {
        value = score2 + 2 * finish(s, me, them, 1); /* going out: no reply */
    } else {
        /* the reply's window in its own terms: score - reply in (alpha, beta) */
        value = score2 - negamax(s, ply + 1, b, o, 1 - seat, 0, depth, score2 - beta,
                                 score2 - alpha, child);
    }
    give_back(s, seat, m);
    return value;
}

/* The board of the node at `ply`: its parent's, with the move that led to it (if any) put
 * down in the ply's slot.  Built only when the node needs it: most horizon nodes do not. */
static const tb_board *node_board(search *s, int ply, const tb_board *parent, option played)
{
    if (!played.place && !played.cambio)
        return parent;
    tb_board *b = &s->boards[ply];
    tb_board_copy(b, parent);
    if (played.place)
        tb_board_apply(b, s->r, s->k, played.place);
    else
        tb_board_replace(b, s->r, s->k, played.cambio->row, played.cambio->col,
                         played.cambio->tile);
    return b;
}

static int expand(search *s, int ply, const tb_board *parent, option played, int seat, int run,
                  int depth, int alpha, int beta, uint64_t key, int tt_best)
{
    tb_rack *me = &s->rack[seat], *them = &s->rack[1 - seat];
    const int no_one = s->g->no_one_can_play;
    if (depth == 0) {
        /* A guess, marked as one.  (The reference first asks whether anyone can place a
         * tile, since if no one can the game is over; here that is seen one ply deeper, in
         * the next pass: a horizon node then needs no board at all, which saves two fifths
         * of the time.) */
        s->flags |= F_HORIZON;
        return horizon(s, me, them);
    }
    const tb_board *b = node_board(s, ply, parent, played);
    const int n = gen_moves(s, ply, b, seat);
    if (n < 0)
        return 0;
    /* no one able to place a tile ends the game, whatever CAMBIOs are left (as in Game) */
    if (s->n_place[ply] == 0 && no_one && !tb_has_move(s->r, s->k, b, them))
        return 2 * finish(s, me, them, 0);
    uint64_t *ord = s->order[ply];
    int best = -INF, best_index = -1;
    const int alpha0 = alpha;
    if (tt_best > n)
        tt_best = -1;
    int next = 0; /* placements ord[0..next) are in their final order */
    for (int step = 0; step <= n; step++) {
        const int index = option_order(step, tt_best); /* its place in the list (n: pass) */
        if (index < n)
            while (next <= index)
                select_next(ord, next++, n);
        const int value = option_value(s, ply, b, seat, run, child_depth(s, n, run, depth),
                                       option_at(s, ply, n, index), alpha, beta, key);
        if (s->stopped)
            return 0;
        if (value > best) {
            best = value;
            best_index = index;
        }
        if (best > alpha)
            alpha = best;
        if (alpha >= beta)
            break;
    }
    const unsigned bound = alpha0 < best && best < beta ? B_EXACT
                           : best >= beta                ? B_LOWER
                                                         : B_UPPER;
    tt_store(s, key, depth, best, bound, best_index, s->flags & F_INCOMPLETE);
    return best;
}

/* -- the root ------------------------------------------------------------------------------- */

/* The principal line from the root's choice (value2 for the side to move, found at `depth`).
 *
 * When the answer is exact, each reply is proven: at every node the first option (the
 * table's best, then the rest in order) whose value, searched again with a window of one
 * value around it, is the node's value; the table, full of complete entries, makes that
 * cheap.  Otherwise each side's best as the table remembers it.  The line stops where the
 * game ends (going out, the scoreless limit, no one able to place a tile). */
static void principal_line(search *s, const tb_board *root, int n, int index, int run,
                           uint64_t key, int value, int depth, int verify, tb_eg_result *out)
{
    const tb_board *b = root;
    int seat = 0, ply = 0; /* n: the root's options (placements and CAMBIOs) */
    const int no_one = s->g->no_one_can_play;
    s->max_nodes = 0; /* the line is not budgeted: the search itself was */
    s->deadline = 0;
    for (;;) {
        const option o = option_at(s, ply, n, index);
        const tb_move *m = o.place;
        const int next_depth = child_depth(s, n, run, depth);
        tb_eg_step *played = &out->line[out->line_len++];
        const uint64_t turn = s->z_side ^ z_run(s, run);
        if (o.cambio) {
            played->kind = TB_EG_CAMBIO;
            memset(&played->move, 0, sizeof played->move);
            played->cambio = *o.cambio;
            key = swap_in(s, seat, o.cambio, key) ^ turn ^ z_run(s, 0);
            run = 0;
            value = 2 * o.cambio->score - value;
            b = node_board(s, ply + 1, b, o);
        } else if (!m) {
            played->kind = TB_EG_PASS;
            memset(&played->move, 0, sizeof played->move);
            run = tb_scoreless_run(s->g, run, TB_TURN_PASS);
            if (s->limit && run >= s->limit)
                return;
            key ^= turn ^ z_run(s, run);
            value = -value;
        } else {
            played->kind = TB_EG_PLACE;
            played->move = *m;
            key = take_tiles(s, seat, m, key) ^ turn ^ z_run(s, 0);
            run = 0;
            value = 2 * m->score - value;
            if (!s->rack[seat].total)
                return;
            b = node_board(s, ply + 1, b, o);
        }
        seat = 1 - seat;
        ply++;
        depth = next_depth;
        if (out->line_len == TB_EG_MAX_LINE || depth <= 0 || ply + 1 >= s->plies)
            return;
        n = gen_moves(s, ply, b, seat);
        if (n < 0 ||
            (s->n_place[ply] == 0 && no_one && !tb_has_move(s->r, s->k, b, &s->rack[1 - seat])))
            return;
        for (int i = 0; i < n; i++)
            select_next(s->order[ply], i, n);
        const entry *e = tt_find(s, key);
        const int tt_best = e && e->best != NO_BEST && e->best <= n ? e->best : -1;
        index = -1;
        for (int step = 0; verify && step <= n && index < 0; step++) {
            const int choice = option_order(step, tt_best);
            const int v = option_value(s, ply, b, seat, run, child_depth(s, n, run, depth),
                                       option_at(s, ply, n, choice), value - 1, value + 1, key);
            if (v == value)
                index = choice;
        }
        if (index < 0) {
            if (tt_best < 0)
                return;
            index = tt_best;
        }
    }
}

/* -- set-up ---------------------------------------------------------------------------------- */

static void free_search(search *s)
{
    free(s->tt);
    free(s->z_square);
    if (s->lists)
        for (int i = 0; i < s->plies; i++)
            tb_movelist_free(&s->lists[i]);
    if (s->order)
        for (int i = 0; i < s->plies; i++)
            free(s->order[i]);
    if (s->cambios)
        for (int i = 0; i < s->plies; i++)
            free(s->cambios[i]);
    free(s->lists);
    free(s->order);
    free(s->order_cap);
    free(s->cambios);
    free(s->cambio_cap);
    free(s->n_place);
    free(s->boards);
}

static int init_search(search *s, const tb_rules *r, const tb_kwg *k, const tb_game_rules *g,
                       const tb_eg_config *c)
{
    memset(s, 0, sizeof *s);
    s->r = r;
    s->k = k;
    s->g = g;
    s->width = c->width;
    s->max_depth = c->max_depth;
    s->limit = g->scoreless_rounds ? 2 * g->scoreless_rounds : 0;
    s->max_nodes = c->max_nodes;
    s->deadline = c->seconds > 0 ? now() + c->seconds : 0;
    s->cols = r->cols;
    const int plies = s->plies = 2 * c->max_depth + 3;
    s->tt = calloc((size_t)1 << c->tt_bits, sizeof *s->tt);
    s->tt_mask = ((uint64_t)1 << c->tt_bits) / WAYS - 1;
    s->z_square = malloc((size_t)r->rows * r->cols * 64 * sizeof *s->z_square);
    s->boards = malloc((size_t)plies * sizeof *s->boards);
    s->lists = calloc((size_t)plies, sizeof *s->lists);
    s->order = calloc((size_t)plies, sizeof *s->order);
    s->order_cap = calloc((size_t)plies, sizeof *s->order_cap);
    s->cambios = calloc((size_t)plies, sizeof *s->cambios);
    s->cambio_cap = calloc((size_t)plies, sizeof *s->cambio_cap);
    s->n_place = calloc((size_t)plies, sizeof *s->n_place);
    if (!s->tt || !s->z_square || !s->boards || !s->lists || !s->order || !s->order_cap ||
        !s->cambios || !s->cambio_cap || !s->n_place)
        return -1;
    /* Fixed seed: the same position gets the same keys, so a search is reproducible. */
    uint64_t seed = 0x7461626C65726FULL;
    for (size_t i = 0; i < (size_t)r->rows * r->cols * 64; i++)
        s->z_square[i] = splitmix(&seed);
    for (int seat = 0; seat < 2; seat++)
        for (int code = 0; code <= TB_MAX_CODE; code++)
            for (int n = 0; n <= TB_MAX_RACK; n++)
                s->z_rack[seat][code][n] = splitmix(&seed);
    s->z_side = splitmix(&seed);
    s->max_run = (int)(sizeof s->z_run / sizeof s->z_run[0]) - 1;
    for (int i = 0; i <= s->max_run; i++)
        s->z_run[i] = splitmix(&seed);
    for (int seat = 0; seat < 2; seat++)
        for (int n = 0; n <= TB_EG_MAX_CAMBIOS; n++)
            s->z_cambio[seat][n] = splitmix(&seed);
    return 0;
}

int tb_endgame(const tb_rules *rules, const tb_kwg *kwg, const tb_game_rules *game,
               const tb_board *root, const tb_rack *me, const tb_rack *them,
               const tb_eg_config *config, tb_eg_result *out)
{
    memset(out, 0, sizeof *out);
    if (config->max_depth < 1 || config->max_depth > TB_EG_MAX_DEPTH || config->tt_bits < 10 ||
        config->tt_bits > 30 || config->width < 0 || config->scoreless < 0 || !me->total ||
        me->total > TB_MAX_RACK || them->total > TB_MAX_RACK || game->scoreless_rounds > 60 ||
        config->cambios_left[0] < 0 || config->cambios_left[0] > TB_EG_MAX_CAMBIOS ||
        config->cambios_left[1] < 0 || config->cambios_left[1] > TB_EG_MAX_CAMBIOS)
        return -1;
    search *s = malloc(sizeof *s);
    if (!s)
        return -2;
    if (init_search(s, rules, kwg, game, config) < 0) {
        free_search(s);
        free(s);
        return -2;
    }
    s->rack[0] = *me;
    s->rack[1] = *them;
    const int run = config->scoreless;
    uint64_t key = z_run(s, run);
    for (int seat = 0; seat < 2; seat++) {
        s->cambios_left[seat] = config->cambios_left[seat];
        key ^= s->z_cambio[seat][s->cambios_left[seat]];
        for (int c = 0; c <= TB_MAX_CODE; c++)
            key ^= s->z_rack[seat][c][s->rack[seat].count[c]];
    }
    /* the root's options: its placements and CAMBIOs in order, then the pass (index n) */
    const int n = gen_moves(s, 0, root, 0);
    int rc = 0;
    if (n < 0) {
        rc = -2;
        goto done;
    }
    for (int i = 0; i < n; i++)
        select_next(s->order[0], i, n);
    const unsigned root_trunc = s->flags;
    int best_index = -1, best_value = 0;
    for (int depth = 1; depth <= config->max_depth; depth++) {
        s->flags = root_trunc;
        int alpha = -INF, pass_best = -INF, pass_index = -1;
        for (int step = 0; step <= n; step++) {
            const int index = option_order(step, best_index); /* the last pass's best first */
            const int value = option_value(s, 0, root, 0, run, child_depth(s, n, run, depth),
                                           option_at(s, 0, n, index), alpha, INF, key);
            if (s->stopped)
                break;
            /* strictly better only: a later option that ties the best so far failed low, and
             * its value is then a bound, not proof that it reaches as much */
            if (value > pass_best) {
                pass_best = value;
                pass_index = index;
            }
            if (value > alpha)
                alpha = value;
        }
        if (s->stopped)
            break;
        best_index = pass_index;
        best_value = pass_best;
        out->found = 1;
        out->depth = depth;
        out->exact = !(s->flags & F_INCOMPLETE);
        if (!(s->flags & F_HORIZON))
            break;
    }
    if (s->oom) {
        rc = -2;
        goto done;
    }
    s->stopped = 0;
    if (!out->found) {
        /* not one pass in the budget: the first option in order */
        best_index = 0;
        const option first = option_at(s, 0, n, 0);
        best_value = first.place    ? 2 * first.place->score
                     : first.cambio ? 2 * first.cambio->score
                                    : 0;
    }
    out->value2 = best_value;
    out->nodes = s->nodes;
    principal_line(s, root, n, best_index, run, key, best_value, out->found ? out->depth : 1,
                   out->exact, out);
    if (s->oom)
        rc = -2;
done:
    free_search(s);
    free(s);
    return rc;
}
