// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of icc_math.h, the arithmetic tcp_icc.c runs.
 *
 * Expectations come from a double-precision transcription of the seed's
 * pseudo-code (ref_*() below) or from numbers worked out by hand in the
 * comments, never from the functions under test.
 */
#include <math.h>
#include <string.h>

#include "tap.h"
#include "icc_math.h"

#define PKT ((double)ICC_PKT_SCALE)
#define U(pkts) ((u64)llround((double)(pkts) * PKT))

/* ---- double-precision reference: the seed's pseudo-code ---------------- */

struct ref_params {
	double low_window, smax, smin, b, a;
	int fast_convergence;
};

static const struct ref_params ref_default = {
	.low_window = 14, .smax = 32, .smin = 0.01, .b = 0.125, .a = 2,
	.fast_convergence = 1,
};

/* ICC_inc in packets per RTT */
static double ref_inc(double cwnd, double wmax, const struct ref_params *r)
{
	double inc;

	if (cwnd < r->low_window)
		return 1.0;
	if (cwnd < wmax)
		inc = (wmax - cwnd) / r->a;
	else
		inc = cwnd - wmax;
	if (inc > r->smax)
		inc = r->smax;
	else if (inc < r->smin)
		inc = r->smin;
	return inc;
}

static double ref_loss_wmax(double cwnd, double wmax, const struct ref_params *r)
{
	if (cwnd < r->low_window)
		return wmax;
	if (r->fast_convergence && cwnd < wmax)
		return cwnd * (r->a - r->b) / r->a;
	return cwnd;
}

/* the window after a loss, rounded down, at least 2 */
static double ref_loss_cwnd(double cwnd, const struct ref_params *r)
{
	double next = cwnd < r->low_window ? cwnd * 0.5 : cwnd * (1 - r->b);

	next = floor(next);
	return next < 2 ? 2 : next;
}

/* ---- parameters ------------------------------------------------------- */

static void test_params(void)
{
	struct icc_params p, q;
	u32 lo, hi;

	icc_params_default(&p);
	tap_ok(p.low_window == 14 && p.smax == 32 && p.smin_milli == 10 &&
	       p.b_milli == 125 && p.a == 2 && p.fast_convergence,
	       "icc: defaults are the seed's Smax 32, Smin 0.01, b 0.125; BIC's a 2, low_window 14");
	tap_ok(icc_params_valid(&p), "icc: defaults are valid");

#define CHECK_PARAM(field, val, want, what) do {			\
		q = p;							\
		q.field = (val);					\
		tap_eq(icc_params_valid(&q), (want), "icc: params %s", what); \
	} while (0)

	CHECK_PARAM(low_window, 1, 0, "low_window 1 refused");
	CHECK_PARAM(low_window, 2, 1, "low_window 2 accepted");
	CHECK_PARAM(low_window, 1000000, 1, "low_window 1e6 accepted");
	CHECK_PARAM(low_window, 1000001, 0, "low_window 1e6+1 refused");
	CHECK_PARAM(smax, 0, 0, "smax 0 refused");
	CHECK_PARAM(smax, 1, 1, "smax 1 accepted (smin 0.01)");
	CHECK_PARAM(smax, 1000000, 1, "smax 1e6 accepted");
	CHECK_PARAM(smax, 1000001, 0, "smax 1e6+1 refused");
	CHECK_PARAM(smin_milli, 0, 0, "smin_milli 0 refused");
	CHECK_PARAM(smin_milli, 1, 1, "smin_milli 1 accepted");
	CHECK_PARAM(smin_milli, 32000, 1, "smin_milli 32000 == smax accepted");
	CHECK_PARAM(smin_milli, 32001, 0, "smin_milli 32001 > smax refused");
	CHECK_PARAM(smin_milli, U32_MAX, 0, "smin_milli U32_MAX refused");
	CHECK_PARAM(b_milli, 0, 0, "b_milli 0 refused");
	CHECK_PARAM(b_milli, 1, 1, "b_milli 1 accepted");
	CHECK_PARAM(b_milli, 500, 1, "b_milli 500 accepted");
	CHECK_PARAM(b_milli, 501, 0, "b_milli 501 refused");
	CHECK_PARAM(a, 1, 0, "a 1 refused");
	CHECK_PARAM(a, 0, 0, "a 0 refused");
	CHECK_PARAM(a, 16, 1, "a 16 accepted");
	CHECK_PARAM(a, 17, 0, "a 17 refused");
