/* The native move-generation core of tablero: plain C over flat arrays, no Python.
 *
 * Everything a game loop needs lives behind this header, so that self-play and Monte-Carlo
 * playouts can later run entirely in C:
 *
 *   tb_rules    one game's rules as arrays (board size, premiums per square, tile values,
 *               first-move rules, bingo); built once per variant, read-only afterwards.
 *   tb_kwg      the word graph (KWG layout, docs/kwg.md): DAWG for cross-sets, GADDAG for
 *               generation.  Borrowed, never copied or freed here.
 *   tb_board    the tiles on the board plus everything derived from them that generation
 *               reads (cross-sets, cross-word scores, anchors), for both directions.  A plain
 *               value: copy it with memcpy / assignment to branch a playout.
 *   tb_rack     tile counts by code (count[0] = blanks).
 *   tb_move     one placement: where, which tiles, its score (and equity when ranked).
 *   tb_leaves   leave values: multiset of kept tiles -> value (hash table).
 *
 * Tile codes: 1..63 are letters (the alphabet's codes), 0 is "empty" on the board and the
 * blank on a rack.  On the board and in moves a blank standing for letter c is c | TB_BLANK.
 * Directions: 0 = across (lines are rows), 1 = down (lines are columns).  Square data is kept
 * per direction in line-major order, [dir][line][pos], so a line is contiguous both ways.
 *
 * The algorithm and layout are specified in docs/movegen.md.
 */
#ifndef TABLERO_MOVEGEN_H
#define TABLERO_MOVEGEN_H

#include <stddef.h>
#include <stdint.h>

#define TB_MAX_DIM 32   /* rows and columns */
#define TB_MAX_CODE 31  /* largest letter code (letter sets are 32-bit masks) */
#define TB_BLANK 0x80   /* flag on a tile byte: a blank standing for the letter in the low bits */
#define TB_CODE 0x1F    /* mask of the letter code in a tile byte */
#define TB_MAX_RACK 10  /* most tiles on a rack (leave keys hold 10 six-bit codes) */

typedef uint32_t tb_mask; /* a set of letter codes: bit c = code c (bit 0 is never a letter) */

typedef struct tb_rules {
    int rows, cols;
    int rack_size;        /* a move placing this many tiles earns the bingo bonus */
    int bingo_bonus;
    int first_letter;     /* first move: 1 = the word's first letter on a start square; 0 = cover */
    int min_tiles;        /* first move: fewest tiles */
    int first_mult;       /* first turn: the move's words are multiplied by this */
    int first_bonus;      /* first turn: added */
    tb_mask letters;      /* the letters the game has tiles for (blanks stand only for these) */
    int16_t value[256];   /* face value by tile byte; entries with TB_BLANK set are 0 */
    /* Premiums by square, [dir][line][pos] (the same square appears once per direction). */
    int16_t lf[2][TB_MAX_DIM][TB_MAX_DIM];    /* letter factor */
    int16_t wmid[2][TB_MAX_DIM][TB_MAX_DIM];  /* word factor when not at an end of the word */
    int16_t wend[2][TB_MAX_DIM][TB_MAX_DIM];  /* extra factor at an end (wmid * wend at an end) */
    int16_t add[2][TB_MAX_DIM][TB_MAX_DIM];   /* added to each word through it */
    uint8_t ex[2][TB_MAX_DIM][TB_MAX_DIM];    /* covering it shuffles the next player's rack */
    uint8_t start[2][TB_MAX_DIM][TB_MAX_DIM]; /* start square */
} tb_rules;

/* A KWG node widened to 64 bits: the low half is the node itself (tile, accepts, is_end,
 * arc index: docs/kwg.md), the high half the set of tiles (0..31; bit 0 = separator) of the
 * sibling list its arc points to.  A walk thus knows which tiles the next list holds before
 * touching it, and finds a child without scanning: its index is the list start plus the
 * number of smaller tiles in the set.  Tail-shared lists keep working (a tail's set is the
 * tail's own). */
