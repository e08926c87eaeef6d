/* Monte-Carlo simulation of candidate moves, the playout loop entirely in C.
 *
 * Static equity (score + leave value) cannot see what a move gives the opponent: a lane to a
 * triple word, a vowel-heavy board.  Simulation plays each candidate out a few plies against
 * random draws of the tiles the mover cannot see and averages what happens.  Every candidate
 * of an iteration is played out on the same draw (common random numbers): the candidates are
 * compared on equal luck, so the differences between their means converge much faster than
 * the means themselves.
 *
 * Nothing is allocated inside the loop: the board after each candidate is computed once
 * before it, and a playout copies that board into one scratch board, keeps racks as counts
 * and the bag as a small array.  The algorithm is described in docs/movegen.md §12.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

static uint64_t next_random(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The bag of a playout: tiles in draw order, drawn from the head; tiles put back (an exchange,
 * an EX shuffle) go to a random place among those not yet drawn. */
typedef struct {
    uint8_t t[2 * TB_MAX_BAG + 2 * TB_MAX_RACK];
    int head, tail;
} sim_bag;

static int bag_size(const sim_bag *b) { return b->tail - b->head; }

static void bag_draw(sim_bag *b, tb_rack *rack, int want)
{
    while (rack->total < want && b->head < b->tail) {
        rack->count[b->t[b->head++]]++;
        rack->total++;
    }
}

static void bag_return(sim_bag *b, uint8_t code, uint64_t *rng)
{
    int n = bag_size(b);
    if (b->tail == (int)sizeof b->t) { /* never more than the game's tiles are in it */
        memmove(b->t, b->t + b->head, (size_t)n);
        b->head = 0;
        b->tail = n;
    }
    int at = b->head + (int)(next_random(rng) % (uint64_t)(n + 1));
    int end = b->tail++;
    if (at != end)
        b->t[end] = b->t[at];
    b->t[at] = code;
}

typedef struct {
    tb_rack rack;
    int gain;
} side;

static int rack_codes(const tb_rack *rack, uint8_t codes[TB_MAX_RACK])
{
    int n = 0;
    for (int c = 0; c <= TB_MAX_CODE && n < TB_MAX_RACK; c++)
        for (int i = 0; i < rack->count[c] && n < TB_MAX_RACK; i++)
            codes[n++] = (uint8_t)c;
    return n;
}

/* The end values for `seat` among a playout's sides (the bag empty). */
static void end_values_of(const tb_rules *r, const tb_game_rules *gr, const side *sides, int n,
                          int seat, tb_end_values *end)
{
    const tb_rack *racks[TB_MAX_PLAYERS];
    for (int s = 0; s < n; s++)
        racks[s] = &sides[s].rack;
    tb_end_values_for(r, gr, racks, n, seat, end);
}

/* What the mover's last rack is worth: its leave value while the bag has tiles (0 without a
 * table), its end value (a debt) once it is empty. */
static double keep_value(const tb_rules *r, const tb_game_rules *gr, const tb_leaves *leaves,
                         const side *sides, int n_players, int bag_n)
{
    uint8_t codes[TB_MAX_RACK];
    int n = rack_codes(&sides[0].rack, codes);
    if (bag_n)
        return leaves ? tb_leaves_get(leaves, tb_leave_key(codes, n)) : 0.0;
    tb_end_values end;
    end_values_of(r, gr, sides, n_players, 0, &end);
    return tb_end_value(r, &end, codes, n);
}

static void remove_placed(tb_rack *rack, const tb_move *m)
{
    for (int i = 0; i < m->len; i++) {
        uint8_t t = m->tiles[i];
        if (t)
            rack->count[(t & TB_BLANK) ? 0 : t]--;
    }
    rack->total -= m->ntiles;
}

/* End of the game inside a playout (`out` went out, or -1): the adjustments Game makes. */
static void finish(const tb_game_rules *gr, const tb_rules *r, side *sides, int n, int out)
{
    int pot = 0;
    for (int s = 0; s < n; s++) {
        int pts = tb_rack_points(gr, r, &sides[s].rack);
        pot += pts;
        if (gr->subtract_own_rack)
            sides[s].gain -= pts;
        sides[s].gain -= gr->unplayed_blank_penalty * sides[s].rack.count[0];
    }
    if (out >= 0 && gr->going_out_gains_others)
        sides[out].gain += pot;
}