#undef CHECK_PARAM

	/* cross rule seen from smax: smin 1.5 packets needs smax >= 2 */
	q = p;
	q.smin_milli = 1500;
	icc_param_bounds(ICC_PARAM_SMAX, &q, &lo, &hi);
	tap_ok(lo == 2 && hi == 1000000, "icc: smax bounds [2, 1e6] for smin 1.5 (got [%u, %u])",
	       lo, hi);
	q.smax = 1;
	tap_ok(!icc_params_valid(&q), "icc: smax 1 below smin 1.5 refused");
	q.smax = 2;
	tap_ok(icc_params_valid(&q), "icc: smax 2 above smin 1.5 accepted");
	icc_param_bounds(ICC_PARAM_SMIN_MILLI, &p, &lo, &hi);
	tap_ok(lo == 1 && hi == 32000, "icc: smin_milli bounds [1, 32000] for smax 32 (got [%u, %u])",
	       lo, hi);

	/* the store helper the module setter uses */
	q = p;
	icc_param_store(&q, ICC_PARAM_LOW_WINDOW, 31);
	icc_param_store(&q, ICC_PARAM_SMAX, 64);
	icc_param_store(&q, ICC_PARAM_SMIN_MILLI, 20);
	icc_param_store(&q, ICC_PARAM_B_MILLI, 200);
	icc_param_store(&q, ICC_PARAM_A, 4);
	tap_ok(q.low_window == 31 && q.smax == 64 && q.smin_milli == 20 &&
	       q.b_milli == 200 && q.a == 4, "icc: icc_param_store sets each field");
}

/* ---- increments -------------------------------------------------------- */

static void test_increment_hand(void)
{
	struct icc_params p;

	icc_params_default(&p);
	/* below Wmax: (120 - 100) / 2 = 10 packets */
	tap_eq(icc_increment(100, U(120), &p), U(10), "icc: inc below Wmax = (Wmax-cwnd)/a");
	/* (100.5 - 100) / 2 = 0.25 */
	tap_eq(icc_increment(100, U(100.5), &p), U(0.25), "icc: inc 0.25 for Wmax 100.5");
	/* (100.01 - 100) / 2 = 0.005 < Smin */
	tap_eq(icc_increment(100, U(100.01), &p), 10000, "icc: inc below Wmax clamps to Smin");
	/* (200 - 100) / 2 = 50 > Smax */
	tap_eq(icc_increment(100, U(200), &p), U(32), "icc: inc below Wmax clamps to Smax");
	tap_eq(icc_increment(100, U(100), &p), 10000, "icc: inc at Wmax is Smin (0.01 = 10000 units)");
	tap_eq(icc_increment(101, U(100), &p), U(1), "icc: inc 1 above Wmax by 1 (max probing)");
	tap_eq(icc_increment(100, U(99.99), &p), 10000, "icc: inc 0.01 above Wmax by 0.01");
	tap_eq(icc_increment(100, U(99.995), &p), 10000, "icc: inc above Wmax clamps to Smin");
	tap_eq(icc_increment(120, U(100), &p), U(20), "icc: inc 20 above Wmax by 20");
	tap_eq(icc_increment(150, U(100), &p), U(32), "icc: inc above Wmax clamps to Smax");

	/* Reno region: cwnd < low_window, whatever Wmax */
	tap_eq(icc_increment(13, U(100), &p), U(1), "icc: cwnd 13 < low_window: Reno +1/RTT");
	tap_eq(icc_increment(13, 0, &p), U(1), "icc: cwnd 13, Wmax 0: Reno +1/RTT");
	tap_eq(icc_increment(14, U(20), &p), U(3), "icc: cwnd 14 == low_window is ICC: (20-14)/2");
	tap_eq(icc_increment(0, 0, &p), U(1), "icc: cwnd 0: Reno");
	tap_eq(icc_increment(1, 0, &p), U(1), "icc: cwnd 1: Reno");
	tap_eq(icc_increment(2, 0, &p), U(1), "icc: cwnd 2: Reno");
	p.low_window = 2;
	tap_eq(icc_increment(2, 0, &p), U(2), "icc: low_window 2, cwnd 2, Wmax 0: inc = cwnd");
	tap_eq(icc_increment(1, 0, &p), U(1), "icc: low_window 2, cwnd 1: Reno");
	icc_params_default(&p);

	/* Wmax 0 (no loss yet): max probing from zero */
	tap_eq(icc_increment(20, 0, &p), U(20), "icc: Wmax 0: inc = cwnd");
	tap_eq(icc_increment(40, 0, &p), U(32), "icc: Wmax 0: inc capped at Smax");

	/* other a / Smin / Smax */
	p.a = 4;
	tap_eq(icc_increment(100, U(120), &p), U(5), "icc: a = 4: (120-100)/4 = 5");
	p.a = 2;
	p.smin_milli = 1;
	tap_eq(icc_increment(100, U(100), &p), 1000, "icc: smin 0.001 = 1000 units");
	p.smax = 1000000;
	p.low_window = 2;
	tap_eq(icc_increment(U32_MAX, 0, &p), U(1000000), "icc: smax 1e6 at huge cwnd");

	/* huge windows */
	icc_params_default(&p);
	tap_eq(icc_increment(U32_MAX, 0, &p), U(32), "icc: cwnd U32_MAX, Wmax 0: Smax");
	tap_eq(icc_increment(U32_MAX - 10, (u64)U32_MAX * ICC_PKT_SCALE, &p), U(5),
	       "icc: cwnd U32_MAX-10 below Wmax U32_MAX: 5");
	tap_eq(icc_increment(U32_MAX, (u64)(U32_MAX - 3) * ICC_PKT_SCALE, &p), U(3),
	       "icc: cwnd U32_MAX above Wmax by 3: 3");
	tap_eq(icc_increment(1000, U64_MAX, &p), U(32), "icc: Wmax U64_MAX: Smax, no overflow");

	/* inconsistent parameters (smin > smax): never above smax */
	p.smin_milli = 64000;
	tap_eq(icc_increment(100, U(100), &p), U(32), "icc: smin > smax still capped at smax");
}