typedef uint64_t tb_edge;
#define TB_EDGE_CHILD(e) ((uint32_t)(e)&0x003FFFFFu)
#define TB_EDGE_ACCEPTS(e) (((uint32_t)(e) >> 23) & 1u)
#define TB_EDGE_SET(e) ((tb_mask)((e) >> 32))

typedef struct tb_wordmap tb_wordmap; /* opaque: see tb_wordmap_build */

typedef struct tb_kwg {
    const uint32_t *nodes;
    tb_edge *edges;   /* one per node, owned (tb_kwg_free) */
    uint32_t n_nodes;
    uint32_t dawg_root, gaddag_root; /* first node of each root list */
    tb_mask dawg_set, gaddag_set;    /* their tiles */
    const tb_wordmap *wordmap;       /* the words by multiset (NULL: none; the walk does all) */
} tb_kwg;

typedef struct tb_board {
    int rows, cols;
    int n_tiles;
    uint8_t tile[2][TB_MAX_DIM][TB_MAX_DIM];    /* tile bytes, 0 = empty; [0][r][c] == [1][c][r] */
    /* For a move in direction d through empty square [d][line][pos]: */
    tb_mask xmask[2][TB_MAX_DIM][TB_MAX_DIM];   /* letters allowed (cross-set); 0 if occupied */
    int32_t xbase[2][TB_MAX_DIM][TB_MAX_DIM];   /* cross word's score without the new tile */
    int16_t xlfm[2][TB_MAX_DIM][TB_MAX_DIM];    /* new tile's face value counts this many times */
    uint8_t hasx[2][TB_MAX_DIM][TB_MAX_DIM];    /* a cross word is formed there */
    /* letters the tiles beside it in its own line allow there: x such that the run of tiles
     * before, x and the run after is a factor of some word (all letters without such tiles;
     * 0 if occupied).  A move's tile must fit both masks. */
    tb_mask emask[2][TB_MAX_DIM][TB_MAX_DIM];
    uint8_t anchor[2][TB_MAX_DIM][TB_MAX_DIM];  /* anchor square (same set in both layouts) */
} tb_board;

typedef struct tb_rack {
    uint8_t count[TB_MAX_CODE + 1]; /* count[0] = blanks */
    int total;
} tb_rack;

typedef struct tb_move {
    double equity;        /* score + leave value (ranked generation); score otherwise */
    int32_t score;
    uint8_t dir, line, start, len; /* the main word: direction, row/column, first square, length */
    uint8_t ntiles;       /* tiles placed */
    uint8_t shuffle;      /* an EX square (shuffle_next_rack) was covered */
    uint8_t tiles[TB_MAX_DIM]; /* per square of the word: 0 = already on the board, else tile byte */
} tb_move;

typedef struct tb_movelist {
    tb_move *moves;
    size_t n, cap;
} tb_movelist;

typedef struct tb_leaves tb_leaves; /* opaque: see tb_leaves_new */

/* -- rules and word graph ------------------------------------------------------------------- */

/* Fill the kwg view of a node array (borrowed) and build its edges.  The array must be a
 * memory-safe KWG (every arc index < n_nodes, last node ends its list).  Returns 0; -1 out of
 * memory or too short; -2 a sibling list is not strictly increasing (every known writer sorts
 * them, and the generator's child look-ups rely on it); -3 no GADDAG. */
int tb_kwg_init(tb_kwg *kwg, const uint32_t *nodes, uint32_t n_nodes);
void tb_kwg_free(tb_kwg *kwg);

/* -- the word map (wordmap.c, docs/movegen.md §13) ------------------------------------------- */

/* A multiset of letter codes 1..31 as 31 four-bit counts in two words: code c at bit
 * 4(c - 1), codes 1..16 in key[0], 17..31 in key[1].  Adds one letter; 0 (and the key
 * unchanged) if its count would pass 15, which no look-up key needs: no word has a letter
 * sixteen times. */
static inline int tb_wmkey_add_checked(uint64_t key[2], unsigned code)
{
    const unsigned i = (code - 1) >> 4, shift = 4 * ((code - 1) & 15);
    if (((key[i] >> shift) & 15) == 15)
        return 0;
    key[i] += (uint64_t)1 << shift;
    return 1;
}

