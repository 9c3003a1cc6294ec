#include "CHTTPPipelineCurl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

CHTTPPipelineCurl_Functions CHTTPPipelineCurl_functions;

/// Resolves `name` from `library` into `*slot`; on failure, says which function is missing.
static int resolve(void *library, const char *name, void **slot, char *message, size_t capacity) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL) {
        snprintf(message, capacity, "the libcurl runtime has no %s (libcurl 7.68 or later is needed)", name);
        return -1;
    }
    *slot = symbol;
    return 0;
}

int CHTTPPipelineCurl_bind(const char *path, int install, char *message, size_t capacity) {
    if (capacity > 0) message[0] = 0;
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(message, capacity, "%s", reason != NULL ? reason : "the dynamic loader could not open it");
        return -1;
    }
    CHTTPPipelineCurl_Functions functions;
    memset(&functions, 0, sizeof functions);
    // Each field is a function pointer; the loader hands back a data pointer of the same size on
    // every platform Swift runs on (POSIX requires it for dlsym).
#define RESOLVE(field, name) \
    if (resolve(library, name, (void **)&functions.field, message, capacity) != 0) return -1;
    RESOLVE(global_init, "curl_global_init")
    RESOLVE(version, "curl_version")
    RESOLVE(easy_init, "curl_easy_init")
    RESOLVE(easy_cleanup, "curl_easy_cleanup")
    RESOLVE(easy_reset, "curl_easy_reset")
    RESOLVE(easy_setopt, "curl_easy_setopt")
    RESOLVE(easy_getinfo, "curl_easy_getinfo")
    RESOLVE(easy_pause, "curl_easy_pause")
    RESOLVE(easy_strerror, "curl_easy_strerror")
    RESOLVE(multi_init, "curl_multi_init")
    RESOLVE(multi_cleanup, "curl_multi_cleanup")
    RESOLVE(multi_setopt, "curl_multi_setopt")
    RESOLVE(multi_add_handle, "curl_multi_add_handle")
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle")
    RESOLVE(multi_perform, "curl_multi_perform")
    RESOLVE(multi_poll, "curl_multi_poll")
    RESOLVE(multi_wakeup, "curl_multi_wakeup")
    RESOLVE(multi_timeout, "curl_multi_timeout")
    RESOLVE(multi_info_read, "curl_multi_info_read")
#undef RESOLVE
    if (install) CHTTPPipelineCurl_functions = functions;
    return 0;
}
