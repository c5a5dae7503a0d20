/*
 * sandbox.c - the seccomp filters of csumcheck --live's two processes
 * (broker.h), with libseccomp.
 *
 * The helper's is an allow-list of what it, its namespace processes and the
 * ip and tc they run need (files, sockets, netlink, processes, unshare and
 * mount for the namespace, bpf for tc's program); anything else kills it
 * (SCMP_ACT_KILL_PROCESS: SIGSYS), and the analyser, its parent, says so.
 * The analyser's is narrower: reading (files opened read-only), writing to
 * the descriptors it holds, memory, threads, the socket to the helper; a
 * call outside it fails with EPERM (clone3 with ENOSYS, so that glibc falls
 * back to clone).
 *
 * CSC_LIVE_SECCOMP_LOG=1 (not honoured in a file-capability process) logs
 * instead of killing/failing: how the lists were made.
 */
#define _GNU_SOURCE
#include "broker.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

/* Both */
static const char *const COMMON[] = {
    "read", "write", "readv", "writev", "pread64", "pwrite64", "lseek", "close", "fstat", "stat", "lstat",
    "newfstatat", "statx", "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getdents64",
    "statfs", "fstatfs", "mmap", "munmap", "mprotect", "mremap", "brk", "madvise", "rt_sigaction",
    "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "fcntl", "dup", "dup2", "dup3", "pipe", "pipe2", "poll",
    "ppoll", "select", "pselect6", "sendto", "recvfrom", "sendmsg", "recvmsg", "wait4", "waitid",
    "exit", "exit_group", "getpid", "getppid", "gettid", "getuid", "geteuid", "getgid", "getegid",
    "getgroups", "getresuid", "getresgid", "futex", "nanosleep", "clock_nanosleep", "clock_gettime",
    "clock_getres", "gettimeofday", "time", "uname", "getrandom", "prlimit64", "getrlimit",
    "sched_getaffinity", "sched_yield", "set_robust_list", "get_robust_list", "rseq", "set_tid_address",
    "membarrier", "getcwd", "sysinfo", "times", "restart_syscall", "close_range", "tgkill", "eventfd2",
    "arch_prctl", "getpriority", "fadvise64", "alarm", "setitimer", "getitimer", "pidfd_open",
    "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "shutdown", "getsockname", "getpeername",
    "getsockopt",
};

/* The helper, its namespace processes, ip and tc */
static const char *const HELPER[] = {
    "open", "openat", "ioctl", "socket", "socketpair", "bind", "listen", "accept", "accept4", "connect",
    "setsockopt", "sendmmsg", "recvmmsg", "clone", "clone3", "fork", "vfork", "execve", "execveat", "kill", "capget",
    "prctl", "unshare", "mount", "bpf", "setrlimit", "sched_setaffinity", "chdir", "umask", "mkdir",
    "mkdirat", "unlink", "unlinkat", "timerfd_create", "timerfd_settime", "memfd_create", "ftruncate",
    "fsync", "epoll_create", "getdents", "rename", "renameat", "setpriority", "set_mempolicy",
    "get_mempolicy", "mbind", "sched_getparam", "sched_getscheduler", "sched_setscheduler", "sendfile",
};

static const char *log_env(void)
{
    return secure_getenv("CSC_LIVE_SECCOMP_LOG");
}

static int add_list(scmp_filter_ctx f, const char *const *names, size_t n, char *err, size_t en)
{
    for (size_t i = 0; i < n; i++) {
        int nr = seccomp_syscall_resolve_name(names[i]);
        if (nr == __NR_SCMP_ERROR)
            continue;                /* not on this architecture */
        int rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, nr, 0);
        if (rc) {
            snprintf(err, en, "seccomp: %s: %s", names[i], strerror(-rc));
            return -1;
        }
    }
    return 0;
}

static int load(scmp_filter_ctx f, char *err, size_t en)
{
    int rc = seccomp_load(f);
    seccomp_release(f);
    if (rc)
        snprintf(err, en, "seccomp_load: %s", strerror(-rc));
    return rc ? -1 : 0;
}

int live_sandbox_helper(char *err, size_t n)
{
    const char *lg = log_env();
    scmp_filter_ctx f = seccomp_init(lg && *lg == '1' ? SCMP_ACT_LOG : SCMP_ACT_KILL_PROCESS);
    if (!f) {
        snprintf(err, n, "seccomp_init failed");
        return -1;
    }
    if (add_list(f, COMMON, sizeof COMMON / sizeof *COMMON, err, n) ||
        add_list(f, HELPER, sizeof HELPER / sizeof *HELPER, err, n)) {
        seccomp_release(f);
        return -1;
    }
    return load(f, err, n);
}

int live_sandbox_analyser(char *err, size_t n)
{
    const char *lg = log_env();
    scmp_filter_ctx f = seccomp_init(lg && *lg == '1' ? SCMP_ACT_LOG : SCMP_ACT_ERRNO(EPERM));
    if (!f) {
        snprintf(err, n, "seccomp_init failed");
        return -1;
    }
    int rc = add_list(f, COMMON, sizeof COMMON / sizeof *COMMON, err, n) ? -1 : 0;
    /* files: read-only */
    if (!rc)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
                              SCMP_A2(SCMP_CMP_MASKED_EQ, O_ACCMODE | O_CREAT | O_TRUNC, O_RDONLY));
    /* ioctl: a terminal's attributes (isatty) and FIONREAD */
    if (!rc)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ, TCGETS, 0));
    if (!rc)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ, FIONREAD, 0));
    /* threads and processes, never in new namespaces (a user namespace
     * would hand it capabilities of its own) */
    if (!rc)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
                                      CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET, 0));
    if (!rc)
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (rc) {
        if (rc < 0 && !err[0])
            snprintf(err, n, "seccomp rule: %s", strerror(-rc));
        seccomp_release(f);
        return -1;
    }
    return load(f, err, n);
}