/* An EX square was covered by `seat`: the next player's rack goes back, a fresh one comes. */
static void ex_shuffle(const tb_game_rules *gr, side *sides, int n, int seat, sim_bag *bag,
                       uint64_t *rng)
{
    int victim = (seat + 1) % n;
    if (victim == seat || bag_size(bag) < gr->ex_min_bag)
        return;
    tb_rack old = sides[victim].rack;
    memset(&sides[victim].rack, 0, sizeof sides[victim].rack);
    bag_draw(bag, &sides[victim].rack, old.total);
    for (int c = 0; c <= TB_MAX_CODE; c++)
        for (int i = 0; i < old.count[c]; i++)
            bag_return(bag, (uint8_t)c, rng);
}

/* One reply by static best equity: a placement, an exchange worth more (or only when blocked,
 * if the game says so), else a pass; the bag empty, placements are valued by the end values
 * (with or without a leave table).
 * Returns the kind of turn it was (TB_TURN_*), or -1 if the mover went out and the game
 * ended. */
static int reply(const tb_rules *r, const tb_kwg *k, const tb_game_rules *gr, tb_board *board,
                 side *sides, int n, int seat, sim_bag *bag, const tb_leaves *leaves,
                 uint64_t *rng)
{
    side *me = &sides[seat];
    if (!me->rack.total)
        return TB_TURN_PASS;
    tb_move best;
    int have;
    if (bag_size(bag)) {
        have = tb_best_moves(r, k, board, &me->rack, board->n_tiles == 0, leaves, 1, &best);
    } else {
        tb_end_values end;
        end_values_of(r, gr, sides, n, seat, &end);
        have = tb_best_moves_end(r, k, board, &me->rack, board->n_tiles == 0, &end, 1, &best);
    }
    uint8_t keep[TB_MAX_CODE + 1];
    double xv = 0.0;
    int can_exchange = gr->exchange_allowed && !(gr->exchange_only_when_blocked && have > 0) &&
                       tb_best_exchange(gr, leaves, &me->rack, bag_size(bag), keep, &xv);
    if (have > 0 && !(can_exchange && xv > best.equity)) {
        remove_placed(&me->rack, &best);
        me->gain += best.score;
        tb_board_apply(board, r, k, &best);
        bag_draw(bag, &me->rack, r->rack_size);
        if (best.shuffle)
            ex_shuffle(gr, sides, n, seat, bag, rng);
        if (!me->rack.total && !bag_size(bag)) {
            finish(gr, r, sides, n, seat);
            return -1;
        }
        return TB_TURN_PLACE;
    }
    if (can_exchange) {
        tb_rack old = me->rack;
        memcpy(me->rack.count, keep, sizeof keep);
        me->rack.total = 0;
        for (int c = 0; c <= TB_MAX_CODE; c++)
            me->rack.total += keep[c];
        bag_draw(bag, &me->rack, r->rack_size);
        for (int c = 0; c <= TB_MAX_CODE; c++)
            for (int i = keep[c]; i < old.count[c]; i++)
                bag_return(bag, (uint8_t)c, rng);
        return TB_TURN_EXCHANGE;
    }
    return TB_TURN_PASS;
}

/* What the mover's points are measured against: the points of the opponent who leads after
 * the playout (its score counted: `behind`), less the most any opponent led by before it.  With
 * one opponent that is the opponent's points; at a larger table, only the one who will be ahead
 * matters, as for who wins. */
static double rival_gain(const side *sides, int n_players, const int32_t *behind)
{
    if (n_players < 2)
        return 0.0;
    double after = -1e300, before = -1e300;
    for (int s = 1; s < n_players; s++) {
        double lead = behind ? behind[s] : 0.0;
        if (lead + sides[s].gain > after)
            after = lead + sides[s].gain;
        if (lead > before)
            before = lead;
    }
    return after - before;
}

