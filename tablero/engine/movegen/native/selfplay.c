/* Static self-play in C: whole games where every player makes the best move by equity.
 *
 * The loop mirrors tablero.game.Game for what static players do: the deal in turn order,
 * placements (the best by equity), an exchange when it is worth more than the best placement
 * (or only when blocked, if the game says so), a pass when neither is possible, Cuvinte's EX
 * shuffle of the next rack, the end of the game (going out, scoreless rounds, no one able to
 * play) and the final adjustments.  It does not model clocks, challenges or CAMBIO: Game stays
 * the authority on the rules; this loop is for statistics and learning, where games/s count.
 */
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

typedef struct {
    uint8_t t[TB_MAX_BAG];
    int n;
} bag_t;

static uint8_t draw(bag_t *bag, uint64_t *rng)
{
    int i = (int)(next_random(rng) % (uint64_t)bag->n);
    uint8_t t = bag->t[i];
    bag->t[i] = bag->t[--bag->n];
    return t;
}

static void draw_into(tb_rack *rack, int k, bag_t *bag, uint64_t *rng)
{
    for (int i = 0; i < k && bag->n > 0; i++) {
        rack->count[draw(bag, rng)]++;
        rack->total++;
    }
}

int tb_rack_points(const tb_game_rules *gr, const tb_rules *r, const tb_rack *rack)
{
    int v = rack->count[0] * gr->blank_value;
    for (int c = 1; c <= TB_MAX_CODE; c++)
        v += rack->count[c] * r->value[c];
    return v;
}

/* The best exchange: the kept tiles with the highest leave value among those an exchange may
 * keep (at least one tile returned, at most max_tiles, the bag holding enough); ties keep
 * fewer tiles.  Returns 0 if no exchange is allowed, else fills keep[] (counts) and *value. */
int tb_best_exchange(const tb_game_rules *gr, const tb_leaves *leaves, const tb_rack *rack,
                     int bag_n, uint8_t keep[TB_MAX_CODE + 1], double *value)
{
    int codes[TB_MAX_RACK], counts[TB_MAX_RACK], m = 0, size = 1;
    for (int c = 0; c <= TB_MAX_CODE; c++)
        if (rack->count[c]) {
            codes[m] = c;
            counts[m] = rack->count[c];
            size *= rack->count[c] + 1;
            m++;
        }
    int found = 0;
    double best = 0.0;
    int best_kept = 0;
    /* every kept multiset (tb_kept_next): c_of[j] tiles of codes[j] */
    uint8_t c_of[TB_MAX_RACK] = {0};
    for (int idx = 0; idx < size; idx++, tb_kept_next(c_of, counts, m)) {
        int kept_n;
        const uint64_t key = tb_kept_key(codes, c_of, m, NULL, &kept_n);
        int out = rack->total - kept_n;
        if (out < 1 || out > gr->exchange_max_tiles || bag_n < out || bag_n < gr->exchange_min_bag)
            continue;
        double v = leaves ? tb_leaves_get(leaves, key) : 0.0;
        if (!found || v > best || (v == best && kept_n < best_kept)) {
            found = 1;
            best = v;
            best_kept = kept_n;
            memset(keep, 0, TB_MAX_CODE + 1);
            for (int j = 0; j < m; j++)
                keep[codes[j]] = c_of[j];
        }
    }
    *value = best;
    return found;
}

int tb_scoreless_run(const tb_game_rules *gr, int run, int kind)
{
    if (kind == TB_TURN_EXCHANGE)
        return gr->scoreless_exchanges ? run + 1 : 0;
    if (kind == TB_TURN_PASS)
        return gr->scoreless_passes ? run + 1 : 0;
    return 0;
}

