/*
 * bpf_progs.c - how many BPF programs whose name starts with PREFIX (the
 * functions of live/csum_level.bpf.c: csc_level0.., csc_host) the kernel
 * holds right now, in any namespace: the kill test's check that none
 * outlives a --live run (csc_host is --live's alone; the differential test
 * loads csc_level* too). Walks every program id with the bpf() syscall
 * (BPF_PROG_GET_NEXT_ID), so it needs no bpftool. Prints the count; exit 77
 * when bpf() is not allowed.
 *   csc-bpf-progs [PREFIX]   (default csc_)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *a)
{
    return syscall(SYS_bpf, cmd, a, sizeof *a);
}

int main(int argc, char **argv)
{
    const char *prefix = argc > 1 ? argv[1] : "csc_";
    unsigned id = 0, n = 0;
    for (;;) {
        union bpf_attr a;
        memset(&a, 0, sizeof a);
        a.start_id = id;
        if (sys_bpf(BPF_PROG_GET_NEXT_ID, &a) < 0) {
            if (errno == ENOENT)
                break;
            fprintf(stderr, "bpf(BPF_PROG_GET_NEXT_ID): %s\n", strerror(errno));
            return 77;
        }
        id = a.next_id;
        memset(&a, 0, sizeof a);
        a.prog_id = id;
        long fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
        if (fd < 0)
            continue;                  /* gone meanwhile */
        struct bpf_prog_info info;
        memset(&info, 0, sizeof info);
        memset(&a, 0, sizeof a);
        a.info.bpf_fd = (unsigned)fd;
        a.info.info_len = sizeof info;
        a.info.info = (unsigned long)&info;
        if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) == 0 && !strncmp(info.name, prefix, strlen(prefix)))
            n++;
        close((int)fd);
    }
    printf("%u\n", n);
    return 0;
}
