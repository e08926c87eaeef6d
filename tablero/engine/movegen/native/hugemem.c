/* Large zeroed arrays, on huge pages where the system offers them.
 *
 * Why: the word map (59 MB for Spanish) and the leave table (64 MB for FISE's) are read at
 * random, a few hundred times a search.  With 4 KiB pages nearly every such read also misses the processor's
 * address cache (the TLB) and waits for a page walk, a prefetch included; 2 MiB pages make
 * the whole table a few dozen entries of it.  Memory from tb_huge_zeroed is released with
 * free().
 */
#if defined(__linux__)
#define _GNU_SOURCE /* posix_memalign, and madvise's MADV_HUGEPAGE (hidden under -std=c11) */
#else
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#endif
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "movegen.h"

#define HUGE_PAGE ((size_t)2 << 20)

void *tb_huge_zeroed(size_t n)
{
    void *p = NULL;
    if (n < HUGE_PAGE / 2) /* a small array gains nothing from a page of its own */
        return calloc(1, n ? n : 1);
    const size_t rounded = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    if (posix_memalign(&p, HUGE_PAGE, rounded))
        return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    memset(p, 0, rounded);
    return p;
}
