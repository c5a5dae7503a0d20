/*
 * wout.c - the -w output file: the selected frames as pcap or pcapng.
 *
 * The records are written by the project's capture writer
 * (captures/lib/capw.c), not by libpcap: libpcap 1.10 (Debian 12) writes
 * pcap only, and pcap_dump() has no error return, so a full disk went
 * unnoticed. Every write here is checked (capw returns each fwrite's
 * outcome; fflush, fsync and fclose at the end), and the first error stops
 * the output with its message.
 *
 * A regular file is never written in place: the frames go to an unnamed
 * temporary file in the same folder (O_TMPFILE; a named .NAME.XXXXXX where
 * the file system has no O_TMPFILE) which takes the place of NAME only when
 * it is complete (link + rename, atomic). A kill at any moment leaves the
 * old NAME, or none, never a part of one. A pipe, a device (/dev/null,
 * /dev/full) and standard output cannot be replaced: they are written
 * directly, and a write error there is reported the same way.
 *
 * pcapng gets one interface per link type met (a mixed-link input keeps
 * every frame), nanosecond timestamps, and the frame's verdict line as its
 * packet comment (opt_comment: tshark's frame.comment).
 */
#define _GNU_SOURCE 1   /* O_TMPFILE, linkat */
#include "wout.h"

#include "capw.h"

#include <glib.h>
#include <pcap/pcap.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WOUT_SNAPLEN 262144
#define WOUT_LINKS 16

struct wout {
    char *path;                /* as given */
    char *final;               /* what is replaced (a symlink's target), NULL: written directly */
    char *tmpname;             /* a named temporary file (no O_TMPFILE), else NULL */
    FILE *f;
    int fd;
    bool direct, is_stdout, tmpfile_anon;
    enum wout_format fmt;
    struct capw w;
    char *error;
    /* link types: a frame's DLT -> its interface (pcapng) or the file's (pcap) */
    int dlt[WOUT_LINKS], ifid[WOUT_LINKS];
    unsigned nlinks;
    int pcap_dlt;              /* pcap: the file's DLT, -1 before the first frame */
    char buf[1 << 16];
};

enum wout_format wout_format_for(const char *path, enum wout_format asked)
{
    if (asked != WOUT_AUTO)
        return asked;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strstr(base, ".pcapng") ? WOUT_PCAPNG : WOUT_PCAP;
}

static void set_error(struct wout *o, const char *what, int err)
{
    if (!o->error)
        o->error = g_strdup_printf("%s: %s", what, g_strerror(err));
}

/* The LINKTYPE_ value a savefile holds for a DLT_ value, by libpcap's own
 * table (it is not exported: a header written to memory tells it); -1 when
 * no savefile holds that link type. */
static int linktype_of(int dlt, char **why)
{
    char *mem = NULL;
    size_t n = 0;
    int lt = -1;
    FILE *m = open_memstream(&mem, &n);
    pcap_t *dead = m ? pcap_open_dead(dlt, WOUT_SNAPLEN) : NULL;
    pcap_dumper_t *d = dead ? pcap_dump_fopen(dead, m) : NULL;
    if (d) {
        pcap_dump_flush(d);
        if (n >= 24)
            memcpy(&lt, mem + 20, 4);
        pcap_dump_close(d);           /* closes m */
        m = NULL;
    } else if (why) {
        *why = g_strdup(dead ? pcap_geterr(dead) : "out of memory");
    }
    if (m)
        fclose(m);
    if (dead)
        pcap_close(dead);
    free(mem);
    return lt;
}

/* the folder a file is in ("." for a bare name) */
static char *folder_of(const char *path)
{
    return g_path_get_dirname(path);
}

