/* The word map: every word of the lexicon filed under its multiset of letters.
 *
 * Why: the ranked search (movegen.c, mapgen.inc) fills a span of known squares with a known
 * number of rack tiles.  Which words can go there is a question about letters, not about
 * their order: the tiles played plus the board letters the span runs through form a
 * multiset, and only the words with exactly those letters can fit.  One look-up here lists
 * them, where the GADDAG walk would try every order of the rack's tiles on the way.
 *
 * Key: a multiset as 31 four-bit counts, code c (1..31) at bits 4(c-1) of a 128-bit number
 * held as two words (codes 1..16 in lo, 17..31 in hi).  Adding two multisets is adding their
 * keys, as long as no count passes 15 (tb_wmkey_add_checked says when it would).  A word's
 * length is the sum of its counts, so the key alone says how long its words are.
 *
 * Layout: an open-addressing hash table of classes (key, first word, number of words), linear
 * probing, at most half full; beside it one byte a slot, a tag of the key's hash (0 = free).
 * Most look-ups of a search find nothing, and the tags answer those from 1 MiB instead of the
 * 24 MiB of slots.  The words of a class are contiguous in one byte array, each as its
 * letter codes.  Beside the classes, the completions: for each multiset one letter short of
 * a word, the mask of the letters that complete it, keyed by a 32-bit fingerprint only (so a
 * mask may hold a letter too many, never one too few).  They tell a subset holding the blank
 * what the blank can be, and a subset which board letters it can make a word with, without a
 * look-up.  The arrays sit on huge pages where the system offers them (hugemem.c).  The map
 * is built once from the KWG's DAWG and never changes.  Memory: docs/movegen.md §13.
 */
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

#define NODE_TILE(n) ((n) >> 24)
#define NODE_ACCEPTS(n) ((n)&0x00800000u)
#define NODE_END(n) ((n)&0x00400000u)
#define NODE_ARC(n) ((n)&0x003FFFFFu)

typedef struct {
    uint64_t lo, hi;
    uint32_t first; /* byte offset of the class's first word in words */
    uint32_t count; /* 0 = free slot */
} wm_slot;

struct tb_wordmap {
    wm_slot *slots;
    uint8_t *tags;
    /* the completions: for each multiset one letter short of a word, the letters that
     * complete it, as (fingerprint << 32 | letter mask), 0 = free; open addressing */
    uint64_t *comp;
    uint64_t comp_size; /* any size: the home slot is the hash's top half scaled to it */
    uint64_t mask;
    int shift;
    uint8_t *words;
    size_t n_words, n_classes, word_bytes;
};

static inline uint64_t wm_hash(uint64_t lo, uint64_t hi)
{
    uint64_t x = lo ^ (hi * 0x9E3779B97F4A7C15ull);
    x ^= x >> 31;
    return x * 0xBF58476D1CE4E5B9ull;
}

/* The slot comes from the hash's high bits, the tag from seven low ones (never 0), a
 * completion's fingerprint from the low 32 (never 0). */
static inline uint8_t wm_tag(uint64_t h) { return (uint8_t)(h | 0x80); }
static inline uint64_t wm_fingerprint(uint64_t h) { return (uint64_t)((uint32_t)h | 1u) << 32; }

static inline uint64_t wm_comp_home(const tb_wordmap *wm, uint64_t h)
{
    return ((h >> 32) * wm->comp_size) >> 32;
}

static inline uint64_t wm_comp_next(const tb_wordmap *wm, uint64_t s)
{
    return s + 1 == wm->comp_size ? 0 : s + 1;
}

/* Letter `code` completes the multiset key: or its bit into key's entry.  Two multisets with
 * the same slot chain and fingerprint share an entry: the union of their letters is still a
 * superset of each.  Returns 1 if the entry is new, 0 if not. */
static int wm_add_completion(tb_wordmap *wm, const uint64_t key[2], unsigned code)
{
    const uint64_t h = wm_hash(key[0], key[1]), fp = wm_fingerprint(h);
    uint64_t s = wm_comp_home(wm, h);
    while (wm->comp[s] && (wm->comp[s] & ~(uint64_t)0xFFFFFFFFu) != fp)
        s = wm_comp_next(wm, s);
    const int is_new = !wm->comp[s];
    wm->comp[s] |= fp | (uint64_t)1 << code;
    return is_new;
}

/* -- building ------------------------------------------------------------------------------ */

typedef struct {
    uint64_t lo, hi;
    uint32_t off; /* in the collected words */
    uint8_t len;
} wm_word;

