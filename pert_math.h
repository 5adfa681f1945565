/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of PERT (Probabilistic Early Response TCP), shared by
 * tcp_pert.c and tests/unit/test_pert.c.
 *
 * Pure: integers only (see cc_pure.h), no clock, no randomness, no state of
 * its own.  The module passes the time (us) and a random u32 in; the tests
 * pass chosen values.  Every decision the module takes lives here.
 *
 * Fixed point (named scales)
 * --------------------------
 *   times            microseconds (u32), timestamps wrap after 71 minutes
 *   srtt             us << PERT_SRTT_SHIFT (u64), so that 1% of a small
 *                    difference (a few us) still moves it
 *   probabilities    1/PERT_PROB_ONE (1/65536); PERT_PROB_ONE is 1.0
 *   alpha            1/PERT_ALPHA_ONE packet per RTT (1/1024)
 *   beta             1/PERT_BETA_ONE (1/1024)
 *   loss intervals   packets (u32, saturating)
 *
 * Ranges and overflow (u64 holds 1.8e19):
 *   rtt sample       < 2^31 us (ack_sample.rtt_us is an s32)
 *   srtt scaled      < 2^41; 99 * srtt + (rtt << 10) < 2^48
 *   thresholds       <= PERT_T2_US_MAX = 2e6 us; 2 * T2 < 2^32
 *   maxq, curq       < 2^32 us; (curq << 10) < 2^42
 *   loss intervals   sum of 8 * 5 * U32_MAX < 2^38; (30 << 16) / that
 *   target ratio     p'/p < 2^32 (1/1024); * (hi - lo) < 2^64
 *   cwnd             <= U32_MAX; cwnd << 10 < 2^42; acked * alpha < 2^48
 *
 * The model, the parameters and every deviation from the papers are
 * described in docs/pert.md.
 */
#ifndef PERT_MATH_H
#define PERT_MATH_H

#include "cc_pure.h"

#define PERT_PROB_SHIFT		16
#define PERT_PROB_ONE		65536U	/* 2^PERT_PROB_SHIFT: probability 1.0 */
#define PERT_ALPHA_SHIFT	10
#define PERT_ALPHA_ONE		1024U	/* 2^PERT_ALPHA_SHIFT: 1 packet/RTT */
#define PERT_BETA_SHIFT		10
#define PERT_BETA_ONE		1024U	/* 2^PERT_BETA_SHIFT: beta 1.0 */
#define PERT_SRTT_SHIFT		10
#define PERT_PCT		100U
#define PERT_PERMILLE		1000U
#define PERT_USEC_PER_MSEC	1000U

/* srtt <- (99 srtt + rtt) / 100: 0.99 history weight, exactly */
#define PERT_SRTT_HIST		99U
#define PERT_SRTT_DEN		100U

/* alpha tuning steps (Kotla & Reddy): +0.5, +0.1 (102/1024), * 0.9 */
#define PERT_ALPHA_HS_STEP	(PERT_ALPHA_ONE / 2)
#define PERT_ALPHA_COMPETE_STEP	(PERT_ALPHA_ONE / 10)
#define PERT_ALPHA_DECAY_NUM	9U
#define PERT_ALPHA_DECAY_DEN	10U

/* compete target ramps up to 1 + p'/p at this share of maxq */
#define PERT_TARGET_FULL_PCT	65U
/* no loss seen (p = 0): the compete rule has no target */
#define PERT_TARGET_NONE	U32_MAX
/* p'/p undefined: no loss event yet (p = 0) */
#define PERT_RATIO_NONE		U32_MAX

/* the compete-phase streak counter (u8) saturates here */
#define PERT_STREAK_MAX		255U

/* smallest window and ssthresh PERT ever sets (as tcp_reno_ssthresh) */
#define PERT_MIN_CWND		2U

/*
 * Defaults: the slides' RED thresholds (5 ms, 10 ms, pmax 0.05), T3 and the
 * compete ramp from the ns-3 port, alpha <= 32 (slides), beta in [1/8, 1/2]
 * (the range TCP-Illinois uses for its delay-dependent decrease).
 */
#define PERT_DEF_T1_US		5000U
#define PERT_DEF_T2_US		10000U
#define PERT_DEF_T3_PCT		65U
#define PERT_DEF_PMAX_PERMILLE	50U
#define PERT_DEF_MIN_MAXQ_US	10000U
#define PERT_DEF_COMPETE_PCT	50U
#define PERT_DEF_ALPHA_MAX	32U
#define PERT_DEF_BETA_MIN	128U	/* 1/1024: 0.125 */
#define PERT_DEF_BETA_MAX	512U	/* 1/1024: 0.5 */
#define PERT_DEF_PHASE_SRTTS	5U
#define PERT_DEF_MIN_RTT_WIN_MS	20000U
#define PERT_DEF_MAX_RTT_WIN_MS	120000U
#define PERT_DEF_COMPETE_PHASE	1U	/* compete phase on (docs/pert.md) */
#define PERT_DEF_COMPETE_ENTER	2U	/* compete updates in a row to enter */
#define PERT_DEF_COMPETE_EXIT	3U	/* other updates in a row to leave */
#define PERT_DEF_SS_EXIT_US	2000U	/* slow-start exit at this queue */
#define PERT_DEF_COMPETE_BETA	358U	/* 1/1024: 0.35, base PERT's beta */

/* Static bounds of the parameters (inclusive); see pert_param_bounds(). */
#define PERT_T1_US_MIN		100U
#define PERT_T2_US_MAX		2000000U
#define PERT_T3_PCT_MIN		10U
#define PERT_T3_PCT_MAX		100U
#define PERT_PMAX_MIN		1U
#define PERT_PMAX_MAX		PERT_PERMILLE
#define PERT_MIN_MAXQ_US_MIN	1000U
#define PERT_MIN_MAXQ_US_MAX	1000000U
#define PERT_COMPETE_PCT_MIN	10U
#define PERT_COMPETE_PCT_MAX	(PERT_TARGET_FULL_PCT - 5U)
#define PERT_ALPHA_MAX_MIN	1U
#define PERT_ALPHA_MAX_MAX	64U
#define PERT_BETA_LIMIT_MIN	16U	/* 1/64 */
#define PERT_BETA_LIMIT_MAX	512U	/* 1/2 */
#define PERT_PHASE_SRTTS_MIN	1U
#define PERT_PHASE_SRTTS_MAX	100U
#define PERT_RTT_WIN_MS_MIN	1000U
#define PERT_RTT_WIN_MS_MAX	600000U
#define PERT_COMPETE_PHASE_MAX	1U
#define PERT_COMPETE_UPDATES_MIN	1U
#define PERT_COMPETE_UPDATES_MAX	100U
#define PERT_SS_EXIT_US_MAX	100000U	/* 0 switches the exit off */
#define PERT_COMPETE_BETA_MIN	PERT_BETA_LIMIT_MIN
#define PERT_COMPETE_BETA_MAX	PERT_BETA_LIMIT_MAX

