/*
 * kfuzz_trace.c - where the kernel dropped a frame, for the report of a
 * disagreement: the skb:kfree_skb tracepoint (its location, and from 5.17
 * the drop reason, the same names the model's drop reasons follow) around
 * one more write of the frame. Only in a VM the fuzzer owns (tracefs is
 * one per machine: on a shared host it would trace everyone's packets)
 * unless asked for.
 */
#include "kfuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"

static int TRACE_OK = -1;              /* -1 not tried, 0 no, 1 yes */

static int put(const char *file, const char *val)
{
    char path[128];
    snprintf(path, sizeof path, TRACEFS "/%s", file);
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, val, strlen(val));
    close(fd);
    return n == (ssize_t)strlen(val) ? 0 : -1;
}

int kf_trace_available(void)
{
    if (TRACE_OK >= 0)
        return TRACE_OK;
    struct stat st;
    if (stat(TRACEFS "/events/skb/kfree_skb/enable", &st) != 0)
        mount("nodev", TRACEFS, "tracefs", 0, NULL);
    TRACE_OK = stat(TRACEFS "/events/skb/kfree_skb/enable", &st) == 0;
    return TRACE_OK;
}

void kf_trace_begin(void)
{
    if (kf_trace_available() != 1)
        return;
    put("tracing_on", "0");
    put("trace", "");
    put("events/skb/kfree_skb/enable", "1");
    put("tracing_on", "1");
}

/* The kfree_skb lines since kf_trace_begin, each "location reason", into buf */
void kf_trace_end(char *buf, size_t n)
{
    buf[0] = 0;
    if (kf_trace_available() != 1)
        return;
    put("tracing_on", "0");
    put("events/skb/kfree_skb/enable", "0");
    FILE *f = fopen(TRACEFS "/trace", "r");
    if (!f)
        return;
    char line[512];
    size_t o = 0;
    while (fgets(line, sizeof line, f) && o + 2 < n) {
        const char *loc = strstr(line, "location=");
        if (!loc || line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = 0;
        o += (size_t)snprintf(buf + o, n - o, "%s    %s", o ? "\n" : "", loc);
    }
    fclose(f);
    put("trace", "");
}