void tb_end_values_for(const tb_rules *r, const tb_game_rules *gr, const tb_rack *const *racks,
                       int n_players, int seat, tb_end_values *out)
{
    out->others_points = out->others_blanks = 0;
    for (int s = 0; s < n_players; s++)
        if (s != seat) {
            out->others_points += tb_rack_points(gr, r, racks[s]);
            out->others_blanks += racks[s]->count[0];
        }
    out->factor = (gr->subtract_own_rack ? 1 : 0) + (gr->going_out_gains_others ? 1 : 0);
    out->blank_penalty = gr->unplayed_blank_penalty;
    out->blank_value = gr->blank_value;
}

/* The best placement for racks[seat] valued by the seat's leave table, or, with the bag empty
 * and a table given, by the end values of the other racks (a player without a table plays
 * for points to the end); 0 if there is none. */
static int best_for_seat(const tb_rules *r, const tb_kwg *k, const tb_game_rules *gr,
                     const tb_board *board, const tb_rack *const *racks, int n_players,
                     int seat, int bag_n, const tb_leaves *leaves, tb_move *best)
{
    const tb_rack *rack = racks[seat];
    if (!rack->total)
        return 0;
    const int first_turn = board->n_tiles == 0;
    if (leaves && !bag_n) {
        tb_end_values end;
        tb_end_values_for(r, gr, racks, n_players, seat, &end);
        return tb_best_moves_end(r, k, board, rack, first_turn, &end, 1, best);
    }
    return tb_best_moves(r, k, board, rack, first_turn, leaves, 1, best);
}

static int has_placement(const tb_rules *r, const tb_kwg *k, const tb_board *b,
                         const tb_rack *rack)
{
    tb_move m;
    return rack->total && tb_best_moves(r, k, b, rack, 0, NULL, 1, &m) > 0;
}