static void test_increment_ref(void)
{
	static const double wmaxes[] = {
		0, 13.5, 14, 50, 99, 99.99, 99.995, 100, 100.004, 100.01,
		100.5, 101, 130, 163.9, 164, 165, 1000, 1e6, 4.2e9,
	};
	static const u32 cwnds[] = {
		0, 1, 2, 13, 14, 15, 50, 99, 100, 101, 132, 1000, 65535,
		1000000, U32_MAX,
	};
	struct icc_params p;
	double worst = 0;
	int bad = 0, n = 0;
	size_t i, j;

	icc_params_default(&p);
	for (i = 0; i < sizeof(cwnds) / sizeof(cwnds[0]); i++) {
		for (j = 0; j < sizeof(wmaxes) / sizeof(wmaxes[0]); j++) {
			u64 wm = (u64)llround(wmaxes[j] * PKT);
			double want = ref_inc(cwnds[i], wm / PKT, &ref_default);
			double got = icc_increment(cwnds[i], wm, &p) / PKT;
			double err = fabs(got - want);

			n++;
			if (err > worst)
				worst = err;
			/* integer division by a: at most one unit lost */
			if (err > 1.0 / PKT) {
				bad++;
				tap_diag("cwnd %u wmax %.6f: got %.6f want %.6f",
					 cwnds[i], wm / PKT, got, want);
			}
		}
	}
	tap_ok(!bad, "icc: %d increments within 1e-6 packet of the double reference (worst %.2g)",
	       n, worst);
}

/* ---- the accumulator --------------------------------------------------- */

