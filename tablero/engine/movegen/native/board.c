/* Board state for the native generator: tiles, cross-sets, cross-word scores and anchors.
 *
 * A cross-set is computed per empty square and per direction of the move: the letters x for
 * which the tiles above, x and the tiles below (for an across move) spell a word.  It is a
 * DAWG walk over the tiles before the square, then one step for each child x and a walk over
 * the tiles after it.  The cross word's score is precomputed in two parts so that generation
 * scores a new tile of face value v in one multiply-add: xbase + v * xlfm.
 */
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

#define NODE_TILE(n) ((n) >> 24)
#define NODE_ACCEPTS(n) ((n)&0x00800000u)
#define NODE_END(n) ((n)&0x00400000u)
#define NODE_ARC(n) ((n)&0x003FFFFFu)

static uint32_t list_length(const uint32_t *nodes, uint32_t s)
{
    uint32_t n = 1;
    while (!NODE_END(nodes[s + n - 1]))
        n++;
    return n;
}

/* The edges laid out again for locality: every list reachable from the GADDAG root, then
 * from the DAWG root, a list's children side by side right after the first place it is reached
 * from, then each child's subtree in turn (depth first), so a walk touches memory close
 * together: the candidates tried at a square sit next to each other.  Lists that shared a tail get their
 * own copy.  Updates the roots; NULL if out of memory or if the copy would not fit 22 bits. */
static tb_edge *relayout(tb_kwg *kwg, const uint32_t *nodes, uint32_t n_nodes, const tb_mask *set)
{
    uint32_t *newpos = calloc(n_nodes, sizeof *newpos);
    uint32_t *stack = malloc((size_t)n_nodes * sizeof *stack);
    uint32_t *order = malloc((size_t)n_nodes * sizeof *order);
    if (!newpos || !stack || !order) {
        free(newpos);
        free(stack);
        free(order);
        return NULL;
    }
    uint64_t next = 2; /* the two pointer nodes stay first */
    uint32_t n_order = 0, top = 0;
    const uint32_t roots[2] = {kwg->gaddag_root, kwg->dawg_root};
    for (int r = 0; r < 2; r++) {
        if (!roots[r] || newpos[roots[r]])
            continue;
        newpos[roots[r]] = (uint32_t)next;
        next += list_length(nodes, roots[r]);
        order[n_order++] = roots[r];
        stack[top++] = roots[r];
        while (top) {
            /* s is placed: place its children side by side, then descend into each */
            uint32_t s = stack[--top];
            uint32_t len = list_length(nodes, s), first = top;
            for (uint32_t k = 0; k < len; k++) {
                uint32_t arc = NODE_ARC(nodes[s + k]);
                if (!arc || newpos[arc])
                    continue;
                newpos[arc] = (uint32_t)next;
                next += list_length(nodes, arc);
                order[n_order++] = arc;
                stack[top++] = arc;
            }
            /* first child on top */
            for (uint32_t i = first, j = top; i + 1 < j; i++, j--) {
                uint32_t x = stack[i];
                stack[i] = stack[j - 1];
                stack[j - 1] = x;
            }
        }
    }
    free(stack);
    tb_edge *edges = next <= 0x3FFFFF ? malloc((size_t)next * sizeof *edges) : NULL;
    if (!edges) {
        free(newpos);
        free(order);
        return NULL;
    }
    edges[0] = edges[1] = 0;
    for (uint32_t i = 0; i < n_order; i++) {
        uint32_t s = order[i], len = list_length(nodes, s);
        for (uint32_t k = 0; k < len; k++) {
            uint32_t node = nodes[s + k], arc = NODE_ARC(node);
            edges[newpos[s] + k] = (tb_edge)((node & ~0x003FFFFFu) | (arc ? newpos[arc] : 0)) |
                                   (arc ? (tb_edge)set[arc] << 32 : 0);
        }
    }
    kwg->gaddag_root = newpos[kwg->gaddag_root];
    kwg->dawg_root = kwg->dawg_root ? newpos[kwg->dawg_root] : 0;
    free(newpos);
    free(order);
    return edges;
}

