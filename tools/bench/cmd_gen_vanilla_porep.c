/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * gen-vanilla --seal-proof N: the C1 output of a small sector replicated for real
 * (cuzk_fil_porep_c1_synthetic over the PoRep graph, the challenges Filecoin derives, replica_id
 * of miner 1000's sector seed mod 2^32), written as Curio's wrapper JSON (what single --c1 sends,
 * what Curio puts in vanilla_proof) or, with --bincode, as raw C1; --inputs: the public inputs of
 * every partition in order, derived apart from the daemon.
 */
#include "gen_vanilla.h"
#include "hexutil.h"
#include "cuzk/alloc.h"
#include "filecoin/porep_vanilla.h"

#include <stdio.h>
#include <string.h>

/* The public inputs of every partition, one 32-byte LE hex per line. */
static char *inputs_text(const cuzk_fil_porep_c1 *c1)
{
    cuzk_fil_porep_shape ps;
    if (cuzk_fil_porep_shape_get(&ps, c1->shape.seal_proof_type) != CUZK_OK)
        return NULL;
    size_t ni = cuzk_fil_porep_num_inputs(&ps);
    char *text = cuzk_alloc(c1->npartitions * ni * 65 + 1), *o = text;
    cuzk_fr_t *in = cuzk_alloc_array(ni, sizeof *in);
    for (size_t k = 0; text && in && k < c1->npartitions; k++) {
        cuzk_fil_porep_partition *p;
        if (cuzk_fil_porep_partition_from_c1(&p, c1, k) != CUZK_OK) {
            cuzk_free(text);
            text = NULL;
            break;
        }
        cuzk_fil_porep_public_inputs(in, &p->shape, &p->w);
        cuzk_fil_porep_partition_destroy(p);
        o = gen_vanilla_hex_lines(o, in, ni);
    }
    cuzk_free(in);
    return text;
}

int gen_vanilla_porep(uint64_t id, uint64_t seed, const char *out, const char *inputs, bool bincode,
                      bool json)
{
    cuzk_fil_porep_c1_shape sh;
    cuzk_fil_porep_c1 *c1 = NULL;
    if (cuzk_fil_porep_c1_shape_get(&sh, id) != CUZK_OK ||
        cuzk_fil_porep_c1_synthetic(&c1, id, seed, sh.partitions, NULL, NULL, NULL) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s\n", cuzk_last_error());
        return GEN_VANILLA_ERROR;
    }
    int rc = GEN_VANILLA_ERROR;
    uint64_t sector = seed & 0xffffffffu;
    char *text = NULL, *in_text = NULL;
    uint8_t *bin = NULL;
    size_t len = 0;
    cuzk_status s = bincode ? cuzk_fil_porep_c1_to_bincode(c1, &bin, &len)
                            : cuzk_fil_porep_c1_to_curio(c1, sector, &text, &len);
    if (s != CUZK_OK) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s\n", cuzk_last_error());
        goto done;
    }
    if (!gen_vanilla_write(out, bincode ? (const void *)bin : (const void *)text, len))
        goto done;
    if (inputs &&
        (!(in_text = inputs_text(c1)) || !gen_vanilla_write(inputs, in_text, strlen(in_text))))
        goto done;
    char cr[65], cd[65];
    hex_encode(cr, c1->comm_r, 32);
    hex_encode(cd, c1->comm_d, 32);
    if (json)
        printf("{\"seal_proof\":%llu,\"seed\":%llu,\"miner_id\":%d,\"sector_num\":%llu,"
               "\"partitions\":%zu,\"comm_r\":\"%s\",\"comm_d\":\"%s\"}\n",
               (unsigned long long)id, (unsigned long long)seed, CUZK_FIL_POREP_SYNTH_MINER,
               (unsigned long long)sector, c1->npartitions, cr, cd);
    else
        printf("seal proof %llu (%s), seed %llu: C1 of miner %d, sector %llu (%zu partitions) "
               "written to %s\ncomm_r %s\ncomm_d %s\n",
               (unsigned long long)id, cuzk_fil_seal_proof_name(id), (unsigned long long)seed,
               CUZK_FIL_POREP_SYNTH_MINER, (unsigned long long)sector, c1->npartitions, out, cr,
               cd);
    rc = 0;
done:
    cuzk_free(text);
    cuzk_free(bin);
    cuzk_free(in_text);
    cuzk_fil_porep_c1_destroy(c1);
    return rc;
}