static void test_ack_step(void)
{
	struct icc_params p;
	u64 acc, acks, inc;
	u32 cwnd, grew, i;
	double eff, ref;

	icc_params_default(&p);

	/* Smin = 0.01 at cwnd 50: exactly 100 * 50 = 5000 ACKs per packet */
	acc = 0;
	cwnd = 50;
	grew = 0;
	for (acks = 1; acks <= 4999; acks++)
		grew += icc_ack_step(&acc, cwnd, 10000, 1);
	tap_eq(grew, 0, "icc: Smin: no growth after 4999 ACKs at cwnd 50");
	grew = icc_ack_step(&acc, cwnd, 10000, 1);
	tap_eq(grew, 1, "icc: Smin: +1 at exactly the 5000th ACK at cwnd 50");
	tap_eq(acc, 0, "icc: Smin: no credit left after an exact packet");

	/* Smin over 100 RTTs at cwnd 1000, ACK by ACK: one packet, 100000 ACKs */
	acc = 0;
	cwnd = 1000;
	for (acks = 0; acks < 100000; acks++) {
		if (icc_ack_step(&acc, cwnd, icc_increment(cwnd, U(cwnd), &p), 1))
			break;
	}
	tap_eq(acks + 1, 100000, "icc: Smin at cwnd 1000: +1 after 100 RTTs = 100000 ACKs");

	/* Reno: cwnd ACKs per packet */
	acc = 0;
	for (acks = 1; !icc_ack_step(&acc, 10, icc_increment(10, 0, &p), 1); acks++)
		;
	tap_eq(acks, 10, "icc: Reno below low_window: +1 after cwnd (10) ACKs");

	/* chunked ACKs (delayed/stretch): 7 packets at a time, 5000 total */
	acc = 0;
	grew = 0;
	for (i = 0; i < 714; i++)	/* 4998 packets */
		grew += icc_ack_step(&acc, 50, 10000, 7);
	tap_eq(grew, 0, "icc: chunked Smin: nothing after 4998 packets");
	grew = icc_ack_step(&acc, 50, 10000, 7);	/* 5005 */
	tap_eq(grew, 1, "icc: chunked Smin: +1 once 5005 packets are acked");
	tap_eq(acc, 5 * 10000, "icc: chunked Smin: 5 packets' credit carried");

	/* stretch ACK: 10 packets at Smax 32 on cwnd 10 = 32 packets */
	acc = 0;
	tap_eq(icc_ack_step(&acc, 10, U(32), 10), 32, "icc: stretch ACK credits 32 packets at once");
	tap_eq(acc, 0, "icc: stretch ACK leaves no credit");

	/* credit from a larger window: one packet, not a burst */
	acc = U(999);
	tap_eq(icc_ack_step(&acc, 10, U(1), 1), 1, "icc: stale credit after a shrink gives +1 only");
	tap_eq(acc, U(1), "icc: stale credit dropped, this ACK's credit kept");

	/* cwnd 0 is treated as 1 */
	acc = 0;
	tap_eq(icc_ack_step(&acc, 0, U(1), 1), 1, "icc: cwnd 0 treated as 1");

	/* saturation: no overflow at absurd inputs */
	acc = U64_MAX - 5;
	grew = icc_ack_step(&acc, 10, U(1), 1);
	tap_ok(grew == 1 && acc == U(1), "icc: stale credit near U64_MAX at cwnd 10 gives +1, keeps 1 packet");
	acc = U64_MAX - 5;
	grew = icc_ack_step(&acc, 1, U(1000000), U32_MAX);
	tap_eq(grew, U32_MAX, "icc: saturated credit (U32_MAX acks at 1e6/RTT) clamps at U32_MAX");
	acc = 0;
	grew = icc_ack_step(&acc, 1, U64_MAX, U32_MAX);
	tap_eq(grew, U32_MAX, "icc: saturated growth clamps at U32_MAX");
	acc = 0;
	grew = icc_ack_step(&acc, U32_MAX, U(32), U32_MAX);
	tap_eq(grew, 32, "icc: cwnd U32_MAX, a full window of ACKs at Smax: +32");

	/* acks_to_next against counting */
	tap_eq(icc_acks_to_next(0, 50, 10000), 5000, "icc: acks_to_next Smin cwnd 50 = 5000");
	tap_eq(icc_acks_to_next(0, 10, U(1)), 10, "icc: acks_to_next Reno cwnd 10 = 10");
	tap_eq(icc_acks_to_next(0, 100, U(3)), 34, "icc: acks_to_next ceil(100/3) = 34");
	tap_eq(icc_acks_to_next(U(99), 100, U(3)), 1, "icc: acks_to_next with credit 99 of 100");
	tap_ok(icc_acks_to_next(0, 100, 0) == U64_MAX, "icc: acks_to_next inc 0 = never");
	tap_eq(icc_acks_to_next(U(200), 100, U(3)), 1, "icc: acks_to_next stale credit = 1");

	/* growth ACK by ACK vs the reference cwnd += inc/cwnd (integer cwnd,
	 * as Linux): the effective window cwnd + acc/(cwnd*SCALE) tracks it
	 */
	acc = 0;
	cwnd = 900;
	ref = 900;
	for (acks = 1; acks <= 200000; acks++) {
		inc = icc_increment(cwnd, U(1000), &p);
		cwnd += icc_ack_step(&acc, cwnd, inc, 1);
		ref += ref_inc(floor(ref), 1000, &ref_default) / floor(ref);
		if (acks == 20000) {
			eff = cwnd + acc / ((double)cwnd * PKT);
			tap_near(eff, ref, 0.01,
				 "icc: binary search, 20000 ACKs from 900 to Wmax 1000: %.4f tracks the double model",
				 eff);
		}
	}
	/* max probing amplifies the one-ACK timing differences of the carry */
	eff = cwnd + acc / ((double)cwnd * PKT);
	tap_near(eff, ref, 1e-3 * ref,
		 "icc: max probing, 200000 ACKs: %.4f tracks the double model to 0.1%%",
		 eff);
}

