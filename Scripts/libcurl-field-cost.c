/*
 * What sending the standard stack's three fields (User-Agent, Authorization, Accept-Encoding)
 * costs libcurl itself, with no Swift in the process: one reused easy handle on a multi handle,
 * GET after GET against one URL, rounds of `plain` (only the `Accept:` and `Expect:` lines
 * CurlTransport always sends) then `fields` (the same plus the three), each round's ratio printed
 * and the median last. Two arrangements:
 *
 *   one    the calling thread drives libcurl itself, polling without sleeping;
 *   two    as CurlTransport does: an engine thread polls its sockets and a command word without
 *          sleeping, the caller hands it each request and sleeps on a futex until it is done.
 *
 * Built and run by Scripts/libcurl-field-cost.sh. Every loop is bounded by its request count.
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

/* One GET with `lines`, polling without sleeping; returns 0 when it got a 200. */
static int one_request(struct curl_slist *lines) {
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(easy, CURLOPT_PROXY, "");
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 10000L);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, lines);
    curl_multi_add_handle(multi, easy);
    int running = 1;
    curl_multi_perform(multi, &running);
    while (running) {
        int ready = 0;
        curl_multi_poll(multi, NULL, 0, 0, &ready);
        curl_multi_perform(multi, &running);
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
    return failed;
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
        if (one_request(lists[next - 1])) atomic_fetch_add(&failures, 1);
        atomic_store(&finished, 1);
        syscall(SYS_futex, &finished, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
}

static double rate(int threads, int fields, int requests) {
    double start = seconds();
    for (int i = 0; i < requests; i++) {
        if (threads == 1) {
            if (one_request(lists[fields])) atomic_fetch_add(&failures, 1);
            continue;
        }
        atomic_store(&finished, 0);
        atomic_store(&command, fields + 1);
        while (atomic_load(&finished) == 0) syscall(SYS_futex, &finished, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
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
    if (requests < 1 || rounds < 1 || rounds > 100) return 2;
    curl_global_init(CURL_GLOBAL_ALL);
    multi = curl_multi_init();
    easy = curl_easy_init();
    lists[0] = header_lines(0);
    lists[1] = header_lines(1);
    pthread_t thread;
    if (threads == 2) pthread_create(&thread, NULL, engine, NULL);
    rate(threads, 0, 500);
    double ratios[100];
    for (int round = 0; round < rounds; round++) {
        double plain = rate(threads, 0, requests), fields = rate(threads, 1, requests);
        ratios[round] = fields / plain;
        printf("%s thread(s), round %d: plain %.0f req/s, with the three fields %.0f req/s, ratio %.3f\n",
               argv[2], round, plain, fields, ratios[round]);
    }
    if (threads == 2) {
        atomic_store(&command, 3);
        pthread_join(thread, NULL);
    }
    qsort(ratios, (size_t)rounds, sizeof(double), ascending);
    printf("%s thread(s): median fields / plain %.3f\n", argv[2], ratios[rounds / 2]);
    if (atomic_load(&failures)) {
        fprintf(stderr, "%d requests failed\n", atomic_load(&failures));
        return 1;
    }
    return 0;
}
