/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of ICC (Incremental Control Congestion, F. Nakoul),
 * shared by tcp_icc.c and tests/unit/test_icc.c.
 *
 * Pure: integers only (see cc_pure.h), no state of its own.  Every decision
 * the module takes about its window lives here, so that the userspace tests
 * exercise exactly the code the kernel runs.
 *
 * Fixed point
 * -----------
 * Window quantities (Wmax, the per-RTT increment ICC_inc) are kept in
 * micro-packets: ICC_PKT_SCALE units per packet.  The scale is decimal, not
 * a power of two, so that the paper's Smin = 0.01 packet/RTT (and every
 * parameter given in 1/1000 units) is represented exactly: with Smin the
 * window grows by one packet after exactly 100 * cwnd ACKed packets.
 *
 * Parameters b and Smin are given in 1/1000 (ICC_MILLI), Smax and
 * low_window in packets, a as an integer divisor.
 *
 * Ranges and overflow (u64 holds 1.8e19):
 *   cwnd            <= U32_MAX packets       -> cwnd * ICC_PKT_SCALE < 4.3e15
 *   Wmax            <= U32_MAX packets       -> < 4.3e15 units
 *   ICC_inc         <= ICC_SMAX_MAX packets  -> <= 1e12 units
 *   Wmax numerator  cwnd * (a * 1000 - b) * 1000 <= 4.3e9 * 16000 * 1000
 *                                            =  6.9e16
 *   accumulator     < cwnd * ICC_PKT_SCALE + acked * ICC_inc, saturating
 */
#ifndef ICC_MATH_H
#define ICC_MATH_H

#include "cc_pure.h"

/* Units per packet of every window quantity (micro-packets). */
#define ICC_PKT_SCALE		1000000ULL
/* Scale of the parameters given in thousandths (b, Smin). */
#define ICC_MILLI		1000U
/* Units per 1/1000 packet: ICC_PKT_SCALE must be a multiple of ICC_MILLI. */
#define ICC_MILLI_UNITS		(ICC_PKT_SCALE / ICC_MILLI)

/* Defaults: the seed's Smax, Smin and b; BIC's low_window and a. */
#define ICC_DEF_LOW_WINDOW	14U	/* packets */
#define ICC_DEF_SMAX		32U	/* packets per RTT */
#define ICC_DEF_SMIN_MILLI	10U	/* 1/1000 packet per RTT: 0.01 */
#define ICC_DEF_B_MILLI		125U	/* 1/1000: b = 0.125 */
#define ICC_DEF_A		2U	/* binary-search divisor */

/* Static bounds of the parameters (inclusive). */
#define ICC_LOW_WINDOW_MIN	2U
#define ICC_LOW_WINDOW_MAX	1000000U
#define ICC_SMAX_MIN		1U
#define ICC_SMAX_MAX		1000000U
#define ICC_SMIN_MILLI_MIN	1U	/* upper bound: smax * 1000 */
#define ICC_B_MILLI_MIN		1U
#define ICC_B_MILLI_MAX		500U
#define ICC_A_MIN		2U
#define ICC_A_MAX		16U

/* Smallest ssthresh ICC ever returns (as tcp_reno_ssthresh). */
#define ICC_MIN_SSTHRESH	2U

/* Fixed-point scale of the get_info gain fields (struct tcp_bbr_info). */
#define ICC_INFO_GAIN_SCALE	256U

struct icc_params {
	u32 low_window;		/* packets: below it, plain Reno */
	u32 smax;		/* Smax, packets per RTT */
	u32 smin_milli;		/* Smin, 1/1000 packet per RTT */
	u32 b_milli;		/* b, multiplicative decrease, 1/1000 */
	u32 a;			/* binary-search / fast-convergence divisor */
	bool fast_convergence;	/* lower Wmax when a loss comes below it */
};

enum icc_param {
	ICC_PARAM_LOW_WINDOW,
	ICC_PARAM_SMAX,
	ICC_PARAM_SMIN_MILLI,
	ICC_PARAM_B_MILLI,
	ICC_PARAM_A,
	ICC_PARAM_NR,
};

/* The seed's parameters (Smax 32, Smin 0.01, b 0.125) and BIC's a, low_window. */
static inline void icc_params_default(struct icc_params *p)
{
	p->low_window = ICC_DEF_LOW_WINDOW;
	p->smax = ICC_DEF_SMAX;
	p->smin_milli = ICC_DEF_SMIN_MILLI;
	p->b_milli = ICC_DEF_B_MILLI;
	p->a = ICC_DEF_A;
	p->fast_convergence = true;
}

/*
 * icc_param_bounds() - inclusive range [*lo, *hi] of parameter @which given
 * the other parameters in @p.  The one cross-parameter rule, Smin <= Smax,
 * shows up as smin_milli <= smax * 1000 and smax >= ceil(smin_milli / 1000).
 * Returns the current value of @which in @p.
 */
