/* Move generation: a GADDAG walk from every anchor, scoring while it places tiles.
 *
 * See docs/movegen.md for the full description.  In short, for each line and each anchor
 * (an empty square next to a tile, or a start square on an empty board) the walk places a
 * tile on the anchor, extends leftwards (reading board tiles, or placing rack tiles on empty
 * squares that are not anchors), and whenever the square to its left is free it may take the
 * GADDAG separator and extend rightwards.  Each move is found exactly once per direction: from
 * the leftmost anchor it covers.  The score is carried along in three numbers: the main
 * word's letter sum, the product of its word factors, and the sum of the finished cross
 * words; the word-end factors of the main word are applied when the word is recorded.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

#define EDGE_CHILD TB_EDGE_CHILD
#define EDGE_ACCEPTS TB_EDGE_ACCEPTS
#define EDGE_SET TB_EDGE_SET

enum { MODE_COUNT, MODE_LIST, MODE_BEST };

#ifdef TB_STATS
tb_search_stats tb_stats;
/* The current anchor's bound over some of its spans only (shadow_bound): without the bingo
 * spans, over the spans through no board tile, over those through at most one. */
typedef struct {
    double no_bingo, no_board, one_board;
} stats_bounds;
static stats_bounds stats_anchor;
static uint64_t stats_inserts;
#endif

#define MAX_LEAVE_INDEX 1024 /* prod(count + 1) over the distinct tiles of a 10-tile rack */

typedef struct gen {
    const tb_edge *edges;
    uint32_t gaddag_root;
    tb_mask gaddag_set;
    const tb_rules *r;
    const tb_board *b;
    const int16_t *value;
    /* the line being searched */
    int dir, line, L, anchor;
    const uint8_t *tile;
    const tb_mask *xmask; /* the letters a tile may be on each square: cross-set and extension */
    tb_mask place[TB_MAX_DIM];
    const int32_t *xbase;
    const int16_t *xlfm;
    const uint8_t *hasx, *anc;
    const int16_t *lf, *wmid, *wend, *add;
    const uint8_t *ex;
    const uint8_t *above; /* across lines: the row above (NULL on the top row) */
    int right_free;       /* the square after the anchor is empty or off the board */
    int can_left;         /* tiles may be placed left of the anchor */
    /* the move being built */
    uint8_t rack[TB_MAX_CODE + 1];
    tb_mask rack_mask; /* letters with rack[c] > 0 (natural tiles only) */
    tb_mask avail;     /* letters a rack tile can be: rack_mask, or every letter with a blank */
    int rack_total;
    int ntiles, addend, nex, start, leave_idx;
    uint8_t strip[TB_MAX_DIM];
    /* constants of the score */
    int first_mult, first_bonus, bingo_at, bingo_bonus, min_tiles;
    /* leave index: mixed radix over the rack's distinct tiles */
    int stride[TB_MAX_CODE + 1];
    int n_leave;
    double leave_val[MAX_LEAVE_INDEX];
    double best_leave[TB_MAX_RACK + 1]; /* best leave value after placing k tiles */
    int vals[TB_MAX_RACK];              /* rack tiles' face values, highest first */
    uint8_t by_value[TB_MAX_RACK];      /* the rack's distinct letters, highest value first */
    int n_by_value;
    /* the word map's view of the rack (mapgen.inc); NULL when the walk does the search */
    struct map_rack *mr;
    /* output */
    int mode;
    uint64_t count;
    int64_t score_sum;
    tb_movelist *list;
    int oom;
    tb_move *best;
    int nbest, best_cap;
} gen;

/* -- helpers ------------------------------------------------------------------------------- */

int tb_move_before(const tb_move *a, const tb_move *b)
{
    if (a->equity != b->equity)
        return a->equity > b->equity;
    if (a->score != b->score)
        return a->score > b->score;
    if (a->dir != b->dir)
        return a->dir < b->dir;
    if (a->line != b->line)
        return a->line < b->line;
    if (a->start != b->start)
        return a->start < b->start;
    int n = a->len < b->len ? a->len : b->len;
    for (int i = 0; i < n; i++)
        if (a->tiles[i] != b->tiles[i])
            return a->tiles[i] < b->tiles[i];
    return a->len < b->len;
}