/* ---- decrease ---------------------------------------------------------- */

static void test_loss(void)
{
	static const u32 cwnds[] = {
		0, 1, 2, 3, 4, 13, 14, 15, 16, 17, 100, 101, 1000, 12345,
		1000000, U32_MAX - 1, U32_MAX,
	};
	struct icc_params p;
	int bad = 0;
	size_t i;

	icc_params_default(&p);
	tap_eq(icc_loss_cwnd(100, &p), 87, "icc: loss at 100 -> 87 (100 * 0.875 rounded down), not 50");
	tap_eq(icc_loss_cwnd(1000, &p), 875, "icc: loss at 1000 -> 875");
	tap_eq(icc_loss_cwnd(14, &p), 12, "icc: loss at low_window 14 -> 12 (ICC)");
	tap_eq(icc_loss_cwnd(13, &p), 6, "icc: loss at 13 < low_window -> 6 (Reno halving)");
	tap_eq(icc_loss_cwnd(2, &p), 2, "icc: loss at 2 -> 2 (floor)");
	tap_eq(icc_loss_cwnd(1, &p), 2, "icc: loss at 1 -> 2 (floor)");
	tap_eq(icc_loss_cwnd(0, &p), 2, "icc: loss at 0 -> 2 (floor)");
	tap_eq(icc_loss_cwnd(U32_MAX, &p), 3758096383U,
	       "icc: loss at U32_MAX -> 3758096383 (x 0.875, no overflow)");
	p.b_milli = 500;
	tap_eq(icc_loss_cwnd(100, &p), 50, "icc: b 0.5 halves");
	p.b_milli = 1;
	tap_eq(icc_loss_cwnd(1000, &p), 999, "icc: b 0.001 at 1000 -> 999");
	tap_eq(icc_loss_cwnd(100, &p), 99, "icc: b 0.001 at 100 still takes a packet off");
	icc_params_default(&p);
	p.low_window = 2;
	tap_eq(icc_loss_cwnd(3, &p), 2, "icc: low_window 2: loss at 3 -> 2");
	tap_eq(icc_loss_cwnd(1, &p), 2, "icc: low_window 2: loss at 1 -> 2");

	icc_params_default(&p);
	for (i = 0; i < sizeof(cwnds) / sizeof(cwnds[0]); i++) {
		double want = ref_loss_cwnd(cwnds[i], &ref_default);

		if (icc_loss_cwnd(cwnds[i], &p) != (u32)want) {
			bad++;
			tap_diag("cwnd %u: got %u want %.0f", cwnds[i],
				 icc_loss_cwnd(cwnds[i], &p), want);
		}
	}
	tap_ok(!bad, "icc: loss cwnd matches the reference on %zu windows",
	       sizeof(cwnds) / sizeof(cwnds[0]));

	/* Wmax */
	tap_eq(icc_loss_wmax(100, 0, &p), U(100), "icc: first loss: Wmax = cwnd");
	tap_eq(icc_loss_wmax(100, U(90), &p), U(100), "icc: loss above Wmax: Wmax = cwnd");
	tap_eq(icc_loss_wmax(100, U(100), &p), U(100), "icc: loss at Wmax: Wmax = cwnd");
	tap_eq(icc_loss_wmax(100, U(200), &p), U(93.75),
	       "icc: fast convergence: Wmax = 100 (2 - 0.125) / 2 = 93.75");
	tap_eq(icc_loss_wmax(100, U(100.5), &p), U(93.75),
	       "icc: fast convergence just below a fractional Wmax");
	tap_eq(icc_loss_wmax(13, U(500), &p), U(500), "icc: loss below low_window leaves Wmax");
	tap_eq(icc_loss_wmax(13, 0, &p), 0, "icc: loss below low_window leaves Wmax 0");
	tap_eq(icc_loss_wmax(14, U(500), &p), U(13.125), "icc: loss at low_window updates Wmax");
	p.fast_convergence = false;
	tap_eq(icc_loss_wmax(100, U(200), &p), U(100), "icc: no fast convergence: Wmax = cwnd");
	p.fast_convergence = true;
	p.a = 4;
	tap_eq(icc_loss_wmax(100, U(200), &p), U(96.875),
	       "icc: a 4: Wmax = 100 (4 - 0.125) / 4 = 96.875");
	p.a = 2;
	p.b_milli = 500;
	tap_eq(icc_loss_wmax(100, U(200), &p), U(75), "icc: b 0.5: Wmax = 100 * 1.5 / 2 = 75");
	icc_params_default(&p);
	/* U32_MAX * 0.9375 = 4026531839.0625 packets, exact in micro-packets */
	tap_eq(icc_loss_wmax(U32_MAX, U64_MAX, &p), 4026531839062500ULL,
	       "icc: fast convergence at U32_MAX, exact, no overflow");
	tap_near(icc_loss_wmax(U32_MAX, U64_MAX, &p) / PKT,
		 ref_loss_wmax(U32_MAX, INFINITY, &ref_default), 1e-6,
		 "icc: huge Wmax matches the double reference");
	p.a = 16;
	p.b_milli = 1;
	tap_near(icc_loss_wmax(U32_MAX, U64_MAX, &p) / PKT,
		 U32_MAX * (16 - 0.001) / 16, 1e-6,
		 "icc: huge Wmax with a 16, b 0.001 (largest numerator)");
}