static inline u32 icc_param_bounds(enum icc_param which,
				   const struct icc_params *p, u32 *lo, u32 *hi)
{
	u32 smax = p->smax;

	switch (which) {
	case ICC_PARAM_LOW_WINDOW:
		*lo = ICC_LOW_WINDOW_MIN;
		*hi = ICC_LOW_WINDOW_MAX;
		return p->low_window;
	case ICC_PARAM_SMAX:
		*lo = (u32)div_u64((u64)p->smin_milli + ICC_MILLI - 1, ICC_MILLI);
		if (*lo < ICC_SMAX_MIN)
			*lo = ICC_SMAX_MIN;
		*hi = ICC_SMAX_MAX;
		return p->smax;
	case ICC_PARAM_SMIN_MILLI:
		if (smax > ICC_SMAX_MAX)
			smax = ICC_SMAX_MAX;
		*lo = ICC_SMIN_MILLI_MIN;
		*hi = smax * ICC_MILLI;	/* <= 1e9 */
		return p->smin_milli;
	case ICC_PARAM_B_MILLI:
		*lo = ICC_B_MILLI_MIN;
		*hi = ICC_B_MILLI_MAX;
		return p->b_milli;
	case ICC_PARAM_A:
		*lo = ICC_A_MIN;
		*hi = ICC_A_MAX;
		return p->a;
	default:
		*lo = 1;
		*hi = 0;
		return 0;
	}
}

/* Store @v as parameter @which of @p (no check: see icc_params_valid()). */
static inline void icc_param_store(struct icc_params *p, enum icc_param which,
				   u32 v)
{
	switch (which) {
	case ICC_PARAM_LOW_WINDOW:
		p->low_window = v;
		break;
	case ICC_PARAM_SMAX:
		p->smax = v;
		break;
	case ICC_PARAM_SMIN_MILLI:
		p->smin_milli = v;
		break;
	case ICC_PARAM_B_MILLI:
		p->b_milli = v;
		break;
	case ICC_PARAM_A:
		p->a = v;
		break;
	default:
		break;
	}
}

/* True when every parameter lies in its range (including Smin <= Smax). */
static inline bool icc_params_valid(const struct icc_params *p)
{
	u32 v, lo, hi;
	int i;

	for (i = 0; i < ICC_PARAM_NR; i++) {
		v = icc_param_bounds((enum icc_param)i, p, &lo, &hi);
		if (v < lo || v > hi)
			return false;
	}
	return true;
}

/*
 * icc_increment() - ICC_inc, the window increment per RTT, in units
 * (1/ICC_PKT_SCALE packet), for window @cwnd (packets) and @wmax (units).
 *
 *   cwnd <  low_window : 1 packet (Reno: cwnd += 1/cwnd per ACK)
 *   cwnd <  Wmax       : (Wmax - cwnd) / a       binary search
 *   cwnd >= Wmax       : cwnd - Wmax             max probing, doubles the
 *                                                distance to Wmax per RTT
 * then clamped to [Smin, Smax] (at cwnd == Wmax: Smin).  Wmax == 0 (no
 * loss seen yet) is max probing from zero: the increment is cwnd, capped
 * at Smax.  Clamping to Smin first, then Smax, keeps the result <= Smax
 * even for inconsistent parameters; for valid ones it is the seed's order.
 */
static inline u64 icc_increment(u32 cwnd, u64 wmax, const struct icc_params *p)
{
	u64 w = (u64)cwnd * ICC_PKT_SCALE;
	u64 smin = (u64)p->smin_milli * ICC_MILLI_UNITS;
	u64 smax = (u64)p->smax * ICC_PKT_SCALE;
	u64 inc;

	if (cwnd < p->low_window)
		return ICC_PKT_SCALE;

	if (w < wmax)
		inc = div_u64(wmax - w, p->a ? p->a : 1);
	else
		inc = w - wmax;

	if (inc < smin)
		inc = smin;
	if (inc > smax)
		inc = smax;
	return inc;
}

/* a * b, saturating at U64_MAX. */
static inline u64 icc_mul_sat(u64 a, u64 b)
{
	if (a && b > div64_u64(U64_MAX, a))
		return U64_MAX;
	return a * b;
}

/* a + b, saturating at U64_MAX. */
static inline u64 icc_add_sat(u64 a, u64 b)
{
	return a > U64_MAX - b ? U64_MAX : a + b;
}

/*
 * icc_ack_step() - apply cwnd += ICC_inc / cwnd for each of @acked packets.
 * @acc:   per-socket growth credit in units; a whole packet is due when it
 *         reaches cwnd * ICC_PKT_SCALE, i.e. after one RTT (cwnd ACKed
 *         packets) at ICC_inc = 1 packet
 * @cwnd:  current window, packets (0 is treated as 1)
 * @inc:   ICC_inc from icc_increment(), units per RTT
 * @acked: packets newly acknowledged
 *
 * Returns the whole packets to add to cwnd; the fraction stays in *@acc,
 * so growth is exact: at Smin = 0.01 the window grows by one packet after
 * exactly 100 * cwnd acked packets.  Like tcp_cong_avoid_ai(), credit
 * left over from a larger window (*@acc already past the threshold after
 * cwnd shrank) yields one packet, not a burst, and several packets due in
 * one call are all computed against the current cwnd.
 */
