// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of sabul_math.h, the arithmetic tcp_sabul.c runs.
 *
 * Expectations come from a double-precision transcription of the rules of
 * docs/sabul.md (ref_*() below), from 128-bit integer arithmetic, or from
 * numbers worked out by hand in the comments, never from the functions
 * under test.
 */
#include <math.h>
#include <string.h>

#include "tap.h"
#include "sabul_math.h"

#define MSS 1448U

/* ---- double-precision reference --------------------------------------- */

/* periods in ps, p and alpha as fractions, k1 k2 plain, c b d in ns */
static double ref_increase(double period, double p, const struct sabul_params *q)
{
	double alpha = q->alpha_ppm / 1e6, k2 = q->k2_milli / 1e3;
	double next = period * (1 - k2 * (alpha - p)) - q->d_ns * 1e3;

	return next < 1 ? 1 : next;
}

static double ref_decrease(double period, double p, const struct sabul_params *q)
{
	double alpha = q->alpha_ppm / 1e6, k1 = q->k1_milli / 1e3;

	return period * (1 + k1 * (p > alpha ? p - alpha : 0)) + q->c_ns * 1e3;
}

/* ps per packet of mss bytes at kbps */
static double ref_period_kbps(double kbps, double mss)
{
	return mss * 8 / (kbps * 1e3) * 1e12;
}

/* ---- parameters ------------------------------------------------------- */

static void test_params(void)
{
	struct sabul_params p, q;
	u32 lo, hi;

	sabul_params_default(&p);
	tap_ok(p.alpha_ppm == 1000 && p.k1_milli == 125 && p.k2_milli == 10000 &&
	       p.c_ns == 2000 && p.b_ns == 500 && p.d_ns == 100 && p.lambda == 10,
	       "sabul: defaults are the seed's Table 2 (alpha 0.001, k1 0.125, k2 10, c 2 us, b 0.5 us, d 0.1 us, Lambda 10)");
	tap_eq(p.syn_us, 10000, "sabul: default T is UDT's SYN, 10 ms");
	tap_ok(sabul_params_valid(&p), "sabul: defaults are valid");

	sabul_param_bounds(SABUL_PARAM_SYN_US, &p, &lo, &hi);
	tap_ok(lo == 1000 && hi == 1000000, "sabul: syn_us in [1000, 1000000]");
	q = p;
	q.syn_us = 999;
	tap_ok(!sabul_params_valid(&q), "sabul: syn_us 999 refused");
	q.syn_us = 1000001;
	tap_ok(!sabul_params_valid(&q), "sabul: syn_us 1000001 refused");

	/* k2 * alpha <= 0.5: with k2 = 10, alpha <= 0.05 */
	sabul_param_bounds(SABUL_PARAM_ALPHA_PPM, &p, &lo, &hi);
	tap_ok(lo == 1 && hi == 50000, "sabul: alpha bound follows k2 (k2 10 -> alpha <= 50000 ppm)");
	q = p;
	q.alpha_ppm = 50000;
	tap_ok(sabul_params_valid(&q), "sabul: alpha 0.05 with k2 10 accepted (k2 alpha = 0.5)");
	q.alpha_ppm = 50001;
	tap_ok(!sabul_params_valid(&q), "sabul: alpha 0.050001 with k2 10 refused");
	q = p;
	q.k2_milli = 0;
	sabul_param_bounds(SABUL_PARAM_ALPHA_PPM, &q, &lo, &hi);
	tap_eq(hi, SABUL_ALPHA_PPM_MAX, "sabul: k2 = 0 leaves alpha's static bound");
	sabul_param_bounds(SABUL_PARAM_K2_MILLI, &p, &lo, &hi);
	tap_ok(lo == 0 && hi == 500000, "sabul: k2 bound follows alpha (alpha 0.001 -> k2 <= 500)");

	q = p;
	q.min_rate_kbps = 2000;
	q.max_rate_kbps = 1000;
	tap_ok(!sabul_params_valid(&q), "sabul: min_rate above max_rate refused");
	q.max_rate_kbps = 2000;
	tap_ok(sabul_params_valid(&q), "sabul: min_rate == max_rate accepted");
	sabul_param_bounds(SABUL_PARAM_MAX_RATE_KBPS, &q, &lo, &hi);
	tap_ok(lo == 2000 && hi == SABUL_RATE_KBPS_MAX, "sabul: max_rate bound starts at min_rate");
	q = p;
	q.lambda = 0;
	tap_ok(!sabul_params_valid(&q), "sabul: Lambda 0 refused");
	q = p;
	q.c_ns = SABUL_NS_MAX + 1;
	tap_ok(!sabul_params_valid(&q), "sabul: c above 1 ms refused");
	q = p;
	q.k1_milli = 0;
	tap_ok(!sabul_params_valid(&q), "sabul: k1 0 refused");

	/* store and read back every parameter */
	{
		int i, good = 1;

		for (i = 0; i < SABUL_PARAM_NR; i++) {
			q = p;
			sabul_param_store(&q, (enum sabul_param)i, 77);
			if (sabul_param_bounds((enum sabul_param)i, &q, &lo, &hi) != 77)
				good = 0;
		}
		tap_ok(good, "sabul: sabul_param_store/bounds agree on every parameter");
	}
}