int tb_kwg_init(tb_kwg *kwg, const uint32_t *nodes, uint32_t n_nodes)
{
    kwg->edges = NULL;
    kwg->wordmap = NULL;
    if (n_nodes < 2)
        return -1;
    kwg->nodes = nodes;
    kwg->n_nodes = n_nodes;
    kwg->dawg_root = NODE_ARC(nodes[0]);
    kwg->gaddag_root = NODE_ARC(nodes[1]);
    if (!kwg->gaddag_root)
        return -3;
    for (uint32_t i = 2; i + 1 < n_nodes; i++)
        if (!NODE_END(nodes[i]) && NODE_TILE(nodes[i]) >= NODE_TILE(nodes[i + 1]))
            return -2;
    tb_edge *edges = malloc((size_t)n_nodes * sizeof *edges);
    if (!edges)
        return -1;
    /* suffix tile sets, from the end of the array backwards: set[i] = tiles of nodes i.. to
     * the end of i's list, which for a list's first node is the whole list */
    tb_mask *set = malloc((size_t)n_nodes * sizeof *set);
    if (!set) {
        free(edges);
        return -1;
    }
    tb_mask after = 0;
    for (uint32_t i = n_nodes; i-- > 0;) {
        uint32_t node = nodes[i];
        if (NODE_END(node))
            after = 0;
        unsigned t = NODE_TILE(node);
        if (t <= TB_MAX_CODE)
            after |= (tb_mask)1 << t;
        set[i] = after;
    }
    kwg->dawg_set = kwg->dawg_root ? set[kwg->dawg_root] : 0;
    kwg->gaddag_set = set[kwg->gaddag_root];
    tb_edge *laid = relayout(kwg, nodes, n_nodes, set);
    if (laid) {
        free(edges);
        edges = laid;
    } else {
        for (uint32_t i = 0; i < n_nodes; i++) {
            uint32_t arc = NODE_ARC(nodes[i]);
            edges[i] = (tb_edge)nodes[i] | (arc ? (tb_edge)set[arc] << 32 : 0);
        }
    }
    free(set);
    kwg->edges = edges;
    return 0;
}

void tb_kwg_free(tb_kwg *kwg)
{
    free(kwg->edges);
    kwg->edges = NULL;
}

/* Bits set in a 32-bit mask, inline: this file is built without the popcount instruction
 * (the generator's walk has its own copy for CPUs that have it), and the library call costs
 * more than these few operations. */
