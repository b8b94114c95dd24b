/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Writes a valid input of each target whose inputs the tests make (fuzz_targets.h: the *_seed
 * functions) as DIR/<target>/seed, so that `make fuzz` leaves each libFuzzer driver a corpus to
 * start from: build/fuzz/bin/fuzz_post_vanilla build/fuzz/seeds/post_vanilla.
 */
#include "fuzz_targets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static int write_seed(const char *dir, const char *name, uint8_t *(*make)(size_t *))
{
    char path[4096];
    size_t len = 0;
    uint8_t *b = make(&len);
    if (!b) {
        fprintf(stderr, "write_seeds: %s: the seed input could not be made\n", name);
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        perror(path);
        free(b);
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s/seed", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(b, 1, len, f) != len;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad)
        perror(path);
    free(b);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    if (mkdir(argv[1], 0755) != 0 && errno != EEXIST) {
        perror(argv[1]);
        return 1;
    }
    int bad = 0;
    bad |= write_seed(argv[1], "snap_vanilla", cuzk_fuzz_snap_vanilla_seed);
    bad |= write_seed(argv[1], "porep_c1", cuzk_fuzz_porep_c1_seed);
    bad |= write_seed(argv[1], "porep_c1_json", cuzk_fuzz_porep_c1_json_seed);
    bad |= write_seed(argv[1], "porep_c1_curio", cuzk_fuzz_porep_c1_curio_seed);
    bad |= write_seed(argv[1], "post_vanilla", cuzk_fuzz_post_vanilla_seed);
    return bad;
}
