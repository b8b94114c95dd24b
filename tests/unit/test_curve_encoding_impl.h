/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * ZCash encoding round trips and every rejection path, written once for G1 and G2. The
 * including file defines P_, T_, AFF_T, JAC_T, CB (compressed bytes), UB (uncompressed bytes)
 * and the helpers T_(bump_y) (y += 1) and T_(rand_x_no_root) (x with x^3 + b not a square).
 * No include guard: included once per group.
 */

/* Big-endian bytes of p. */
static const uint8_t T_(p_bytes)[48] = {
    0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7,
    0x64, 0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24,
    0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};

typedef cuzk_status (*T_(dec_fn))(AFF_T *, const uint8_t *);

static cuzk_status T_(dec_c)(AFF_T *o, const uint8_t *in)
{
    return P_(uncompress)(o, in);
}
static cuzk_status T_(dec_u)(AFF_T *o, const uint8_t *in)
{
    return P_(deserialize)(o, in);
}
static cuzk_status T_(dec_uu)(AFF_T *o, const uint8_t *in)
{
    return P_(deserialize_unchecked)(o, in);
}
static cuzk_status T_(dec_dc)(AFF_T *o, const uint8_t *in)
{
    return P_(decode)(o, in, CB);
}
static cuzk_status T_(dec_du)(AFF_T *o, const uint8_t *in)
{
    return P_(decode)(o, in, UB);
}

/* Decoding |in| must fail with |want|, set a message, and leave the (poisoned) output alone. */
static void T_(expect_reject)(T_(dec_fn) f, const uint8_t *in, cuzk_status want, int line)
{
    AFF_T out, ref;
    memset(&out, 0x5a, sizeof out);
    memset(&ref, 0x5a, sizeof ref);
    cuzk_fail(CUZK_OK, "%s", "");
    cuzk_status st = f(&out, in);
    CHECK_MSG(st == want, "line %d: got %s, want %s (%s)", line, cuzk_status_name(st),
              cuzk_status_name(want), cuzk_last_error());
    CHECK_MSG(memcmp(&out, &ref, sizeof out) == 0, "line %d: output modified on failure", line);
    CHECK_MSG(cuzk_last_error()[0] != '\0', "line %d: no error message", line);
}
#define REJECT(f, in, want) T_(expect_reject)(f, in, want, __LINE__)

static void T_(check_roundtrip)(void)
{
    uint8_t c[CB], u[UB], c2[CB];
    AFF_T a, na, d;
    JAC_T p;
    for (unsigned long it = 0; it < test_iters(20); it++) {
        T_(rand)(&p);
        P_(to_affine)(&a, &p);
        P_(affine_neg)(&na, &a);
        P_(compress)(c, &a);
        P_(serialize)(u, &a);
        CHECK((c[0] & 0xc0) == 0x80 && (u[0] & 0xe0) == 0);
        CHECK(P_(uncompress)(&d, c) == CUZK_OK && P_(affine_eq)(&d, &a));
        CHECK(P_(deserialize)(&d, u) == CUZK_OK && P_(affine_eq)(&d, &a));
        CHECK(P_(deserialize_unchecked)(&d, u) == CUZK_OK && P_(affine_eq)(&d, &a));
        CHECK(P_(decode)(&d, c, CB) == CUZK_OK && P_(affine_eq)(&d, &a));
        CHECK(P_(decode)(&d, u, UB) == CUZK_OK && P_(affine_eq)(&d, &a));
        /* -P differs only in the sign bit (compressed) */
        P_(compress)(c2, &na);
        CHECK(((c[0] ^ c2[0]) == 0x20) && memcmp(c + 1, c2 + 1, CB - 1) == 0);
        CHECK(P_(uncompress)(&d, c2) == CUZK_OK && P_(affine_eq)(&d, &na));
        CHECK(!P_(affine_eq)(&d, &a));
        /* unchecked accepts any curve point; the checked forms reject non-subgroup points */
        T_(rand_curve)(&a);
        P_(serialize)(u, &a);
        P_(compress)(c, &a);
        P_(from_affine)(&p, &a);
        if (!P_(in_subgroup)(&p)) {
            CHECK(P_(deserialize_unchecked)(&d, u) == CUZK_OK && P_(affine_eq)(&d, &a));
            REJECT(T_(dec_u), u, CUZK_ERR_NOT_IN_SUBGROUP);
            REJECT(T_(dec_du), u, CUZK_ERR_NOT_IN_SUBGROUP);
            REJECT(T_(dec_c), c, CUZK_ERR_NOT_IN_SUBGROUP);
            REJECT(T_(dec_dc), c, CUZK_ERR_NOT_IN_SUBGROUP);
        }
    }
    /* infinity */
    P_(affine_set_infinity)(&a);
    P_(compress)(c, &a);
    P_(serialize)(u, &a);
    CHECK(c[0] == 0xc0 && u[0] == 0x40);
    for (size_t i = 1; i < CB; i++)
        CHECK(c[i] == 0);
    for (size_t i = 1; i < UB; i++)
        CHECK(u[i] == 0);
    memset(&d, 0x5a, sizeof d);
    CHECK(P_(uncompress)(&d, c) == CUZK_OK && d.infinity && P_(affine_eq)(&d, &a));
    memset(&d, 0x5a, sizeof d);
    CHECK(P_(deserialize)(&d, u) == CUZK_OK && d.infinity);
    memset(&d, 0x5a, sizeof d);
    CHECK(P_(deserialize_unchecked)(&d, u) == CUZK_OK && d.infinity);
    CHECK(P_(decode)(&d, c, CB) == CUZK_OK && d.infinity);
    CHECK(P_(decode)(&d, u, UB) == CUZK_OK && d.infinity);
}

