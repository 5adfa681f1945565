/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of SABUL's rate control (Gu, Hong, Mazzucco, Grossman,
 * "Rate Based Congestion Control over High Bandwidth/Delay Links", seed 003),
 * shared by tcp_sabul.c and tests/unit/test_sabul.c.
 *
 * Pure: integers only (see cc_pure.h), no state of its own.  Every decision
 * the module takes about its sending period lives here, so that the
 * userspace tests exercise exactly the code the kernel runs.
 *
 * The rules (the seed's formulas were lost in extraction; docs/sabul.md
 * gives the reconstruction and every choice), once per constant interval T
 * with p = LOSS / SENT over it (the seed's Eq. 11):
 *
 *	p <  alpha:  period = period * (1 - k2 (alpha - p)) - d     increase
 *	p >= alpha:  period = period * (1 + k1 (p - alpha)) + c     decrease
 *	             (at p = alpha: period + c, the equilibrium breaker)
 *	every Lambda lost packets, at once: period = period + b    fast reaction
 *
 * then clamped to the periods of [min_rate, max_rate].  LOSS counts only
 * losses of packets sent after the last decrease (UDT's one decrease per
 * congestion event, sabul_losses_old()): with T shorter than the RTT one
 * overflow's losses are detected over many intervals, and counted in each
 * they cut the rate again and again at p near 1 (docs/sabul.md, choice
 * 13).  While TCP recovers after a decrease, it paces at least at half the
 * delivery rate measured before it (sabul_recovery_floor(), choice 14).
 * The constant c (and b) is what cuts a faster connection (shorter
 * period) by a larger ratio: rate' = rate / (1 + k1 (p - alpha) + c * rate).
 *
 * Fixed point
 * -----------
 * The period is in picoseconds per packet (SABUL_PS_PER_SEC per second):
 * at 100 Gbit/s and 1500-byte packets it is 120000 ps, so a change of
 * 1e-5 of it is still representable.  Loss rates are in parts per million
 * (SABUL_PPM), k1 and k2 in 1/1000 (SABUL_MILLI), c, b and d in
 * nanoseconds (the seed's table gives microseconds).
 *
 * Ranges and overflow (u64 holds 1.8e19):
 *   mss                 <= 65535 bytes
 *   period              <= mss * 8e9 / min_rate_kbps <= 5.3e13 ps (10 kbit/s)
 *   mss * 1e12          <= 6.6e16
 *   k1 (p - alpha)      <= 10000 * 1e6 = 1e10 in 1e-9 units
 *   period * factor     through sabul_mul_frac(): (x / den) * num saturates,
 *                       (x % den) * num < 1e9 * 1e10 = 1e19
 *   every other sum and product saturates at U64_MAX / U32_MAX.
 */
#ifndef SABUL_MATH_H
#define SABUL_MATH_H

#include "cc_pure.h"

/* Picoseconds per second: the unit of the period is 1 ps. */
#define SABUL_PS_PER_SEC	1000000000000ULL
#define SABUL_PS_PER_NS		1000ULL
#define SABUL_PS_PER_US		1000000ULL
#define SABUL_USEC_PER_SEC	1000000ULL
/* Loss rates in parts per million. */
#define SABUL_PPM		1000000U
/* k1 and k2 in thousandths. */
#define SABUL_MILLI		1000U
/* k (1/1000) times a loss-rate difference (1/1e6): 1e-9 units. */
#define SABUL_FRAC_SCALE	((u64)SABUL_MILLI * SABUL_PPM)

/* Defaults: the seed's Table 2, except T (UDT's SYN, 10 ms: docs/sabul.md). */
#define SABUL_DEF_SYN_US	10000U		/* T: 10 ms */
#define SABUL_DEF_ALPHA_PPM	1000U		/* alpha = 0.001 */
#define SABUL_DEF_K1_MILLI	125U		/* k1 = 0.125 */
#define SABUL_DEF_K2_MILLI	10000U		/* k2 = 10.0 */
#define SABUL_DEF_C_NS		2000U		/* c = 2.0 us */
#define SABUL_DEF_B_NS		500U		/* b = 0.5 us */
#define SABUL_DEF_D_NS		100U		/* d = 0.1 us */
#define SABUL_DEF_LAMBDA	10U		/* Lambda: loss events */
#define SABUL_DEF_MIN_RATE_KBPS	100U		/* floor of the rate */
#define SABUL_DEF_MAX_RATE_KBPS	100000000U	/* ceiling: 100 Gbit/s */

/* Static bounds of the parameters (inclusive). */
#define SABUL_SYN_US_MIN	1000U
#define SABUL_SYN_US_MAX	1000000U
#define SABUL_ALPHA_PPM_MIN	1U
#define SABUL_ALPHA_PPM_MAX	500000U
#define SABUL_K1_MILLI_MIN	1U
#define SABUL_K1_MILLI_MAX	10000U
#define SABUL_K2_MILLI_MIN	0U
#define SABUL_K2_MILLI_MAX	1000000U
/* k2 * alpha <= 0.5: one increase at most halves the period. */
#define SABUL_K2_ALPHA_MAX	(SABUL_FRAC_SCALE / 2)
#define SABUL_NS_MAX		1000000U	/* c, b, d: at most 1 ms */
#define SABUL_LAMBDA_MIN	1U
#define SABUL_LAMBDA_MAX	100000U
#define SABUL_RATE_KBPS_MIN	10U
#define SABUL_RATE_KBPS_MAX	100000000U

/* The window bound: packets on top of rate * (srtt + T) (UDT's 16). */
#define SABUL_CWND_EXTRA	16U
#define SABUL_CWND_MIN		4U
/* tcp_snd_cwnd_set() warns on a window that is not a positive int. */
#define SABUL_CWND_MAX		0x7fffffffU
/*
 * While TCP recovers from the event the last decrease answered, the pacing
 * rate (and the window bound) is at least 1 / SABUL_FLOOR_DIV of the
 * delivery rate measured before that decrease: TCP Reno's own recovery
 * sends at half the window it had before the loss.
 */
#define SABUL_FLOOR_DIV		2U

struct sabul_params {
	u32 syn_us;		/* T, the rate control interval, us */
	u32 alpha_ppm;		/* alpha, tolerated loss rate, 1e-6 */
	u32 k1_milli;		/* k1, decrease coefficient, 1/1000 */
	u32 k2_milli;		/* k2, increase coefficient, 1/1000 */
	u32 c_ns;		/* c, period added by a decrease, ns */
	u32 b_ns;		/* b, period added by a fast reaction, ns */
	u32 d_ns;		/* d, period taken off by an increase, ns */
	u32 lambda;		/* Lambda, lost packets per fast reaction */
	u32 min_rate_kbps;	/* floor of the sending rate, kbit/s */
	u32 max_rate_kbps;	/* ceiling of the sending rate, kbit/s */
};

enum sabul_param {
	SABUL_PARAM_SYN_US,
	SABUL_PARAM_ALPHA_PPM,
	SABUL_PARAM_K1_MILLI,
	SABUL_PARAM_K2_MILLI,
	SABUL_PARAM_C_NS,
	SABUL_PARAM_B_NS,
	SABUL_PARAM_D_NS,
	SABUL_PARAM_LAMBDA,
	SABUL_PARAM_MIN_RATE_KBPS,
	SABUL_PARAM_MAX_RATE_KBPS,
	SABUL_PARAM_NR,
};

/* What a rate change was (the tracepoint's kind). */
enum sabul_action {
	SABUL_ACT_NONE,		/* interval without data or app-limited */
	SABUL_ACT_INCREASE,	/* p < alpha */
	SABUL_ACT_DECREASE,	/* p >= alpha */
	SABUL_ACT_FAST,		/* Lambda lost packets within an interval */
	SABUL_ACT_START_EXIT,	/* the start phase ended: period = 1 / rate */
	SABUL_ACT_RTO,		/* retransmission timeout: a decrease at p = 1 */
	SABUL_ACT_HOLD,		/* p >= alpha only with the answered event's */
};

static inline void sabul_params_default(struct sabul_params *p)
{
	p->syn_us = SABUL_DEF_SYN_US;
	p->alpha_ppm = SABUL_DEF_ALPHA_PPM;
	p->k1_milli = SABUL_DEF_K1_MILLI;
	p->k2_milli = SABUL_DEF_K2_MILLI;
	p->c_ns = SABUL_DEF_C_NS;
	p->b_ns = SABUL_DEF_B_NS;
	p->d_ns = SABUL_DEF_D_NS;
	p->lambda = SABUL_DEF_LAMBDA;
	p->min_rate_kbps = SABUL_DEF_MIN_RATE_KBPS;
	p->max_rate_kbps = SABUL_DEF_MAX_RATE_KBPS;
}

/*
 * sabul_param_bounds() - inclusive range [*lo, *hi] of parameter @which
 * given the others in @p.  Cross-parameter rules: k2 * alpha <= 0.5 (an
 * increase never takes more than half the period off) and min_rate <=
 * max_rate.  Returns the current value of @which in @p.
 */
static inline u32 sabul_param_bounds(enum sabul_param which,
				     const struct sabul_params *p,
				     u32 *lo, u32 *hi)
{
	u64 lim;

	switch (which) {
	case SABUL_PARAM_SYN_US:
		*lo = SABUL_SYN_US_MIN;
		*hi = SABUL_SYN_US_MAX;
		return p->syn_us;
	case SABUL_PARAM_ALPHA_PPM:
		*lo = SABUL_ALPHA_PPM_MIN;
		lim = p->k2_milli ? div_u64(SABUL_K2_ALPHA_MAX, p->k2_milli) :
			SABUL_ALPHA_PPM_MAX;
		*hi = lim < SABUL_ALPHA_PPM_MAX ? (u32)lim : SABUL_ALPHA_PPM_MAX;
		return p->alpha_ppm;
	case SABUL_PARAM_K1_MILLI:
		*lo = SABUL_K1_MILLI_MIN;
		*hi = SABUL_K1_MILLI_MAX;
		return p->k1_milli;
	case SABUL_PARAM_K2_MILLI:
		*lo = SABUL_K2_MILLI_MIN;
		lim = p->alpha_ppm ? div_u64(SABUL_K2_ALPHA_MAX, p->alpha_ppm) :
			SABUL_K2_MILLI_MAX;
		*hi = lim < SABUL_K2_MILLI_MAX ? (u32)lim : SABUL_K2_MILLI_MAX;
		return p->k2_milli;
	case SABUL_PARAM_C_NS:
		*lo = 0;
		*hi = SABUL_NS_MAX;
		return p->c_ns;
	case SABUL_PARAM_B_NS:
		*lo = 0;
		*hi = SABUL_NS_MAX;
		return p->b_ns;
	case SABUL_PARAM_D_NS:
		*lo = 0;
		*hi = SABUL_NS_MAX;
		return p->d_ns;
	case SABUL_PARAM_LAMBDA:
		*lo = SABUL_LAMBDA_MIN;
		*hi = SABUL_LAMBDA_MAX;
		return p->lambda;
	case SABUL_PARAM_MIN_RATE_KBPS:
		*lo = SABUL_RATE_KBPS_MIN;
		*hi = p->max_rate_kbps < SABUL_RATE_KBPS_MAX ?
			p->max_rate_kbps : SABUL_RATE_KBPS_MAX;
		return p->min_rate_kbps;
	case SABUL_PARAM_MAX_RATE_KBPS:
		*lo = p->min_rate_kbps > SABUL_RATE_KBPS_MIN ?
			p->min_rate_kbps : SABUL_RATE_KBPS_MIN;
		*hi = SABUL_RATE_KBPS_MAX;
		return p->max_rate_kbps;
	default:
		*lo = 1;
		*hi = 0;
		return 0;
	}
}

/* Store @v as parameter @which of @p (no check: see sabul_params_valid()). */
static inline void sabul_param_store(struct sabul_params *p,
				     enum sabul_param which, u32 v)
{
	switch (which) {
	case SABUL_PARAM_SYN_US:
		p->syn_us = v;
		break;
	case SABUL_PARAM_ALPHA_PPM:
		p->alpha_ppm = v;
		break;
	case SABUL_PARAM_K1_MILLI:
		p->k1_milli = v;
		break;
	case SABUL_PARAM_K2_MILLI:
		p->k2_milli = v;
		break;
	case SABUL_PARAM_C_NS:
		p->c_ns = v;
		break;
	case SABUL_PARAM_B_NS:
		p->b_ns = v;
		break;
	case SABUL_PARAM_D_NS:
		p->d_ns = v;
		break;
	case SABUL_PARAM_LAMBDA:
		p->lambda = v;
		break;
	case SABUL_PARAM_MIN_RATE_KBPS:
		p->min_rate_kbps = v;
		break;
	case SABUL_PARAM_MAX_RATE_KBPS:
		p->max_rate_kbps = v;
		break;
	default:
		break;
	}
}

/* True when every parameter lies in its range (cross rules included). */
static inline bool sabul_params_valid(const struct sabul_params *p)
{
	u32 v, lo, hi;
	int i;

	for (i = 0; i < SABUL_PARAM_NR; i++) {
		v = sabul_param_bounds((enum sabul_param)i, p, &lo, &hi);
		if (v < lo || v > hi)
			return false;
	}
	return true;
}

/* ---- saturating helpers ------------------------------------------------ */

static inline u64 sabul_add_sat(u64 a, u64 b)
{
	return a > U64_MAX - b ? U64_MAX : a + b;
}

static inline u64 sabul_mul_sat(u64 a, u64 b)
{
	if (a && b > div64_u64(U64_MAX, a))
		return U64_MAX;
	return a * b;
}

/*
 * sabul_mul_frac() - @x * @num / @den, rounded down, without the 128-bit
 * product: (x / den) * num + (x % den) * num / den.  Exact while
 * (den - 1) * num < 2^64 (den <= 1e9, num <= 1e10 here); saturates at
 * U64_MAX.  @den == 0 gives U64_MAX.
 */
static inline u64 sabul_mul_frac(u64 x, u64 num, u64 den)
{
	u64 q, r;

	if (!den)
		return U64_MAX;
	q = div64_u64(x, den);
	r = x - q * den;
	return sabul_add_sat(sabul_mul_sat(q, num),
			     div64_u64(sabul_mul_sat(r, num), den));
}

/* ---- counters, loss rate, interval -------------------------------------- */

/*
 * sabul_counter_delta() - how far the u32 counter @now has advanced since
 * @then (tp->data_segs_out and tp->lost wrap at 2^32): modulo 2^32, so a
 * wrap in between still gives the right count.
 */
static inline u32 sabul_counter_delta(u32 now, u32 then)
{
	return now - then;
}

/*
 * sabul_loss_ppm() - p = LOSS / SENT (the seed's Eq. 11) in parts per
 * million.  Losses detected in an interval may belong to packets sent in
 * the previous one, so LOSS > SENT is possible: p is capped at 1.  SENT = 0
 * with losses is p = 1; nothing sent and nothing lost is p = 0.
 */
static inline u32 sabul_loss_ppm(u32 sent, u32 lost)
{
	if (lost >= sent)
		return lost ? SABUL_PPM : 0;
	return (u32)div_u64((u64)lost * SABUL_PPM, sent);
}

/* True once @syn_us have passed since @start_us (a clock going back: no). */
static inline bool sabul_interval_due(u64 now_us, u64 start_us, u32 syn_us)
{
	return now_us >= start_us && now_us - start_us >= syn_us;
}

/*
 * sabul_losses_old() - whether the packets TCP marks lost on this ACK were
 * all sent before the last decrease (at @dec_us on tp->tcp_mstamp's clock;
 * 0: no decrease yet), given @delivered_sent_us, the send time of the
 * latest-sent packet delivered so far (tp->rack.mstamp).  TCP marks a
 * packet lost only once a packet sent after it has been delivered (RACK;
 * the SACK scoreboard's rule, by sequence, implies the same for first
 * transmissions), so while no packet sent after the decrease has been
 * delivered, every loss it marks is of a packet sent before it: a loss of
 * the congestion event the decrease answered.  Once one has, losses count
 * again; old ones still undetected then (within RACK's reordering window)
 * count as new, never the other way round.  A packet sent in the
 * microsecond of the decrease counts as sent before it.  Losses of an RTO
 * are not classified here (the RTO's own decrease answers them).
 */
static inline bool sabul_losses_old(u64 dec_us, u64 delivered_sent_us)
{
	return dec_us && delivered_sent_us <= dec_us;
}

/*
 * sabul_old_add() - *@old_lost (losses of the answered event within this
 * interval) plus @n, saturating: it is compared with the interval's u32
 * count of all losses, which it cannot exceed.
 */
static inline void sabul_old_add(u32 *old_lost, u32 n)
{
	*old_lost = *old_lost > U32_MAX - n ? U32_MAX : *old_lost + n;
}

/* ---- period <-> rate ---------------------------------------------------- */

/* The period (ps per packet of @mss bytes) of @rate bytes per second. */
static inline u64 sabul_rate_to_period(u64 rate, u32 mss)
{
	if (!rate)
		return U64_MAX;
	return div64_u64((u64)(mss ? mss : 1) * SABUL_PS_PER_SEC, rate);
}

/* The rate (bytes per second) of one @mss-byte packet per @period_ps. */
static inline u64 sabul_period_to_rate(u64 period_ps, u32 mss)
{
	if (!period_ps)
		return U64_MAX;
	return div64_u64((u64)mss * SABUL_PS_PER_SEC, period_ps);
}

/* The period of @kbps kbit/s: mss * 8 bits / (kbps * 1000) s = mss * 8e9 / kbps ps. */
static inline u64 sabul_kbps_to_period(u32 kbps, u32 mss)
{
	if (!kbps)
		return U64_MAX;
	return div_u64((u64)(mss ? mss : 1) * (8 * SABUL_PS_PER_SEC / 1000),
		       kbps);
}

/* @period_ps clamped to the periods of [min_rate_kbps, max_rate_kbps]. */
static inline u64 sabul_period_clamp(u64 period_ps, u32 mss,
				     const struct sabul_params *p)
{
	u64 lo = sabul_kbps_to_period(p->max_rate_kbps, mss);
	u64 hi = sabul_kbps_to_period(p->min_rate_kbps, mss);

	if (period_ps < lo)
		return lo;
	if (period_ps > hi)
		return hi;
	return period_ps;
}

/* ---- the rules ------------------------------------------------------------ */

/* Increase (p < alpha): period (1 - k2 (alpha - p)) - d, at least 1 ps. */
static inline u64 sabul_increase(u64 period_ps, u32 p_ppm,
				 const struct sabul_params *p)
{
	u64 f, cut, d = (u64)p->d_ns * SABUL_PS_PER_NS;

	if (p_ppm >= p->alpha_ppm)
		return period_ps;
	f = (u64)p->k2_milli * (p->alpha_ppm - p_ppm);	/* 1e-9 units */
	if (f > SABUL_FRAC_SCALE)
		f = SABUL_FRAC_SCALE;
	cut = sabul_add_sat(sabul_mul_frac(period_ps, f, SABUL_FRAC_SCALE), d);
	return cut < period_ps ? period_ps - cut : 1;
}

/* Decrease (p >= alpha): period (1 + k1 (p - alpha)) + c, saturating. */
static inline u64 sabul_decrease(u64 period_ps, u32 p_ppm,
				 const struct sabul_params *p)
{
	u64 f, c = (u64)p->c_ns * SABUL_PS_PER_NS;

	if (p_ppm > SABUL_PPM)
		p_ppm = SABUL_PPM;
	f = p_ppm > p->alpha_ppm ?
		(u64)p->k1_milli * (p_ppm - p->alpha_ppm) : 0;
	return sabul_add_sat(sabul_add_sat(period_ps,
					   sabul_mul_frac(period_ps, f, SABUL_FRAC_SCALE)),
			     c);
}

/*
 * sabul_interval_tick() - the period after a rate control interval in which
 * @sent packets left and @lost were detected lost, @lost_old of them
 * packets sent before the last decrease (the congestion event that
 * decrease answered: see sabul_losses_old()); @app_limited: the sender did
 * not use its rate (no increase then: UDT increases only on evidence of
 * the path).  *@p_ppm gets the loss rate the rule used, that of the other
 * (new) losses; *@act what was done.
 *
 *	p_new >= alpha              decrease (a new congestion event)
 *	p_new <  alpha <= p_all     hold: the interval's losses are mostly
 *	                            the answered event's; no increase either
 *	p_all <  alpha              increase (unless app-limited)
 *
 * So one congestion event gives one decrease however many intervals its
 * losses take to be detected (UDT: a decrease only for a loss of a packet
 * sent after the last decrease).  @lost_old > @lost counts as @lost.  An
 * interval with nothing sent and nothing lost changes nothing.
 */
static inline u64 sabul_interval_tick(u64 period_ps, u32 sent, u32 lost,
				      u32 lost_old, bool app_limited, u32 mss,
				      const struct sabul_params *p,
				      u32 *p_ppm, enum sabul_action *act)
{
	u32 lost_new = lost_old < lost ? lost - lost_old : 0;
	u32 loss = sabul_loss_ppm(sent, lost_new);

	*p_ppm = loss;
	*act = SABUL_ACT_NONE;
	if (!sent && !lost)
		return period_ps;
	if (loss >= p->alpha_ppm) {
		*act = SABUL_ACT_DECREASE;
		return sabul_period_clamp(sabul_decrease(period_ps, loss, p),
					  mss, p);
	}
	if (sabul_loss_ppm(sent, lost) >= p->alpha_ppm) {
		*act = SABUL_ACT_HOLD;
		return period_ps;
	}
	if (app_limited)
		return period_ps;
	*act = SABUL_ACT_INCREASE;
	return sabul_period_clamp(sabul_increase(period_ps, loss, p), mss, p);
}

/*
 * sabul_fast_reaction() - the fast reaction to loss: @new_lost packets just
 * detected lost join the count *@events of this interval; each full
 * Lambda of them adds b to the period at once.  The remainder stays in
 * *@events (cleared by the next interval tick).  Returns the number of
 * reactions; *@period_ps is updated (saturating, clamped).
 */
static inline u32 sabul_fast_reaction(u64 *period_ps, u32 *events,
				      u32 new_lost, u32 mss,
				      const struct sabul_params *p)
{
	u64 all = (u64)*events + new_lost;
	u32 lambda = p->lambda ? p->lambda : 1;
	u64 n = div_u64(all, lambda);
	u64 add;

	*events = (u32)(all - n * lambda);
	if (!n)
		return 0;
	add = sabul_mul_sat(n, (u64)p->b_ns * SABUL_PS_PER_NS);
	*period_ps = sabul_period_clamp(sabul_add_sat(*period_ps, add), mss, p);
	return n > U32_MAX ? U32_MAX : (u32)n;
}

/* ---- start phase, window bound, rates of samples ---------------------- */

/*
 * sabul_delivery_rate() - bytes per second of a rate sample: @delivered
 * packets of @mss bytes over @interval_us.  0 for an invalid sample
 * (delivered or interval <= 0); saturating.
 */
static inline u64 sabul_delivery_rate(s64 delivered, u32 mss, s64 interval_us)
{
	if (delivered <= 0 || interval_us <= 0)
		return 0;
	return sabul_mul_frac(sabul_mul_sat((u64)delivered, mss),
			      SABUL_USEC_PER_SEC, (u64)interval_us);
}

/*
 * sabul_start_rate() - the pacing rate of the start phase (TCP's slow
 * start, 2 * cwnd * mss / srtt as Linux paces slow start), bytes per
 * second; @srtt_us == 0 (no sample yet) counts as 1 ms.
 */
static inline u64 sabul_start_rate(u32 cwnd, u32 mss, u32 srtt_us)
{
	u64 bytes = sabul_mul_sat((u64)cwnd * 2, mss);

	return sabul_mul_frac(bytes, SABUL_USEC_PER_SEC, srtt_us ? srtt_us : 1000);
}

/*
 * sabul_cwnd_bound() - the window that bounds the rate, UDT's
 * rate * (RTT + SYN) + 16 packets, with the sending rate 1 / period:
 * ceil((srtt + T) / period) + 16, at least SABUL_CWND_MIN, at most
 * SABUL_CWND_MAX.
 */
static inline u32 sabul_cwnd_bound(u64 period_ps, u32 srtt_us, u32 syn_us)
{
	u64 span = ((u64)srtt_us + syn_us) * SABUL_PS_PER_US;
	u64 n;

	if (!period_ps)
		return SABUL_CWND_MAX;
	n = div64_u64(span, period_ps);
	n += (span - n * period_ps ? 1 : 0) + SABUL_CWND_EXTRA;
	if (n > SABUL_CWND_MAX)
		return SABUL_CWND_MAX;
	return n < SABUL_CWND_MIN ? SABUL_CWND_MIN : (u32)n;
}

/* ---- the recovery floor ------------------------------------------------ */

/*
 * sabul_recovery_floor() - the least rate (bytes/s) to pace TCP's recovery
 * at after a decrease: 1 / SABUL_FLOOR_DIV of @bw_before, the delivery
 * rate measured before the decrease, at most max_rate.  0 (no floor)
 * without a sample.
 */
static inline u64 sabul_recovery_floor(u64 bw_before,
				       const struct sabul_params *p)
{
	u64 max = div_u64((u64)p->max_rate_kbps * 1000, 8);
	u64 f = div_u64(bw_before, SABUL_FLOOR_DIV);

	return f < max ? f : max;
}

/*
 * sabul_send_period() - the period to pace at and to bound the window
 * with: @period_ps, or that of the rate @floor (bytes/s) while @recovering
 * if it is shorter.  Outside recovery, or with no floor (0), @period_ps
 * unchanged: the floor never changes the rate control's own period.
 */
static inline u64 sabul_send_period(u64 period_ps, u32 mss, u64 floor,
				    bool recovering)
{
	u64 fp;

	if (!recovering || !floor)
		return period_ps;
	fp = sabul_rate_to_period(floor, mss);
	return fp < period_ps ? fp : period_ps;
}

#endif /* SABUL_MATH_H */