/* ---- counters and loss rate -------------------------------------------- */

static void test_loss(void)
{
	tap_eq(sabul_loss_ppm(1000, 0), 0, "sabul: zero loss is p = 0");
	tap_eq(sabul_loss_ppm(0, 0), 0, "sabul: nothing sent, nothing lost is p = 0");
	tap_eq(sabul_loss_ppm(1000, 1000), 1000000, "sabul: 100%% loss is p = 1e6 ppm");
	tap_eq(sabul_loss_ppm(10, 25), 1000000, "sabul: more lost than sent (earlier packets) caps at 1");
	tap_eq(sabul_loss_ppm(0, 3), 1000000, "sabul: losses with nothing sent is p = 1");
	tap_eq(sabul_loss_ppm(1000, 1), 1000, "sabul: 1 of 1000 is 1000 ppm (= alpha)");
	tap_eq(sabul_loss_ppm(3, 1), 333333, "sabul: 1 of 3 rounds down to 333333 ppm");
	tap_eq(sabul_loss_ppm(U32_MAX, U32_MAX - 1), 999999,
	       "sabul: huge counters do not overflow (u64 product)");
	tap_eq(sabul_loss_ppm(U32_MAX, 1), 0, "sabul: 1 of 2^32-1 rounds to 0 ppm");

	tap_eq(sabul_counter_delta(5, 0xfffffffbU), 10,
	       "sabul: counter delta across the 2^32 wrap (0xfffffffb -> 5 is 10)");
	tap_eq(sabul_counter_delta(100, 100), 0, "sabul: counter delta 0");
	tap_eq(sabul_counter_delta(0, 1), U32_MAX, "sabul: a counter one behind reads as 2^32-1 (never negative)");

	tap_ok(!sabul_interval_due(109999, 100000, 10000), "sabul: interval not due 1 us early");
	tap_ok(sabul_interval_due(110000, 100000, 10000), "sabul: interval due after exactly T");
	tap_ok(!sabul_interval_due(99000, 100000, 10000), "sabul: a clock going back is not due");
	tap_ok(sabul_interval_due(U64_MAX, 0, 10000), "sabul: interval due at the end of the clock");
}

/* ---- period and rate --------------------------------------------------- */