/* ---- get_info helpers -------------------------------------------------- */

static void test_info(void)
{
	struct icc_params p;

	icc_params_default(&p);
	tap_eq(icc_info_wmax_milli(U(93.75)), 93750, "icc: info Wmax 93.75 -> 93750 milli");
	tap_eq(icc_info_wmax_milli(U64_MAX), U32_MAX, "icc: info Wmax saturates");
	tap_eq(icc_info_inc_gain(10000), 3, "icc: info Smin 0.01 -> ceil(2.56) = 3/256");
	tap_eq(icc_info_inc_gain(U(32)), 8192, "icc: info Smax 32 -> 8192/256");
	tap_eq(icc_info_inc_gain(U(1)), 256, "icc: info Reno 1 -> 256/256");
	tap_eq(icc_info_inc_gain(U64_MAX), U32_MAX, "icc: info inc saturates");
	tap_eq(icc_info_decrease_gain(100, &p), 224, "icc: info decrease 0.875 -> 224/256");
	tap_eq(icc_info_decrease_gain(13, &p), 128, "icc: info decrease below low_window 0.5");
}

/* ---- simulated flows --------------------------------------------------- */

struct sim_flow {
	u32 cwnd;
	u64 wmax, acc;
};

/* one RTT: as many ACKs, one at a time, as the window at its start */
static void sim_rtt(struct sim_flow *f, const struct icc_params *p)
{
	u32 n = f->cwnd, i;

	for (i = 0; i < n; i++)
		f->cwnd += icc_ack_step(&f->acc, f->cwnd,
					icc_increment(f->cwnd, f->wmax, p), 1);
}

/* the module's ssthresh path, then PRR lands on ssthresh */
static void sim_loss(struct sim_flow *f, const struct icc_params *p)
{
	f->wmax = icc_loss_wmax(f->cwnd, f->wmax, p);
	f->cwnd = icc_loss_cwnd(f->cwnd, p);
	f->acc = 0;
}

/*
 * One flow on a path holding C packets: a loss at the end of every RTT
 * that ended above C.  Compared with the same model in doubles.
 */
