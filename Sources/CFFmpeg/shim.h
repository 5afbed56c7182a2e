// FFmpeg for Swift: the library headers plus the macros Swift cannot import.
#ifndef REEL_CFFMPEG_SHIM_H
#define REEL_CFFMPEG_SHIM_H
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/cpu.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

/// Memory for renders that open a fresh encoder and decoders for every segment: no transparent
/// huge pages (x264 asks for them for every big buffer, and the kernel clears each 2 MiB page
/// whole), and freed buffers kept for the next segment instead of being returned to the kernel
/// and faulted in again (frames are a few MiB: below 32 MiB nothing is mmap'ed on its own,
/// and the heap is trimmed only beyond 256 MiB free). Process-wide; idempotent.
static inline void reel_keep_encoder_memory(void) {
    prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

/// Memory for a process that runs for hours and renders now and then (reel preview): freed
/// memory goes back to the kernel. Buffers of 1 MiB and more (frames, encoder and decoder
/// pools) are mapped on their own and unmapped when freed; a heap keeps at most 4 MiB free at
/// its top; at most 4 heaps (glibc makes up to 8 per core, one per thread that allocates
/// while another holds a heap, and each keeps what its threads freed). Process-wide.
static inline void reel_release_freed_memory(void) {
    prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, 4 << 20);
    mallopt(M_ARENA_MAX, 4);
}

/// Gives every heap's free pages back to the kernel (after a big structure was freed).
static inline void reel_trim_heaps(void) { malloc_trim(0); }

static inline int reel_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int reel_averror_eof(void) { return AVERROR_EOF; }
static inline int reel_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int64_t reel_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int reel_av_time_base(void) { return AV_TIME_BASE; }

/// The message FFmpeg gives for an error code (av_err2str is a macro over a compound literal).
static inline void reel_av_strerror(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }

/// FFmpeg's last error-level log line on this thread ("moov atom not found", …): the detail that
/// av_strerror's generic message lacks. Reel reports errors itself, so nothing is printed.
static inline char *reel_last_log_line(void) {
    static _Thread_local char line[512];
    return line;
}

static inline void reel_log_callback(void *object, int level, const char *format, va_list args) {
    if (level > AV_LOG_ERROR) return;
    char line[512];
    int printPrefix = 0;
    av_log_format_line2(object, level, format, args, line, sizeof line, &printPrefix);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    if (n > 0) memcpy(reel_last_log_line(), line, n + 1);
}

static inline void reel_install_log_callback(void) { av_log_set_callback(reel_log_callback); }
static inline const char *reel_last_log(void) { return reel_last_log_line(); }
static inline void reel_clear_last_log(void) { reel_last_log_line()[0] = 0; }
#endif