/* The map of a KWG's words (its DAWG), built once; NULL when out of memory, when the KWG has
 * no DAWG, or when a word has a letter more than 15 times (the map could not find it, so the
 * search must not rely on it).  Owned by the caller: tb_wordmap_free. */
tb_wordmap *tb_wordmap_build(const tb_kwg *kwg);
void tb_wordmap_free(tb_wordmap *wm);
/* The words whose letters are exactly the multiset key, each as its codes, one after another
 * (their length is the key's total count); NULL and *count = 0 if there are none. */
const uint8_t *tb_wordmap_find(const tb_wordmap *wm, const uint64_t key[2], uint32_t *count);
void tb_wordmap_prefetch(const tb_wordmap *wm, const uint64_t key[2]);
/* The letters x for which the letters of key plus x may be a word's: every such letter is in
 * the mask, and seldom another (two multisets share an entry only if their 32-bit
 * fingerprints and slots agree).  0: no word has key's letters plus one. */
tb_mask tb_wordmap_completions(const tb_wordmap *wm, const uint64_t key[2]);
void tb_wordmap_prefetch_completions(const tb_wordmap *wm, const uint64_t key[2]);
void tb_wordmap_stats(const tb_wordmap *wm, size_t *words, size_t *classes, size_t *bytes);

/* -- board ---------------------------------------------------------------------------------- */

void tb_board_init(tb_board *b, const tb_rules *rules);
/* Replace all tiles (row-major, rows*cols bytes) and recompute cross-sets and anchors. */
void tb_board_set_tiles(tb_board *b, const tb_rules *rules, const tb_kwg *kwg,
                        const uint8_t *tiles);
/* Copy the part of a board in use (the lines of its size), a fraction of the struct. */
void tb_board_copy(tb_board *dst, const tb_board *src);
/* Put a move's tiles on the board and update cross-sets and anchors incrementally. */
void tb_board_apply(tb_board *b, const tb_rules *rules, const tb_kwg *kwg, const tb_move *m);

/* Replace the tile on an occupied square (a CAMBIO) and update the cross-sets it changes. */
void tb_board_replace(tb_board *b, const tb_rules *rules, const tb_kwg *kwg, int row, int col,
                      uint8_t tile);
/* The run of tiles through square [d][line][pos] along its line (*lo..*hi, the square
 * included), and the letters that could stand on the square with the rest of the run a word
 * (0 if the run is that square alone). */
tb_mask tb_board_fitting(const tb_board *b, const tb_rules *rules, const tb_kwg *kwg, int d,
                         int line, int pos, int *lo, int *hi);

/* -- generation ----------------------------------------------------------------------------- */

/* first_turn: score with the first turn's multiplier and bonus.  The geometry rules of the
 * first move (start squares, min_tiles) apply whenever the board is empty. */

/* Count every legal placement; *score_sum (if not NULL) gets the sum of their scores, so a
 * count run still scores every move and can be checked against a list. */
uint64_t tb_count_moves(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                        const tb_rack *rack, int first_turn, int64_t *score_sum);
/* Append every legal placement to out (growing it); returns 0, or -1 if out of memory. */
int tb_generate_all(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                    const tb_rack *rack, int first_turn, tb_movelist *out);
/* Whether the rack has at least one legal placement (the first move's geometry applies on an
 * empty board); stops at the first anchor that yields one. */
int tb_has_move(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b, const tb_rack *rack);
/* The n best placements by equity (leaves may be NULL: equity = score), best first, into
 * out[0..n-1]; returns how many were found (< n when fewer exist).  Ties are broken by
 * tb_move_before.  Uses per-anchor upper bounds (shadow play) to skip anchors. */
int tb_best_moves(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                  const tb_rack *rack, int first_turn, const tb_leaves *leaves, int n,
                  tb_move *out);
/* Once the bag is empty, kept tiles are a debt, not an asset, and the leave table no longer
 * applies: keeping a non-empty leave is worth -(10 + factor * its points + blank_penalty * its
 * blanks), going out factor * the others' points + blank_penalty * their blanks, where factor
 * counts the end rules that charge a kept tile (subtract_own_rack, going_out_gains_others).
 * The same estimate as tablero.engine.movegen.candidates.end_leave_value. */
