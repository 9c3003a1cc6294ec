// curl-c-loop: the floor of pipeline-bench's curl measurements, in a process of its own (so the
// benchmark binary carries no C debug information valgrind cannot read, and the loop runs with
// nothing else in its process).
//
//   curl-c-loop URL WARMUP REQUESTS [FIELD ...]
//
// Prints one line: user_us system_us voluntary_switches involuntary_switches seconds failures bytes
#include "CCurlLoop.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: curl-c-loop URL WARMUP REQUESTS [FIELD ...]\n");
        return 2;
    }
    CCurlLoopResult result;
    char message[256];
    int status = ccurlloop_run(argv[1], (const char *const *)(argv + 4), argc - 4, atoi(argv[2]), atoi(argv[3]),
                               &result, message, sizeof message);
    if (status != 0) {
        fprintf(stderr, "curl-c-loop: %s\n", message);
        return 1;
    }
    printf("%.0f %.0f %ld %ld %.9f %ld %lld\n", result.user_microseconds, result.system_microseconds,
           result.voluntary_switches, result.involuntary_switches, result.seconds, result.failures, result.bytes);
    return 0;
}