int tb_selfplay_game(const tb_rules *r, const tb_kwg *k, const tb_game_rules *gr,
                     const tb_leaves *const *leaves, int n_players, int first, uint64_t seed,
                     tb_game_result *out, tb_turn *log)
{
    if (n_players < 1 || n_players > TB_MAX_PLAYERS || first < 0 || first >= n_players)
        return -1;
    memset(out, 0, sizeof *out);
    out->n_players = n_players;
    uint64_t rng = seed;
    bag_t bag;
    bag.n = 0;
    for (int c = 0; c <= TB_MAX_CODE; c++)
        for (int i = 0; i < gr->tiles[c]; i++) {
            if (bag.n == TB_MAX_BAG)
                return -1;
            bag.t[bag.n++] = (uint8_t)c;
        }
    tb_board *board = malloc(sizeof *board);
    if (!board)
        return -1;
    tb_board_init(board, r);
    tb_rack racks[TB_MAX_PLAYERS];
    int exchanges_used[TB_MAX_PLAYERS] = {0};
    memset(racks, 0, sizeof racks);
    const tb_rack *rack_of[TB_MAX_PLAYERS];
    for (int s = 0; s < TB_MAX_PLAYERS; s++)
        rack_of[s] = &racks[s];
    const int step = gr->counterclockwise ? n_players - 1 : 1;
    for (int i = 0, seat = first; i < n_players; i++, seat = (seat + step) % n_players)
        draw_into(&racks[seat], r->rack_size, &bag, &rng);
    int seat = first, streak = 0, reason = TB_END_TURN_LIMIT, went_out = -1;
    for (int turn = 0; turn < TB_MAX_TURNS; turn++) {
        tb_rack *rack = &racks[seat];
        const tb_leaves *lv = leaves ? leaves[seat] : NULL;
        tb_move best;
        int have = best_for_seat(r, k, gr, board, rack_of, n_players, seat, bag.n, lv, &best);
        if (have < 0) {
            free(board);
            return -1;
        }
        uint8_t keep[TB_MAX_CODE + 1];
        double exchange_value = 0.0;
        int can_exchange = gr->exchange_allowed &&
                           (!gr->exchange_per_game || exchanges_used[seat] < gr->exchange_per_game) &&
                           (!gr->exchange_only_when_blocked || !have) &&
                           tb_best_exchange(gr, lv, rack, bag.n, keep, &exchange_value);
        tb_turn *entry = log ? &log[turn] : NULL;
        if (entry) {
            entry->seat = seat;
            entry->rack = *rack;
            entry->bag = bag.n;
        }
        if (have > 0 && !(can_exchange && exchange_value > best.equity)) {
            if (entry) {
                entry->kind = TB_TURN_PLACE;
                entry->move = best;
            }
            for (int i = 0; i < best.len; i++) {
                uint8_t t = best.tiles[i];
                if (t)
                    rack->count[(t & TB_BLANK) ? 0 : t]--;
            }
            rack->total -= best.ntiles;
            out->score[seat] += best.score;
            out->moves[seat]++;
            out->bingos[seat] += best.ntiles == r->rack_size;
            tb_board_apply(board, r, k, &best);
            draw_into(rack, best.ntiles, &bag, &rng);
            if (best.shuffle && bag.n >= gr->ex_min_bag) {
                int victim = (seat + step) % n_players;
                if (victim != seat) {
                    tb_rack old = racks[victim];
                    memset(&racks[victim], 0, sizeof racks[victim]);
                    draw_into(&racks[victim], old.total, &bag, &rng);
                    for (int c = 0; c <= TB_MAX_CODE; c++)
                        for (int i = 0; i < old.count[c]; i++)
                            bag.t[bag.n++] = (uint8_t)c;
                    out->shuffles[victim]++;
                }
            }
            streak = tb_scoreless_run(gr, streak, TB_TURN_PLACE);
        } else if (can_exchange) {
            if (entry) {
                entry->kind = TB_TURN_EXCHANGE;
                memcpy(entry->kept, keep, sizeof keep);
            }
            int n_out = 0;
            uint8_t back[TB_MAX_RACK];
            for (int c = 0; c <= TB_MAX_CODE; c++)
                for (int i = keep[c]; i < rack->count[c]; i++)
                    back[n_out++] = (uint8_t)c;
            memcpy(rack->count, keep, sizeof keep);
            rack->total -= n_out;
            draw_into(rack, n_out, &bag, &rng);
            for (int i = 0; i < n_out; i++)
                bag.t[bag.n++] = back[i];
            exchanges_used[seat]++;
            out->exchanges[seat]++;
            streak = tb_scoreless_run(gr, streak, TB_TURN_EXCHANGE);
        } else {
            if (entry)
                entry->kind = TB_TURN_PASS;
            out->passes[seat]++;
            streak = tb_scoreless_run(gr, streak, TB_TURN_PASS);
        }
        out->turns++;
        /* the end, in Game._check_end's order */
        if (gr->going_out && bag.n == 0) {
            for (int s = 0; s < n_players; s++)
                if (!racks[s].total) {
                    went_out = s;
                    break;
                }
            if (went_out >= 0) {
                reason = TB_END_GOING_OUT;
                break;
            }
        }
        if (gr->scoreless_rounds && streak >= gr->scoreless_rounds * n_players) {
            reason = TB_END_SCORELESS;
            break;
        }
        if (gr->no_one_can_play && bag.n == 0) {
            int any = 0;
            for (int s = 0; s < n_players && !any; s++)
                any = has_placement(r, k, board, &racks[s]);
            if (!any) {
                reason = TB_END_NO_ONE_CAN_PLAY;
                break;
            }
        }
        seat = (seat + step) % n_players;
    }
    out->reason = reason;
    for (int s = 0; s < n_players; s++) {
        out->before[s] = out->score[s];
        if (gr->subtract_own_rack)
            out->score[s] -= tb_rack_points(gr, r, &racks[s]);
        out->score[s] -= gr->unplayed_blank_penalty * racks[s].count[0];
        out->rack_left[s] = racks[s].total;
    }
    if (went_out >= 0 && gr->going_out_gains_others) {
        int gain = 0;
        for (int s = 0; s < n_players; s++)
            gain += tb_rack_points(gr, r, &racks[s]);
        out->score[went_out] += gain;
    }
    out->went_out = went_out;
    free(board);
    return 0;
}
