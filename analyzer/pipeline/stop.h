/*
 * stop.h - ending a run early and cleanly (stop.c): SIGINT, SIGTERM, and
 * standard output closed by its reader (SIGPIPE, seen as EPIPE).
 */
#ifndef CSUMCHECK_STOP_H
#define CSUMCHECK_STOP_H

#include <stdbool.h>

/* SIGINT/SIGTERM end the run after the frame in hand; SIGPIPE is ignored
 * (a write to a closed stdout fails with EPIPE and calls stop_request) */
void stop_install(void);
/* A stop asked for (a signal, or SIGPIPE for a closed standard output) */
void stop_request(int sig);
/* The signal that stopped the run, 0 while it runs on */
int stop_signal(void);
/* The stop flag, read once a record or a block by every reader */
bool cli_stopping(void);

#endif