void tb_movelist_free(tb_movelist *l)
{
    free(l->moves);
    l->moves = NULL;
    l->n = l->cap = 0;
}

static void fill_move(const gen *g, tb_move *m, int end, int score, double equity)
{
    const int start = g->start;
    m->equity = equity;
    m->score = score;
    m->dir = (uint8_t)g->dir;
    m->line = (uint8_t)g->line;
    m->start = (uint8_t)start;
    m->len = (uint8_t)(end - start + 1);
    m->ntiles = (uint8_t)g->ntiles;
    m->shuffle = g->nex > 0;
    memset(m->tiles, 0, sizeof m->tiles);
    for (int p = start; p <= end; p++)
        m->tiles[p - start] = g->tile[p] ? 0 : g->strip[p];
}

/* A one-tile move forms up to two words; it is kept in one direction only: down if a tile lies
 * directly above the new tile, else across (the convention of reference.generate_placements).
 * The new tile is on the anchor. */
static inline int single_tile_kept(const gen *g)
{
    const int a = g->anchor;
    if (g->dir == 0)
        return !(g->above && g->above[a]);
    return (a > 0 && g->tile[a - 1]) || !g->hasx[a];
}

static void best_insert(gen *g, const tb_move *m)
{
    TB_STAT(stats_inserts++);
    int i = g->nbest < g->best_cap ? g->nbest++ : g->best_cap - 1;
    while (i > 0 && tb_move_before(m, &g->best[i - 1])) {
        g->best[i] = g->best[i - 1];
        i--;
    }
    g->best[i] = *m;
}

static void record(gen *g, int end, int msum, int xsum, int wm)
{
    const int start = g->start;
    if (end == start || g->ntiles < g->min_tiles)
        return; /* a one-letter main word is no word; the first move's minimum */
    if (g->ntiles == 1 && !single_tile_kept(g))
        return;
    if (!g->tile[start])
        wm *= g->wend[start];
    if (!g->tile[end])
        wm *= g->wend[end];
    const int score = (msum * wm + g->addend + xsum) * g->first_mult + g->first_bonus +
                      (g->ntiles == g->bingo_at ? g->bingo_bonus : 0);
    switch (g->mode) {
    case MODE_COUNT:
        g->count++;
        g->score_sum += score;
        return;
    case MODE_LIST: {
        tb_movelist *l = g->list;
        if (l->n == l->cap) {
            size_t cap = l->cap ? 2 * l->cap : 1024;
            tb_move *grown = realloc(l->moves, cap * sizeof *grown);
            if (!grown) {
                g->oom = 1;
                return;
            }
            l->moves = grown;
            l->cap = cap;
        }
        fill_move(g, &l->moves[l->n++], end, score, (double)score);
        return;
    }
    default: {
        const double eq = (double)score + g->leave_val[g->leave_idx];
        if (g->nbest == g->best_cap && eq < g->best[g->best_cap - 1].equity)
            return;
        tb_move m;
        fill_move(g, &m, end, score, eq);
        if (g->nbest == g->best_cap && !tb_move_before(&m, &g->best[g->best_cap - 1]))
            return;
        best_insert(g, &m);
    }
    }
}

/* -- the GADDAG walk ----------------------------------------------------------------------- */

#define BELOW(t) (((tb_mask)1 << (t)) - 1)


/* Whether some rack tile fits empty square p (its cross-set meets the rack). */
static inline int can_place(const gen *g, int p) { return (g->xmask[p] & g->avail) != 0; }

/* -- set-up ---------------------------------------------------------------------------------- */

static void set_line(gen *g, int d, int line)
{
    const tb_board *b = g->b;
    const tb_rules *r = g->r;
    g->dir = d;
    g->line = line;
    g->L = d ? b->rows : b->cols;
    g->tile = b->tile[d][line];
    for (int p = 0; p < g->L; p++)
        g->place[p] = b->xmask[d][line][p] & b->emask[d][line][p];
    g->xmask = g->place;
    g->xbase = b->xbase[d][line];
    g->xlfm = b->xlfm[d][line];
    g->hasx = b->hasx[d][line];
    g->anc = b->anchor[d][line];
    g->lf = r->lf[d][line];
    g->wmid = r->wmid[d][line];
    g->wend = r->wend[d][line];
    g->add = r->add[d][line];
    g->ex = r->ex[d][line];
    g->above = (d == 0 && line > 0) ? b->tile[0][line - 1] : NULL;
}