/* slow-start exit: this many RTT samples in a row above the threshold */
#define PERT_SS_EXIT_SAMPLES	8U

/* a + b, saturating at U32_MAX (packet counters) */
static inline u32 pert_sat_add(u32 a, u32 b)
{
	return a + b < a ? U32_MAX : a + b;
}

/* ------------------------------------------------------------------------
 * Parameters
 */
struct pert_params {
	u32 t1_us;		/* RED min threshold on curq, us */
	u32 t2_us;		/* RED max threshold on curq, us */
	u32 t3_pct;		/* T3 = max(2 T2, t3_pct% of max_srtt - min_rtt) */
	u32 pmax_permille;	/* response probability at T2, 1/1000 */
	u32 min_maxq_us;	/* floor of maxq, us */
	u32 compete_pct;	/* compete region: curq >= compete_pct% maxq */
	u32 alpha_max;		/* upper bound of alpha, packets per RTT */
	u32 beta_min;		/* lower bound of beta, 1/1024 */
	u32 beta_max;		/* upper bound of beta, 1/1024 */
	u32 phase_srtts;	/* alpha changes at most once per this many srtt */
	u32 min_rtt_win_ms;	/* min_rtt ageing window, ms */
	u32 max_rtt_win_ms;	/* max_srtt ageing window, ms */
	u32 compete_phase;	/* 1: compete phase (budget, min hold); 0: off */
	u32 compete_enter;	/* compete updates in a row to enter the phase */
	u32 compete_exit;	/* other updates in a row to leave it */
	u32 ss_exit_us;		/* slow-start exit threshold on queueing
				 * delay, us; 0: Reno's slow start
				 */
	u32 compete_beta;	/* decrease in the compete phase, 1/1024 */
};

enum pert_param {
	PERT_PARAM_T1_US,
	PERT_PARAM_T2_US,
	PERT_PARAM_T3_PCT,
	PERT_PARAM_PMAX_PERMILLE,
	PERT_PARAM_MIN_MAXQ_US,
	PERT_PARAM_COMPETE_PCT,
	PERT_PARAM_ALPHA_MAX,
	PERT_PARAM_BETA_MIN,
	PERT_PARAM_BETA_MAX,
	PERT_PARAM_PHASE_SRTTS,
	PERT_PARAM_MIN_RTT_WIN_MS,
	PERT_PARAM_MAX_RTT_WIN_MS,
	PERT_PARAM_COMPETE_PHASE,
	PERT_PARAM_COMPETE_ENTER,
	PERT_PARAM_COMPETE_EXIT,
	PERT_PARAM_SS_EXIT_US,
	PERT_PARAM_COMPETE_BETA,
	PERT_PARAM_NR,
};

static inline void pert_params_default(struct pert_params *p)
{
	p->t1_us = PERT_DEF_T1_US;
	p->t2_us = PERT_DEF_T2_US;
	p->t3_pct = PERT_DEF_T3_PCT;
	p->pmax_permille = PERT_DEF_PMAX_PERMILLE;
	p->min_maxq_us = PERT_DEF_MIN_MAXQ_US;
	p->compete_pct = PERT_DEF_COMPETE_PCT;
	p->alpha_max = PERT_DEF_ALPHA_MAX;
	p->beta_min = PERT_DEF_BETA_MIN;
	p->beta_max = PERT_DEF_BETA_MAX;
	p->phase_srtts = PERT_DEF_PHASE_SRTTS;
	p->min_rtt_win_ms = PERT_DEF_MIN_RTT_WIN_MS;
	p->max_rtt_win_ms = PERT_DEF_MAX_RTT_WIN_MS;
	p->compete_phase = PERT_DEF_COMPETE_PHASE;
	p->compete_enter = PERT_DEF_COMPETE_ENTER;
	p->compete_exit = PERT_DEF_COMPETE_EXIT;
	p->ss_exit_us = PERT_DEF_SS_EXIT_US;
	p->compete_beta = PERT_DEF_COMPETE_BETA;
}

/* Value of parameter @which in @p (0 for an unknown one). */
static inline u32 pert_param_get(const struct pert_params *p,
				 enum pert_param which)
{
	switch (which) {
	case PERT_PARAM_T1_US:
		return p->t1_us;
	case PERT_PARAM_T2_US:
		return p->t2_us;
	case PERT_PARAM_T3_PCT:
		return p->t3_pct;
	case PERT_PARAM_PMAX_PERMILLE:
		return p->pmax_permille;
	case PERT_PARAM_MIN_MAXQ_US:
		return p->min_maxq_us;
	case PERT_PARAM_COMPETE_PCT:
		return p->compete_pct;
	case PERT_PARAM_ALPHA_MAX:
		return p->alpha_max;
	case PERT_PARAM_BETA_MIN:
		return p->beta_min;
	case PERT_PARAM_BETA_MAX:
		return p->beta_max;
	case PERT_PARAM_PHASE_SRTTS:
		return p->phase_srtts;
	case PERT_PARAM_MIN_RTT_WIN_MS:
		return p->min_rtt_win_ms;
	case PERT_PARAM_MAX_RTT_WIN_MS:
		return p->max_rtt_win_ms;
	case PERT_PARAM_COMPETE_PHASE:
		return p->compete_phase;
	case PERT_PARAM_COMPETE_ENTER:
		return p->compete_enter;
	case PERT_PARAM_COMPETE_EXIT:
		return p->compete_exit;
	case PERT_PARAM_SS_EXIT_US:
		return p->ss_exit_us;
	case PERT_PARAM_COMPETE_BETA:
		return p->compete_beta;
	default:
		return 0;
	}
}

/* Store @v as parameter @which of @p (no check: see pert_params_valid()). */
static inline void pert_param_store(struct pert_params *p,
				    enum pert_param which, u32 v)
{
	switch (which) {
	case PERT_PARAM_T1_US:
		p->t1_us = v;
		break;
	case PERT_PARAM_T2_US:
		p->t2_us = v;
		break;
	case PERT_PARAM_T3_PCT:
		p->t3_pct = v;
		break;
	case PERT_PARAM_PMAX_PERMILLE:
		p->pmax_permille = v;
		break;
	case PERT_PARAM_MIN_MAXQ_US:
		p->min_maxq_us = v;
		break;
	case PERT_PARAM_COMPETE_PCT:
		p->compete_pct = v;
		break;
	case PERT_PARAM_ALPHA_MAX:
		p->alpha_max = v;
		break;
	case PERT_PARAM_BETA_MIN:
		p->beta_min = v;
		break;
	case PERT_PARAM_BETA_MAX:
		p->beta_max = v;
		break;
	case PERT_PARAM_PHASE_SRTTS:
		p->phase_srtts = v;
		break;
	case PERT_PARAM_MIN_RTT_WIN_MS:
		p->min_rtt_win_ms = v;
		break;
	case PERT_PARAM_MAX_RTT_WIN_MS:
		p->max_rtt_win_ms = v;
		break;
	case PERT_PARAM_COMPETE_PHASE:
		p->compete_phase = v;
		break;
	case PERT_PARAM_COMPETE_ENTER:
		p->compete_enter = v;
		break;
	case PERT_PARAM_COMPETE_EXIT:
		p->compete_exit = v;
		break;
	case PERT_PARAM_SS_EXIT_US:
		p->ss_exit_us = v;
		break;
	case PERT_PARAM_COMPETE_BETA:
		p->compete_beta = v;
		break;
	default:
		break;
	}
}