typedef struct tb_end_values {
    int others_points, others_blanks; /* what the other players hold */
    int factor, blank_penalty, blank_value;
} tb_end_values;
double tb_end_value(const tb_rules *rules, const tb_end_values *e, const uint8_t *codes, int n);
/* tb_best_moves valued by tb_end_value instead of a leave table. */
int tb_best_moves_end(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                      const tb_rack *rack, int first_turn, const tb_end_values *end, int n,
                      tb_move *out);
/* The same without the anchor bounds (every anchor searched); for tests of the bounds. */
int tb_best_moves_exhaustive(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b,
                             const tb_rack *rack, int first_turn, const tb_leaves *leaves,
                             int n, tb_move *out);
/* What the ranked search spends its walk on, counted only in a build with -DTB_STATS
 * (benchmarks/bench_anchor_work.py makes one; the shipped build counts nothing and has no
 * cost).  A node is one call of the walk's gen_left or gen_right. */
typedef struct tb_search_stats {
    uint64_t searches;        /* ranked searches (tb_best_moves and tb_best_moves_end) */
    uint64_t anchors;         /* anchors with a finite bound */
    uint64_t searched;        /* anchors walked (bound not below the n-th best so far) */
    uint64_t nodes;           /* walk nodes in those anchors */
    uint64_t nodes_no_insert; /* ... in anchors that added no move to the best n */
    uint64_t nodes_top;       /* ... in the anchor that last improved the best move */
    uint64_t nodes_bingo;     /* ... in anchors a no-bingo oracle would skip: the best is no
                               * bingo and the anchor's bound without bingo spans is below
                               * the final n-th best */
    /* Of nodes_no_insert, those in anchors whose bound over the spans through no board tile
     * (through at most one) reaches the final n-th best: the most that knowing which words
     * the rack makes alone (with one board letter) could not save. */
    uint64_t nodes_no_insert_no_board, nodes_no_insert_one_board;
} tb_search_stats;
#ifdef TB_STATS
extern tb_search_stats tb_stats;
#define TB_STAT(x) (x)
#else
#define TB_STAT(x) ((void)0)
#endif

/* Total order of ranked moves: higher equity, then higher score, then across before down,
 * lower line, lower start, then tile bytes compared square by square. */
int tb_move_before(const tb_move *a, const tb_move *b);

void tb_movelist_free(tb_movelist *l);

/* -- CAMBIO (Crucigrama) ---------------------------------------------------------------------- */

/* A letter on the board replaced by one from the rack, every word through the square still a
 * word; the letter taken goes to the rack.  Scored at the plain face values of the words it
 * changes (docs/endgame.md §7.8). */
typedef struct tb_cambio {
    uint8_t row, col;
    uint8_t tile; /* the new tile byte (c | TB_BLANK for a blank standing for c) */
    uint8_t old;  /* the letter taken back (never a blank: a blank on the board stays) */
    int32_t score;
} tb_cambio;

/* Every CAMBIO of the rack on the board into *out (grown as needed, *cap its capacity):
 * squares row by row, then the rack's letters by code, then the blank as each letter by code.
 * Returns how many, or -1 out of memory. */
int tb_cambios(const tb_rules *rules, const tb_kwg *kwg, const tb_board *b, const tb_rack *rack,
               tb_cambio **out, size_t *cap);

/* -- leaves --------------------------------------------------------------------------------- */

/* Key of a multiset of rack codes (blank = 0): the codes sorted ascending, each stored as
 * code + 1 in six bits, the first in the lowest bits.  The empty leave has key 0. */
uint64_t tb_leave_key(const uint8_t *codes, int n);

/* Every multiset a rack can keep, one after another, as a mixed-radix count: digit[j] tiles
 * kept of codes[j] (the rack's distinct codes, ascending), digit 0 the lowest.  Steps to the
 * next one (after the last, every digit is back at 0) and returns how many tiles the step
 * added to the multiset (negative when it zeroed digits). */
