#ifndef C_HTTP_PIPELINE_CURL_H
#define C_HTTP_PIPELINE_CURL_H

// libcurl for the curl transport, bound at run time.
//
// The libcurl runtime (libcurl.so.4) is on every Linux machine the Swift toolchain runs on, since
// FoundationNetworking links it, but its development headers are not; Darwin ships the library in
// the system. So this module declares the few entry points, types and constants of libcurl's
// public ABI that the transport uses (stable since libcurl 7.68, the oldest release with every
// function below), and CHTTPPipelineCurl_bind resolves the functions from the installed runtime
// at first use. Nothing here includes <curl/curl.h>.
//
// Swift cannot call C's variadic functions (curl_easy_setopt, curl_multi_setopt,
// curl_easy_getinfo), so the wrappers below take one typed argument each.

#include <stddef.h>

typedef void CURL;
typedef void CURLM;
// A signed 64-bit integer, as libcurl's own system header picks it.
#if defined(__LP64__)
typedef long curl_off_t;
#else
typedef long long curl_off_t;
#endif

/// libcurl's result codes: the ones the transport names; any other arrives as its number.
typedef enum {
    CURLE_OK = 0,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_ABORTED_BY_CALLBACK = 42,
    CURLE_LAST_KNOWN_TO_PIPELINE = 100
} CURLcode;

typedef enum {
    CURLM_OK = 0,
    CURLM_LAST_KNOWN_TO_PIPELINE = 20
} CURLMcode;

typedef enum { CURLMSG_NONE = 0, CURLMSG_DONE = 1 } CURLMSG;

/// Option numbers: a type base (long 0, pointer 10000, function 20000, curl_off_t 30000) plus
/// the option's index, as libcurl numbers them.
typedef enum {
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_PROXY = 10004,
    CURLOPT_READDATA = 10009,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_READFUNCTION = 20012,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_SSLCERT = 10025,
    CURLOPT_KEYPASSWD = 10026,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_CUSTOMREQUEST = 10036,
    CURLOPT_NOBODY = 44,
    CURLOPT_UPLOAD = 46,
    CURLOPT_CAINFO = 10065,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_HTTP_VERSION = 84,
    CURLOPT_SSLKEY = 10087,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_INFILESIZE_LARGE = 30115,
    CURLOPT_TIMEOUT_MS = 155,
    CURLOPT_CONNECTTIMEOUT_MS = 156,
    CURLOPT_SEEKFUNCTION = 20167,
    CURLOPT_SEEKDATA = 10168,
    CURLOPT_PIPEWAIT = 237,
    CURLOPT_SUPPRESS_CONNECT_HEADERS = 265,
    CURLOPT_FRESH_CONNECT = 74,
    // libcurl 7.80 and later.
    CURLOPT_PREREQFUNCTION = 20312,
    CURLOPT_PREREQDATA = 10313
} CURLoption;

typedef enum {
    CURLMOPT_PIPELINING = 3,
    CURLMOPT_MAXCONNECTS = 6,
    CURLMOPT_MAX_HOST_CONNECTIONS = 7
} CURLMoption;

/// Information numbers: a type base (string 0x100000, long 0x200000, curl_off_t 0x600000) plus
/// the item's index.
typedef enum {
    CURLINFO_PRIMARY_IP = 0x100000 + 32,
    CURLINFO_RESPONSE_CODE = 0x200000 + 2,
    CURLINFO_HEADER_SIZE = 0x200000 + 11,
    CURLINFO_REQUEST_SIZE = 0x200000 + 12,
    CURLINFO_NUM_CONNECTS = 0x200000 + 26,
    CURLINFO_PRIMARY_PORT = 0x200000 + 40,
    CURLINFO_LOCAL_PORT = 0x200000 + 42,
    CURLINFO_HTTP_VERSION = 0x200000 + 46,
    CURLINFO_SIZE_UPLOAD_T = 0x600000 + 7,
    CURLINFO_SIZE_DOWNLOAD_T = 0x600000 + 8,
    CURLINFO_TOTAL_TIME_T = 0x600000 + 50,
    CURLINFO_NAMELOOKUP_TIME_T = 0x600000 + 51,
    CURLINFO_CONNECT_TIME_T = 0x600000 + 52,
    CURLINFO_PRETRANSFER_TIME_T = 0x600000 + 53,
    CURLINFO_STARTTRANSFER_TIME_T = 0x600000 + 54,
    CURLINFO_REDIRECT_TIME_T = 0x600000 + 55,
    CURLINFO_APPCONNECT_TIME_T = 0x600000 + 56
} CURLINFO;