/*
 * pert_param_bounds() - inclusive range [*lo, *hi] of parameter @which,
 * given the other parameters in @p.  Cross-parameter rules: T1 < T2 and
 * beta_min <= beta_max.  Unknown @which gives the empty range [1, 0].
 */
static inline void pert_param_bounds(enum pert_param which,
				     const struct pert_params *p,
				     u32 *lo, u32 *hi)
{
	switch (which) {
	case PERT_PARAM_T1_US:
		*lo = PERT_T1_US_MIN;
		*hi = p->t2_us > PERT_T1_US_MIN ? p->t2_us - 1 : 0;
		break;
	case PERT_PARAM_T2_US:
		*lo = p->t1_us < PERT_T1_US_MIN ? PERT_T1_US_MIN + 1 :
						  p->t1_us + 1;
		*hi = PERT_T2_US_MAX;
		break;
	case PERT_PARAM_T3_PCT:
		*lo = PERT_T3_PCT_MIN;
		*hi = PERT_T3_PCT_MAX;
		break;
	case PERT_PARAM_PMAX_PERMILLE:
		*lo = PERT_PMAX_MIN;
		*hi = PERT_PMAX_MAX;
		break;
	case PERT_PARAM_MIN_MAXQ_US:
		*lo = PERT_MIN_MAXQ_US_MIN;
		*hi = PERT_MIN_MAXQ_US_MAX;
		break;
	case PERT_PARAM_COMPETE_PCT:
		*lo = PERT_COMPETE_PCT_MIN;
		*hi = PERT_COMPETE_PCT_MAX;
		break;
	case PERT_PARAM_ALPHA_MAX:
		*lo = PERT_ALPHA_MAX_MIN;
		*hi = PERT_ALPHA_MAX_MAX;
		break;
	case PERT_PARAM_BETA_MIN:
		*lo = PERT_BETA_LIMIT_MIN;
		*hi = p->beta_max < PERT_BETA_LIMIT_MAX ? p->beta_max :
							  PERT_BETA_LIMIT_MAX;
		break;
	case PERT_PARAM_BETA_MAX:
		*lo = p->beta_min > PERT_BETA_LIMIT_MIN ? p->beta_min :
							  PERT_BETA_LIMIT_MIN;
		*hi = PERT_BETA_LIMIT_MAX;
		break;
	case PERT_PARAM_PHASE_SRTTS:
		*lo = PERT_PHASE_SRTTS_MIN;
		*hi = PERT_PHASE_SRTTS_MAX;
		break;
	case PERT_PARAM_MIN_RTT_WIN_MS:
	case PERT_PARAM_MAX_RTT_WIN_MS:
		*lo = PERT_RTT_WIN_MS_MIN;
		*hi = PERT_RTT_WIN_MS_MAX;
		break;
	case PERT_PARAM_COMPETE_PHASE:
		*lo = 0;
		*hi = PERT_COMPETE_PHASE_MAX;
		break;
	case PERT_PARAM_COMPETE_ENTER:
	case PERT_PARAM_COMPETE_EXIT:
		*lo = PERT_COMPETE_UPDATES_MIN;
		*hi = PERT_COMPETE_UPDATES_MAX;
		break;
	case PERT_PARAM_SS_EXIT_US:
		*lo = 0;
		*hi = PERT_SS_EXIT_US_MAX;
		break;
	case PERT_PARAM_COMPETE_BETA:
		*lo = PERT_COMPETE_BETA_MIN;
		*hi = PERT_COMPETE_BETA_MAX;
		break;
	default:
		*lo = 1;
		*hi = 0;
		break;
	}
}

/* True when every parameter lies in its range (cross rules included). */
static inline bool pert_params_valid(const struct pert_params *p)
{
	u32 v, lo, hi;
	int i;

	for (i = 0; i < PERT_PARAM_NR; i++) {
		v = pert_param_get(p, (enum pert_param)i);
		pert_param_bounds((enum pert_param)i, p, &lo, &hi);
		if (v < lo || v > hi)
			return false;
	}
	return true;
}

/* pmax in 1/65536 from per-mille, rounded to nearest: 50 -> 3277 */
static inline u32 pert_pmax_prob(u32 pmax_permille)
{
	u64 v = ((u64)pmax_permille * PERT_PROB_ONE + PERT_PERMILLE / 2) /
		PERT_PERMILLE;

	return v > PERT_PROB_ONE ? PERT_PROB_ONE : (u32)v;
}

/* ------------------------------------------------------------------------
 * Delay signal: srtt, windowed min/max RTT, curq, maxq
 */

/*
 * pert_srtt_update() - one EWMA step, srtt <- 0.99 srtt + 0.01 rtt, on
 * srtt kept as us << PERT_SRTT_SHIFT and rounded to nearest.  The first
 * sample (@srtt_scaled == 0) initialises.  Samples are clamped to [1 us,
 * 2^31 us] so that a valid srtt is never 0.  A step moves srtt unless it
 * is already within 50/1024 us (0.05 us) of the sample: small RTTs never
 * stall, as they would with whole microseconds.
 */
static inline u64 pert_srtt_update(u64 srtt_scaled, u32 rtt_us)
{
	u64 r;

	if (rtt_us < 1)
		rtt_us = 1;
	if (rtt_us > (1U << 31))
		rtt_us = 1U << 31;
	r = (u64)rtt_us << PERT_SRTT_SHIFT;
	if (!srtt_scaled)
		return r;
	return div_u64(srtt_scaled * PERT_SRTT_HIST + r + PERT_SRTT_DEN / 2,
		       PERT_SRTT_DEN);
}

/* srtt in us, rounded to nearest */
static inline u32 pert_srtt_us(u64 srtt_scaled)
{
	u64 v = (srtt_scaled + (1U << (PERT_SRTT_SHIFT - 1))) >>
		PERT_SRTT_SHIFT;

	return v > U32_MAX ? U32_MAX : (u32)v;
}

