/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef CUZK_CURVE_CURVE_INTERNAL_H
#define CUZK_CURVE_CURVE_INTERNAL_H

/* Library-internal helpers shared by the G1/G2 arithmetic and the encoders. */

#include "cuzk/curve.h"

/* |x| of the BLS12-381 parameter x = -0xd201000000010000. */
#define CUZK_BLS_X_ABS 0xd201000000010000ULL

/* Scalars of up to this many limbs use wNAF in mul_raw_vartime; longer ones double-and-add. */
#define CURVE_RAW_MAX_LIMBS 16

/* Endomorphisms (curve-specific parts in g1.c / g2.c).
 * G1: phi(x, y) = (beta x, y), acting on G1 as [-x^2] (beta chosen so; see g1.c).
 * G2: psi = untwist-Frobenius-twist, acting on G2 as [x]. */
void cuzk__g1_phi(cuzk_g1_jac_t *out, const cuzk_g1_jac_t *p);
void cuzk__g2_psi(cuzk_g2_jac_t *out, const cuzk_g2_jac_t *p);

#endif
