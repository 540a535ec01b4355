/* Trace parse throughput: reads a whole trace (every block of every kernel) `reps` times and
 * prints the best time as MB/s of plain text and warp instructions per second.
 *   trace_parse KERNELSLIST PLAIN_BYTES [reps]            (built and run by trace_parse.sh) */
#include "frontend/trace_stat.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s KERNELSLIST PLAIN_BYTES [reps]\n", argv[0]); return 2; }
    double bytes = atof(argv[2]), best = 1e30;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    gms_trace_stats st;
    for (int i = 0; i < reps; i++) {
        struct timespec a, b;
        gms_error err = {0};
        clock_gettime(CLOCK_MONOTONIC, &a);
        if (gms_trace_stat(argv[1], &st, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
        clock_gettime(CLOCK_MONOTONIC, &b);
        double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
        if (s < best) best = s;
    }
    printf("%-44s %8.1f MB %7.3f s %8.0f MB/s %7.2f M warp-inst/s\n", argv[1], bytes / 1e6, best,
           bytes / 1e6 / best, (double)st.warp_insts / 1e6 / best);
    return 0;
}