static inline uint32_t bits_in(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

/* The edge with tile t in the list (i, set); 0 if none. */
static inline tb_edge child(const tb_kwg *k, uint32_t i, tb_mask set, unsigned t)
{
    if (t > TB_MAX_CODE || !((set >> t) & 1))
        return 0;
    return k->edges[i + bits_in(set & (((tb_mask)1 << t) - 1))];
}

/* Lines of direction d: rows for d = 0, columns for d = 1; their length is the other one. */
static inline int n_lines(const tb_board *b, int d) { return d ? b->cols : b->rows; }
static inline int line_len(const tb_board *b, int d) { return d ? b->rows : b->cols; }

/* The letters x the game has that continue a path of the word graph through square `at`: the
 * path reads tiles[from], tiles[from + step], ... up to the square, then x, then the tiles
 * after it up to tiles[to].  One walk down the tiles before; then, for each letter of the list
 * reached there (its edges are its set's tiles in order, so the i-th set bit is edge p + i), a
 * walk down the tiles after.  With `must_accept`, x counts only if the whole path is a word. */
static tb_mask letters_along(const tb_rules *r, const tb_kwg *k, uint32_t root, tb_mask root_set,
                             const uint8_t *tiles, int from, int at, int to, int step,
                             int must_accept)
{
    uint32_t p = root;
    tb_mask pset = root_set;
    for (int i = from; i != at && pset; i += step) {
        tb_edge e = child(k, p, pset, tiles[i] & TB_CODE);
        p = TB_EDGE_CHILD(e);
        pset = TB_EDGE_SET(e);
    }
    tb_mask mask = 0;
    uint32_t i = 0;
    for (tb_mask cand = pset; cand; cand &= cand - 1, i++) {
        unsigned t = (unsigned)__builtin_ctz(cand);
        if (!((r->letters >> t) & 1))
            continue;
        tb_edge e = k->edges[p + i];
        for (int j = at + step; j != to + step && e; j += step)
            e = child(k, TB_EDGE_CHILD(e), TB_EDGE_SET(e), tiles[j] & TB_CODE);
        if (e && (!must_accept || TB_EDGE_ACCEPTS(e)))
            mask |= (tb_mask)1 << t;
    }
    return mask;
}

/* The letters x the game has for which tiles[lo..at-1] x tiles[at+1..hi] spells a word: the
 * DAWG read forwards (the cross-set computation of move generators). */
static tb_mask fitting(const tb_rules *r, const tb_kwg *k, const uint8_t *tiles, int lo, int at,
                       int hi)
{
    return letters_along(r, k, k->dawg_root, k->dawg_set, tiles, lo, at, hi, 1, 1);
}

/* The letters x the game has for which tiles[lo..at-1] x tiles[at+1..hi] is a factor (a run of
 * consecutive letters) of some word.  In the GADDAG a factor f is a path from the root read as
 * f reversed (the path of any word split after f's last letter begins so): the same walk read
 * backwards, from the root of the GADDAG, and no word needs to end there.  The separator never
 * comes up: it is not a letter of the game. */
static tb_mask extending(const tb_rules *r, const tb_kwg *k, const uint8_t *tiles, int lo, int at,
                         int hi)
{
    return letters_along(r, k, k->gaddag_root, k->gaddag_set, tiles, hi, at, lo, -1, 0);
}

/* Cross-set and cross-word score parts of square [d][line][pos] for a move in direction d. */
static void compute_cross(tb_board *b, const tb_rules *r, const tb_kwg *k, int d, int line,
                          int pos)
{
    if (b->tile[d][line][pos]) {
        b->xmask[d][line][pos] = 0;
        b->emask[1 - d][pos][line] = 0;
        b->hasx[d][line][pos] = 0;
        b->xbase[d][line][pos] = 0;
        b->xlfm[d][line][pos] = 0;
        return;
    }
    /* The perpendicular line through the square: line `pos` of direction 1 - d, where the
     * square sits at position `line`. */
    const uint8_t *perp = b->tile[1 - d][pos];
    int n = n_lines(b, d);
    int lo = line, hi = line;
    while (lo > 0 && perp[lo - 1])
        lo--;
    while (hi + 1 < n && perp[hi + 1])
        hi++;
    /* the same run is the one beside the square in its own line for moves the other way */
    b->emask[1 - d][pos][line] =
        lo == line && hi == line ? r->letters : extending(r, k, perp, lo, line, hi);
    if (lo == line && hi == line) {
        b->xmask[d][line][pos] = r->letters;
        b->hasx[d][line][pos] = 0;
        b->xbase[d][line][pos] = 0;
        b->xlfm[d][line][pos] = 0;
        return;
    }
    int sum = 0;
    for (int i = lo; i <= hi; i++)
        if (i != line)
            sum += r->value[perp[i]];
    tb_mask mask = fitting(r, k, perp, lo, line, hi);
    int at_end = (lo == line) || (hi == line);
    int cwm = r->wmid[d][line][pos] * (at_end ? r->wend[d][line][pos] : 1);
    b->xmask[d][line][pos] = mask;
    b->hasx[d][line][pos] = 1;
    b->xbase[d][line][pos] = sum * cwm + r->add[d][line][pos];
    b->xlfm[d][line][pos] = (int16_t)(r->lf[d][line][pos] * cwm);
}

static void compute_anchor(tb_board *b, const tb_rules *r, int row, int col)
{
    uint8_t a;
    if (b->tile[0][row][col])
        a = 0;
    else if (b->n_tiles == 0)
        a = r->start[0][row][col];
    else
        a = (row > 0 && b->tile[0][row - 1][col]) || (row + 1 < b->rows && b->tile[0][row + 1][col]) ||
            (col > 0 && b->tile[0][row][col - 1]) || (col + 1 < b->cols && b->tile[0][row][col + 1]);
    b->anchor[0][row][col] = a;
    b->anchor[1][col][row] = a;
}

void tb_board_init(tb_board *b, const tb_rules *rules)
{
    memset(b, 0, sizeof *b);
    b->rows = rules->rows;
    b->cols = rules->cols;
    for (int row = 0; row < b->rows; row++)
        for (int col = 0; col < b->cols; col++) {
            b->xmask[0][row][col] = rules->letters;
            b->xmask[1][col][row] = rules->letters;
            b->emask[0][row][col] = rules->letters;
            b->emask[1][col][row] = rules->letters;
            compute_anchor(b, rules, row, col);
        }
}

void tb_board_set_tiles(tb_board *b, const tb_rules *rules, const tb_kwg *kwg,
                        const uint8_t *tiles)
{
    b->rows = rules->rows;
    b->cols = rules->cols;
    b->n_tiles = 0;
    memset(b->tile, 0, sizeof b->tile);
    for (int row = 0; row < b->rows; row++)
        for (int col = 0; col < b->cols; col++) {
            uint8_t t = tiles[row * b->cols + col];
            b->tile[0][row][col] = t;
            b->tile[1][col][row] = t;
            b->n_tiles += t != 0;
        }
    for (int d = 0; d < 2; d++)
        for (int line = 0; line < n_lines(b, d); line++)
            for (int pos = 0; pos < line_len(b, d); pos++)
                compute_cross(b, rules, kwg, d, line, pos);
    for (int row = 0; row < b->rows; row++)
        for (int col = 0; col < b->cols; col++)
            compute_anchor(b, rules, row, col);
}

void tb_board_copy(tb_board *dst, const tb_board *src)
{
    /* Each array is [dir][line][pos] with TB_MAX_DIM lines of TB_MAX_DIM: for each direction
     * only the first n_lines lines are in use, one contiguous block (under half of the struct
     * on a 15x15 board). */
    dst->rows = src->rows;
    dst->cols = src->cols;
    dst->n_tiles = src->n_tiles;
    for (int d = 0; d < 2; d++) {
        const size_t lines = (size_t)n_lines(src, d);
        memcpy(dst->tile[d], src->tile[d], lines * sizeof src->tile[d][0]);
        memcpy(dst->xmask[d], src->xmask[d], lines * sizeof src->xmask[d][0]);
        memcpy(dst->emask[d], src->emask[d], lines * sizeof src->emask[d][0]);
        memcpy(dst->xbase[d], src->xbase[d], lines * sizeof src->xbase[d][0]);
        memcpy(dst->xlfm[d], src->xlfm[d], lines * sizeof src->xlfm[d][0]);
        memcpy(dst->hasx[d], src->hasx[d], lines * sizeof src->hasx[d][0]);
        memcpy(dst->anchor[d], src->anchor[d], lines * sizeof src->anchor[d][0]);
    }
}

void tb_board_apply(tb_board *b, const tb_rules *rules, const tb_kwg *kwg, const tb_move *m)
{
    int d = m->dir, line = m->line, first = m->start, last = m->start + m->len - 1;
    int was_empty = b->n_tiles == 0;
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (!t)
            continue;
        int pos = first + i;
        b->tile[d][line][pos] = t;
        b->tile[1 - d][pos][line] = t;
        b->n_tiles++;
    }
    /* A square's cross-set depends only on the run of tiles next to it in its perpendicular
     * line, so a new tile changes it only for its own square (now occupied) and for the empty
     * squares at both ends of the run it belongs to: a handful of squares, not whole lines. */
    const int nl = n_lines(b, d), ll = line_len(b, d);
    for (int pos = first; pos <= last; pos++) {
        if (!m->tiles[pos - first])
            continue;
        /* direction-d moves: their cross words run along the perpendicular line through pos */
        const uint8_t *perp = b->tile[1 - d][pos];
        int lo = line, hi = line;
        while (lo > 0 && perp[lo - 1])
            lo--;
        while (hi + 1 < nl && perp[hi + 1])
            hi++;
        compute_cross(b, rules, kwg, d, line, pos);
        if (lo > 0)
            compute_cross(b, rules, kwg, d, lo - 1, pos);
        if (hi + 1 < nl)
            compute_cross(b, rules, kwg, d, hi + 1, pos);
        /* the other direction's moves: their cross words run along the word's own line */
        compute_cross(b, rules, kwg, 1 - d, pos, line);
    }
    {
        const uint8_t *own = b->tile[d][line];
        int lo = first, hi = last;
        while (lo > 0 && own[lo - 1])
            lo--;
        while (hi + 1 < ll && own[hi + 1])
            hi++;
        if (lo > 0)
            compute_cross(b, rules, kwg, 1 - d, lo - 1, line);
        if (hi + 1 < ll)
            compute_cross(b, rules, kwg, 1 - d, hi + 1, line);
    }
    if (was_empty) {
        for (int row = 0; row < b->rows; row++)
            for (int col = 0; col < b->cols; col++)
                compute_anchor(b, rules, row, col);
        return;
    }
    for (int l = line - 1; l <= line + 1; l++) {
        if (l < 0 || l >= n_lines(b, d))
            continue;
        for (int pos = first - 1; pos <= last + 1; pos++) {
            if (pos < 0 || pos >= line_len(b, d))
                continue;
            if (d == 0)
                compute_anchor(b, rules, l, pos);
            else
                compute_anchor(b, rules, pos, l);
        }
    }
}