enum {
    CURL_HTTP_VERSION_1_0 = 1,
    CURL_HTTP_VERSION_1_1 = 2,
    CURL_HTTP_VERSION_2_0 = 3,
    CURL_HTTP_VERSION_2TLS = 4,
    CURL_HTTP_VERSION_3 = 30
};

enum {
    CHTTPPipelineCurl_WRITEFUNC_PAUSE = 0x10000001,
    CHTTPPipelineCurl_READFUNC_PAUSE = 0x10000001,
    CHTTPPipelineCurl_READFUNC_ABORT = 0x10000000,
    CHTTPPipelineCurl_SEEKFUNC_OK = 0,
    CHTTPPipelineCurl_SEEKFUNC_CANTSEEK = 2,
    CHTTPPipelineCurl_PAUSE_RECV = 1,
    CHTTPPipelineCurl_PAUSE_SEND = 4,
    CHTTPPipelineCurl_GLOBAL_ALL = 3,
    CHTTPPipelineCurl_ERROR_SIZE = 256,
    CHTTPPipelineCurl_PIPE_MULTIPLEX = 2,
    CHTTPPipelineCurl_PREREQFUNC_OK = 0,
    CHTTPPipelineCurl_PREREQFUNC_ABORT = 1,
};

struct curl_slist {
    char *data;
    struct curl_slist *next;
};

typedef struct CURLMsg {
    CURLMSG msg;
    CURL *easy_handle;
    union {
        void *whatever;
        CURLcode result;
    } data;
} CURLMsg;

typedef size_t (*curl_write_callback)(char *buffer, size_t size, size_t count, void *user);
typedef size_t (*curl_read_callback)(char *buffer, size_t size, size_t count, void *user);
typedef int (*curl_seek_callback)(void *user, curl_off_t offset, int origin);
typedef int (*curl_prereq_callback)(void *user, char *primary_ip, char *local_ip, int primary_port, int local_port);

/// The libcurl functions the transport calls, resolved by CHTTPPipelineCurl_bind.
typedef struct CHTTPPipelineCurl_Functions {
    CURLcode (*global_init)(long flags);
    const char *(*version)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *easy);
    void (*easy_reset)(CURL *easy);
    CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
    CURLcode (*easy_pause)(CURL *easy, int mask);
    const char *(*easy_strerror)(CURLcode code);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, void *extra, unsigned int count, int timeout, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMcode (*multi_timeout)(CURLM *multi, long *milliseconds);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
} CHTTPPipelineCurl_Functions;

/// The functions in use: filled once by a successful CHTTPPipelineCurl_bind with install set,
/// before any handle exists, and never changed after.
extern CHTTPPipelineCurl_Functions CHTTPPipelineCurl_functions;

/// Opens the libcurl runtime at `path` (a file name the dynamic loader searches for, or a path)
/// and resolves every function of CHTTPPipelineCurl_Functions from it.
///
/// Returns 0 on success; with `install` non-zero, the functions then become
/// CHTTPPipelineCurl_functions. Otherwise returns -1 and writes why (the loader's message, or
/// the first function the library lacks) into `message`, NUL-terminated. The library stays
/// loaded either way (a loaded library is never unloaded). Not thread-safe with itself: the
/// transport calls it once, under Swift's lazy initialisation of a static.
int CHTTPPipelineCurl_bind(const char *path, int install, char *message, size_t capacity);