static inline int tb_kept_next(uint8_t *digit, const int *counts, int m)
{
    int added = 0;
    for (int j = 0; j < m; j++) {
        if (digit[j] < counts[j]) {
            digit[j]++;
            return added + 1;
        }
        added -= digit[j];
        digit[j] = 0;
    }
    return added;
}

/* The leave key of such a multiset, built as tb_leave_key builds it (the codes come out
 * ascending, so without a sort); its size in *n and, unless kept is NULL, its codes. */
static inline uint64_t tb_kept_key(const int *codes, const uint8_t *digit, int m, uint8_t *kept,
                                   int *n)
{
    uint64_t key = 0;
    int size = 0;
    for (int j = 0; j < m; j++)
        for (int x = 0; x < digit[j]; x++, size++) {
            if (kept)
                kept[size] = (uint8_t)codes[j];
            key |= (uint64_t)(codes[j] + 1) << (6 * size);
        }
    *n = size;
    return key;
}

/* A table from n (key, value) pairs; NULL if out of memory.  Keys must be distinct. */
tb_leaves *tb_leaves_new(const uint64_t *keys, const double *values, size_t n);

/* Zeroed memory for a large array read at random, on huge pages where the system has them
 * (hugemem.c); released with free(). */
void *tb_huge_zeroed(size_t n);
void tb_leaves_free(tb_leaves *l);
/* Value of a leave; 0.0 for a leave not in the table. */
double tb_leaves_get(const tb_leaves *l, uint64_t key);
/* Start loading a key's slot into the cache (so many look-ups can overlap their misses). */
void tb_leaves_prefetch(const tb_leaves *l, uint64_t key);

/* -- self-play ------------------------------------------------------------------------------ */

#define TB_MAX_BAG 255
#define TB_MAX_PLAYERS 4

/* What a whole game needs beyond tb_rules (tablero.variant's tile set, exchange and end rules). */
typedef struct tb_game_rules {
    uint8_t tiles[TB_MAX_CODE + 1]; /* the tile set: count by code, [0] = blanks */
    int blank_value;                /* face value of a blank left on a rack */
    int counterclockwise;           /* turn order */
    int exchange_allowed, exchange_min_bag, exchange_max_tiles, exchange_per_game;
    int exchange_only_when_blocked;
    int ex_min_bag;                 /* EX squares shuffle only if the bag holds this many */
    int going_out, no_one_can_play, scoreless_rounds;
    int scoreless_passes, scoreless_exchanges; /* which turns count as scoreless */
    int subtract_own_rack, going_out_gains_others, unplayed_blank_penalty;
} tb_game_rules;

enum { TB_END_GOING_OUT, TB_END_SCORELESS, TB_END_NO_ONE_CAN_PLAY, TB_END_TURN_LIMIT };

typedef struct tb_game_result {
    int n_players;
    int reason;        /* TB_END_* */
    int turns;
    int went_out;      /* the seat that went out, or -1 */
    int score[TB_MAX_PLAYERS];     /* final, after the adjustments */
    int before[TB_MAX_PLAYERS];    /* before the adjustments */
    int moves[TB_MAX_PLAYERS], bingos[TB_MAX_PLAYERS], exchanges[TB_MAX_PLAYERS];
    int passes[TB_MAX_PLAYERS], shuffles[TB_MAX_PLAYERS], rack_left[TB_MAX_PLAYERS];
} tb_game_result;

enum { TB_TURN_PLACE, TB_TURN_EXCHANGE, TB_TURN_PASS };

/* One turn of a self-play game, for checking the loop (see tb_selfplay_game's log). */
typedef struct tb_turn {
    int seat, kind;          /* TB_TURN_* */
    tb_rack rack;            /* the mover's rack before the turn */
    tb_move move;            /* the placement (kind TB_TURN_PLACE) */
    uint8_t kept[TB_MAX_CODE + 1]; /* the tiles kept (kind TB_TURN_EXCHANGE) */
    int bag;                 /* tiles in the bag before the turn */
} tb_turn;

