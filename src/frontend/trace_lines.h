/* Line reader over a (possibly compressed) file: large buffered reads, memchr for newlines,
 * lines returned in place (NUL-terminated, without the newline or a trailing '\r'). Tracks the
 * line number for error messages. One line can be pushed back and re-read. */
#ifndef GMS_FRONTEND_TRACE_LINES_H
#define GMS_FRONTEND_TRACE_LINES_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "frontend/decompress.h"

#define GMS_LR_MAX_LINE (64u << 20)   /* longer lines are an error, not an allocation */

typedef struct gms_linereader {
    gms_instream *in;
    char *path;
    char *buf;
    size_t cap, start, end;   /* unread bytes are buf[start, end) */
    int eof;
    uint64_t lineno;          /* number of the line last returned (1-based) */
    char *last;               /* the line last returned, for gms_lr_unread */
    size_t last_len;
    int pushed;
} gms_linereader;

int gms_lr_open(gms_linereader *lr, const char *path, gms_error *err);
/* gms_lr_next's general case: a pushed-back line, or one not yet whole in the buffer */
int gms_lr_next_more(gms_linereader *lr, char **line, size_t *len, gms_error *err);
/* 1 = a line in *line, *len (valid until the next call), 0 = end of file, -1 = error.
 * Inline (host speed: a trace has hundreds of thousands of lines): a line already whole in
 * the buffer is returned here, as gms_lr_next_more would return it. */
static inline int gms_lr_next(gms_linereader *lr, char **line, size_t *len, gms_error *err)
{
    char *s = lr->buf + lr->start;
    char *nl = !lr->pushed && lr->end > lr->start ? memchr(s, '\n', lr->end - lr->start) : NULL;
    if (!nl) return gms_lr_next_more(lr, line, len, err);
    size_t n = (size_t)(nl - s);
    lr->start += n + 1;
    if (n > 0 && s[n - 1] == '\r') n--;
    s[n] = 0;
    lr->lineno++;
    lr->last = s;
    lr->last_len = n;
    *line = s;
    *len = n;
    return 1;
}
/* the next gms_lr_next returns the same line again */
void gms_lr_unread(gms_linereader *lr);
void gms_lr_close(gms_linereader *lr);
/* line number for messages (int, saturating) */
int gms_lr_line(const gms_linereader *lr);

#endif