/*
 * Windowed min and max RTT with two slots each (policy in docs/pert.md).
 * Each window W is cut into epochs of W/2.  @cur holds the extreme of the
 * current epoch, @prev the one of the epoch before; the value in force is
 * the extreme of both.  At the first sample at least W/2 after the epoch
 * began, prev <- cur and a new epoch starts; if a whole W passed without a
 * rotation (no samples), both slots are dropped and the first sample
 * re-learns.  With a sample per ACK the value in force covers the last
 * W/2 .. W; a sample never counts later than 1.5 W after it was taken.
 */
#define PERT_WIN_MIN_EMPTY	U32_MAX
#define PERT_WIN_MAX_EMPTY	0U

struct pert_rtt_win {
	u32 min_cur;		/* us, smallest sample of this epoch */
	u32 min_prev;		/* us, smallest sample of the previous epoch */
	u32 min_epoch_us;	/* us timestamp, start of the min epoch */
	u32 max_cur;		/* us, largest sample of this epoch */
	u32 max_prev;		/* us, largest sample of the previous epoch */
	u32 max_epoch_us;	/* us timestamp, start of the max epoch */
};

/* Forget everything (connection start, RTO): the next sample re-learns. */
static inline void pert_win_reset(struct pert_rtt_win *w, u32 now_us)
{
	w->min_cur = PERT_WIN_MIN_EMPTY;
	w->min_prev = PERT_WIN_MIN_EMPTY;
	w->min_epoch_us = now_us;
	w->max_cur = PERT_WIN_MAX_EMPTY;
	w->max_prev = PERT_WIN_MAX_EMPTY;
	w->max_epoch_us = now_us;
}

/* Rotate one slot pair if its epoch is over; @empty marks an empty slot. */
static inline void pert_win_age(u32 *cur, u32 *prev, u32 *epoch_us,
				u32 now_us, u32 win_us, u32 empty)
{
	u32 age = now_us - *epoch_us;
	u32 half = win_us / 2 ? win_us / 2 : 1;

	if (age < half)
		return;
	*prev = age < win_us ? *cur : empty;
	*cur = empty;
	*epoch_us = now_us;
}

/*
 * pert_win_update_min() - one sample into the min window.  With @hold (the
 * compete phase) the window's clock stands still: no rotation, the epoch
 * restarts at every sample, so the minimum in force is kept however long
 * the phase lasts (a lower sample still replaces it) and, once the hold
 * ends, stays in force for another W_min / 2 .. W_min.
 */
static inline void pert_win_update_min(struct pert_rtt_win *w, u32 rtt_us,
				       u32 now_us, u32 min_win_us, bool hold)
{
	if (hold)
		w->min_epoch_us = now_us;
	else
		pert_win_age(&w->min_cur, &w->min_prev, &w->min_epoch_us,
			     now_us, min_win_us, PERT_WIN_MIN_EMPTY);
	if (rtt_us < w->min_cur)
		w->min_cur = rtt_us;
}

/* pert_win_update_max() - one sample into the max window. */
static inline void pert_win_update_max(struct pert_rtt_win *w, u32 v_us,
				       u32 now_us, u32 max_win_us)
{
	pert_win_age(&w->max_cur, &w->max_prev, &w->max_epoch_us, now_us,
		     max_win_us, PERT_WIN_MAX_EMPTY);
	if (v_us > w->max_cur)
		w->max_cur = v_us;
}

/* min_rtt in us; PERT_WIN_MIN_EMPTY when no sample is in force */
static inline u32 pert_win_min(const struct pert_rtt_win *w)
{
	return w->min_cur < w->min_prev ? w->min_cur : w->min_prev;
}

/* the max window (max_srtt) in us; 0 when no sample is in force */
static inline u32 pert_win_max(const struct pert_rtt_win *w)
{
	return w->max_cur > w->max_prev ? w->max_cur : w->max_prev;
}

/* max_rtt - min_rtt in us, 0 unless both are known and ordered */
static inline u32 pert_rtt_span_us(u32 min_us, u32 max_us)
{
	if (min_us == PERT_WIN_MIN_EMPTY || max_us <= min_us)
		return 0;
	return max_us - min_us;
}

/* curq = srtt - min_rtt in us, 0 when srtt is below it or min unknown */
static inline u32 pert_curq_us(u32 srtt_us, u32 min_us)
{
	if (min_us == PERT_WIN_MIN_EMPTY || srtt_us <= min_us)
		return 0;
	return srtt_us - min_us;
}

/* maxq = max(min_maxq, max_srtt - min_rtt) in us */
static inline u32 pert_maxq_us(u32 min_us, u32 max_us, u32 min_maxq_us)
{
	u32 span = pert_rtt_span_us(min_us, max_us);

	return span > min_maxq_us ? span : min_maxq_us;
}

/* T3 = max(2 T2, t3_pct% of (max_srtt - min_rtt)) in us */
static inline u32 pert_t3_us(u32 t2_us, u32 min_us, u32 max_us, u32 t3_pct)
{
	u64 t3 = div_u64((u64)pert_rtt_span_us(min_us, max_us) * t3_pct,
			 PERT_PCT);
	u64 two_t2 = 2ULL * t2_us;

	if (t3 < two_t2)
		t3 = two_t2;
	return t3 > U32_MAX ? U32_MAX : (u32)t3;
}

/* ------------------------------------------------------------------------
 * Response: RED-emulating probability curve, the draw, beta, the window
 */

/*
 * pert_response_prob() - probability of an early response (1/65536) at
 * queueing delay @curq_us, RED with the "gentle" extension:
 *
 *   curq <  T1        0
 *   T1 <= curq < T2   pmax (curq - T1) / (T2 - T1)
 *   T2 <= curq < T3   pmax + (1 - pmax) (curq - T2) / (T3 - T2)
 *   curq >= T3        1
 *
 * Linear pieces truncate toward zero.  Robust to inconsistent input: with
 * T2 <= T1 the first ramp is empty (step to pmax at T1), with T3 <= T2 the
 * second is (step to 1 at T2); pmax is clipped to 1.
 */
static inline u32 pert_response_prob(u32 curq_us, u32 t1_us, u32 t2_us,
				     u32 t3_us, u32 pmax)
{
	if (pmax > PERT_PROB_ONE)
		pmax = PERT_PROB_ONE;
	if (curq_us < t1_us)
		return 0;
	if (curq_us < t2_us)
		return (u32)div_u64((u64)pmax * (curq_us - t1_us),
				    t2_us - t1_us);
	if (t2_us < t1_us)
		t2_us = t1_us;
	if (curq_us >= t3_us)
		return PERT_PROB_ONE;
	return pmax + (u32)div_u64((u64)(PERT_PROB_ONE - pmax) *
				   (curq_us - t2_us), t3_us - t2_us);
}

/*
 * struct pert_signal - PERT's congestion signal of one connection: the
 * smoothed RTT, the windowed min/max RTT and what follows from them.
 */