typedef struct {
    const tb_edge *edges; /* read as KWG nodes: their low half, arcs into the edges */
    uint8_t path[TB_MAX_DIM];
    wm_word *list;
    size_t n, cap;
    uint8_t *bytes;
    size_t nbytes, bytes_cap;
    int failed; /* out of memory, or a word with a letter more than 15 times */
} wm_collect;

static void wm_add(wm_collect *c, int len)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1 << 16;
        wm_word *grown = realloc(c->list, cap * sizeof *grown);
        if (!grown) {
            c->failed = 1;
            return;
        }
        c->list = grown;
        c->cap = cap;
    }
    if (c->nbytes + (size_t)len > c->bytes_cap) {
        size_t cap = c->bytes_cap ? 2 * c->bytes_cap : 1 << 20;
        uint8_t *grown = realloc(c->bytes, cap);
        if (!grown) {
            c->failed = 1;
            return;
        }
        c->bytes = grown;
        c->bytes_cap = cap;
    }
    uint64_t key[2] = {0, 0};
    for (int i = 0; i < len; i++)
        if (!tb_wmkey_add_checked(key, c->path[i])) {
            c->failed = 1; /* such a word could not be looked up: the map would miss it */
            return;
        }
    memcpy(c->bytes + c->nbytes, c->path, (size_t)len);
    c->list[c->n++] = (wm_word){key[0], key[1], (uint32_t)c->nbytes, (uint8_t)len};
    c->nbytes += (size_t)len;
}

/* Every word below the list starting at edge i, the path so far being len letters.  The edges
 * are the KWG's nodes laid out again (board.c), with the DAWG root among them. */
static void wm_walk(wm_collect *c, uint32_t i, int len)
{
    if (len >= TB_MAX_DIM || c->failed)
        return;
    for (;; i++) {
        const uint32_t node = (uint32_t)c->edges[i];
        const unsigned t = NODE_TILE(node);
        if (t >= 1 && t <= TB_MAX_CODE) {
            c->path[len] = (uint8_t)t;
            if (NODE_ACCEPTS(node) && len + 1 >= 2)
                wm_add(c, len + 1);
            if (NODE_ARC(node))
                wm_walk(c, NODE_ARC(node), len + 1);
        }
        if (NODE_END(node) || c->failed)
            return;
    }
}

static int wm_order(const void *x, const void *y)
{
    const wm_word *a = x, *b = y;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->off < b->off ? -1 : a->off > b->off;
}

/* Every class's completions (the list sorted by key, a class's words side by side): for each
 * distinct letter of the class, the class less that letter is completed by it.  0 if the
 * table got over 80 % full. */
static int wm_fill_completions(tb_wordmap *wm, const wm_word *list, size_t n)
{
    const size_t most = wm->comp_size / 5 * 4;
    size_t filled = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && list[i].lo == list[i - 1].lo && list[i].hi == list[i - 1].hi)
            continue;
        for (unsigned code = 1; code <= TB_MAX_CODE; code++) {
            const unsigned half = (code - 1) >> 4, shift = 4 * ((code - 1) & 15);
            uint64_t key[2] = {list[i].lo, list[i].hi};
            if (!((key[half] >> shift) & 15))
                continue;
            key[half] -= (uint64_t)1 << shift;
            filled += (size_t)wm_add_completion(wm, key, code);
            if (filled > most)
                return 0;
        }
    }
    return 1;
}

