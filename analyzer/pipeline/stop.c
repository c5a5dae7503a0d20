/*
 * stop.c - the stop flag. A signal handler may only set a flag: the readers
 * look at it once a record (libpcap, libwiretap, -f, -c) or once a block of
 * 256 KiB (the block reader), stop reading, and the run ends as it ends at
 * the end of its inputs: every frame read is analysed and written whole,
 * the -w capture is flushed and closed, the summary says "interrupted".
 * A second SIGINT or SIGTERM is not caught: the default action ends the
 * process at once (for a reader stuck on a slow pipe).
 *
 * SIGPIPE is ignored, so a write to a closed standard output fails with
 * EPIPE instead of killing the process before -w is closed; the sink then
 * asks for a stop as if SIGPIPE had been delivered (exit 141).
 */
#include "stop.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

static atomic_int stop_sig;

static void on_signal(int sig)
{
    int none = 0;
    if (!atomic_compare_exchange_strong(&stop_sig, &none, sig)) {
        signal(sig, SIG_DFL);      /* the second one: now */
        raise(sig);
    }
}

void stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;      /* reads go on; the flag is looked at between them */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

void stop_request(int sig)
{
    int none = 0;
    atomic_compare_exchange_strong(&stop_sig, &none, sig);
}

int stop_signal(void)
{
    return atomic_load(&stop_sig);
}

bool cli_stopping(void)
{
    return atomic_load_explicit(&stop_sig, memory_order_relaxed) != 0;
}