static void test_rates(void)
{
	struct sabul_params p;

	sabul_params_default(&p);
	/* 50 Mbit/s, 1448 B: 1448 * 8 / 50e6 s = 231.68 us */
	tap_eq(sabul_kbps_to_period(50000, MSS), 231680000ULL, "sabul: 50 Mbit/s at mss 1448 is 231.68 us");
	tap_eq(sabul_period_to_rate(231680000ULL, MSS), 6250000, "sabul: 231.68 us per 1448 B is 6.25 MB/s");
	tap_eq(sabul_rate_to_period(6250000, MSS), 231680000ULL, "sabul: and back");
	tap_eq(sabul_rate_to_period(0, MSS), U64_MAX, "sabul: zero rate is an infinite period");
	tap_eq(sabul_period_to_rate(0, MSS), U64_MAX, "sabul: zero period is an infinite rate");
	tap_eq(sabul_kbps_to_period(0, MSS), U64_MAX, "sabul: 0 kbit/s is an infinite period");
	tap_eq(sabul_rate_to_period(U64_MAX, 65535), 0, "sabul: a huge rate gives period 0 (clamped by the caller)");
	tap_eq(sabul_period_to_rate(U64_MAX, 65535), 0, "sabul: a huge period gives rate 0");
	tap_eq(sabul_kbps_to_period(10, 65535), 52428000000000ULL,
	       "sabul: the longest period (10 kbit/s, mss 65535) is 52.4 s in ps, no overflow");
	tap_eq(sabul_period_clamp(0, MSS, &p), sabul_kbps_to_period(100000000, MSS),
	       "sabul: period 0 clamps to max_rate's");
	tap_eq(sabul_period_clamp(U64_MAX, MSS, &p), sabul_kbps_to_period(100, MSS),
	       "sabul: an infinite period clamps to min_rate's");
	tap_near(sabul_kbps_to_period(100000000, MSS), ref_period_kbps(1e8, MSS), 1,
		 "sabul: 100 Gbit/s period 115840 ps");

	tap_eq(sabul_delivery_rate(0, MSS, 1000), 0, "sabul: a sample without delivery has no rate");
	tap_eq(sabul_delivery_rate(10, MSS, 0), 0, "sabul: a sample without interval has no rate");
	tap_eq(sabul_delivery_rate(-1, MSS, 1000), 0, "sabul: a negative (invalid) sample has no rate");
	tap_eq(sabul_delivery_rate(100, 1000, 20000), 5000000, "sabul: 100 x 1000 B in 20 ms is 5 MB/s");
	tap_eq(sabul_delivery_rate(0x7fffffff, 65535, 1), U64_MAX,
	       "sabul: a huge sample saturates");
	tap_eq(sabul_start_rate(10, 1000, 10000), 2000000, "sabul: start pacing 2 x 10 x 1000 B / 10 ms = 2 MB/s");
	tap_eq(sabul_start_rate(10, 1000, 0), 20000000, "sabul: start pacing without srtt assumes 1 ms");
	tap_eq(sabul_start_rate(U32_MAX, 65535, 1), U64_MAX, "sabul: start pacing saturates");
}

/* ---- the rules --------------------------------------------------------- */

static void test_rules(void)
{
	struct sabul_params p;
	u64 periods[] = { 1, 115840, 1000000, 231680000ULL, 5000000000ULL,
			  52428000000000ULL };
	u32 losses[] = { 0, 1, 500, 999, 1000, 1001, 20000, 500000, 1000000 };
	size_t i, j;
	int inc_ok = 1, dec_ok = 1;

	sabul_params_default(&p);
	for (i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		for (j = 0; j < sizeof(losses) / sizeof(losses[0]); j++) {
			double per = (double)periods[i], pl = losses[j] / 1e6;
			u64 got;

			if (losses[j] < p.alpha_ppm) {
				got = sabul_increase(periods[i], losses[j], &p);
				if (fabs((double)got - ref_increase(per, pl, &p)) > 1.0 + per * 1e-12) {
					inc_ok = 0;
					tap_diag("increase %llu p %u: got %llu want %.1f",
						 (unsigned long long)periods[i], losses[j],
						 (unsigned long long)got, ref_increase(per, pl, &p));
				}
			} else {
				got = sabul_decrease(periods[i], losses[j], &p);
				if (fabs((double)got - ref_decrease(per, pl, &p)) > 1.0 + per * 1e-12) {
					dec_ok = 0;
					tap_diag("decrease %llu p %u: got %llu want %.1f",
						 (unsigned long long)periods[i], losses[j],
						 (unsigned long long)got, ref_decrease(per, pl, &p));
				}
			}
		}
	}
	tap_ok(inc_ok, "sabul: increase = period (1 - k2 (alpha - p)) - d within 1 ps over the table");
	tap_ok(dec_ok, "sabul: decrease = period (1 + k1 (p - alpha)) + c within 1 ps over the table");

	/* by hand: 231.68 us, p = 0: 0.99 * 231.68 us - 0.1 us = 229.2632 us */
	tap_eq(sabul_increase(231680000ULL, 0, &p), 229263200ULL,
	       "sabul: increase at zero loss: 231.68 us -> 229.2632 us");
	/* p = alpha: + c only (the equilibrium breaker) */
	tap_eq(sabul_decrease(231680000ULL, 1000, &p), 233680000ULL,
	       "sabul: at p = alpha the period grows by c only");
	/* p = 1: 231.68 * (1 + 0.125 * 0.999) + 2 = 262.61104 us */
	tap_eq(sabul_decrease(231680000ULL, 1000000, &p), 262611040ULL,
	       "sabul: 100%% loss: 231.68 us -> 262.61104 us");
	tap_eq(sabul_decrease(231680000ULL, 2000000, &p), 262611040ULL,
	       "sabul: a loss rate above 1 is taken as 1");
	tap_eq(sabul_increase(1, 0, &p), 1, "sabul: increase never reaches period 0");
	tap_eq(sabul_increase(1000, 5000, &p), 1000, "sabul: increase at p > alpha changes nothing");
	tap_eq(sabul_decrease(U64_MAX, 1000000, &p), U64_MAX, "sabul: decrease saturates at U64_MAX");
	tap_eq(sabul_decrease(U64_MAX - 10, 0, &p), U64_MAX, "sabul: + c saturates");

	/* The non-linear decrease cuts a faster connection by a larger ratio. */
	{
		u64 fast = sabul_kbps_to_period(500000, MSS);	/* 500 Mbit/s */
		u64 slow = sabul_kbps_to_period(5000, MSS);	/* 5 Mbit/s */
		double rf = (double)fast / sabul_decrease(fast, 20000, &p);
		double rs = (double)slow / sabul_decrease(slow, 20000, &p);

		tap_ok(rf < rs, "sabul: at the same p the faster flow keeps a smaller share of its rate (%.4f < %.4f)", rf, rs);
	}
}