static inline void set_anchor(gen *g, int a)
{
    g->anchor = a;
    g->right_free = a + 1 == g->L || !g->tile[a + 1];
}

#define WALK(name) name##_plain
#include "walk.inc"
#undef WALK

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
#define HAVE_POPCNT_CLONE 1
#pragma GCC push_options
#pragma GCC target("popcnt")
#define WALK(name) name##_popcnt
#include "walk.inc"
#undef WALK
#pragma GCC pop_options
#endif

#ifdef HAVE_POPCNT_CLONE
static int cpu_has_popcnt(void)
{
    static int has = -1;
    if (has < 0) {
        __builtin_cpu_init();
        has = __builtin_cpu_supports("popcnt") != 0;
    }
    return has;
}
#endif

/* The walk for this CPU: the popcount copy where the instruction exists. */
static void search_anchor(gen *g, int a)
{
#ifdef HAVE_POPCNT_CLONE
    if (cpu_has_popcnt()) {
        search_anchor_popcnt(g, a);
        return;
    }
#endif
    search_anchor_plain(g, a);
}

double tb_end_value(const tb_rules *rules, const tb_end_values *e, const uint8_t *codes, int n)
{
    if (!n)
        return (double)(e->factor * e->others_points + e->blank_penalty * e->others_blanks);
    int points = 0, blanks = 0;
    for (int i = 0; i < n; i++) {
        if (codes[i]) {
            points += rules->value[codes[i]];
        } else {
            points += e->blank_value;
            blanks++;
        }
    }
    return -(double)(10 + e->factor * points + e->blank_penalty * blanks);
}

static int leave_setup(gen *g, const tb_leaves *leaves, const tb_end_values *end)
{
    /* distinct rack codes ascending (blank = 0 first), mixed-radix strides */
    int codes[TB_MAX_RACK], counts[TB_MAX_RACK], m = 0, size = 1;
    for (int c = 0; c <= TB_MAX_CODE; c++) {
        g->stride[c] = 0;
        if (!g->rack[c])
            continue;
        codes[m] = c;
        counts[m] = g->rack[c];
        g->stride[c] = size;
        size *= g->rack[c] + 1;
        m++;
    }
    if (size > MAX_LEAVE_INDEX)
        return -1;
    g->n_leave = size;
    g->leave_idx = size - 1; /* every tile still on the rack */
    for (int k = 0; k <= TB_MAX_RACK; k++)
        g->best_leave[k] = -INFINITY;
    if (!leaves && !end) {
        memset(g->leave_val, 0, (size_t)size * sizeof g->leave_val[0]);
        for (int k = 0; k <= g->rack_total; k++)
            g->best_leave[k] = 0.0;
        return 0;
    }
    /* every sub-multiset's key first, their slots prefetched, then the look-ups: the misses
     * of a large table overlap instead of queueing.  The index is the kept multiset's
     * mixed-radix count (tb_kept_next). */
    uint64_t keys[MAX_LEAVE_INDEX];
    int8_t placed[MAX_LEAVE_INDEX];
    uint8_t digit[TB_MAX_RACK] = {0};
    for (int idx = 0; idx < size; idx++, tb_kept_next(digit, counts, m)) {
        uint8_t kept[TB_MAX_RACK];
        int n;
        const uint64_t key = tb_kept_key(codes, digit, m, kept, &n);
        placed[idx] = (int8_t)(g->rack_total - n);
        if (end) {
            g->leave_val[idx] = tb_end_value(g->r, end, kept, n);
            continue;
        }
        keys[idx] = key;
        tb_leaves_prefetch(leaves, key);
    }
    for (int idx = 0; idx < size; idx++) {
        double v = end ? g->leave_val[idx] : tb_leaves_get(leaves, keys[idx]);
        g->leave_val[idx] = v;
        if (v > g->best_leave[placed[idx]])
            g->best_leave[placed[idx]] = v;
    }
    return 0;
}

