#ifndef C_HTTP_PIPELINE_CURL_H
#define C_HTTP_PIPELINE_CURL_H

// libcurl for the curl transport. Swift cannot call C's variadic functions (`curl_easy_setopt`,
// `curl_multi_setopt`, `curl_easy_getinfo`) nor use macros built from other macros, so these
// inline wrappers take one typed argument each and the constants are restated as an enum.

#include <curl/curl.h>

enum {
    CHTTPPipelineCurl_WRITEFUNC_PAUSE = CURL_WRITEFUNC_PAUSE,
    CHTTPPipelineCurl_READFUNC_PAUSE = CURL_READFUNC_PAUSE,
    CHTTPPipelineCurl_READFUNC_ABORT = CURL_READFUNC_ABORT,
    CHTTPPipelineCurl_SEEKFUNC_OK = CURL_SEEKFUNC_OK,
    CHTTPPipelineCurl_SEEKFUNC_CANTSEEK = CURL_SEEKFUNC_CANTSEEK,
    CHTTPPipelineCurl_PAUSE_RECV = CURLPAUSE_RECV,
    CHTTPPipelineCurl_PAUSE_SEND = CURLPAUSE_SEND,
    CHTTPPipelineCurl_GLOBAL_ALL = CURL_GLOBAL_ALL,
    CHTTPPipelineCurl_ERROR_SIZE = CURL_ERROR_SIZE,
    CHTTPPipelineCurl_PIPE_MULTIPLEX = CURLPIPE_MULTIPLEX,
};

/// `curl_easy_setopt` with a `long`.
static inline CURLcode CHTTPPipelineCurl_setLong(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` with a `curl_off_t`.
static inline CURLcode CHTTPPipelineCurl_setOffset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` with a pointer: a string (copied by libcurl), a `curl_slist`, user data or
/// the error buffer.
static inline CURLcode CHTTPPipelineCurl_setPointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` with a write or header callback.
static inline CURLcode CHTTPPipelineCurl_setWriteFunction(CURL *easy, CURLoption option,
                                                          curl_write_callback function) {
    return curl_easy_setopt(easy, option, function);
}

/// `curl_easy_setopt(easy, CURLOPT_READFUNCTION, function)`.
static inline CURLcode CHTTPPipelineCurl_setReadFunction(CURL *easy, curl_read_callback function) {
    return curl_easy_setopt(easy, CURLOPT_READFUNCTION, function);
}

/// `curl_easy_setopt(easy, CURLOPT_SEEKFUNCTION, function)`.
static inline CURLcode CHTTPPipelineCurl_setSeekFunction(CURL *easy, curl_seek_callback function) {
    return curl_easy_setopt(easy, CURLOPT_SEEKFUNCTION, function);
}

/// `curl_multi_setopt` with a `long`.
static inline CURLMcode CHTTPPipelineCurl_multiSetLong(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// `curl_easy_getinfo` of a `long`.
static inline CURLcode CHTTPPipelineCurl_getLong(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

/// The result of a finished transfer's message (a union member in C).
static inline CURLcode CHTTPPipelineCurl_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
