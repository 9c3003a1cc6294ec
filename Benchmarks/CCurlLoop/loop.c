#include "CCurlLoop.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

// The few libcurl values the loop uses: stable parts of libcurl's ABI (curl/curl.h).
enum {
    OPT_WRITEDATA = 10001,
    OPT_URL = 10002,
    OPT_HTTPHEADER = 10023,
    OPT_WRITEFUNCTION = 20011,
    OPT_NOSIGNAL = 99,
    INFO_RESPONSE_CODE = 0x200002,
};

typedef void CURL;
struct curl_slist;
typedef size_t (*write_callback)(char *, size_t, size_t, void *);

static struct {
    CURL *(*easy_init)(void);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    *(long long *)user += (long long)(size * count);
    return size * count;
}

static int bind(char *message, unsigned long capacity) {
    if (curl.easy_init != NULL) return 0;
#ifdef __APPLE__
    void *library = dlopen("libcurl.4.dylib", RTLD_NOW | RTLD_LOCAL);
#else
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
#endif
    if (library == NULL) {
        snprintf(message, capacity, "%s", dlerror());
        return -1;
    }
#define BIND(field, name)                                                   \
    if ((*(void **)&curl.field = dlsym(library, name)) == NULL) {          \
        snprintf(message, capacity, "the libcurl runtime has no %s", name); \
        return -1;                                                          \
    }
    BIND(easy_init, "curl_easy_init")
    BIND(easy_setopt, "curl_easy_setopt")
    BIND(easy_perform, "curl_easy_perform")
    BIND(easy_getinfo, "curl_easy_getinfo")
    BIND(easy_cleanup, "curl_easy_cleanup")
    BIND(slist_append, "curl_slist_append")
    BIND(slist_free_all, "curl_slist_free_all")
#undef BIND
    return 0;
}

static double microseconds(struct timeval time) { return (double)time.tv_sec * 1e6 + (double)time.tv_usec; }

static long perform(CURL *handle) {
    long status = 0;
    if (curl.easy_perform(handle) != 0) return 0;
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &status);
    return status;
}

int ccurlloop_run(const char *url, const char *const *extra, int extra_count, int warmup, int requests,
                  CCurlLoopResult *result, char *message, unsigned long capacity) {
    memset(result, 0, sizeof *result);
    if (bind(message, capacity) != 0) return -1;
    CURL *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(message, capacity, "curl_easy_init failed");
        return -1;
    }
    // libcurl adds `Accept: */*` unless told not to; CurlTransport sends no field of its own.
    struct curl_slist *fields = curl.slist_append(NULL, "Accept:");
    for (int index = 0; index < extra_count; index++) fields = curl.slist_append(fields, extra[index]);
    long long bytes = 0;
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_HTTPHEADER, fields);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, (write_callback)discard);
    curl.easy_setopt(handle, OPT_WRITEDATA, &bytes);
    for (int index = 0; index < warmup; index++) {
        if (perform(handle) != 200) result->failures++;
    }
    bytes = 0;
    struct rusage before, after;
    struct timespec start, end;
    getrusage(RUSAGE_SELF, &before);
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int index = 0; index < requests; index++) {
        if (perform(handle) != 200) result->failures++;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    getrusage(RUSAGE_SELF, &after);
    result->user_microseconds = microseconds(after.ru_utime) - microseconds(before.ru_utime);
    result->system_microseconds = microseconds(after.ru_stime) - microseconds(before.ru_stime);
    result->voluntary_switches = after.ru_nvcsw - before.ru_nvcsw;
    result->involuntary_switches = after.ru_nivcsw - before.ru_nivcsw;
    result->seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    result->bytes = bytes;
    curl.slist_free_all(fields);
    curl.easy_cleanup(handle);
    return 0;
}