static int gen_init(gen *g, const tb_rules *r, const tb_kwg *k, const tb_board *b,
                    const tb_rack *rack, int first_turn, int mode)
{
    g->edges = k->edges;
    g->gaddag_root = k->gaddag_root;
    g->gaddag_set = k->gaddag_set;
    g->r = r;
    g->b = b;
    g->value = r->value;
    g->mode = mode;
    g->count = 0;
    g->score_sum = 0;
    g->oom = 0;
    g->nbest = 0;
    g->mr = NULL;
    g->ntiles = g->addend = g->nex = g->start = 0;
    g->rack_total = 0;
    g->rack_mask = 0;
    for (int c = 0; c <= TB_MAX_CODE; c++) {
        g->rack[c] = rack->count[c];
        g->rack_total += rack->count[c];
        if (c && rack->count[c])
            g->rack_mask |= (tb_mask)1 << c;
    }
    g->avail = g->rack[0] ? r->letters : g->rack_mask;
    if (g->rack_total > TB_MAX_RACK)
        return -1;
    const int empty = b->n_tiles == 0;
    g->can_left = !(empty && r->first_letter);
    g->min_tiles = empty ? r->min_tiles : 0;
    g->first_mult = first_turn ? r->first_mult : 1;
    g->first_bonus = first_turn ? r->first_bonus : 0;
    g->bingo_at = r->rack_size;
    g->bingo_bonus = r->bingo_bonus;
    return 0;
}

/* Every anchor of every line, in board order. */
static void gen_all_anchors(gen *g)
{
    if (!g->rack_total || !g->gaddag_root)
        return;
    for (int d = 0; d < 2; d++) {
        const int lines = d ? g->b->cols : g->b->rows;
        for (int line = 0; line < lines; line++) {
            set_line(g, d, line);
            for (int a = 0; a < g->L; a++) {
                if (g->anc[a] && can_place(g, a))
                    search_anchor(g, a);
            }
        }
    }
}

uint64_t tb_count_moves(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                        const tb_rack *rack, int first_turn, int64_t *score_sum)
{
    gen g;
    if (gen_init(&g, rules, kwg, b, rack, first_turn, MODE_COUNT) || leave_setup(&g, NULL, NULL))
        return 0;
    gen_all_anchors(&g);
    if (score_sum)
        *score_sum = g.score_sum;
    return g.count;
}

int tb_has_move(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b, const tb_rack *rack)
{
    gen g;
    if (gen_init(&g, rules, kwg, b, rack, 0, MODE_COUNT) || leave_setup(&g, NULL, NULL))
        return 0;
    if (!g.rack_total || !g.gaddag_root)
        return 0;
    /* anchor by anchor, stopping at the first that yields a move: a search that only asks
     * "can this rack play at all" rarely walks more than a few anchors */
    for (int d = 0; d < 2; d++) {
        const int lines = d ? b->cols : b->rows;
        for (int line = 0; line < lines; line++) {
            set_line(&g, d, line);
            for (int a = 0; a < g.L; a++) {
                if (g.anc[a] && can_place(&g, a)) {
                    search_anchor(&g, a);
                    if (g.count)
                        return 1;
                }
            }
        }
    }
    return 0;
}

int tb_generate_all(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                    const tb_rack *rack, int first_turn, tb_movelist *out)
{
    gen g;
    if (gen_init(&g, rules, kwg, b, rack, first_turn, MODE_LIST) || leave_setup(&g, NULL, NULL))
        return -1;
    g.list = out;
    gen_all_anchors(&g);
    return g.oom ? -1 : 0;
}

/* -- ranked generation with anchor bounds ---------------------------------------------------- */

/* One span of an anchor (shadow_bound): the squares a move covers and the rack tiles it takes,
 * with the bounds of its moves; the word map's search (mapgen.inc) works span by span. */