static void test_fast_and_tick(void)
{
	struct sabul_params p;
	u64 per, base = sabul_kbps_to_period(50000, MSS);
	u32 ev = 0, n, pp;
	enum sabul_action act;

	sabul_params_default(&p);
	per = base;
	n = sabul_fast_reaction(&per, &ev, 9, MSS, &p);
	tap_ok(n == 0 && ev == 9 && per == base, "sabul: 9 losses: no fast reaction yet, 9 counted");
	n = sabul_fast_reaction(&per, &ev, 1, MSS, &p);
	tap_ok(n == 1 && ev == 0 && per == base + 500000, "sabul: the 10th loss adds b = 0.5 us at once");
	n = sabul_fast_reaction(&per, &ev, 25, MSS, &p);
	tap_ok(n == 2 && ev == 5 && per == base + 1500000, "sabul: 25 more: two reactions, 5 left");
	per = base;
	ev = U32_MAX;
	n = sabul_fast_reaction(&per, &ev, U32_MAX, MSS, &p);
	tap_ok(n == 858993459 && ev == 0 && per == sabul_kbps_to_period(100, MSS),
	       "sabul: 2^33-2 losses: no overflow, the period clamps at min_rate");

	per = sabul_interval_tick(base, 0, 0, 0, false, MSS, &p, &pp, &act);
	tap_ok(per == base && act == SABUL_ACT_NONE && pp == 0, "sabul: an interval without data changes nothing");
	per = sabul_interval_tick(base, 40, 0, 0, true, MSS, &p, &pp, &act);
	tap_ok(per == base && act == SABUL_ACT_NONE, "sabul: an app-limited interval does not increase");
	per = sabul_interval_tick(base, 40, 0, 0, false, MSS, &p, &pp, &act);
	tap_ok(per < base && act == SABUL_ACT_INCREASE && pp == 0, "sabul: zero loss increases the rate");
	per = sabul_interval_tick(base, 40, 40, 0, true, MSS, &p, &pp, &act);
	tap_ok(per > base && act == SABUL_ACT_DECREASE && pp == 1000000,
	       "sabul: 100%% loss decreases, app-limited or not");
	per = sabul_interval_tick(base, 0, 7, 0, false, MSS, &p, &pp, &act);
	tap_ok(per > base && act == SABUL_ACT_DECREASE && pp == 1000000,
	       "sabul: losses with nothing sent decrease (p = 1)");
	per = sabul_interval_tick(sabul_kbps_to_period(100000000, MSS), 1000, 0, 0, false, MSS, &p, &pp, &act);
	tap_eq(per, sabul_kbps_to_period(100000000, MSS), "sabul: the increase stops at max_rate");
	per = sabul_interval_tick(sabul_kbps_to_period(100, MSS), 10, 10, 0, false, MSS, &p, &pp, &act);
	tap_eq(per, sabul_kbps_to_period(100, MSS), "sabul: the decrease stops at min_rate");

	tap_eq(sabul_cwnd_bound(base, 40000, 10000), 232,
	       "sabul: window bound at 50 Mbit/s, 40 ms + T: ceil(50 ms / 231.68 us) + 16 = 232");
	tap_eq(sabul_cwnd_bound(U64_MAX, 40000, 10000), 17, "sabul: an infinite period still allows 17 packets");
	tap_eq(sabul_cwnd_bound(0, 40000, 10000), 0x7fffffff,
	       "sabul: period 0 does not bound the window (largest positive int)");
	tap_eq(sabul_cwnd_bound(1, U32_MAX, 1000000), 0x7fffffff,
	       "sabul: a huge bound saturates at INT_MAX (tcp_snd_cwnd_set warns on <= 0 as int)");

}