static void T_(check_rejections)(void)
{
    uint8_t c[CB], u[UB], bad_c[CB], bad_u[UB];
    AFF_T a;
    JAC_T p;
    T_(rand)(&p);
    P_(to_affine)(&a, &p);
    P_(compress)(c, &a);
    P_(serialize)(u, &a);

    /* compression flag mismatching the form */
    memcpy(bad_u, u, UB);
    bad_u[0] |= 0x80;
    REJECT(T_(dec_u), bad_u, CUZK_ERR_BAD_ENCODING);
    REJECT(T_(dec_uu), bad_u, CUZK_ERR_BAD_ENCODING);
    REJECT(T_(dec_du), bad_u, CUZK_ERR_BAD_ENCODING);
    memcpy(bad_c, c, CB);
    bad_c[0] &= 0x7f;
    REJECT(T_(dec_c), bad_c, CUZK_ERR_BAD_ENCODING);
    REJECT(T_(dec_dc), bad_c, CUZK_ERR_BAD_ENCODING);
    /* sign flag on an uncompressed encoding */
    memcpy(bad_u, u, UB);
    bad_u[0] |= 0x20;
    REJECT(T_(dec_u), bad_u, CUZK_ERR_BAD_ENCODING);
    REJECT(T_(dec_uu), bad_u, CUZK_ERR_BAD_ENCODING);
    /* infinity flag on a finite point's bytes (not all zero after the flags) */
    memcpy(bad_u, u, UB);
    bad_u[0] |= 0x40;
    REJECT(T_(dec_u), bad_u, CUZK_ERR_BAD_ENCODING);
    memcpy(bad_c, c, CB);
    bad_c[0] = (uint8_t)((bad_c[0] | 0x40) & ~0x20);
    REJECT(T_(dec_c), bad_c, CUZK_ERR_BAD_ENCODING);
    /* infinity encodings: sign bit, stray bits in byte 0, a non-zero trailing byte */
    memset(bad_c, 0, CB);
    bad_c[0] = 0xe0;
    REJECT(T_(dec_c), bad_c, CUZK_ERR_BAD_ENCODING);
    bad_c[0] = 0xc1;
    REJECT(T_(dec_c), bad_c, CUZK_ERR_BAD_ENCODING);
    bad_c[0] = 0xc0;
    bad_c[CB - 1] = 1;
    REJECT(T_(dec_c), bad_c, CUZK_ERR_BAD_ENCODING);
    bad_c[CB - 1] = 0;
    bad_c[CB / 2] = 0x80;
    REJECT(T_(dec_c), bad_c, CUZK_ERR_BAD_ENCODING);
    memset(bad_u, 0, UB);
    bad_u[0] = 0x60;
    REJECT(T_(dec_u), bad_u, CUZK_ERR_BAD_ENCODING);
    bad_u[0] = 0x40;
    bad_u[UB - 1] = 1;
    REJECT(T_(dec_u), bad_u, CUZK_ERR_BAD_ENCODING);
    REJECT(T_(dec_uu), bad_u, CUZK_ERR_BAD_ENCODING);
    bad_u[UB - 1] = 0;
    bad_u[0] = 0x48;
    REJECT(T_(dec_u), bad_u, CUZK_ERR_BAD_ENCODING);
    bad_u[0] = 0x40;
    bad_u[48] = 0x01; /* second coordinate */
    REJECT(T_(dec_du), bad_u, CUZK_ERR_BAD_ENCODING);
    /* all-zero uncompressed = (0, 0), not on the curve; all-zero compressed lacks the flag */
    memset(bad_u, 0, UB);
    REJECT(T_(dec_u), bad_u, CUZK_ERR_NOT_ON_CURVE);
    memset(bad_c, 0, CB);
    REJECT(T_(dec_c), bad_c, CUZK_ERR_BAD_ENCODING);

    /* each 48-byte coordinate set to p, p + 1, p + 2^200 and to 2^381 - 1 */
    for (size_t chunk = 0; chunk < UB / 48; chunk++) {
        for (int v = 0; v < 4; v++) {
            for (int form = 0; form < 2; form++) {
                size_t len = form ? UB : CB;
                if (chunk * 48 >= len)
                    continue;
                uint8_t *buf = form ? bad_u : bad_c;
                memcpy(buf, form ? u : c, len);
                uint8_t *x = buf + 48 * chunk;
                uint8_t flags = chunk == 0 ? (x[0] & 0xe0) : 0;
                memcpy(x, T_(p_bytes), 48);
                if (v == 1)
                    x[47] += 1; /* p ends in 0xab: no carry */
                if (v == 2)
                    x[47 - 25] += 1;
                if (v == 3)
                    memset(x, 0xff, 48), x[0] = 0x1f;
                x[0] |= flags;
                if (form) {
                    REJECT(T_(dec_u), buf, CUZK_ERR_NOT_CANONICAL);
                    REJECT(T_(dec_uu), buf, CUZK_ERR_NOT_CANONICAL);
                    REJECT(T_(dec_du), buf, CUZK_ERR_NOT_CANONICAL);
                } else {
                    REJECT(T_(dec_c), buf, CUZK_ERR_NOT_CANONICAL);
                    REJECT(T_(dec_dc), buf, CUZK_ERR_NOT_CANONICAL);
                }
            }
        }
    }
    /* a coordinate equal to p - 1 is canonical and passes the range check */
    memcpy(bad_u, u, UB);
    memcpy(bad_u + UB - 48, T_(p_bytes), 48);
    bad_u[UB - 1] -= 1;
    REJECT(T_(dec_u), bad_u, CUZK_ERR_NOT_ON_CURVE);

    /* (x, y + 1) is off the curve */
    AFF_T off = a;
    T_(bump_y)(&off);
    P_(serialize)(bad_u, &off);
    REJECT(T_(dec_u), bad_u, CUZK_ERR_NOT_ON_CURVE);
    REJECT(T_(dec_uu), bad_u, CUZK_ERR_NOT_ON_CURVE);
    REJECT(T_(dec_du), bad_u, CUZK_ERR_NOT_ON_CURVE);
    /* compressed x with no square root, both signs */
    for (int i = 0; i < 4; i++) {
        T_(rand_x_no_root)(&off);
        P_(compress)(bad_c, &off);
        bad_c[0] = (uint8_t)((bad_c[0] & 0x1f) | 0x80 | (i & 1 ? 0x20 : 0));
        REJECT(T_(dec_c), bad_c, CUZK_ERR_NOT_ON_CURVE);
        REJECT(T_(dec_dc), bad_c, CUZK_ERR_NOT_ON_CURVE);
    }
    /* on the curve, outside the subgroup (several tries: a random curve point is almost never
     * in the subgroup) */
    int tested = 0;
    for (int i = 0; i < 8 && tested < 3; i++) {
        T_(rand_curve)(&off);
        P_(from_affine)(&p, &off);
        if (P_(in_subgroup)(&p))
            continue;
        tested++;
        P_(serialize)(bad_u, &off);
        P_(compress)(bad_c, &off);
        REJECT(T_(dec_u), bad_u, CUZK_ERR_NOT_IN_SUBGROUP);
        REJECT(T_(dec_du), bad_u, CUZK_ERR_NOT_IN_SUBGROUP);
        REJECT(T_(dec_c), bad_c, CUZK_ERR_NOT_IN_SUBGROUP);
        REJECT(T_(dec_dc), bad_c, CUZK_ERR_NOT_IN_SUBGROUP);
    }
    CHECK(tested > 0);

    /* wrong lengths to decode */
    static const size_t lens[] = {0, 1, 47, 48, 49, 95, 96, 97, 143, 144, 191, 192, 193, 384};
    uint8_t big[400] = {0};
    memcpy(big, u, UB);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        if (lens[i] == CB || lens[i] == UB)
            continue;
        AFF_T out, ref;
        memset(&out, 0x5a, sizeof out);
        memset(&ref, 0x5a, sizeof ref);
        CHECK(P_(decode)(&out, big, lens[i]) == CUZK_ERR_BAD_ENCODING);
        CHECK(memcmp(&out, &ref, sizeof out) == 0);
    }
}

#undef REJECT