tb_wordmap *tb_wordmap_build(const tb_kwg *kwg)
{
    if (!kwg->dawg_root)
        return NULL;
    wm_collect c = {.edges = kwg->edges};
    wm_walk(&c, kwg->dawg_root, 0);
    tb_wordmap *wm = NULL;
    if (c.failed || c.n == 0 || c.nbytes > UINT32_MAX)
        goto done;
    qsort(c.list, c.n, sizeof *c.list, wm_order);
    size_t classes = 1;
    for (size_t i = 1; i < c.n; i++)
        classes += c.list[i].lo != c.list[i - 1].lo || c.list[i].hi != c.list[i - 1].hi;
    int bits = 4;
    while (((size_t)1 << bits) < 2 * classes)
        bits++;
    wm = calloc(1, sizeof *wm);
    if (!wm)
        goto done;
    /* The completions: a class has one multiset one letter short per distinct letter, and
     * about 55 % of those are distinct over the list (2.09 of 3.84 million in Spanish, 3.76
     * of 6.63 in Romanian), so 0.85 slot per (class, letter) fills the table to about two
     * thirds; it grows by half if the list is less alike. */
    size_t shorts = 0;
    for (size_t i = 0; i < c.n; i++) {
        if (i > 0 && c.list[i].lo == c.list[i - 1].lo && c.list[i].hi == c.list[i - 1].hi)
            continue;
        for (unsigned code = 1; code <= TB_MAX_CODE; code++) {
            const uint64_t k = code <= 16 ? c.list[i].lo : c.list[i].hi;
            shorts += ((k >> (4 * ((code - 1) & 15))) & 15) != 0;
        }
    }
    size_t comp_size = shorts / 20 * 17 + 16;
    wm->slots = tb_huge_zeroed(((size_t)1 << bits) * sizeof *wm->slots);
    wm->tags = tb_huge_zeroed((size_t)1 << bits);
    wm->words = tb_huge_zeroed(c.nbytes);
    if (!wm->slots || !wm->tags || !wm->words) {
        tb_wordmap_free(wm);
        wm = NULL;
        goto done;
    }
    wm->mask = ((uint64_t)1 << bits) - 1;
    wm->shift = 64 - bits;
    wm->n_words = c.n;
    wm->n_classes = classes;
    wm->word_bytes = c.nbytes;
    size_t out = 0;
    for (size_t i = 0; i < c.n;) {
        size_t j = i;
        const uint32_t first = (uint32_t)out;
        while (j < c.n && c.list[j].lo == c.list[i].lo && c.list[j].hi == c.list[i].hi) {
            memcpy(wm->words + out, c.bytes + c.list[j].off, c.list[j].len);
            out += c.list[j].len;
            j++;
        }
        const uint64_t h = wm_hash(c.list[i].lo, c.list[i].hi);
        uint64_t s = h >> wm->shift;
        while (wm->tags[s])
            s = (s + 1) & wm->mask;
        wm->slots[s] = (wm_slot){c.list[i].lo, c.list[i].hi, first, (uint32_t)(j - i)};
        wm->tags[s] = wm_tag(h);
        i = j;
    }
    /* the completions, in a table half as large again if the first fills over 80 % */
    for (;; comp_size += comp_size / 2) {
        wm->comp = tb_huge_zeroed(comp_size * sizeof *wm->comp);
        if (!wm->comp) {
            tb_wordmap_free(wm);
            wm = NULL;
            goto done;
        }
        wm->comp_size = comp_size;
        if (wm_fill_completions(wm, c.list, c.n))
            break;
        free(wm->comp);
        wm->comp = NULL;
    }
done:
    free(c.list);
    free(c.bytes);
    return wm;
}

void tb_wordmap_free(tb_wordmap *wm)
{
    if (!wm)
        return;
    free(wm->slots);
    free(wm->tags);
    free(wm->comp);
    free(wm->words);
    free(wm);
}

/* -- look-ups ------------------------------------------------------------------------------ */

const uint8_t *tb_wordmap_find(const tb_wordmap *wm, const uint64_t key[2], uint32_t *count)
{
    const uint64_t h = wm_hash(key[0], key[1]);
    const uint8_t tag = wm_tag(h);
    for (uint64_t s = h >> wm->shift;; s = (s + 1) & wm->mask) {
        const uint8_t t = wm->tags[s];
        if (!t)
            break;
        if (t != tag)
            continue;
        const wm_slot *slot = &wm->slots[s];
        if (slot->lo == key[0] && slot->hi == key[1]) {
            *count = slot->count;
            return wm->words + slot->first;
        }
    }
    *count = 0;
    return NULL;
}

tb_mask tb_wordmap_completions(const tb_wordmap *wm, const uint64_t key[2])
{
    const uint64_t h = wm_hash(key[0], key[1]), fp = wm_fingerprint(h);
    for (uint64_t s = wm_comp_home(wm, h);; s = wm_comp_next(wm, s)) {
        const uint64_t e = wm->comp[s];
        if (!e)
            return 0;
        if ((e & ~(uint64_t)0xFFFFFFFFu) == fp)
            return (tb_mask)(uint32_t)e;
    }
}

void tb_wordmap_prefetch_completions(const tb_wordmap *wm, const uint64_t key[2])
{
    __builtin_prefetch(&wm->comp[wm_comp_home(wm, wm_hash(key[0], key[1]))]);
}

void tb_wordmap_prefetch(const tb_wordmap *wm, const uint64_t key[2])
{
    __builtin_prefetch(&wm->tags[wm_hash(key[0], key[1]) >> wm->shift]);
}

void tb_wordmap_stats(const tb_wordmap *wm, size_t *words, size_t *classes, size_t *bytes)
{
    *words = wm->n_words;
    *classes = wm->n_classes;
    *bytes = (size_t)(wm->mask + 1) * (sizeof *wm->slots + 1) + wm->word_bytes +
             (size_t)wm->comp_size * sizeof *wm->comp + sizeof *wm;
}
