#ifndef C_HTTP_PIPELINE_ZLIB_H
#define C_HTTP_PIPELINE_ZLIB_H

// zlib for the gzip plugin. Swift cannot call zlib's function-like macros (`inflateInit2`,
// `deflateInit2`), so these inline wrappers call the functions behind them with the header's
// version and `z_stream` size, exactly as the macros do.

#include <zlib.h>

/// `inflateInit2(stream, windowBits)`.
static inline int CHTTPPipelineZlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2_(stream, windowBits, ZLIB_VERSION, (int)sizeof(z_stream));
}

/// `deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY)`.
static inline int CHTTPPipelineZlib_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2_(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY,
                         ZLIB_VERSION, (int)sizeof(z_stream));
}

#endif