/* One decrease per congestion event: losses of packets sent before it. */
static void test_event(void)
{
	struct sabul_params p;
	u64 per, base = sabul_kbps_to_period(40000, MSS);
	u32 pp, old;
	enum sabul_action act;

	sabul_params_default(&p);

	/* which losses are the answered event's */
	tap_ok(!sabul_losses_old(0, 0) && !sabul_losses_old(0, 123456789),
	       "sabul event: before any decrease no loss is old");
	tap_ok(sabul_losses_old(5000000, 4999999) && sabul_losses_old(5000000, 5000000),
	       "sabul event: latest delivered packet sent before (or in the us of) the decrease: losses old");
	tap_ok(!sabul_losses_old(5000000, 5000001), "sabul event: one sent 1 us after it delivered: losses count");
	tap_ok(sabul_losses_old(U64_MAX, U64_MAX - 1) && !sabul_losses_old(U64_MAX - 1, U64_MAX),
	       "sabul event: no wrap at the top of the us clock");
	tap_ok(sabul_losses_old(7, 0), "sabul event: nothing delivered yet (mstamp 0) after a decrease: old");

	old = 0;
	sabul_old_add(&old, 10);
	sabul_old_add(&old, U32_MAX - 5);
	tap_eq(old, U32_MAX, "sabul event: the old-loss count saturates");

	/* an interval of only old losses holds, whatever p over all is */
	per = sabul_interval_tick(base, 40, 40, 40, false, MSS, &p, &pp, &act);
	tap_ok(per == base && act == SABUL_ACT_HOLD && pp == 0,
	       "sabul event: 40 sent, 40 lost, all old: hold (no second decrease), p_new 0");
	per = sabul_interval_tick(base, 3, 900, 900, false, MSS, &p, &pp, &act);
	tap_ok(per == base && act == SABUL_ACT_HOLD,
	       "sabul event: the rttfair case (900 old losses against 3 sent) holds instead of a decrease at p = 1");
	per = sabul_interval_tick(base, 0, 12, 12, false, MSS, &p, &pp, &act);
	tap_ok(per == base && act == SABUL_ACT_HOLD, "sabul event: old losses with nothing sent: hold");
	per = sabul_interval_tick(base, 40, 5, 7, false, MSS, &p, &pp, &act);
	tap_ok(per == base && act == SABUL_ACT_HOLD && pp == 0,
	       "sabul event: more old than all (a count across a restart) counts as all old");
	/* new losses decrease at their own rate */
	per = sabul_interval_tick(base, 40, 30, 20, false, MSS, &p, &pp, &act);
	tap_ok(act == SABUL_ACT_DECREASE && pp == 250000 &&
	       fabs((double)per - ref_decrease((double)base, 0.25, &p)) <= 2,
	       "sabul event: 30 lost, 20 old: a decrease at p = 10 / 40, not 30 / 40");
	/* few old losses (below alpha over all): the usual increase */
	per = sabul_interval_tick(base, 5000, 2, 2, false, MSS, &p, &pp, &act);
	tap_ok(per < base && act == SABUL_ACT_INCREASE && pp == 0,
	       "sabul event: 2 old losses in 5000 sent (p_all 0.0004 < alpha): increase as before");
	per = sabul_interval_tick(base, 5000, 2, 2, true, MSS, &p, &pp, &act);
	tap_ok(per == base && act == SABUL_ACT_NONE, "sabul event: ... not when app-limited");
	/* the rules without old losses are the old ones */
	per = sabul_interval_tick(base, 40, 0, 0, false, MSS, &p, &pp, &act);
	tap_ok(act == SABUL_ACT_INCREASE &&
	       fabs((double)per - ref_increase((double)base, 0, &p)) <= 2,
	       "sabul event: no losses: the increase of formula (2)");
	per = sabul_interval_tick(base, 40, 40, 0, false, MSS, &p, &pp, &act);
	tap_ok(act == SABUL_ACT_DECREASE && pp == 1000000 &&
	       fabs((double)per - ref_decrease((double)base, 1, &p)) <= 2,
	       "sabul event: all lost, none old: the decrease at p = 1");
	per = sabul_interval_tick(base, U32_MAX, U32_MAX, 1, false, MSS, &p, &pp, &act);
	tap_ok(act == SABUL_ACT_DECREASE && pp == 999999,
	       "sabul event: 2^32-1 sent and lost, one old: no overflow, p just below 1");

	/* the collapse of the old rule, and the new one, over 30 intervals */
	{
		u64 a = base, b = base;
		int i;

		for (i = 0; i < 30; i++) {
			u32 sa = (u32)(sabul_period_to_rate(a, MSS) / 100 / MSS);
			u32 sb = (u32)(sabul_period_to_rate(b, MSS) / 100 / MSS);

			/* 40 losses of packets sent before the first decrease per interval */
			a = sabul_interval_tick(a, sa, 40, 0, false, MSS, &p, &pp, &act);
			b = sabul_interval_tick(b, sb, 40, i ? 40 : 0, false, MSS, &p, &pp, &act);
		}
		tap_ok(sabul_period_to_rate(a, MSS) * 20 < sabul_period_to_rate(base, MSS),
		       "sabul event: counted every interval, one event's 1200 losses cut 40 Mbit/s below 2 (%.2f)",
		       sabul_period_to_rate(a, MSS) * 8 / 1e6);
		tap_ok(fabs((double)b - ref_decrease((double)base, 1, &p)) <= 2,
		       "sabul event: counted once, one decrease (%.2f Mbit/s)",
		       sabul_period_to_rate(b, MSS) * 8 / 1e6);
	}
}