/* One game of static play: each turn the mover's best placement by equity (leaves[seat], may
 * be NULL; leaves itself may be NULL), or an exchange worth more, or a pass.  Deterministic for
 * a seed.  If log is not NULL it receives every turn (room for 1000).  Returns 0, or -1 on bad
 * arguments or out of memory. */
int tb_selfplay_game(const tb_rules *rules, const tb_kwg *kwg, const tb_game_rules *game,
                     const tb_leaves *const *leaves, int n_players, int first, uint64_t seed,
                     tb_game_result *out, tb_turn *log);

#define TB_MAX_TURNS 1000

/* Face value of the tiles on a rack (a blank counts the game's blank value). */
int tb_rack_points(const tb_game_rules *gr, const tb_rules *r, const tb_rack *rack);
/* The run of scoreless turns after a turn of this kind (TB_TURN_*): a placement ends it; a
 * pass or an exchange adds to it where the game counts that kind as scoreless, else ends it. */
int tb_scoreless_run(const tb_game_rules *gr, int run, int kind);
/* The end values (tb_end_values) for `seat` of n_players once the bag is empty. */
void tb_end_values_for(const tb_rules *r, const tb_game_rules *gr, const tb_rack *const *racks,
                       int n_players, int seat, tb_end_values *out);
/* The best exchange for a rack: the kept tiles with the highest leave value among those an
 * exchange may keep (at least one tile returned, at most exchange_max_tiles, the bag holding
 * enough); ties keep fewer tiles.  Returns 0 if no exchange is allowed, else 1 with keep[]
 * (counts by code) and *value (the kept tiles' leave value). */
int tb_best_exchange(const tb_game_rules *gr, const tb_leaves *leaves, const tb_rack *rack,
                     int bag_n, uint8_t keep[TB_MAX_CODE + 1], double *value);

/* -- Monte-Carlo simulation ----------------------------------------------------------------- */

/* A candidate's kind is the kind of turn it is. */
enum {
    TB_CAND_PLACE = TB_TURN_PLACE,
    TB_CAND_EXCHANGE = TB_TURN_EXCHANGE,
    TB_CAND_PASS = TB_TURN_PASS
};

/* One candidate move of the player to move. */
typedef struct tb_candidate {
    int kind;                        /* TB_CAND_* */
    tb_move move;                    /* kind TB_CAND_PLACE: the placement (score included) */
    uint8_t back[TB_MAX_CODE + 1];   /* kind TB_CAND_EXCHANGE: the tiles returned, by code */
} tb_candidate;

/* Per candidate: playouts run, mean and sample standard deviation of their values. */
typedef struct tb_sim_stat {
    int iterations;
    double mean, sd;
} tb_sim_stat;

/* What the mover has inferred about one opponent's rack (search/inference.py): deal `it` of a
 * simulation gives the opponent at `seat` (1 .. n_players - 1, in turn order from the mover)
 * the tiles counted in racks[(it % n) * (TB_MAX_CODE + 1) ...], taken out of the unseen tiles
 * before the shuffle, and fills the rest of its rack from the shuffle as usual.  Each entry is
 * one sample of what the opponent kept after its last play, so the deals follow what that play
 * says about its rack instead of treating every unseen tile alike. */
typedef struct tb_sim_known {
    const uint8_t *racks;
    int n;
    int seat;
} tb_sim_known;

