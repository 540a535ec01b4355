#include "frontend/trace_lines.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define LR_CHUNK (1u << 18)

int gms_lr_open(gms_linereader *lr, const char *path, gms_error *err)
{
    memset(lr, 0, sizeof *lr);
    lr->in = gms_instream_open(path, err);
    if (!lr->in) return -1;
    lr->path = gms_xstrdup(path);
    lr->cap = LR_CHUNK;
    lr->buf = gms_xmalloc(lr->cap + 1);
    return 0;
}

void gms_lr_close(gms_linereader *lr)
{
    gms_instream_close(lr->in);
    free(lr->buf);
    free(lr->path);
    memset(lr, 0, sizeof *lr);
}

int gms_lr_line(const gms_linereader *lr)
{
    return lr->lineno > (uint64_t)INT_MAX ? INT_MAX : (int)lr->lineno;
}

void gms_lr_unread(gms_linereader *lr)
{
    if (lr->last) lr->pushed = 1;
}

/* read more bytes after buf[end]; compacts and grows the buffer as needed */
static int refill(gms_linereader *lr, gms_error *err)
{
    if (lr->start > 0) {
        memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
        lr->end -= lr->start;
        lr->start = 0;
    }
    if (lr->end == lr->cap) {
        if (lr->cap >= GMS_LR_MAX_LINE)
            return gms_err_at(err, lr->path, gms_lr_line(lr) + 1, "line longer than %u bytes",
                              GMS_LR_MAX_LINE);
        lr->cap *= 2;
        lr->buf = gms_xrealloc(lr->buf, lr->cap + 1);
    }
    long n = gms_instream_read(lr->in, lr->buf + lr->end, lr->cap - lr->end, err);
    if (n < 0) return -1;
    if (n == 0) lr->eof = 1;
    lr->end += (size_t)n;
    return 0;
}

int gms_lr_next_more(gms_linereader *lr, char **line, size_t *len, gms_error *err)
{
    if (lr->pushed) {
        lr->pushed = 0;
        *line = lr->last;
        *len = lr->last_len;
        return 1;
    }
    size_t scanned = 0;   /* bytes after start already known to hold no newline */
    for (;;) {
        char *s = lr->buf + lr->start;
        size_t avail = lr->end - lr->start;
        char *nl = avail > scanned ? memchr(s + scanned, '\n', avail - scanned) : NULL;
        if (nl || (lr->eof && avail > 0)) {
            size_t n = nl ? (size_t)(nl - s) : avail;
            lr->start += nl ? n + 1 : n;
            if (n > 0 && s[n - 1] == '\r') n--;
            s[n] = 0;   /* buf has one spare byte past cap for a last line without newline */
            lr->lineno++;
            lr->last = s;
            lr->last_len = n;
            *line = s;
            *len = n;
            return 1;
        }
        if (lr->eof) return 0;
        scanned = avail;
        if (refill(lr, err)) return -1;
    }
}