/* The floor of TCP's recovery after a decrease. */
static void test_floor(void)
{
	struct sabul_params p;
	u64 base = sabul_kbps_to_period(40000, MSS), slow = sabul_kbps_to_period(1000, MSS);
	u64 bw = 40000000 / 8;	/* 40 Mbit/s in B/s */

	sabul_params_default(&p);
	tap_eq(sabul_recovery_floor(bw, &p), bw / 2, "sabul floor: half the delivery rate before the decrease");
	tap_eq(sabul_recovery_floor(0, &p), 0, "sabul floor: no sample, no floor");
	tap_eq(sabul_recovery_floor(U64_MAX, &p), 100000000ULL * 1000 / 8, "sabul floor: at most max_rate");
	p.max_rate_kbps = 10000;
	tap_eq(sabul_recovery_floor(bw, &p), 10000ULL * 1000 / 8, "sabul floor: max_rate 10 Mbit/s caps it");
	sabul_params_default(&p);

	tap_eq(sabul_send_period(slow, MSS, bw / 2, false), slow, "sabul floor: outside recovery: the period, whatever the floor");
	tap_eq(sabul_send_period(slow, MSS, 0, true), slow, "sabul floor: in recovery without a floor: the period");
	tap_eq(sabul_send_period(slow, MSS, bw / 2, true), sabul_rate_to_period(bw / 2, MSS),
	       "sabul floor: a collapsed rate (1 Mbit/s) recovers at the floor (20 Mbit/s)");
	tap_eq(sabul_send_period(base, MSS, bw / 2, true), base,
	       "sabul floor: a rate above the floor is not lowered by it");
	tap_eq(sabul_send_period(base, MSS, U64_MAX, true), 0,
	       "sabul floor: an absurd floor gives period 0 (unbounded: never from recovery_floor, which caps at max_rate)");
	tap_eq(sabul_send_period(U64_MAX, MSS, 1, true), sabul_rate_to_period(1, MSS),
	       "sabul floor: 1 B/s floor under an infinite period");
	tap_eq(sabul_cwnd_bound(sabul_send_period(slow, MSS, bw / 2, true), 200000, 10000), 379,
	       "sabul floor: the window bound follows: ceil(20 Mbit/s * 210 ms / 1448 B) + 16 = 379");
}