static void test_sawtooth(void)
{
	const u32 cap = 1000, rtts = 2000;
	struct sim_flow f = { .cwnd = 20 };
	struct icc_params p;
	double sum = 0, rsum = 0, rcw = 20, rwm = 0;
	u32 t, losses = 0, rlosses = 0, maxloss = 0, minafter = U32_MAX;
	u32 last = 0, maxgap = 0, mingap = U32_MAX;
	int dec_ok = 1;

	icc_params_default(&p);
	for (t = 0; t < rtts; t++) {
		u32 n, i;

		sim_rtt(&f, &p);
		if (t >= rtts / 2)
			sum += f.cwnd;
		if (f.cwnd > cap) {
			u32 before = f.cwnd;

			sim_loss(&f, &p);
			if (f.cwnd != before - (before + 7) / 8)	/* 7/8, down */
				dec_ok = 0;
			if (t >= rtts / 2) {
				if (before > maxloss)
					maxloss = before;
				if (f.cwnd < minafter)
					minafter = f.cwnd;
				if (last && t - last > maxgap)
					maxgap = t - last;
				if (last && t - last < mingap)
					mingap = t - last;
				last = t;
			}
			losses++;
		}

		/* reference, window floored as Linux keeps whole packets */
		n = (u32)rcw;
		for (i = 0; i < n; i++)
			rcw += ref_inc(floor(rcw), rwm, &ref_default) / floor(rcw);
		if (t >= rtts / 2)
			rsum += floor(rcw);
		if (floor(rcw) > cap) {
			rwm = ref_loss_wmax(floor(rcw), rwm, &ref_default);
			rcw = ref_loss_cwnd(floor(rcw), &ref_default);
			rlosses++;
		}
	}
	sum /= rtts / 2;
	rsum /= rtts / 2;
	tap_ok(dec_ok, "icc: sawtooth: every loss takes the window to 7/8, rounded down");
	tap_near(sum, rsum, 0.005 * cap, "icc: sawtooth: mean window %.1f vs double model %.1f",
		 sum, rsum);
	tap_near(losses, rlosses, 2, "icc: sawtooth: %u losses vs double model %u",
		 losses, rlosses);
	tap_ok(sum >= 0.9 * cap && sum <= cap + 32,
	       "icc: sawtooth: mean window %.1f within [0.9 C, C + Smax]", sum);
	tap_ok(maxloss <= cap + 32 + 1,
	       "icc: sawtooth: overshoot at most Smax + 1 (worst loss window %u)", maxloss);
	tap_ok(minafter >= cap * 7 / 8 - 1,
	       "icc: sawtooth: never below 7/8 C after the start (lowest %u)", minafter);
	tap_ok(mingap >= 3 && maxgap <= 40,
	       "icc: sawtooth: loss every %u..%u RTTs (binary search + probing)", mingap,
	       maxgap);
	tap_ok(f.wmax >= U(cap * 15 / 16) && f.wmax <= U(cap + 33),
	       "icc: sawtooth: Wmax %.2f converged near C", f.wmax / PKT);
}

/* Reno below low_window: halve, +1 per RTT, Wmax untouched */
static void test_reno_sawtooth(void)
{
	struct sim_flow f = { .cwnd = 4 };
	struct icc_params p;
	u32 t, losses = 0, trace_ok = 1;

	icc_params_default(&p);
	for (t = 0; t < 100; t++) {
		u32 before = f.cwnd;

		sim_rtt(&f, &p);
		if (f.cwnd != before + 1)
			trace_ok = 0;
		if (f.cwnd > 10) {	/* 11 -> 5 */
			sim_loss(&f, &p);
			if (f.cwnd != 5)
				trace_ok = 0;
			losses++;
		}
	}
	tap_ok(trace_ok, "icc: below low_window: +1 per RTT, loss at 11 -> 5");
	tap_eq(losses, 16, "icc: below low_window: a loss every 6 RTTs (16 in 100 from 4)");
	tap_eq(f.wmax, 0, "icc: below low_window: Wmax never set");
}

/* Two flows, synchronized losses: they converge to a fair share. */
static void test_fairness(void)
{
	struct sim_flow a = { .cwnd = 1500, .wmax = U(1500) };
	struct sim_flow b = { .cwnd = 100 };
	struct icc_params p;
	double x, y, jain;
	u32 t;

	icc_params_default(&p);
	for (t = 0; t < 1000; t++) {
		sim_rtt(&a, &p);
		sim_rtt(&b, &p);
		if (a.cwnd + b.cwnd > 2000) {
			sim_loss(&a, &p);
			sim_loss(&b, &p);
		}
	}
	x = a.cwnd;
	y = b.cwnd;
	jain = (x + y) * (x + y) / (2 * (x * x + y * y));
	tap_ok(jain > 0.99, "icc: two synchronized flows 1500/100 -> %u/%u (Jain %.4f)",
	       a.cwnd, b.cwnd, jain);
}

int main(void)
{
	test_params();
	test_increment_hand();
	test_increment_ref();
	test_ack_step();
	test_loss();
	test_info();
	test_sawtooth();
	test_reno_sawtooth();
	test_fairness();
	return tap_done();
}