static bool open_temporary(struct wout *o, const char *final, const struct stat *old, char **err)
{
    char *dir = folder_of(final);
    mode_t mode = old ? old->st_mode & 07777 : 0666;
#ifdef O_TMPFILE
    o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    o->tmpfile_anon = o->fd >= 0 && access("/proc/self/fd", X_OK) == 0;
    if (o->fd >= 0 && !o->tmpfile_anon) {
        close(o->fd);
        o->fd = -1;
    }
#else
    o->fd = -1;
#endif
    if (o->fd < 0) {
        char *base = g_path_get_basename(final);
        o->tmpname = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
        g_free(base);
        o->fd = mkstemp(o->tmpname);
        if (o->fd >= 0) {
            mode_t um = umask(0);
            umask(um);
            if (fchmod(o->fd, old ? mode : (0666 & ~um)) != 0) { /* as a plain create would */
                /* the file is ours either way; its mode is cosmetic */
            }
        }
    }
    if (o->fd < 0) {
        *err = g_strdup_printf("cannot create a temporary file in %s: %s", dir, g_strerror(errno));
        g_free(dir);
        return false;
    }
    g_free(dir);
    return true;
}

/* The writer and the strings it owns */
static void wout_free(struct wout *o)
{
    g_free(o->error);
    g_free(o->tmpname);
    g_free(o->final);
    g_free(o->path);
    g_free(o);
}

struct wout *wout_open(const char *path, enum wout_format fmt, char **err)
{
    struct wout *o = g_new0(struct wout, 1);
    o->path = g_strdup(path);
    o->fd = -1;
    o->pcap_dlt = -1;
    o->fmt = wout_format_for(path, fmt);
    struct stat st;
    if (!strcmp(path, "-")) {
        o->is_stdout = o->direct = true;
        o->f = stdout;
    } else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        o->direct = true;         /* a device, a pipe: written as it is */
        o->f = fopen(path, "wb");
        if (!o->f) {
            *err = g_strdup_printf("cannot create: %s", g_strerror(errno));
            wout_free(o);
            return NULL;
        }
    } else {
        bool exists = stat(path, &st) == 0;
        char resolved[PATH_MAX];
        /* a symbolic link: its target is what gets replaced */
        o->final = g_strdup(exists && realpath(path, resolved) ? resolved : path);
        if (!open_temporary(o, o->final, exists ? &st : NULL, err) ||
            !(o->f = fdopen(o->fd, "wb"))) {
            if (o->fd >= 0 && !*err)
                *err = g_strdup_printf("cannot create: %s", g_strerror(errno));
            if (o->fd >= 0)
                close(o->fd);
            if (o->tmpname)
                unlink(o->tmpname);
            wout_free(o);
            return NULL;
        }
    }
    if (!o->is_stdout)
        setvbuf(o->f, o->buf, _IOFBF, sizeof o->buf);
    errno = 0;
    if (capw_begin(&o->w, o->f, o->fmt == WOUT_PCAPNG ? CAPW_PCAPNG : CAPW_PCAP, CAPW_NSEC))
        set_error(o, "write failed", errno ? errno : EIO);
    return o;
}

const char *wout_error(const struct wout *o)
{
    return o->error;
}

/* the interface of a link type: added the first time it is met */
static int interface_of(struct wout *o, int dlt, char **why)
{
    for (unsigned i = 0; i < o->nlinks; i++)
        if (o->dlt[i] == dlt)
            return o->ifid[i];
    if (o->fmt == WOUT_PCAP && o->pcap_dlt >= 0) {
        const char *a = pcap_datalink_val_to_name(dlt), *b = pcap_datalink_val_to_name(o->pcap_dlt);
        *why = g_strdup_printf("link type %s (%d) differs from %s's %s (%d) (a pcap file holds "
                               "one link type; pcapng keeps both: -w NAME.pcapng or "
                               "--write-format pcapng)",
                               a ? a : "DLT", dlt, o->path, b ? b : "DLT", o->pcap_dlt);
        return -1;
    }
    if (o->nlinks == WOUT_LINKS) {
        *why = g_strdup_printf("more than %d link types in one file", WOUT_LINKS);
        return -1;
    }
    int lt = linktype_of(dlt, why);
    if (lt < 0)
        return -1;
    errno = 0;
    int id = capw_add_interface(&o->w, (uint32_t)lt, WOUT_SNAPLEN);
    if (id < 0) {
        set_error(o, "write failed", errno ? errno : EIO);
        return -2;
    }
    if (o->fmt == WOUT_PCAP)
        o->pcap_dlt = dlt;
    o->dlt[o->nlinks] = dlt;
    o->ifid[o->nlinks++] = id;
    return id;
}

