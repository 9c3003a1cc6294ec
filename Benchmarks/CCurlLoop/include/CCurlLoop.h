#ifndef C_CURL_LOOP_H
#define C_CURL_LOOP_H

/// What one run of the C loop used: the floor the benchmark holds CurlTransport against.
typedef struct CCurlLoopResult {
    /// CPU time of the whole process over the run, in microseconds (user and system).
    double user_microseconds;
    double system_microseconds;
    /// Context switches of the whole process over the run.
    long voluntary_switches;
    long involuntary_switches;
    /// Wall time of the run, in seconds.
    double seconds;
    /// Requests that did not end in a 200, and body bytes received.
    long failures;
    long long bytes;
} CCurlLoopResult;

/// Sends `requests` GET requests to `url` one after another with libcurl's easy API on one
/// handle (its connection kept alive), after `warmup` unmeasured ones, and measures the process
/// over the measured ones. The request carries `Host` and the `field_count` lines of `fields`
/// (`"Name: value"`, in one `curl_slist` made once), nothing else, as CurlTransport's does.
/// Binds libcurl at run time (`libcurl.so.4`), as the transport does: no headers needed.
///
/// Returns 0, or -1 with `message` filled when libcurl cannot be bound or a handle made.
int ccurlloop_run(const char *url, const char *const *fields, int field_count, int warmup, int requests,
                  CCurlLoopResult *result, char *message, unsigned long capacity);

#endif