/* Monte-Carlo simulation with common random numbers (docs/movegen.md §12).  For each of
 * `iterations` iterations the unseen tiles are shuffled once (seeded by seed and the
 * iteration's number, so a result does not depend on how many candidates share the run); the
 * opponents' racks are dealt first (rack_size each while tiles last), the rest is the bag in
 * draw order.  Every candidate is played out on that same arrangement: the candidate, the
 * mover's refill, then `plies` rounds of replies by static best equity (leaves may be NULL)
 * where a round is every opponent in turn order then the mover, and a last odd ply the
 * opponents only.  A playout's value is measured against the best-placed opponent: the
 * mover's points minus those of the opponent who leads after the playout, counting
 * `behind[s]` (opponent s's score minus the mover's before the candidate; NULL: all 0), less
 * the most any opponent led by before it (so a playout where nobody scores is worth 0, and with
 * one opponent it is the points difference); plus what the mover's last rack is worth (its
 * leave value, or its end value once the bag is empty) unless the game ended: then the end
 * adjustments of `game` are applied instead.  The game also ends inside a playout when the run
 * of scoreless turns, `streak` before the candidate, reaches the game's limit.
 * `known` (NULL: nothing known) fixes part of one opponent's rack in each deal (tb_sim_known).
 * If `values` is not NULL it receives every playout's value, candidate by candidate
 * (values[ci * iterations + it]), and `unseen_end` (not NULL then) the number of tiles the mover
 * could not see when the playout stopped (the bag and the opponents' racks), or -1 where the game
 * ended in it: what a win-probability estimate of the playout needs, and what paired statistics
 * between candidates need.  Returns 0; -1 bad arguments; -2 out of memory (all memory is taken
 * before the loop, none inside it). */
int tb_simulate(const tb_rules *rules, const tb_kwg *kwg, const tb_game_rules *game,
                const tb_board *board, const tb_rack *rack, const uint8_t unseen[TB_MAX_CODE + 1],
                int n_players, const tb_candidate *cands, int n_cands, int plies,
                int iterations, uint64_t seed, const tb_leaves *leaves, int streak,
                const int32_t *behind, const tb_sim_known *known, tb_sim_stat *out,
                double *values, int8_t *unseen_end);

/* -- exact endgame ---------------------------------------------------------------------------- */

/* The bag is empty and two players are left: negamax with alpha-beta, a transposition table
 * that knows which of its values are proven (complete), and iterative deepening.  The same
 * search as tablero/engine/search/endgame.py, specified in docs/endgame.md (§7 says how
 * this one is built). */

#define TB_EG_MAX_DEPTH 64 /* plies */
#define TB_EG_MAX_LINE (2 * TB_EG_MAX_DEPTH + 1) /* moves of the line (forced passes are free) */
#define TB_EG_MAX_CAMBIOS 7 /* CAMBIOs a side may have left */

typedef struct tb_eg_config {
    int max_depth;      /* deepest pass, 1..TB_EG_MAX_DEPTH */
    int width;          /* at most this many placements a node (the best by score); 0: all */
    int scoreless;      /* the run of scoreless turns before the root */
    double seconds;     /* budget in seconds of wall time; <= 0: none */
    uint64_t max_nodes; /* budget in nodes; 0: none */
    int tt_bits;        /* the table holds 2^tt_bits entries of 16 bytes (10..30) */
    int cambios_left[2]; /* CAMBIOs each side may still make (the side to move first), 0..7 */
} tb_eg_config;

enum { TB_EG_PLACE, TB_EG_PASS, TB_EG_CAMBIO };

typedef struct tb_eg_step {
    int kind;          /* TB_EG_PLACE, TB_EG_PASS or TB_EG_CAMBIO */
    tb_move move;      /* kind TB_EG_PLACE: the placement, with its score */
    tb_cambio cambio;  /* kind TB_EG_CAMBIO */
} tb_eg_step;

typedef struct tb_eg_result {
    int found;      /* at least one pass finished (else line[0] is the first option in order) */
    int exact;      /* the deepest finished pass saw every line to the end, with every move */
    int depth;      /* plies of the deepest finished pass */
    int value2;     /* its value for the side to move, in half points: the points it will make
                       minus the other's from here to the end, adjustments included */
    uint64_t nodes; /* negamax calls over all passes */
    int line_len;
    tb_eg_step line[TB_EG_MAX_LINE]; /* the best move, then each side's best reply */
} tb_eg_result;

/* Solve the endgame on `root` with `me` to move and `them` (the other rack, in full).  The
 * end rules come from `game`.  Returns 0; -1 bad arguments; -2 out of memory (the table and
 * the per-ply buffers are taken before the search and freed before returning). */
int tb_endgame(const tb_rules *rules, const tb_kwg *kwg, const tb_game_rules *game,
               const tb_board *root, const tb_rack *me, const tb_rack *them,
               const tb_eg_config *config, tb_eg_result *out);

#endif
