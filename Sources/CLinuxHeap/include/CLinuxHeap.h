// glibc heap tuning for MediaIO's HeapPolicy: Linux only (elsewhere this module is empty).
#ifndef REEL_CLINUXHEAP_H
#define REEL_CLINUXHEAP_H
#if defined(__linux__)
#include <stddef.h>

/// Memory for renders that open a fresh encoder and decoders for every segment: no transparent
/// huge pages (x264 asks for them for every big buffer, and the kernel clears each 2 MiB page
/// whole), and freed buffers kept for the next segment instead of being returned to the kernel
/// and faulted in again (frames are a few MiB: below 32 MiB nothing is mmap'ed on its own,
/// and the heap is trimmed only beyond 256 MiB free). Process-wide; idempotent.
void reel_keep_encoder_memory(void);

/// Memory for a process that runs for hours and renders now and then (reel preview): freed
/// memory goes back to the kernel. Buffers of 1 MiB and more (frames, encoder and decoder
/// pools) are mapped on their own and unmapped when freed; a heap keeps at most 4 MiB free at
/// its top; at most 4 heaps (glibc makes up to 8 per core, one per thread that allocates
/// while another holds a heap, and each keeps what its threads freed). Process-wide.
void reel_release_freed_memory(void);

/// Gives every heap's free pages back to the kernel (after a big structure was freed).
void reel_trim_heaps(void);

/// The bytes malloc has handed out and not had back, over all heaps, mapped chunks included
/// (glibc's mallinfo2): unlike the resident size, it does not move with pages the allocator
/// keeps for reuse, so a leak test can bound it tightly.
size_t reel_heap_bytes_in_use(void);

#endif
#endif