struct pert_signal {
	u64 srtt_scaled;		/* PERT srtt, us << PERT_SRTT_SHIFT;
					 * 0: no sample yet
					 */
	struct pert_rtt_win rtt;	/* windowed min/max RTT, us */
	u32 prob;			/* early-response probability, 1/65536 */
	u32 curq_us;			/* queueing delay srtt - min_rtt, us */
	u32 maxq_us;			/* max(min_maxq, max_srtt - min_rtt), us */
};

/* Forget everything (connection start): the next sample re-learns. */
static inline void pert_signal_reset(struct pert_signal *s, u32 now_us)
{
	s->srtt_scaled = 0;
	pert_win_reset(&s->rtt, now_us);
	s->prob = 0;
	s->curq_us = 0;
	s->maxq_us = 0;
}

/* PERT's srtt, us (0 before the first sample). */
static inline u32 pert_signal_srtt(const struct pert_signal *s)
{
	return pert_srtt_us(s->srtt_scaled);
}

/*
 * pert_signal_update() - an RTT sample @rtt_us (< 0: none, only recompute)
 * at @now_us: srtt, min/max RTT, then curq, maxq and the response
 * probability.  The min window takes the raw samples, the max window
 * PERT's srtt (a raw sample may carry a delayed ACK: tens of ms at a small
 * window).  @hold_min (the compete phase) keeps min_rtt: a loss-based
 * competitor's standing queue never drains, so no sample then shows the
 * path's delay.  The module and the engine (sim/sim_pert.c) both call it.
 */
static inline void pert_signal_update(struct pert_signal *s, s32 rtt_us,
				      u32 now_us, bool hold_min,
				      const struct pert_params *p)
{
	u32 min_us, max_us, t3;

	if (rtt_us >= 0) {
		s->srtt_scaled = pert_srtt_update(s->srtt_scaled, rtt_us);
		pert_win_update_min(&s->rtt, rtt_us, now_us,
				    p->min_rtt_win_ms * PERT_USEC_PER_MSEC,
				    hold_min);
		pert_win_update_max(&s->rtt, pert_signal_srtt(s), now_us,
				    p->max_rtt_win_ms * PERT_USEC_PER_MSEC);
	}
	if (!s->srtt_scaled)
		return;

	min_us = pert_win_min(&s->rtt);
	max_us = pert_win_max(&s->rtt);
	t3 = pert_t3_us(p->t2_us, min_us, max_us, p->t3_pct);
	s->curq_us = pert_curq_us(pert_signal_srtt(s), min_us);
	s->maxq_us = pert_maxq_us(min_us, max_us, p->min_maxq_us);
	s->prob = pert_response_prob(s->curq_us, p->t1_us, p->t2_us, t3,
				     pert_pmax_prob(p->pmax_permille));
}

/*
 * pert_decide() - Bernoulli draw: true with probability @prob / 65536 for
 * a uniformly random @rnd.  prob 0 never, PERT_PROB_ONE always.
 */
static inline bool pert_decide(u32 prob, u32 rnd)
{
	return (u64)rnd < ((u64)prob << PERT_PROB_SHIFT);
}

/* Wrap-safe: is sequence @a before @b? */
static inline bool pert_seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

/*
 * pert_may_respond() - at most one response (early or loss) per RTT.  A
 * response at time @resp_us when @resp_seq was snd_nxt blocks the next
 * one until everything then in flight is acknowledged (@snd_una reached
 * @resp_seq) AND one srtt has passed.  @responded false: no response yet.
 */
static inline bool pert_may_respond(bool responded, u32 snd_una,
				    u32 resp_seq, u32 now_us, u32 resp_us,
				    u32 srtt_us)
{
	if (!responded)
		return true;
	if (pert_seq_before(snd_una, resp_seq))
		return false;
	return now_us - resp_us >= srtt_us;
}

/*
 * pert_beta_ref_us() - the queue scale beta is taken against: max(maxq,
 * min_rtt).  The slides derive beta from "a buffer B keeps the link busy
 * after a decrease by f when B >= f / (1 - f) BDP"; in delay units the BDP
 * is the base RTT.  maxq (the largest queue seen) stands in for it in the
 * papers, which suits a flow that has filled the buffer once; a PERT that
 * never overshoots reads maxq ~ min_maxq (10 ms) and would cut a 40 ms
 * path's window by 1/3 at curq 5 ms.  @min_us PERT_WIN_MIN_EMPTY: maxq.
 */
static inline u32 pert_beta_ref_us(u32 maxq_us, u32 min_us)
{
	if (min_us == PERT_WIN_MIN_EMPTY || min_us <= maxq_us)
		return maxq_us;
	return min_us;
}

/*
 * pert_beta() - multiplicative decrease curq / (curq + maxq) in 1/1024,
 * clamped to [@beta_min, @beta_max].  See docs/pert.md for the bounds.
 */
static inline u32 pert_beta(u32 curq_us, u32 maxq_us, u32 beta_min,
			    u32 beta_max)
{
	u64 den = (u64)curq_us + maxq_us;
	u32 b = den ? (u32)div64_u64((u64)curq_us << PERT_BETA_SHIFT, den) : 0;

	if (b > beta_max)
		b = beta_max;
	if (b < beta_min)
		b = beta_min;
	return b;
}

/*
 * pert_cwnd_after_decrease() - (1 - beta) cwnd, the decrease rounded up
 * so that any beta > 0 takes at least one packet, and never below
 * PERT_MIN_CWND (used for cwnd and ssthresh alike).
 */
static inline u32 pert_cwnd_after_decrease(u32 cwnd, u32 beta)
{
	u64 dec = ((u64)cwnd * beta + PERT_BETA_ONE - 1) >> PERT_BETA_SHIFT;
	u32 next = dec < cwnd ? cwnd - (u32)dec : 0;

	return next > PERT_MIN_CWND ? next : PERT_MIN_CWND;
}

/*
 * pert_cwnd_ai() - additive increase, cwnd += alpha / cwnd per ACKed
 * packet, i.e. alpha packets per window.  @acc carries the remainder in
 * 1/1024 packet; the result is capped at @cwnd_clamp.
 */
static inline u32 pert_cwnd_ai(u32 cwnd, u32 *acc, u32 acked, u32 alpha,
			       u32 cwnd_clamp)
{
	u64 w, a;

	if (!cwnd)
		cwnd = 1;
	w = (u64)cwnd << PERT_ALPHA_SHIFT;
	a = (u64)*acc + (u64)acked * alpha;
	if (a >= w) {
		u64 delta = div64_u64(a, w);

		a -= delta * w;
		if (delta > (u64)(U32_MAX - cwnd))
			delta = U32_MAX - cwnd;
		cwnd += (u32)delta;
	}
	*acc = a > U32_MAX ? U32_MAX : (u32)a;
	return cwnd < cwnd_clamp ? cwnd : cwnd_clamp;
}

/* ------------------------------------------------------------------------
 * Phases: regions of curq and the alpha rules
 */
