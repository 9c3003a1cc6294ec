/*
 * What sending the standard stack's three fields (User-Agent, Authorization, Accept-Encoding)
 * costs libcurl itself, with no Swift in the process: one reused easy handle on a multi handle,
 * GET after GET against one URL, in rounds of `plain` (only the `Accept:` and `Expect:` lines
 * CurlTransport always sends) and `fields` (the same plus the three), in turned-around order
 * every other round. Each round prints both rates, their ratio and the mean time of the
 * `curl_multi_perform` that sends a request; the median ratio comes last. Two arrangements:
 *
 *   one    the calling thread drives libcurl itself, polling without sleeping;
 *   two    like CurlTransport: an engine thread polls its sockets and a command word (without
 *          ever sleeping; CurlTransport polls up to 100 µs, then sleeps), and the caller hands it
 *          each request and sleeps on a futex until it is done.
 *
 * Built and run by Scripts/libcurl-field-cost.sh. A request that fails or does not end within
 * libcurl's 10 s timeout stops the run with exit status 1; loops are bounded by the request
 * counts and that timeout.
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static size_t discard(char *bytes, size_t size, size_t count, void *context) {
    (void)bytes;
    (void)context;
    return size * count;
}

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static const char *url;
static struct curl_slist *lists[2];
static CURLM *multi;
static CURL *easy;

static struct curl_slist *header_lines(int fields) {
    struct curl_slist *lines = curl_slist_append(NULL, "Accept:");
    lines = curl_slist_append(lines, "Expect:");
    if (fields) {
        lines = curl_slist_append(lines, "User-Agent: pipeline-bench/1");
        lines = curl_slist_append(lines, "Authorization: Bearer bench-token");
        lines = curl_slist_append(lines, "Accept-Encoding: gzip, deflate");
    }
    return lines;
}

/* The time spent in the `curl_multi_perform` that sends each request, by kind. */
static double send_seconds[2];
static long sends[2];

/* One GET with the header lines of `kind` (0 plain, 1 fields), polling without sleeping; returns 0 when it
 * got a 200. */
static int one_request(int kind) {
    if (curl_easy_setopt(easy, CURLOPT_URL, url) != CURLE_OK ||
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard) != CURLE_OK ||
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
        curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS) != CURLE_OK ||
        curl_easy_setopt(easy, CURLOPT_PROXY, "") != CURLE_OK ||
        curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 10000L) != CURLE_OK ||
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, lists[kind]) != CURLE_OK ||
        curl_multi_add_handle(multi, easy) != CURLM_OK)
        return 1;
    int running = 1;
    double start = seconds();
    CURLMcode code = curl_multi_perform(multi, &running);
    send_seconds[kind] += seconds() - start;
    sends[kind]++;
    while (running && code == CURLM_OK) {
        int ready = 0;
        code = curl_multi_poll(multi, NULL, 0, 0, &ready);
        if (code == CURLM_OK) code = curl_multi_perform(multi, &running);
    }
    int failed = 1, queued = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &queued))) {
        long status = 0;
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        failed = message->data.result != CURLE_OK || status != 200;
    }
    curl_multi_remove_handle(multi, easy);
    curl_easy_reset(easy);
    return failed || code != CURLM_OK;
}

/* The two-thread arrangement: 0 nothing, 1 plain, 2 fields, 3 stop. */
static atomic_int command;
static atomic_int finished;
static atomic_int failures;

static void *engine(void *unused) {
    (void)unused;
    for (;;) {
        int next;
        while ((next = atomic_exchange(&command, 0)) == 0) {
            int ready = 0;
            curl_multi_poll(multi, NULL, 0, 0, &ready);
        }
        if (next == 3) return NULL;
        if (one_request(next - 1)) atomic_fetch_add(&failures, 1);
        atomic_store(&finished, 1);
        syscall(SYS_futex, &finished, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
}

/* Requests per second for `requests` requests of one kind; a failed request ends the run. */
static double rate(int threads, int kind, int requests) {
    double start = seconds();
    for (int i = 0; i < requests; i++) {
        if (threads == 1) {
            if (one_request(kind)) atomic_fetch_add(&failures, 1);
        } else {
            atomic_store(&finished, 0);
            atomic_store(&command, kind + 1);
            while (atomic_load(&finished) == 0) syscall(SYS_futex, &finished, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
        }
        if (atomic_load(&failures)) {
            fprintf(stderr, "a %s request to %s failed; stopping\n", kind ? "fields" : "plain", url);
            exit(1);
        }
    }
    return requests / (seconds() - start);
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 5 || (strcmp(argv[2], "one") && strcmp(argv[2], "two"))) {
        fprintf(stderr, "usage: %s URL one|two REQUESTS ROUNDS\n", argv[0]);
        return 2;
    }
    url = argv[1];
    int threads = strcmp(argv[2], "one") ? 2 : 1;
    int requests = atoi(argv[3]), rounds = atoi(argv[4]);
    if (requests < 1 || rounds < 1 || rounds > 100) {
        fprintf(stderr, "REQUESTS must be at least 1 and ROUNDS 1 to 100\n");
        return 2;
    }
    if (curl_global_init(CURL_GLOBAL_ALL) != CURLE_OK) return 1;
    multi = curl_multi_init();
    easy = curl_easy_init();
    lists[0] = header_lines(0);
    lists[1] = header_lines(1);
    if (!multi || !easy || !lists[0] || !lists[1]) {
        fprintf(stderr, "libcurl could not allocate its handles\n");
        return 1;
    }
    pthread_t thread;
    if (threads == 2 && pthread_create(&thread, NULL, engine, NULL) != 0) {
        fprintf(stderr, "could not start the engine thread\n");
        return 1;
    }
    rate(threads, 0, 500);
    rate(threads, 1, 500);
    double ratios[100];
    for (int round = 0; round < rounds; round++) {
        double plain, fields;
        for (int kind = 0; kind < 2; kind++) send_seconds[kind] = 0, sends[kind] = 0;
        if (round % 2 == 0) {
            plain = rate(threads, 0, requests);
            fields = rate(threads, 1, requests);
        } else {
            fields = rate(threads, 1, requests);
            plain = rate(threads, 0, requests);
        }
        ratios[round] = fields / plain;
        printf("%s thread(s), round %d: plain %.0f req/s, with the three fields %.0f req/s, ratio %.3f; "
               "sending took %.2f and %.2f us\n",
               argv[2], round, plain, fields, ratios[round], send_seconds[0] / (double)sends[0] * 1e6,
               send_seconds[1] / (double)sends[1] * 1e6);
    }
    if (threads == 2) {
        atomic_store(&command, 3);
        pthread_join(thread, NULL);
    }
    qsort(ratios, (size_t)rounds, sizeof(double), ascending);
    printf("%s thread(s): median fields / plain %.3f\n", argv[2], ratios[rounds / 2]);
    curl_slist_free_all(lists[0]);
    curl_slist_free_all(lists[1]);
    curl_easy_cleanup(easy);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return 0;
}
