/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The check cache of the prove commands' checked loads (include/cuzk/check_cache.h). */
#include "commands.h"

#include <stdio.h>

cuzk_check_cache *bench_check_cache_open(const char *path, bool off)
{
    cuzk_check_cache *c = NULL;
    if (off)
        return NULL;
    cuzk_status s = cuzk_check_cache_open(&c, path);
    if (s == CUZK_ERR_NOT_FOUND && !path)
        return NULL; /* CUZK_CHECK_CACHE=off, or no home: nothing to say */
    if (s != CUZK_OK)
        fprintf(stderr, "note: check cache not used (%s); subgroups checked in full\n",
                cuzk_last_error());
    return s == CUZK_OK ? c : NULL;
}

const char *bench_subgroups_text(cuzk_subgroups sg, bool recorded, const cuzk_check_cache *cache)
{
    static char buf[4400];
    if (sg == CUZK_SUBGROUPS_NOT_CHECKED)
        return "not checked";
    if (sg == CUZK_SUBGROUPS_CHECKED_BEFORE)
        snprintf(buf, sizeof buf, "checked before: found in %s", cuzk_check_cache_path(cache));
    else if (recorded)
        snprintf(buf, sizeof buf, "checked; recorded in %s", cuzk_check_cache_path(cache));
    else
        snprintf(buf, sizeof buf, "checked");
    return buf;
}
