/* Crucigrama's CAMBIO, generated in C for the endgame search (docs/endgame.md §7.8).
 *
 * A CAMBIO puts a rack tile on an occupied square in place of its letter, which goes to the
 * mover's rack.  Every word through the square (its run across and its run down, where the
 * run is longer than the square) must stay a word with the new letter, and the new letter
 * must differ from the old; a blank on the board is never replaced.  The score is the plain
 * face values of the changed words, no premiums: the other tiles of each run, plus the new
 * tile's value once per run.  It computes what tablero.engine.movegen.candidates'
 * cambio_candidates computes, in another order (the search's values do not depend on it).
 */
#include <stdlib.h>

#include "movegen.h"

static int push(tb_cambio **out, size_t *cap, int n, int row, int col, uint8_t tile, uint8_t old,
                int score)
{
    if ((size_t)n == *cap) {
        size_t grown_cap = *cap ? 2 * *cap : 64;
        tb_cambio *grown = realloc(*out, grown_cap * sizeof *grown);
        if (!grown)
            return -1;
        *out = grown;
        *cap = grown_cap;
    }
    (*out)[n] = (tb_cambio){(uint8_t)row, (uint8_t)col, tile, old, score};
    return n + 1;
}

int tb_cambios(const tb_rules *r, const tb_kwg *k, const tb_board *b, const tb_rack *rack,
               tb_cambio **out, size_t *cap)
{
    int n = 0;
    tb_mask held = 0; /* the rack's letters (the blank apart) */
    for (int c = 1; c <= TB_MAX_CODE; c++)
        if (rack->count[c])
            held |= (tb_mask)1 << c;
    const int blank = rack->count[0] > 0;
    if (!held && !blank)
        return 0;
    for (int row = 0; row < b->rows; row++)
        for (int col = 0; col < b->cols; col++) {
            const uint8_t old = b->tile[0][row][col];
            if (!old || (old & TB_BLANK))
                continue;
            tb_mask fits = r->letters & ~((tb_mask)1 << (old & TB_CODE));
            int runs = 0, base = 0;
            for (int d = 0; d < 2 && fits; d++) {
                const int line = d ? col : row, pos = d ? row : col;
                int lo, hi;
                const tb_mask here = tb_board_fitting(b, r, k, d, line, pos, &lo, &hi);
                if (lo == hi)
                    continue; /* no word this way */
                fits &= here;
                runs++;
                for (int i = lo; i <= hi; i++)
                    if (i != pos)
                        base += r->value[b->tile[d][line][i]];
            }
            if (!runs)
                continue;
            for (tb_mask m = fits & held; m; m &= m - 1) {
                const int c = __builtin_ctz(m);
                n = push(out, cap, n, row, col, (uint8_t)c, old, base + runs * r->value[c]);
                if (n < 0)
                    return -1;
            }
            if (blank)
                for (tb_mask m = fits; m; m &= m - 1) {
                    const uint8_t t = (uint8_t)(__builtin_ctz(m) | TB_BLANK);
                    n = push(out, cap, n, row, col, t, old, base);
                    if (n < 0)
                        return -1;
                }
        }
    return n;
}