/* mul_frac against 128-bit arithmetic */
static void test_mul_frac(void)
{
	u64 xs[] = { 0, 1, 999999999, 1000000000, 123456789012345ULL, 52428000000000ULL,
		     U64_MAX / 3, U64_MAX };
	u64 nums[] = { 0, 1, 125000000, 10000000000ULL };
	size_t i, j;
	int ok = 1;

	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		for (j = 0; j < sizeof(nums) / sizeof(nums[0]); j++) {
			unsigned __int128 w = (unsigned __int128)xs[i] * nums[j] / SABUL_FRAC_SCALE;
			u64 want = w > U64_MAX ? U64_MAX : (u64)w;
			u64 got = sabul_mul_frac(xs[i], nums[j], SABUL_FRAC_SCALE);

			if (got != want) {
				ok = 0;
				tap_diag("mul_frac %llu * %llu: got %llu want %llu",
					 (unsigned long long)xs[i], (unsigned long long)nums[j],
					 (unsigned long long)got, (unsigned long long)want);
			}
		}
	tap_ok(ok, "sabul: mul_frac is exact (or saturates) against 128-bit arithmetic");
	tap_eq(sabul_mul_frac(5, 1, 0), U64_MAX, "sabul: mul_frac by a zero denominator saturates");
}

/*
 * Two flows on a fluid 50 Mbit/s link, ticking together: whenever their
 * sum exceeds the link both see the same loss rate (the excess share).
 * From 4:1 rates they end within 10% of each other (the seed's fairness
 * claim: c cuts the faster flow by more).
 */
static void test_fairness(void)
{
	struct sabul_params p;
	u64 a = sabul_kbps_to_period(40000, MSS), b = sabul_kbps_to_period(10000, MSS);
	double cap = 50e6 / 8, ra = 0, rb = 0, credit_a = 0, credit_b = 0;
	enum sabul_action act;
	u32 pp;
	int t;

	sabul_params_default(&p);
	for (t = 0; t < 30000; t++) {	/* 300 s of 10 ms intervals */
		double sum;
		u32 sent_a, sent_b, lost_a, lost_b, loss;
		double la, lb;

		ra = (double)sabul_period_to_rate(a, MSS);
		rb = (double)sabul_period_to_rate(b, MSS);
		sum = ra + rb;
		loss = sum > cap ? (u32)((sum - cap) / sum * 1e6) : 0;
		sent_a = (u32)(ra * 0.01 / MSS) + 1;
		sent_b = (u32)(rb * 0.01 / MSS) + 1;
		/* expected losses carried over: no rounding bias */
		la = credit_a + sent_a * (loss / 1e6);
		lb = credit_b + sent_b * (loss / 1e6);
		lost_a = (u32)la;
		lost_b = (u32)lb;
		credit_a = la - lost_a;
		credit_b = lb - lost_b;
		a = sabul_interval_tick(a, sent_a, lost_a, 0, false, MSS, &p, &pp, &act);
		b = sabul_interval_tick(b, sent_b, lost_b, 0, false, MSS, &p, &pp, &act);
	}
	tap_ok(ra / rb < 1.1 && rb / ra < 1.1,
	       "sabul: two flows from 40 and 10 Mbit/s converge on a fluid link (%.2f / %.2f Mbit/s)",
	       ra * 8 / 1e6, rb * 8 / 1e6);
	tap_ok((ra + rb) * 8 / 1e6 > 40, "sabul: and together use > 80%% of it (%.1f Mbit/s)",
	       (ra + rb) * 8 / 1e6);
}

int main(void)
{
	test_params();
	test_loss();
	test_rates();
	test_rules();
	test_fast_and_tick();
	test_event();
	test_floor();
	test_mul_frac();
	test_fairness();
	return tap_done();
}