enum pert_region {
	PERT_REGION_NONE = 0,		/* no RTT sample yet */
	PERT_REGION_HIGH_SPEED = 1,	/* curq <= T1 */
	PERT_REGION_SAFE = 2,		/* T1 < curq < compete_pct% maxq */
	PERT_REGION_COMPETE = 3,	/* curq >= compete_pct% maxq */
};

enum pert_alpha_rule {
	PERT_RULE_NONE = 0,	/* not due: alpha unchanged */
	PERT_RULE_HIGH_SPEED,	/* alpha = min(alpha + 0.5, alpha_max) */
	PERT_RULE_COMPETE,	/* alpha = min(alpha + 0.1, target, max) */
	PERT_RULE_SAFE,		/* alpha = max(0.9 alpha, 1) */
};

/*
 * pert_compete_floor_us() - the compete region never starts below 2 T2,
 * T3's floor: at or above it PERT alone responds every RTT (p = 1), so a
 * queue that stays there belongs to someone else.  Without the floor a
 * PERT that never fills the buffer (maxq ~ min_maxq = 10 ms) would read
 * its own T1..T2 queue as the compete region.
 */
static inline u32 pert_compete_floor_us(u32 t2_us)
{
	return t2_us > U32_MAX / 2 ? U32_MAX : 2 * t2_us;
}

/*
 * High-speed wins when both hold (T1 >= the compete threshold): compete
 * from curq >= max(compete_pct% maxq, @floor_us).
 */
static inline enum pert_region pert_classify(u32 curq_us, u32 t1_us,
					     u32 maxq_us, u32 compete_pct,
					     u32 floor_us)
{
	if (curq_us <= t1_us)
		return PERT_REGION_HIGH_SPEED;
	if ((u64)curq_us * PERT_PCT >= (u64)maxq_us * compete_pct &&
	    curq_us >= floor_us)
		return PERT_REGION_COMPETE;
	return PERT_REGION_SAFE;
}

struct pert_phase {
	u32 pkts;		/* packets ACKed in @region since it was entered
				 * or since the last alpha update
				 */
	u32 last_update_us;	/* us timestamp of the last alpha update */
	u32 squeeze_cwnd;	/* cwnd before the first early response since
				 * the queue was last empty (a high-speed
				 * update); 0: none.  Restored through
				 * ssthresh when the compete phase begins.
				 */
	u8 region;		/* enum pert_region of the last ACK */
	u8 compete;		/* 1: in the compete phase */
	u8 streak;		/* updates in a row towards entering (compete
				 * rules) or leaving (other rules) the phase
				 */
	u8 held;		/* 0, or a PERT_HELD_ state: a loss in the phase;
				 * until the compete region returns after the
				 * dip it opened, safe and mixed updates do
				 * not count towards leaving
				 * (pert_phase_note_loss())
				 */
};

/* Connection start: no region, no streak, not in the compete phase. */
static inline void pert_phase_reset(struct pert_phase *ph, u32 now_us)
{
	ph->pkts = 0;
	ph->last_update_us = now_us;
	ph->region = PERT_REGION_NONE;
	ph->compete = 0;
	ph->streak = 0;
	ph->squeeze_cwnd = 0;
	ph->held = 0;
}

/*
 * pert_phase_restart() - RTO: restart the region count and the cadence,
 * keep the compete phase and its streak (an RTO does not tell who holds
 * the queue).
 */
static inline void pert_phase_restart(struct pert_phase *ph, u32 now_us)
{
	ph->pkts = 0;
	ph->last_update_us = now_us;
	ph->region = PERT_REGION_NONE;
}

/*
 * pert_phase_step() - feed one ACK of @acked packets seen in @region.
 * A change of region restarts the count.  Once @cadence_srtts * @srtt_us
 * have passed since the last update, an update is due: the high-speed or
 * compete rule if the current region has held for a full window (@cwnd
 * packets), the safe rule (decay) otherwise, including mixed windows.
 * A due update restarts the count and the cadence.
 */
static inline enum pert_alpha_rule pert_phase_step(struct pert_phase *ph,
						   enum pert_region region,
						   u32 acked, u32 cwnd,
						   u32 now_us, u32 srtt_us,
						   u32 cadence_srtts)
{
	enum pert_alpha_rule rule = PERT_RULE_SAFE;

	if (ph->region != region) {
		ph->region = region;
		ph->pkts = 0;
	}
	ph->pkts = pert_sat_add(ph->pkts, acked);

	if ((u64)(now_us - ph->last_update_us) < (u64)cadence_srtts * srtt_us)
		return PERT_RULE_NONE;

	if (ph->pkts >= cwnd) {
		if (region == PERT_REGION_HIGH_SPEED)
			rule = PERT_RULE_HIGH_SPEED;
		else if (region == PERT_REGION_COMPETE)
			rule = PERT_RULE_COMPETE;
	}
	ph->pkts = 0;
	ph->last_update_us = now_us;
	return rule;
}

#define PERT_HELD_LOSS	1U	/* a loss in the phase, the dip not seen yet */
#define PERT_HELD_DIP	2U	/* in the dip that loss opened */
#define PERT_HELD_LAG	3U	/* one compete update since the loss (srtt lag) */

/*
 * pert_phase_track() - the compete phase, fed with every due alpha update
 * (@rule != PERT_RULE_NONE).  The compete region held over @enter_n updates
 * in a row (each a full window and at least phase_srtts srtt apart) means
 * the queue stays at or above compete_pct% of maxq although PERT responds
 * at up to p = 1: someone else - a loss-based flow - holds it.  The phase
 * ends at once with a high-speed update (the queue has emptied: the
 * competitor is gone) or after @exit_n other updates in a row (a safe or
 * mixed window; a short dip of the competitor's sawtooth does not end it).
 * Other updates in a dip that a loss in the phase opened (@ph->held, see
 * pert_phase_note_loss()) do not count: that dip is a loss-based
 * sawtooth's, however long it lasts.  A dip opens the loss's hold only if
 * it begins within one compete update of the loss (PERT's srtt lags the
 * queue); a second compete update first ends the hold, so that a later
 * dip (the competitor leaving) counts again.  Returns true when the phase
 * changed.
 */
static inline bool pert_phase_track(struct pert_phase *ph,
				    enum pert_alpha_rule rule, u32 enter_n,
				    u32 exit_n)
{
	bool was = ph->compete;

	if (rule == PERT_RULE_NONE)
		return false;
	if (rule == PERT_RULE_HIGH_SPEED)
		ph->squeeze_cwnd = 0;
	if (!ph->compete) {
		ph->streak = rule == PERT_RULE_COMPETE ?
			     ph->streak + (ph->streak < PERT_STREAK_MAX) : 0;
		if (ph->streak >= enter_n) {
			ph->compete = 1;
			ph->streak = 0;
		}
	} else if (rule == PERT_RULE_COMPETE) {
		ph->streak = 0;
		ph->held = ph->held == PERT_HELD_LOSS ? PERT_HELD_LAG : 0;
	} else if (rule == PERT_RULE_HIGH_SPEED) {
		ph->compete = 0;
		ph->streak = 0;
		ph->held = 0;
	} else if (ph->held) {
		ph->held = PERT_HELD_DIP;
	} else {
		ph->streak += ph->streak < PERT_STREAK_MAX;
		if (ph->streak >= exit_n) {
			ph->compete = 0;
			ph->streak = 0;
		}
	}
	return ph->compete != was;
}