static inline CURLcode curl_global_init(long flags) { return CHTTPPipelineCurl_functions.global_init(flags); }
static inline const char *curl_version(void) { return CHTTPPipelineCurl_functions.version(); }
static inline CURL *curl_easy_init(void) { return CHTTPPipelineCurl_functions.easy_init(); }
static inline void curl_easy_cleanup(CURL *easy) { CHTTPPipelineCurl_functions.easy_cleanup(easy); }
static inline void curl_easy_reset(CURL *easy) { CHTTPPipelineCurl_functions.easy_reset(easy); }
static inline CURLcode curl_easy_pause(CURL *easy, int mask) { return CHTTPPipelineCurl_functions.easy_pause(easy, mask); }
static inline const char *curl_easy_strerror(CURLcode code) { return CHTTPPipelineCurl_functions.easy_strerror(code); }
static inline CURLM *curl_multi_init(void) { return CHTTPPipelineCurl_functions.multi_init(); }
static inline CURLMcode curl_multi_cleanup(CURLM *multi) { return CHTTPPipelineCurl_functions.multi_cleanup(multi); }
static inline CURLMcode curl_multi_add_handle(CURLM *multi, CURL *easy) {
    return CHTTPPipelineCurl_functions.multi_add_handle(multi, easy);
}
static inline CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *easy) {
    return CHTTPPipelineCurl_functions.multi_remove_handle(multi, easy);
}
static inline CURLMcode curl_multi_perform(CURLM *multi, int *running) {
    return CHTTPPipelineCurl_functions.multi_perform(multi, running);
}
/// `curl_multi_poll` without extra descriptors (the transport never passes any).
static inline CURLMcode curl_multi_poll(CURLM *multi, void *extra, unsigned int count, int timeout, int *ready) {
    return CHTTPPipelineCurl_functions.multi_poll(multi, extra, count, timeout, ready);
}
static inline CURLMcode curl_multi_wakeup(CURLM *multi) { return CHTTPPipelineCurl_functions.multi_wakeup(multi); }
static inline CURLMcode curl_multi_timeout(CURLM *multi, long *milliseconds) {
    return CHTTPPipelineCurl_functions.multi_timeout(multi, milliseconds);
}
static inline CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) {
    return CHTTPPipelineCurl_functions.multi_info_read(multi, queued);
}

/// `curl_easy_setopt` with a `long`.
static inline CURLcode CHTTPPipelineCurl_setLong(CURL *easy, CURLoption option, long value) {
    return CHTTPPipelineCurl_functions.easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` with a `curl_off_t`.
static inline CURLcode CHTTPPipelineCurl_setOffset(CURL *easy, CURLoption option, curl_off_t value) {
    return CHTTPPipelineCurl_functions.easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` with a pointer: a string (copied by libcurl), a `curl_slist`, user data or
/// the error buffer.
static inline CURLcode CHTTPPipelineCurl_setPointer(CURL *easy, CURLoption option, const void *value) {
    return CHTTPPipelineCurl_functions.easy_setopt(easy, option, value);
}

/// `curl_easy_setopt` with a write or header callback.
static inline CURLcode CHTTPPipelineCurl_setWriteFunction(CURL *easy, CURLoption option,
                                                          curl_write_callback function) {
    return CHTTPPipelineCurl_functions.easy_setopt(easy, option, function);
}

/// `curl_easy_setopt(easy, CURLOPT_READFUNCTION, function)`.
static inline CURLcode CHTTPPipelineCurl_setReadFunction(CURL *easy, curl_read_callback function) {
    return CHTTPPipelineCurl_functions.easy_setopt(easy, CURLOPT_READFUNCTION, function);
}

/// `curl_easy_setopt(easy, CURLOPT_SEEKFUNCTION, function)`.
static inline CURLcode CHTTPPipelineCurl_setSeekFunction(CURL *easy, curl_seek_callback function) {
    return CHTTPPipelineCurl_functions.easy_setopt(easy, CURLOPT_SEEKFUNCTION, function);
}

/// `curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, function)`: `CURLE_UNKNOWN_OPTION` before
/// libcurl 7.80.
static inline CURLcode CHTTPPipelineCurl_setPrerequestFunction(CURL *easy, curl_prereq_callback function) {
    return CHTTPPipelineCurl_functions.easy_setopt(easy, CURLOPT_PREREQFUNCTION, function);
}

/// `curl_multi_setopt` with a `long`.
static inline CURLMcode CHTTPPipelineCurl_multiSetLong(CURLM *multi, CURLMoption option, long value) {
    return CHTTPPipelineCurl_functions.multi_setopt(multi, option, value);
}

/// `curl_easy_getinfo` of a `long`.
static inline CURLcode CHTTPPipelineCurl_getLong(CURL *easy, CURLINFO info, long *value) {
    return CHTTPPipelineCurl_functions.easy_getinfo(easy, info, value);
}

/// `curl_easy_getinfo` of a `curl_off_t`.
static inline CURLcode CHTTPPipelineCurl_getOffset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return CHTTPPipelineCurl_functions.easy_getinfo(easy, info, value);
}

/// `curl_easy_getinfo` of a string owned by the handle (valid until its next transfer).
static inline CURLcode CHTTPPipelineCurl_getString(CURL *easy, CURLINFO info, const char **value) {
    return CHTTPPipelineCurl_functions.easy_getinfo(easy, info, value);
}

/// The result of a finished transfer's message (a union member in C).
static inline CURLcode CHTTPPipelineCurl_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