int tb_simulate(const tb_rules *r, const tb_kwg *k, const tb_game_rules *gr,
                const tb_board *board, const tb_rack *rack, const uint8_t unseen[TB_MAX_CODE + 1],
                int n_players, const tb_candidate *cands, int n_cands, int plies,
                int iterations, uint64_t seed, const tb_leaves *leaves, int streak,
                const int32_t *behind, const tb_sim_known *known, tb_sim_stat *out,
                double *values, int8_t *unseen_end)
{
    if (n_players < 1 || n_players > TB_MAX_PLAYERS || n_cands < 0 || plies < 0 ||
        iterations < 0)
        return -1;
    uint8_t pool[TB_MAX_BAG];
    int n_unseen = 0;
    for (int c = 0; c <= TB_MAX_CODE; c++)
        for (int i = 0; i < unseen[c]; i++) {
            if (c && !((r->letters >> c) & 1))
                return -1;
            if (n_unseen == TB_MAX_BAG)
                return -1;
            pool[n_unseen++] = (uint8_t)c;
        }
    if (known && known->n > 0) {
        /* Every partial rack must be a part of the unseen tiles and fit on a rack. */
        if (known->seat < 1 || known->seat >= n_players || !known->racks)
            return -1;
        for (int q = 0; q < known->n; q++) {
            const uint8_t *part = known->racks + (size_t)q * (TB_MAX_CODE + 1);
            int held = 0;
            for (int c = 0; c <= TB_MAX_CODE; c++) {
                if (part[c] > unseen[c])
                    return -1;
                held += part[c];
            }
            if (held > r->rack_size)
                return -1;
        }
    } else {
        known = NULL;
    }
    /* The candidates' boards and the mover's rack after each, computed once. */
    tb_board *after = malloc((size_t)(n_cands + 1) * sizeof *after);
    tb_rack *kept = malloc((size_t)(n_cands + 1) * sizeof *kept);
    /* Running mean and sum of squared deviations (Welford): no cancellation. */
    double *mean = calloc((size_t)n_cands + 1, sizeof *mean);
    double *m2 = calloc((size_t)n_cands + 1, sizeof *m2);
    if (!after || !kept || !mean || !m2) {
        free(after);
        free(kept);
        free(mean);
        free(m2);
        return -2;
    }
    int bad = 0;
    for (int i = 0; i < n_cands && !bad; i++) {
        const tb_candidate *c = &cands[i];
        after[i] = *board;
        kept[i] = *rack;
        if (c->kind == TB_CAND_PLACE) {
            for (int j = 0; j < c->move.len; j++) {
                uint8_t t = c->move.tiles[j];
                int code = (t & TB_BLANK) ? 0 : t;
                if (t && !kept[i].count[code]--) /* the rack lacks it: refuse, never wrap */
                    bad = 1;
            }
            kept[i] = *rack;
            if (bad)
                break;
            remove_placed(&kept[i], &c->move);
            tb_board_apply(&after[i], r, k, &c->move);
        } else if (c->kind == TB_CAND_EXCHANGE) {
            for (int t = 0; t <= TB_MAX_CODE; t++) {
                if (c->back[t] > kept[i].count[t])
                    bad = 1;
                kept[i].count[t] = (uint8_t)(kept[i].count[t] - c->back[t]);
                kept[i].total -= c->back[t];
            }
        } else if (c->kind != TB_CAND_PASS) {
            bad = 1;
        }
    }
    tb_board *scratch = &after[n_cands];
    const int opp_moves = n_players - 1;
    const int total_replies = n_players * (plies / 2) + opp_moves * (plies % 2);
    for (int it = 0; it < iterations && !bad; it++) {
        /* The shared draw: one Fisher-Yates shuffle of the unseen tiles per iteration, less
         * the tiles known to be on an opponent's rack in this deal. */
        uint64_t rng = seed ^ (0xD1B54A32D192ED03ULL * (uint64_t)(it + 1));
        uint8_t order[TB_MAX_BAG];
        int n_order = n_unseen;
        const uint8_t *part = NULL;
        if (known) {
            part = known->racks + (size_t)(it % known->n) * (TB_MAX_CODE + 1);
            uint8_t left[TB_MAX_CODE + 1];
            for (int c = 0; c <= TB_MAX_CODE; c++)
                left[c] = (uint8_t)(unseen[c] - part[c]);
            n_order = 0;
            for (int c = 0; c <= TB_MAX_CODE; c++)
                for (int i = 0; i < left[c]; i++)
                    order[n_order++] = (uint8_t)c;
        } else {
            memcpy(order, pool, (size_t)n_unseen);
        }
        for (int i = n_order - 1; i > 0; i--) {
            int j = (int)(next_random(&rng) % (uint64_t)(i + 1));
            uint8_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        const uint64_t play_seed = next_random(&rng);
        for (int ci = 0; ci < n_cands; ci++) {
            const tb_candidate *c = &cands[ci];
            uint64_t prng = play_seed; /* for tiles put back: the same stream per candidate */
            side sides[TB_MAX_PLAYERS];
            memset(sides, 0, sizeof sides);
            sim_bag bag;
            bag.head = bag.tail = 0;
            int at = 0;
            for (int s = 1; s < n_players; s++) {
                if (part && s == known->seat)
                    for (int t = 0; t <= TB_MAX_CODE; t++) {
                        sides[s].rack.count[t] = part[t];
                        sides[s].rack.total += part[t];
                    }
                for (int i = sides[s].rack.total; i < r->rack_size && at < n_order; i++, at++) {
                    sides[s].rack.count[order[at]]++;
                    sides[s].rack.total++;
                }
            }
            for (; at < n_order; at++)
                bag.t[bag.tail++] = order[at];
            *scratch = after[ci];
            sides[0].rack = kept[ci];
            int over = 0;
            if (c->kind == TB_CAND_PLACE) {
                sides[0].gain = c->move.score;
                bag_draw(&bag, &sides[0].rack, r->rack_size);
                if (c->move.shuffle)
                    ex_shuffle(gr, sides, n_players, 0, &bag, &prng);
                if (!sides[0].rack.total && !bag_size(&bag)) {
                    finish(gr, r, sides, n_players, 0);
                    over = 1;
                }
            } else if (c->kind == TB_CAND_EXCHANGE) {
                bag_draw(&bag, &sides[0].rack, r->rack_size);
                for (int t = 0; t <= TB_MAX_CODE; t++)
                    for (int i = 0; i < c->back[t]; i++)
                        bag_return(&bag, (uint8_t)t, &prng);
            }
            const int limit = gr->scoreless_rounds * n_players;
            int run = tb_scoreless_run(gr, streak, c->kind);
            if (!over && gr->scoreless_rounds && run >= limit) {
                finish(gr, r, sides, n_players, -1);
                over = 1;
            }
            for (int m = 0; m < total_replies && !over; m++) {
                int seat = (m + 1) % n_players;
                int kind = reply(r, k, gr, scratch, sides, n_players, seat, &bag, leaves, &prng);
                if (kind < 0) {
                    over = 1;
                    break;
                }
                run = tb_scoreless_run(gr, run, kind);
                if (gr->scoreless_rounds && run >= limit) {
                    finish(gr, r, sides, n_players, -1);
                    over = 1;
                }
            }
            double v = sides[0].gain - rival_gain(sides, n_players, behind);
            if (!over)
                v += keep_value(r, gr, leaves, sides, n_players, bag_size(&bag));
            if (values) {
                int hidden = bag_size(&bag);
                for (int s = 1; s < n_players; s++)
                    hidden += sides[s].rack.total;
                values[(size_t)ci * (size_t)iterations + (size_t)it] = v;
                unseen_end[(size_t)ci * (size_t)iterations + (size_t)it] =
                    (int8_t)(over ? -1 : (hidden > 127 ? 127 : hidden));
            }
            double d = v - mean[ci];
            mean[ci] += d / (it + 1);
            m2[ci] += d * (v - mean[ci]);
        }
    }
    for (int ci = 0; ci < n_cands; ci++) {
        out[ci].iterations = bad ? 0 : iterations;
        out[ci].mean = mean[ci];
        out[ci].sd = iterations > 1 ? sqrt(m2[ci] / (iterations - 1)) : 0.0;
    }
    free(after);
    free(kept);
    free(mean);
    free(m2);
    return bad ? -1 : 0;
}