typedef struct span_bound {
    double eq;   /* bound on the equity of every move of the span */
    int score;   /* bound on its score */
    uint8_t s, e, k; /* the word's first and last squares, the rack tiles it takes */
    uint8_t dir, line, anchor;
    /* the score is at most (fixed + sum of coef[i] × the i-th highest value played) × the
     * first turn's factor, plus bonuses: coef holds the squares' multipliers, highest first */
    int fixed;
    int16_t coef[TB_MAX_RACK];
} span_bound;

static int map_np_best_leave(gen *g, int k, double *best);
static int map_one_best_leave(gen *g, int k, unsigned L, double *best);

/* An upper bound on the equity of every move found from the current anchor (shadow play).
 *
 * Moves from anchor a are fixed, up to the letters, by how many empty squares they use left of
 * a (l) and right of it (r): the word then runs through whatever board tiles adjoin.  For each
 * (l, r) the bound is exact in everything but the letters: the board tiles' values, the word
 * factors (word-end factors included, since the ends are known), addends and cross-word bases;
 * the new tiles' values are bounded by pairing the rack's highest values with the squares'
 * highest multipliers (rearrangement inequality), or by each square's best fitting rack tile
 * if that is lower.  Cross-sets stop the span at squares no rack tile fits.  The best leave for
 * the number of tiles placed is added.  (Asking the lexicon here, e.g. whether the whole rack
 * spells any word, was tried: the searches it saved cost less time than the look-ups.) */
