/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Progress displays on stderr: a spinner with the elapsed time while one call waits, a bar for
 * batches. Only when both stdout and stderr are terminals, so that piped output (tests, scripts)
 * never contains them; CUZK_NO_PROGRESS=1 turns them off as well. */
#include "cmd_client.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool progress_wanted(void)
{
    const char *off = getenv("CUZK_NO_PROGRESS");
    if (off && *off && strcmp(off, "0") != 0)
        return false;
    return isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
}

void spinner_start(spinner *s, const char *label)
{
    memset(s, 0, sizeof *s);
    s->t0 = cli_now_ms();
    s->label = label;
}

void spinner_tick(void *arg)
{
    static const char frames[] = "|/-\\";
    spinner *s = arg;
    double el = (cli_now_ms() - s->t0) / 1e3;
    fprintf(stderr, "\r\033[K%c %s ... %.1f s", frames[s->frame++ % 4], s->label, el);
    fflush(stderr);
    s->shown = true;
}

void spinner_clear(spinner *s)
{
    if (s->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        s->shown = false;
    }
}

void progress_bar(unsigned done, unsigned total, unsigned failed, double elapsed_ms)
{
    enum { WIDTH = 30 };
    char bar[WIDTH + 1];
    unsigned fill = total ? (unsigned)((uint64_t)done * WIDTH / total) : 0;
    for (unsigned i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = 0;
    double s = elapsed_ms / 1e3;
    double rate = s > 0 ? (double)done / s * 60.0 : 0;
    fprintf(stderr, "\r\033[K[%s] %u/%u", bar, done, total);
    if (failed)
        fprintf(stderr, " (%u failed)", failed);
    fprintf(stderr, "  %.1f proofs/min  %.1f s", rate, s);
    if (done && done < total)
        fprintf(stderr, "  eta %.0f s", s / done * (total - done));
    fflush(stderr);
}

void progress_clear(void)
{
    fputs("\r\033[K", stderr);
    fflush(stderr);
}
