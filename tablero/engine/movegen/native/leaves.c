/* Leave values: a multiset of kept tiles -> value, as an open-addressing hash table.
 *
 * A leave is keyed by its codes sorted ascending, each stored as code + 1 in six bits (so a
 * key never confuses "no tile" with the blank, code 0).  The generator looks up each of the
 * at most 2^rack-size sub-multisets of the rack once per call, never in its inner loop.
 */
#include <stdlib.h>

#include "movegen.h"

typedef struct {
    uint64_t key; /* 0 = free slot (the empty leave is kept aside) */
    double value;
} slot;

/* Key and value side by side: a look-up costs one cache line. */
struct tb_leaves {
    slot *slots;
    size_t mask;
    int has_empty;
    double empty;
};

uint64_t tb_leave_key(const uint8_t *codes, int n)
{
    uint8_t sorted[TB_MAX_RACK];
    if (n > TB_MAX_RACK)
        n = TB_MAX_RACK;
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && sorted[j - 1] > codes[i]) {
            sorted[j] = sorted[j - 1];
            j--;
        }
        sorted[j] = codes[i];
    }
    uint64_t key = 0;
    for (int i = 0; i < n; i++)
        key |= (uint64_t)((sorted[i] & TB_CODE) + 1) << (6 * i);
    return key;
}

static inline size_t slot_of(uint64_t key, size_t mask)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
}

tb_leaves *tb_leaves_new(const uint64_t *keys, const double *values, size_t n)
{
    tb_leaves *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    size_t size = 16;
    while (size < 2 * n)
        size *= 2;
    l->slots = tb_huge_zeroed(size * sizeof *l->slots); /* read at random: hugemem.c */
    if (!l->slots) {
        tb_leaves_free(l);
        return NULL;
    }
    l->mask = size - 1;
    for (size_t i = 0; i < n; i++) {
        if (keys[i] == 0) {
            l->has_empty = 1;
            l->empty = values[i];
            continue;
        }
        size_t s = slot_of(keys[i], l->mask);
        while (l->slots[s].key && l->slots[s].key != keys[i])
            s = (s + 1) & l->mask;
        l->slots[s].key = keys[i];
        l->slots[s].value = values[i];
    }
    return l;
}

void tb_leaves_free(tb_leaves *l)
{
    if (!l)
        return;
    free(l->slots);
    free(l);
}

double tb_leaves_get(const tb_leaves *l, uint64_t key)
{
    if (key == 0)
        return l->has_empty ? l->empty : 0.0;
    size_t s = slot_of(key, l->mask);
    while (l->slots[s].key) {
        if (l->slots[s].key == key)
            return l->slots[s].value;
        s = (s + 1) & l->mask;
    }
    return 0.0;
}

void tb_leaves_prefetch(const tb_leaves *l, uint64_t key)
{
    if (key)
        __builtin_prefetch(&l->slots[slot_of(key, l->mask)]);
}