/*
 * pert_phase_note_loss() - a loss response (.ssthresh: fast recovery, RTO,
 * ECN).  In the compete phase it holds the phase through the dip it opens
 * until the next compete update: after a loss a loss-based competitor's
 * queue (Reno: halved windows) drains below compete_pct% maxq and refills
 * at one packet per RTT per flow, seconds at 1 BDP, far longer than
 * compete_exit updates (15 srtt).  Leaving there made PERT answer the
 * refilling queue with an early response every RTT, down to cwnd 2, on
 * every cycle of the competitor's sawtooth (docs/pert.md, "Issue 21 against
 * Reno").  A high-speed update (the queue emptied) still ends the phase.
 */
static inline void pert_phase_note_loss(struct pert_phase *ph)
{
	if (ph->compete)
		ph->held = PERT_HELD_LOSS;
}

/*
 * pert_phase_note_response() - an early response taken at @cwnd outside
 * the compete phase: remember the window before the first one since the
 * queue was last empty.  If these responses end in the compete phase they
 * were answers to someone else's queue (p = 1 every RTT squeezes PERT to
 * cwnd 2 before the phase can be detected): pert_phase_entry_ssthresh()
 * gives that window back.
 */
static inline void pert_phase_note_response(struct pert_phase *ph, u32 cwnd)
{
	if (!ph->compete && !ph->squeeze_cwnd)
		ph->squeeze_cwnd = cwnd;
}

/*
 * pert_phase_entry_ssthresh() - on entering the compete phase: the
 * ssthresh that lets slow start regrow the window the squeeze took away,
 * max(@ssthresh, squeeze_cwnd).  Consumes the record.
 */
static inline u32 pert_phase_entry_ssthresh(struct pert_phase *ph,
					    u32 ssthresh)
{
	u32 w = ph->squeeze_cwnd;

	ph->squeeze_cwnd = 0;
	return w > ssthresh ? w : ssthresh;
}

/*
 * pert_decrease_beta() - the decrease of a response (early or loss), 1/1024.
 * Outside the compete phase curq / (curq + max(maxq, min_rtt)) clamped to
 * [beta_min, beta_max]; in the phase the fixed @compete_beta (docs/pert.md,
 * "The compete phase").
 */
static inline u32 pert_decrease_beta(u32 curq_us, u32 maxq_us, u32 min_us,
				     bool compete,
				     const struct pert_params *p)
{
	if (compete)
		return p->compete_beta;
	return pert_beta(curq_us, pert_beta_ref_us(maxq_us, min_us),
			 p->beta_min, p->beta_max);
}

/*
 * pert_ss_exit_step() - delay-based exit from slow start, one RTT sample.
 * Slow start doubles the window per round: once the pipe is full the queue
 * grows by a BDP per RTT, so PERT's 0.99-EWMA srtt (and T1) would see it
 * only after a 1-BDP buffer has overflowed.  The exit reads the raw
 * samples: @above counts samples in a row with rtt >= min_rtt +
 * @thresh_us (the minimum of the last PERT_SS_EXIT_SAMPLES samples above
 * it: a delayed ACK or a burst does not exit); true when it reaches
 * PERT_SS_EXIT_SAMPLES.  @thresh_us 0 or no min_rtt: never.
 */
static inline bool pert_ss_exit_step(u8 *above, u32 rtt_us, u32 min_us,
				     u32 thresh_us)
{
	if (!thresh_us || min_us == PERT_WIN_MIN_EMPTY ||
	    (u64)rtt_us < (u64)min_us + thresh_us) {
		*above = 0;
		return false;
	}
	if (*above < PERT_SS_EXIT_SAMPLES)
		(*above)++;
	return *above >= PERT_SS_EXIT_SAMPLES;
}

/*
 * pert_compete_target() - alpha target of the compete region, 1/1024:
 * 1 at curq = compete_pct% maxq rising linearly to 1 + p'/p at
 * PERT_TARGET_FULL_PCT% maxq and flat above, capped at @alpha_max
 * (packets).  @ratio is p'/p in 1/1024 (pert_li_ratio()); with
 * PERT_RATIO_NONE (p = 0, no loss yet) the result is PERT_TARGET_NONE and
 * the rule only caps at alpha_max.
 */
static inline u32 pert_compete_target(u32 curq_us, u32 maxq_us,
				      u32 compete_pct, u32 ratio,
				      u32 alpha_max)
{
	u64 lo = div_u64((u64)maxq_us * compete_pct, PERT_PCT);
	u64 hi = div_u64((u64)maxq_us * PERT_TARGET_FULL_PCT, PERT_PCT);
	u64 cap = (u64)alpha_max << PERT_ALPHA_SHIFT;
	u64 t;

	if (ratio == PERT_RATIO_NONE)
		return PERT_TARGET_NONE;
	if (curq_us <= lo)
		t = 0;
	else if (curq_us >= hi || hi <= lo)
		t = ratio;
	else
		t = div64_u64((u64)ratio * (curq_us - lo), hi - lo);
	t += PERT_ALPHA_ONE;
	if (cap < PERT_ALPHA_ONE)
		cap = PERT_ALPHA_ONE;
	return t > cap ? (u32)cap : (u32)t;
}

/* pert_alpha_apply() - the new alpha (1/1024) after @rule. */
static inline u32 pert_alpha_apply(u32 alpha, enum pert_alpha_rule rule,
				   u32 target, u32 alpha_max)
{
	u64 cap = (u64)alpha_max << PERT_ALPHA_SHIFT;
	u64 a;

	if (cap < PERT_ALPHA_ONE)
		cap = PERT_ALPHA_ONE;
	switch (rule) {
	case PERT_RULE_HIGH_SPEED:
		a = (u64)alpha + PERT_ALPHA_HS_STEP;
		break;
	case PERT_RULE_COMPETE:
		a = (u64)alpha + PERT_ALPHA_COMPETE_STEP;
		if (a > target)
			a = target;
		break;
	case PERT_RULE_SAFE:
		a = div_u64((u64)alpha * PERT_ALPHA_DECAY_NUM,
			    PERT_ALPHA_DECAY_DEN);
		break;
	default:
		return alpha;
	}
	if (a > cap)
		a = cap;
	if (a < PERT_ALPHA_ONE)
		a = PERT_ALPHA_ONE;
	return (u32)a;
}