static double shadow_bound(gen *g, span_bound *spans, int *nspans)
{
    const int a = g->anchor, L = g->L, R = g->rack_total;
    const tb_mask avail = g->avail;
    const int16_t *val = g->value;
    if (!(g->xmask[a] & avail))
        return -INFINITY;
    /* left side */
    int left_board = 0, fixed_start = -1, maxl = 0;
    if (a > 0 && g->tile[a - 1]) {
        int s = a - 1;
        while (s > 0 && g->tile[s - 1])
            s--;
        for (int i = s; i < a; i++)
            left_board += val[g->tile[i]];
        fixed_start = s;
    } else if (g->can_left) {
        for (int p = a - 1; p >= 0 && !g->tile[p] && !g->anc[p] && maxl < R - 1; p--)
            maxl++;
    }
    /* right side: rpos[j] is the j-th empty square used right of the anchor (rpos[0] = a),
     * rend[j] the word's last square if it is the last one used, rboard[j] the board tiles'
     * values from a + 1 to rend[j]. */
    int rpos[TB_MAX_RACK + 1], rend[TB_MAX_RACK + 1], rboard[TB_MAX_RACK + 1], maxr = 0;
    int first_right = -1; /* the first board tile right of the anchor, if any is reached */
    {
        int p = a, sum = 0;
        rpos[0] = a;
        if (p + 1 < L && g->tile[p + 1])
            first_right = p + 1;
        while (p + 1 < L && g->tile[p + 1])
            sum += val[g->tile[++p]];
        rend[0] = p;
        rboard[0] = sum;
        while (maxr + 1 < R && p + 1 < L) {
            int q = p + 1; /* empty */
            if (!(g->xmask[q] & avail))
                break;
            p = q;
            if (first_right < 0 && p + 1 < L && g->tile[p + 1])
                first_right = p + 1;
            while (p + 1 < L && g->tile[p + 1])
                sum += val[g->tile[++p]];
            maxr++;
            rpos[maxr] = q;
            rend[maxr] = p;
            rboard[maxr] = sum;
        }
    }
    if (nspans)
        *nspans = 0;
    /* highest value of a rack tile that fits each square (0 if only the blank does) */
    int cap[TB_MAX_DIM];
    for (int p = a - maxl; p <= rpos[maxr]; p++) {
        if (g->tile[p])
            continue;
        int best_v = 0;
        for (int i = 0; i < g->n_by_value; i++)
            if ((g->xmask[p] >> g->by_value[i]) & 1) {
                best_v = val[g->by_value[i]];
                break;
            }
        cap[p] = best_v;
    }
    /* Each square's parts of the bound, summed from the anchor outwards, so that a span's
     * are two sums: the cross words' bases and addends (fixed), the letter factors and the
     * cross multipliers times the square's best fitting tile (for that bound), and the word
     * factors.  sq[j] is the j-th square used: j = 0..maxr on the right (rpos), j = maxr + l
     * the l-th left of the anchor. */
    int sq[2 * TB_MAX_RACK + 1];
    int add_r[TB_MAX_RACK + 1], lc_r[TB_MAX_RACK + 1], xc_r[TB_MAX_RACK + 1], w_r[TB_MAX_RACK + 1];
    int add_l[TB_MAX_RACK + 1], lc_l[TB_MAX_RACK + 1], xc_l[TB_MAX_RACK + 1], w_l[TB_MAX_RACK + 1];
    for (int j = 0; j <= maxr; j++) {
        const int q = rpos[j];
        sq[j] = q;
        add_r[j] = (j ? add_r[j - 1] : 0) + g->add[q] + g->xbase[q];
        lc_r[j] = (j ? lc_r[j - 1] : 0) + g->lf[q] * cap[q];
        xc_r[j] = (j ? xc_r[j - 1] : 0) + g->xlfm[q] * cap[q];
        w_r[j] = (j ? w_r[j - 1] : 1) * g->wmid[q];
    }
    add_l[0] = lc_l[0] = xc_l[0] = 0;
    w_l[0] = 1;
    for (int l = 1; l <= maxl; l++) {
        const int q = a - l;
        sq[maxr + l] = q;
        add_l[l] = add_l[l - 1] + g->add[q] + g->xbase[q];
        lc_l[l] = lc_l[l - 1] + g->lf[q] * cap[q];
        xc_l[l] = xc_l[l - 1] + g->xlfm[q] * cap[q];
        w_l[l] = w_l[l - 1] * g->wmid[q];
    }
    double best = -INFINITY;
#ifdef TB_STATS
    stats_anchor = (stats_bounds){-INFINITY, -INFINITY, -INFINITY};
#endif
    for (int l = 0; l <= maxl; l++) {
        /* The squares' multipliers lf × W + xlfm, sorted (highest first) for the
         * rearrangement bound; kept from one right extension to the next while the word
         * factor W stays the same (then only the new squares are inserted). */
        int16_t coef[TB_MAX_RACK] = {0}; /* zeros past the k in use, as a span keeps them */
        int nc = 0, coef_w = 0, coef_rr = -1;
        for (int rr = 0; rr <= maxr && l + 1 + rr <= R; rr++) {
            const int k = l + 1 + rr;
            if (k < g->min_tiles)
                continue;
            const int s = fixed_start >= 0 ? fixed_start : a - l;
            const int e = rend[rr];
            if (s == e)
                continue; /* one letter: no word in this direction */
            double leave = g->best_leave[k];
            /* With the word map, a span through no board tile is filled from the rack alone,
             * and only with the rack's subsets that spell a word of its length. */
            if (g->mr && e - s + 1 == k && !map_np_best_leave(g, k, &leave))
                continue;
            /* through one board letter, only with the subsets that letter completes */
            if (g->mr && e - s == k) {
                const unsigned L = g->tile[fixed_start >= 0 ? fixed_start : first_right] & TB_CODE;
                if (!map_one_best_leave(g, k, L, &leave))
                    continue;
            }
            int W = w_l[l] * w_r[rr];
            if (!g->tile[s])
                W *= g->wend[s];
            if (!g->tile[e])
                W *= g->wend[e];
            const int fixed = W * (left_board + rboard[rr]) + add_l[l] + add_r[rr];
            const int capped = W * (lc_l[l] + lc_r[rr]) + xc_l[l] + xc_r[rr];
            if (W != coef_w) { /* every square again */
                nc = 0;
                coef_w = W;
                coef_rr = -1;
                for (int j = 1; j <= l; j++) {
                    const int q = sq[maxr + j];
                    const int16_t c = (int16_t)(g->lf[q] * W + g->xlfm[q]);
                    int i = nc++;
                    for (; i > 0 && coef[i - 1] < c; i--)
                        coef[i] = coef[i - 1];
                    coef[i] = c;
                }
            }
            for (int j = coef_rr + 1; j <= rr; j++) {
                const int q = sq[j];
                const int16_t c = (int16_t)(g->lf[q] * W + g->xlfm[q]);
                int i = nc++;
                for (; i > 0 && coef[i - 1] < c; i--)
                    coef[i] = coef[i - 1];
                coef[i] = c;
            }
            coef_rr = rr;
            /* two bounds on the new tiles' part, both valid: the rack's values paired with
             * the multipliers (rearrangement), and each square's best fitting tile */
            int var = 0;
            for (int i = 0; i < k; i++)
                var += coef[i] * g->vals[i];
            if (capped < var)
                var = capped;
            int score = (fixed + var) * g->first_mult + g->first_bonus +
                        (k == g->bingo_at ? g->bingo_bonus : 0);
            double eq = (double)score + leave;
            if (eq > best)
                best = eq;
            if (spans) {
                span_bound *sp = &spans[(*nspans)++];
                sp->eq = eq;
                sp->score = score;
                sp->s = (uint8_t)s;
                sp->e = (uint8_t)e;
                sp->k = (uint8_t)k;
                sp->dir = (uint8_t)g->dir;
                sp->line = (uint8_t)g->line;
                sp->anchor = (uint8_t)a;
                sp->fixed = fixed;
                memcpy(sp->coef, coef, sizeof sp->coef);
            }
#ifdef TB_STATS
            int through = 0;
            for (int p = s; p <= e; p++)
                through += g->tile[p] != 0;
            if (k != g->bingo_at && eq > stats_anchor.no_bingo)
                stats_anchor.no_bingo = eq;
            if (through == 0 && eq > stats_anchor.no_board)
                stats_anchor.no_board = eq;
            if (through <= 1 && eq > stats_anchor.one_board)
                stats_anchor.one_board = eq;
#endif
        }
    }
    return best;
}