int wout_frame(struct wout *o, int dlt, int64_t sec, uint32_t nsec, const uint8_t *data,
               uint32_t caplen, uint32_t len, int dir, const char *comment, uint32_t clen,
               char **why)
{
    if (o->error)
        return WOUT_ERR;
    int id = interface_of(o, dlt, why);
    if (id == -2)
        return WOUT_ERR;
    if (id < 0)
        return WOUT_LINK;
    if (o->fmt != WOUT_PCAPNG || clen > 65535)
        clen = 0;
    if (o->fmt != WOUT_PCAPNG || (dir != CAPW_DIR_IN && dir != CAPW_DIR_OUT))
        dir = 0;
    errno = 0;
    if (capw_write_rec(&o->w, (unsigned)id, (uint64_t)sec, nsec, data, caplen, len, dir, comment,
                       clen)) {
        set_error(o, "write failed", errno ? errno : EIO);
        return WOUT_ERR;
    }
    return WOUT_OK;
}

/* The complete temporary file takes the place of the final name */
static bool publish(struct wout *o)
{
    if (o->tmpname) {
        if (rename(o->tmpname, o->final) != 0) {
            set_error(o, "cannot replace it", errno);
            return false;
        }
        g_free(o->tmpname);
        o->tmpname = NULL;
        return true;
    }
    /* O_TMPFILE: a name in the folder first (link), then rename over the
     * final one (link cannot replace) */
    char proc[64];
    g_snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
    char *dir = folder_of(o->final), *base = g_path_get_basename(o->final);
    bool ok = false;
    for (int tries = 0; tries < 16 && !ok; tries++) {
        char *name = g_strdup_printf("%s/.%s.%08x", dir, base, g_random_int());
        if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) {
            ok = rename(name, o->final) == 0;
            if (!ok) {
                set_error(o, "cannot replace it", errno);
                unlink(name);
                g_free(name);
                break;
            }
        } else if (errno != EEXIST) {
            set_error(o, "cannot give the file its name", errno);
            g_free(name);
            break;
        }
        g_free(name);
    }
    g_free(dir);
    g_free(base);
    return ok;
}

bool wout_close(struct wout *o, int fallback_dlt, char **err)
{
    if (!o->error && o->nlinks == 0 && o->fmt == WOUT_PCAP) {
        /* no frame: a pcap still needs a link type (pcapng: a section
         * without interfaces is a whole file) */
        char *why = NULL;
        int dlt = fallback_dlt >= 0 && linktype_of(fallback_dlt, NULL) >= 0 ? fallback_dlt
                                                                           : DLT_EN10MB;
        interface_of(o, dlt, &why);
        g_free(why);
    }
    errno = 0;
    if (!o->error && (fflush(o->f) || ferror(o->f)))
        set_error(o, "write failed", errno ? errno : EIO);
    if (!o->error && !o->direct && fsync(fileno(o->f)) != 0)
        set_error(o, "write failed", errno);
    if (!o->error && !o->direct)
        publish(o);
    if (!o->is_stdout) {
        errno = 0;
        if (fclose(o->f) != 0)    /* a direct file: its last buffered bytes */
            set_error(o, "write failed", errno ? errno : EIO);
    }
    if (o->tmpname)               /* not published: the old file stays */
        unlink(o->tmpname);
    bool ok = !o->error;
    if (!ok)
        *err = o->direct ? g_strdup(o->error)
                         : g_strdup_printf("%s; not written (an earlier file of that name is left "
                                           "as it was)", o->error);
    wout_free(o);
    return ok;
}