/* The run of tiles along line `line` of direction d through position pos: *lo..*hi. */
static void run_around(const tb_board *b, int d, int line, int pos, int *lo, int *hi)
{
    const uint8_t *own = b->tile[d][line];
    *lo = *hi = pos;
    while (*lo > 0 && own[*lo - 1])
        (*lo)--;
    while (*hi + 1 < line_len(b, d) && own[*hi + 1])
        (*hi)++;
}

/* A CAMBIO changes a letter, not which squares are taken: anchors stay, and only the empty
 * squares at both ends of the square's two runs see a different cross word. */
void tb_board_replace(tb_board *b, const tb_rules *rules, const tb_kwg *kwg, int row, int col,
                      uint8_t tile)
{
    b->tile[0][row][col] = tile;
    b->tile[1][col][row] = tile;
    for (int d = 0; d < 2; d++) {
        const int line = d ? col : row;
        int lo, hi;
        run_around(b, d, line, d ? row : col, &lo, &hi);
        /* the squares past the run, as squares of direction 1 - d moves (whose cross words
         * run along this line) */
        if (lo > 0)
            compute_cross(b, rules, kwg, 1 - d, lo - 1, line);
        if (hi + 1 < line_len(b, d))
            compute_cross(b, rules, kwg, 1 - d, hi + 1, line);
    }
}

tb_mask tb_board_fitting(const tb_board *b, const tb_rules *rules, const tb_kwg *kwg, int d,
                         int line, int pos, int *lo_out, int *hi_out)
{
    run_around(b, d, line, pos, lo_out, hi_out);
    if (*lo_out == *hi_out)
        return 0;
    return fitting(rules, kwg, b->tile[d][line], *lo_out, pos, *hi_out);
}