#include "mapgen.inc"

typedef struct {
    double bound;
    uint8_t dir, line, pos;
#ifdef TB_STATS
    stats_bounds part;
    uint64_t nodes;
    int added; /* the walk added a move to the best n */
#endif
} anchor_bound;

static int by_bound(const void *x, const void *y)
{
    const anchor_bound *a = x, *b = y;
    if (a->bound != b->bound)
        return a->bound > b->bound ? -1 : 1;
    if (a->dir != b->dir)
        return a->dir - b->dir;
    if (a->line != b->line)
        return a->line - b->line;
    return a->pos - b->pos;
}

static int best_common(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                       const tb_rack *rack, int first_turn, const tb_leaves *leaves,
                       const tb_end_values *end, int n, tb_move *out, int use_bounds)
{
    /* the generator and, for the word map's search, the rack's subsets: one allocation */
    struct {
        gen g;
        struct map_rack mr;
    } *both = malloc(sizeof *both);
    if (!both)
        return -1;
    gen *g = &both->g;
    if (n <= 0 || gen_init(g, rules, kwg, b, rack, first_turn, MODE_BEST) ||
        leave_setup(g, leaves, end)) {
        free(both);
        return n <= 0 ? 0 : -1;
    }
    g->best = out;
    g->best_cap = n;
    if (!use_bounds) {
        gen_all_anchors(g);
        int found = g->nbest;
        free(both);
        return found;
    }
    if (!g->rack_total || !g->gaddag_root) {
        free(both);
        return 0;
    }
    {
        int R = 0;
        for (int c = 0; c <= TB_MAX_CODE; c++)
            for (int x = 0; x < g->rack[c]; x++) {
                int v = c ? g->value[c] : 0;
                int i = R++;
                while (i > 0 && g->vals[i - 1] < v) {
                    g->vals[i] = g->vals[i - 1];
                    i--;
                }
                g->vals[i] = v;
            }
        g->n_by_value = 0;
        for (int c = 1; c <= TB_MAX_CODE; c++) {
            if (!g->rack[c])
                continue;
            int i = g->n_by_value++;
            for (; i > 0 && g->value[g->by_value[i - 1]] < g->value[c]; i--)
                g->by_value[i] = g->by_value[i - 1];
            g->by_value[i] = (uint8_t)c;
        }
    }
    if (kwg->wordmap && g->rack[0] <= 2) {
        map_setup(g, &both->mr, kwg->wordmap);
        g->mr = &both->mr;
        int rc = map_search(g, !leaves && !end);
        int found = g->nbest;
        free(both);
        return rc < 0 ? -1 : found;
    }
    anchor_bound *anchors = malloc(2 * TB_MAX_DIM * TB_MAX_DIM * sizeof *anchors);
    if (!anchors) {
        free(both);
        return -1;
    }
    int na = 0;
    for (int d = 0; d < 2; d++) {
        const int lines = d ? b->cols : b->rows;
        for (int line = 0; line < lines; line++) {
            set_line(g, d, line);
            for (int a = 0; a < g->L; a++) {
                if (!g->anc[a])
                    continue;
                set_anchor(g, a);
                double bound = shadow_bound(g, NULL, NULL);
                if (bound == -INFINITY)
                    continue;
                anchors[na].bound = bound;
                anchors[na].dir = (uint8_t)d;
                anchors[na].line = (uint8_t)line;
                anchors[na].pos = (uint8_t)a;
#ifdef TB_STATS
                anchors[na].part = stats_anchor;
                anchors[na].nodes = 0;
                anchors[na].added = 0;
#endif
                na++;
            }
        }
    }
    qsort(anchors, (size_t)na, sizeof *anchors, by_bound);
#ifdef TB_STATS
    uint64_t top_nodes = 0;
#endif
    for (int i = 0; i < na; i++) {
        if (g->nbest == n) {
            const tb_move *worst = &g->best[n - 1];
            if (anchors[i].bound < worst->equity)
                break;
            /* Without leaves a move's equity is its score, so a move from this anchor can at
             * best tie the n-th; it then loses the tie if its line comes later. */
            if (!leaves && !end && anchors[i].bound == worst->equity &&
                (anchors[i].dir > worst->dir ||
                 (anchors[i].dir == worst->dir && anchors[i].line > worst->line)))
                continue;
        }
        set_line(g, anchors[i].dir, anchors[i].line);
#ifdef TB_STATS
        const uint64_t nodes_before = tb_stats.nodes;
        const double top_before = g->nbest ? g->best[0].equity : -INFINITY;
        stats_inserts = 0;
#endif
        search_anchor(g, anchors[i].pos);
#ifdef TB_STATS
        anchors[i].nodes = tb_stats.nodes - nodes_before;
        tb_stats.searched++;
        anchors[i].added = stats_inserts > 0;
        if (g->nbest && g->best[0].equity > top_before)
            top_nodes = anchors[i].nodes;
#endif
    }
#ifdef TB_STATS
    tb_stats.searches++;
    tb_stats.anchors += (uint64_t)na;
    tb_stats.nodes_top += top_nodes;
    for (int i = 0; i < na; i++) {
        if (!anchors[i].added)
            tb_stats.nodes_no_insert += anchors[i].nodes; /* 0 for an anchor not searched */
        if (!g->nbest)
            continue;
        const double last = g->best[g->nbest - 1].equity;
        if (g->best[0].ntiles != g->bingo_at && anchors[i].part.no_bingo < last)
            tb_stats.nodes_bingo += anchors[i].nodes;
        if (!anchors[i].added && anchors[i].part.no_board >= last)
            tb_stats.nodes_no_insert_no_board += anchors[i].nodes;
        if (!anchors[i].added && anchors[i].part.one_board >= last)
            tb_stats.nodes_no_insert_one_board += anchors[i].nodes;
    }
#endif
    free(anchors);
    int found = g->nbest;
    free(both);
    return found;
}

int tb_best_moves(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                  const tb_rack *rack, int first_turn, const tb_leaves *leaves, int n,
                  tb_move *out)
{
    return best_common(rules, kwg, b, rack, first_turn, leaves, NULL, n, out, 1);
}

int tb_best_moves_end(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                      const tb_rack *rack, int first_turn, const tb_end_values *end, int n,
                      tb_move *out)
{
    return best_common(rules, kwg, b, rack, first_turn, NULL, end, n, out, 1);
}

int tb_best_moves_exhaustive(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                             const tb_rack *rack, int first_turn, const tb_leaves *leaves,
                             int n, tb_move *out)
{
    return best_common(rules, kwg, b, rack, first_turn, leaves, NULL, n, out, 0);
}