/* ------------------------------------------------------------------------
 * TFRC-style loss-interval estimator (RFC 5348 section 5.4)
 *
 * A fixed ring of the last PERT_LI_SLOTS closed intervals (packets between
 * two events) and the open one (packets since the last event).  Weights,
 * newest first, 1 1 1 1 0.8 0.6 0.4 0.2 (kept in fifths: 5 5 5 5 4 3 2 1).
 * With k closed intervals (1 <= k <= 8):
 *   I_tot1 = sum_{i<k} w_i closed_i                (open interval left out)
 *   I_tot0 = w_0 open + sum_{1<=i<k} w_i closed_{i-1}   (open counted)
 *   p      = sum_{i<k} w_i / max(I_tot0, I_tot1)
 * so the open interval counts once it raises the mean, and p decays while
 * no event comes.  No event yet: p = 0.
 */
#define PERT_LI_SLOTS		8U
#define PERT_LI_FULL_WEIGHTS	4U	/* the first 4 weigh 1 */
#define PERT_LI_WEIGHT_SCALE	5U	/* weights in fifths */

struct pert_li {
	u32 closed[PERT_LI_SLOTS];	/* packets, ring, newest at @head */
	u32 open;			/* packets since the last event */
	u8 head;			/* slot of the newest closed interval */
	u8 count;			/* closed intervals held, 0..8 */
};

/* weight of the i-th newest interval, in fifths */
static inline u32 pert_li_weight(u32 i)
{
	if (i < PERT_LI_FULL_WEIGHTS)
		return PERT_LI_WEIGHT_SCALE;
	return i < PERT_LI_SLOTS ? PERT_LI_SLOTS - i : 0;
}

static inline void pert_li_reset(struct pert_li *li)
{
	u32 i;

	for (i = 0; i < PERT_LI_SLOTS; i++)
		li->closed[i] = 0;
	li->open = 0;
	li->head = 0;
	li->count = 0;
}

/* count @pkts more packets into the open interval (saturating) */
static inline void pert_li_add(struct pert_li *li, u32 pkts)
{
	li->open = pert_sat_add(li->open, pkts);
}

/* an event: close the open interval into the ring, overwriting the oldest */
static inline void pert_li_event(struct pert_li *li)
{
	li->head = (li->head + 1) % PERT_LI_SLOTS;
	li->closed[li->head] = li->open;
	li->open = 0;
	if (li->count < PERT_LI_SLOTS)
		li->count++;
}

/* the i-th newest closed interval, i < count */
static inline u32 pert_li_closed(const struct pert_li *li, u32 i)
{
	return li->closed[(li->head + PERT_LI_SLOTS - i) % PERT_LI_SLOTS];
}

/*
 * pert_li_sums() - the weighted sums of RFC 5348 5.4: *tot = max(I_tot0,
 * I_tot1) in fifths of a packet (at least *wtot, i.e. I_mean >= 1
 * packet, so that p <= 1), *wtot = sum of the k weights in fifths.
 * Returns false before the first event (p = 0).
 */
static inline bool pert_li_sums(const struct pert_li *li, u64 *tot,
				u64 *wtot)
{
	u64 tot0 = 0, tot1 = 0, wt = 0;
	u32 k = li->count < PERT_LI_SLOTS ? li->count : PERT_LI_SLOTS;
	u32 i, w;

	if (!k)
		return false;
	for (i = 0; i < k; i++) {
		w = pert_li_weight(i);
		wt += w;
		tot1 += (u64)pert_li_closed(li, i) * w;
		tot0 += (u64)(i ? pert_li_closed(li, i - 1) : li->open) * w;
	}
	*tot = tot0 > tot1 ? tot0 : tot1;
	if (*tot < wt)
		*tot = wt;
	*wtot = wt;
	return true;
}

/*
 * pert_li_rate() - event rate p = 1 / I_mean in 1/65536, rounded to
 * nearest; 0 before the first event.  Rates below 2^-17 (mean intervals
 * above 131072 packets) round to 0: use pert_li_ratio() for p'/p.
 */
static inline u32 pert_li_rate(const struct pert_li *li)
{
	u64 tot, wtot;

	if (!pert_li_sums(li, &tot, &wtot))
		return 0;
	return (u32)div64_u64((wtot << PERT_PROB_SHIFT) + tot / 2, tot);
}

/*
 * pert_li_ratio() - p'/p = I_mean(loss) / I_mean(early) in 1/1024, from
 * the sums themselves (no rounding of tiny rates): 0 before the first
 * early response, PERT_RATIO_NONE before the first loss, otherwise
 * saturating below PERT_RATIO_NONE.
 *   (wtot_e * tot_l << 10) <= 30 * 2^37 * 2^10 < 2^52
 */
static inline u32 pert_li_ratio(const struct pert_li *early,
				const struct pert_li *loss)
{
	u64 tot_e, wtot_e, tot_l, wtot_l, r;

	if (!pert_li_sums(loss, &tot_l, &wtot_l))
		return PERT_RATIO_NONE;
	if (!pert_li_sums(early, &tot_e, &wtot_e))
		return 0;
	r = div64_u64((wtot_e * tot_l) << PERT_ALPHA_SHIFT, tot_e * wtot_l);
	return r >= PERT_RATIO_NONE ? PERT_RATIO_NONE - 1 : (u32)r;
}

/*
 * pert_compete_budget_ok() - in the compete phase, may an early-response
 * signal be acted on?  The papers' a' = 1 + p'/p read the other way round:
 * with alpha given, PERT keeps TCP's throughput as long as it takes no more
 * than p' = (alpha - 1) p early responses per packet, i.e. one per
 * I_loss / (alpha - 1) packets, I_loss = 1/p the mean loss interval.  True
 * when @since_pkts, the packets ACKed since the last early response taken,
 * reach that spacing.  False with alpha <= 1 or before the first loss
 * (p = 0): PERT then responds to losses only.
 *   since * (alpha - 1) * wtot < 2^32 * 2^16 * 2^5 = 2^53 (alpha <= 64)
 *   tot << 10 < 2^37 * 2^10
 */
static inline bool pert_compete_budget_ok(u32 since_pkts, u32 alpha,
					  const struct pert_li *loss)
{
	u64 tot, wtot, extra;

	if (alpha <= PERT_ALPHA_ONE || !pert_li_sums(loss, &tot, &wtot))
		return false;
	extra = alpha - PERT_ALPHA_ONE;
	if (extra > (u64)PERT_ALPHA_MAX_MAX << PERT_ALPHA_SHIFT)
		extra = (u64)PERT_ALPHA_MAX_MAX << PERT_ALPHA_SHIFT;
	return (u64)since_pkts * extra * wtot >= tot << PERT_ALPHA_SHIFT;
}

#endif /* PERT_MATH_H */