static inline u32 icc_ack_step(u64 *acc, u32 cwnd, u64 inc, u32 acked)
{
	u64 thresh = (u64)(cwnd ? cwnd : 1) * ICC_PKT_SCALE;
	u64 due = 0;

	if (*acc >= thresh) {
		*acc = 0;
		due = 1;
	}
	*acc = icc_add_sat(*acc, icc_mul_sat(acked, inc));
	if (*acc >= thresh) {
		u64 n = div64_u64(*acc, thresh);

		*acc -= n * thresh;
		due += n;
	}
	return due > U32_MAX ? U32_MAX : (u32)due;
}

/*
 * icc_acks_to_next() - acked packets still needed before icc_ack_step()
 * adds the next packet at window @cwnd with increment @inc (units/RTT)
 * and credit @acc: ceil((cwnd * ICC_PKT_SCALE - acc) / inc).  At a fresh
 * accumulator that is cwnd * ICC_PKT_SCALE / inc: cwnd ACKs for Reno,
 * 100 * cwnd at Smin = 0.01.  Returns U64_MAX for @inc == 0.
 */
static inline u64 icc_acks_to_next(u64 acc, u32 cwnd, u64 inc)
{
	u64 thresh = (u64)(cwnd ? cwnd : 1) * ICC_PKT_SCALE;

	if (acc >= thresh)
		return 1;
	if (!inc)
		return U64_MAX;
	return div64_u64(thresh - acc + inc - 1, inc);
}

/*
 * icc_loss_wmax() - Wmax (units) after a loss at window @cwnd (packets),
 * given the previous @wmax (units).
 *
 * Below low_window the seed's loss path is plain Reno and returns before
 * touching Wmax: @wmax is returned unchanged.  Otherwise, with fast
 * convergence, a loss below the previous Wmax releases bandwidth:
 * Wmax = cwnd (a - b) / a (0.9375 cwnd with a = 2, b = 0.125); else
 * Wmax = cwnd.  Exact in units for integer a (see the overflow table).
 */
static inline u64 icc_loss_wmax(u32 cwnd, u64 wmax, const struct icc_params *p)
{
	u64 w = (u64)cwnd * ICC_PKT_SCALE;
	u32 a = p->a ? p->a : 1;
	u64 a_milli = (u64)a * ICC_MILLI;
	u64 keep;

	if (cwnd < p->low_window)
		return wmax;
	if (!p->fast_convergence || w >= wmax)
		return w;

	/* cwnd * (a - b) / a packets = cwnd * (a*1000 - b) * 1000 / a units */
	keep = a_milli > p->b_milli ? a_milli - p->b_milli : 0;
	return div_u64((u64)cwnd * keep * ICC_MILLI_UNITS, a);
}

/*
 * icc_loss_cwnd() - the window after a loss at @cwnd (packets): the value
 * the module returns as ssthresh.  Below low_window Reno's cwnd / 2,
 * otherwise cwnd (1 - b), rounded down (100 -> 87 with b = 0.125); never
 * below ICC_MIN_SSTHRESH.  A valid b (>= 1/1000) always takes at least one
 * packet off.
 */
static inline u32 icc_loss_cwnd(u32 cwnd, const struct icc_params *p)
{
	u64 next;
	u32 b = p->b_milli < ICC_MILLI ? p->b_milli : ICC_MILLI;

	if (cwnd < p->low_window)
		next = cwnd >> 1;
	else
		next = div_u64((u64)cwnd * (ICC_MILLI - b), ICC_MILLI);

	return next < ICC_MIN_SSTHRESH ? ICC_MIN_SSTHRESH : (u32)next;
}

/*
 * get_info helpers (struct tcp_bbr_info as printed by ss; see docs/icc.md).
 */

/* Wmax in 1/1000 packet, saturating at U32_MAX (ss prints it as mrtt). */
static inline u32 icc_info_wmax_milli(u64 wmax)
{
	u64 v = div64_u64(wmax, ICC_MILLI_UNITS);

	return v > U32_MAX ? U32_MAX : (u32)v;
}

/* An increment in 1/256 packet per RTT, rounded up, saturating. */
static inline u32 icc_info_inc_gain(u64 inc)
{
	u64 v = div64_u64(icc_add_sat(icc_mul_sat(inc, ICC_INFO_GAIN_SCALE),
				      ICC_PKT_SCALE - 1), ICC_PKT_SCALE);

	return v > U32_MAX ? U32_MAX : (u32)v;
}

/* The factor the next loss at @cwnd applies, in 1/256 (224 = 0.875). */
static inline u32 icc_info_decrease_gain(u32 cwnd, const struct icc_params *p)
{
	u32 b = p->b_milli < ICC_MILLI ? p->b_milli : ICC_MILLI;

	if (cwnd < p->low_window)
		return ICC_INFO_GAIN_SCALE / 2;
	return (ICC_MILLI - b) * ICC_INFO_GAIN_SCALE / ICC_MILLI;
}

#endif /* ICC_MATH_H */
