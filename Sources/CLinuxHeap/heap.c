#if defined(__linux__)
#include <malloc.h>
#include <sys/prctl.h>
#include "CLinuxHeap.h"

void reel_keep_encoder_memory(void) {
    prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

void reel_release_freed_memory(void) {
    prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, 4 << 20);
    mallopt(M_ARENA_MAX, 4);
}

void reel_trim_heaps(void) { malloc_trim(0); }

size_t reel_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#endif
