/*
 * agent_main.c - csc-live-agent: run a job (job.c) in this kernel and write
 * the observations. What the VMs run for the live-kernel differential test;
 * on the host the test runs the same code in-process.
 *
 *   csc-live-agent [--bpf OBJ] [--timeout SECS] JOB OUT
 *
 * JOB and OUT are files ("-": stdin, stdout). Exit 0: every setup ran;
 * 1: some setup failed or was skipped (its cases say why); 2: bad usage or
 * a malformed job; 77: this machine cannot run setups at all (not root, no
 * /dev/net/tun, no network namespaces, no iproute2), with the reason on
 * stderr.
 */
#include "live.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *open_or_std(const char *path, const char *mode, FILE *std)
{
    return strcmp(path, "-") ? fopen(path, mode) : std;
}

int main(int argc, char **argv)
{
    struct live_tools t;
    memset(&t, 0, sizeof t);
    unsigned timeout = 600;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (!strcmp(argv[i], "--bpf") && i + 1 < argc)
            t.bpf_obj = argv[++i];
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
            timeout = (unsigned)strtoul(argv[++i], NULL, 10);
        else
            break;
    }
    if (argc - i != 2) {
        fprintf(stderr, "usage: csc-live-agent [--bpf OBJ] [--timeout SECS] JOB OUT\n");
        return 2;
    }
    if (t.bpf_obj && access(t.bpf_obj, R_OK) != 0)
        t.bpf_obj = NULL;
    signal(SIGPIPE, SIG_IGN);
    char err[200];
    if (geteuid() != 0) {
        fprintf(stderr, "csc-live-agent: cannot run here: not root\n");
        return 77;
    }
    if (live_find_tools(&t)) {
        fprintf(stderr, "csc-live-agent: cannot run here: iproute2 (ip) not found\n");
        return 77;
    }
    if (live_preflight(&t, err, sizeof err)) {
        fprintf(stderr, "csc-live-agent: cannot run here: %s\n", err);
        return 77;
    }
    FILE *job = open_or_std(argv[i], "r", stdin);
    FILE *out = open_or_std(argv[i + 1], "w", stdout);
    if (!job || !out) {
        perror("csc-live-agent: open");
        return 2;
    }
    int rc = live_agent(&t, job, out, timeout);
    if (fclose(out) != 0) {
        perror("csc-live-agent: write");
        return 2;
    }
    if (job != stdin)
        fclose(job);
    return rc < 0 ? 2 : rc > 0 ? 1 : 0;
}
