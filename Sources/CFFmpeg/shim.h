// FFmpeg for Swift: the library headers plus the macros Swift cannot import.
#ifndef REEL_CFFMPEG_SHIM_H
#define REEL_CFFMPEG_SHIM_H
#include <errno.h>
#include <stdarg.h>
#include <string.h>
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
