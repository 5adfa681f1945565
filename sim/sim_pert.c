// SPDX-License-Identifier: GPL-2.0
/*
 * PERT in the scale engine (docs/sim.md): pert_math.h unchanged, driven as
 * tcp_pert.c drives it, one function for one function:
 *
 *   pert_param_set(), pert_cfg  the module parameters (same names,
 *                               defaults, static ranges, and the
 *                               cross-check of pert_param_check())
 *   pert_init()                 pert_init() (the loss-interval history is
 *                               always there: never base PERT)
 *   pert_mark_response()        pert_mark_response()
 *   (pert_signal_update(), the srtt and RTT windows, is pert_math.h's:
 *   one function for both)
 *   pert_update_alpha()         pert_update_alpha()
 *   pert_pkts_acked()           pert_pkts_acked(), every ACK (the engine's
 *                               pkts_acked hook: segments newly cumulatively
 *                               acknowledged, the ACK's RTT sample)
 *   pert_check_early_response() pert_check_early_response()
 *   pert_on_ack()               pert_cong_avoid()
 *   pert_ssthresh()             pert_ssthresh()
 *   pert_on_rto()               pert_set_state(TCP_CA_Loss)
 *   pert_check_ss_exit()        pert_check_ss_exit()
 *   pert_enter_compete()        pert_enter_compete()
 *
 * The clock is TCP's us clock as a u32 (tcp_mstamp); get_random_u32() is
 * sim_random_u32(), a stream of its own seeded by the scenario's seed.
 * Not mirrored: pert_undo_cwnd() (no undo in the engine), get_info, the
 * tracepoints.  tcp_is_cwnd_limited() is true (an always-backlogged
 * application); cong_avoid runs only on ACKs that move data, as
 * tcp_may_raise_cwnd() lets it.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "../pert_math.h"

struct pert_history {
	struct pert_li loss, early;
	u32 since_pkts;
};

struct pert {
	struct pert_signal sig;
	struct pert_history hist;
	struct pert_phase phase;
	u32 alpha, ai_acc, resp_seq, resp_us, responses, loss_cwnd;
	bool responded;
	u8 ss_above;
};

static struct pert_params pert_cfg;
static bool pert_cfg_init;

static void cfg_default(void)
{
	if (!pert_cfg_init) {
		pert_params_default(&pert_cfg);
		pert_cfg_init = true;
	}
}

/* tcp_pert.c's PERT_PARAM() lines: name, id, static [lo, hi] */
static const struct {
	const char *name;
	enum pert_param id;
	unsigned lo, hi;
} pert_params_tab[] = {
	{ "t1_us", PERT_PARAM_T1_US, 100, 1999999 },
	{ "t2_us", PERT_PARAM_T2_US, 101, 2000000 },
	{ "t3_pct", PERT_PARAM_T3_PCT, 10, 100 },
	{ "pmax_permille", PERT_PARAM_PMAX_PERMILLE, 1, 1000 },
	{ "min_maxq_us", PERT_PARAM_MIN_MAXQ_US, 1000, 1000000 },
	{ "compete_pct", PERT_PARAM_COMPETE_PCT, 10, 60 },
	{ "alpha_max", PERT_PARAM_ALPHA_MAX, 1, 64 },
	{ "beta_min", PERT_PARAM_BETA_MIN, 16, 512 },
	{ "beta_max", PERT_PARAM_BETA_MAX, 16, 512 },
	{ "phase_srtts", PERT_PARAM_PHASE_SRTTS, 1, 100 },
	{ "min_rtt_win_ms", PERT_PARAM_MIN_RTT_WIN_MS, 1000, 600000 },
	{ "max_rtt_win_ms", PERT_PARAM_MAX_RTT_WIN_MS, 1000, 600000 },
	{ "compete_phase", PERT_PARAM_COMPETE_PHASE, 0, 1 },
	{ "compete_enter", PERT_PARAM_COMPETE_ENTER, 1, 100 },
	{ "compete_exit", PERT_PARAM_COMPETE_EXIT, 1, 100 },
	{ "ss_exit_us", PERT_PARAM_SS_EXIT_US, 0, 100000 },
	{ "compete_beta", PERT_PARAM_COMPETE_BETA, 16, 512 },
};

int pert_param_set(const char *name, unsigned val)
{
	struct pert_params set;
	size_t i;
	u32 lo, hi;

	cfg_default();
	set = pert_cfg;
	for (i = 0; i < sizeof(pert_params_tab) / sizeof(pert_params_tab[0]); i++) {
		if (strcmp(pert_params_tab[i].name, name))
			continue;
		if (val < pert_params_tab[i].lo || val > pert_params_tab[i].hi)
			return -2;
		/* cc_param_cross_check(): the new value with the others */
		pert_param_store(&set, pert_params_tab[i].id, val);
		pert_param_bounds(pert_params_tab[i].id, &set, &lo, &hi);
		if (val < lo || val > hi || !pert_params_valid(&set))
			return -2;
		pert_cfg = set;
		return 0;
	}
	return -1;
}

static u32 now_us(void)
{
	return (u32)(sim_now / 1000);
}

static void *pert_alloc(void)
{
	return calloc(1, sizeof(struct pert));
}

static void pert_init(struct flow *f)
{
	struct pert *ca = f->ca;
	u32 now = now_us();

	cfg_default();
	memset(ca, 0, sizeof(*ca));
	pert_signal_reset(&ca->sig, now);
	pert_phase_reset(&ca->phase, now);
	ca->alpha = PERT_ALPHA_ONE;
	pert_li_reset(&ca->hist.loss);
	pert_li_reset(&ca->hist.early);
	ca->hist.since_pkts = 0;
	f->cwnd = 10;
	f->ssthresh = UINT32_MAX;
}

static void pert_mark_response(const struct flow *f, struct pert *ca)
{
	ca->resp_seq = f->snd_nxt;
	ca->resp_us = now_us();
	ca->responded = true;
}

/* pert_enter_compete() */
static void pert_enter_compete(struct flow *f, struct pert *ca)
{
	f->ssthresh = pert_phase_entry_ssthresh(&ca->phase, f->ssthresh);
}

/* pert_check_ss_exit() */
static void pert_check_ss_exit(struct flow *f, struct pert *ca, s32 rtt_us,
			       const struct pert_params *p)
{
	if (!(f->cwnd < f->ssthresh) || ca->phase.compete || rtt_us < 0) {
		ca->ss_above = 0;
		return;
	}
	if (!pert_ss_exit_step(&ca->ss_above, rtt_us, pert_win_min(&ca->sig.rtt),
			       p->ss_exit_us))
		return;
	ca->ss_above = 0;
	f->ssthresh = f->cwnd > PERT_MIN_CWND ? f->cwnd : PERT_MIN_CWND;
}

static void pert_update_alpha(struct flow *f, struct pert *ca, u32 acked,
			      u32 now, const struct pert_params *p)
{
	enum pert_region region;
	enum pert_alpha_rule rule;
	u32 target = PERT_TARGET_NONE;

	region = pert_classify(ca->sig.curq_us, p->t1_us, ca->sig.maxq_us,
			       p->compete_pct, pert_compete_floor_us(p->t2_us));
	rule = pert_phase_step(&ca->phase, region, acked, f->cwnd, now,
			       pert_signal_srtt(&ca->sig), p->phase_srtts);
	if (rule == PERT_RULE_NONE)
		return;
	if (p->compete_phase) {
		if (pert_phase_track(&ca->phase, rule, p->compete_enter,
				     p->compete_exit) && ca->phase.compete)
			pert_enter_compete(f, ca);
	} else {
		ca->phase.compete = 0;
	}
	if (rule == PERT_RULE_COMPETE)
		target = pert_compete_target(ca->sig.curq_us, ca->sig.maxq_us,
					     p->compete_pct,
					     pert_li_ratio(&ca->hist.early,
							   &ca->hist.loss),
					     p->alpha_max);
	ca->alpha = pert_alpha_apply(ca->alpha, rule, target, p->alpha_max);
}

static void pert_pkts_acked(struct flow *f, uint32_t pkts, int64_t rtt_us)
{
	struct pert *ca = f->ca;
	u32 now = now_us();

	pert_li_add(&ca->hist.loss, pkts);
	pert_li_add(&ca->hist.early, pkts);
	ca->hist.since_pkts = pert_sat_add(ca->hist.since_pkts, pkts);
	s32 rtt = rtt_us < 0 ? -1 : rtt_us > INT32_MAX ? INT32_MAX : (s32)rtt_us;

	pert_signal_update(&ca->sig, rtt, now, ca->phase.compete, &pert_cfg);
	pert_check_ss_exit(f, ca, rtt, &pert_cfg);
	if (ca->sig.srtt_scaled)
		pert_update_alpha(f, ca, pkts, now, &pert_cfg);
}

static void pert_check_early_response(struct flow *f, struct pert *ca)
{
	u32 cwnd = f->cwnd;
	u32 next;

	if (!ca->sig.prob || cwnd <= PERT_MIN_CWND)
		return;
	if (!pert_may_respond(ca->responded, f->snd_una, ca->resp_seq,
			      now_us(), ca->resp_us, pert_signal_srtt(&ca->sig)))
		return;
	if (!pert_decide(ca->sig.prob, sim_random_u32()))
		return;

	pert_mark_response(f, ca);
	pert_phase_note_response(&ca->phase, cwnd);
	pert_li_event(&ca->hist.early);
	if (ca->phase.compete &&
	    !pert_compete_budget_ok(ca->hist.since_pkts, ca->alpha,
				    &ca->hist.loss))
		return;
	ca->hist.since_pkts = 0;

	next = pert_cwnd_after_decrease(cwnd, pert_decrease_beta(ca->sig.curq_us,
				ca->sig.maxq_us, pert_win_min(&ca->sig.rtt),
				ca->phase.compete, &pert_cfg));
	f->cwnd = next;
	f->ssthresh = next;
	ca->ai_acc = 0;
	ca->responses++;
}

/* pert_cong_avoid(); the engine calls it outside recovery only */
static void pert_on_ack(struct flow *f, uint32_t acked, const struct rate_sample *rs)
{
	struct pert *ca = f->ca;

	(void)rs;
	if (!acked)		/* tcp_may_raise_cwnd(): no forward progress */
		return;
	if (f->cwnd < f->ssthresh)
		acked = slow_start(f, acked);
	if (acked) {
		u32 amax = pert_cfg.alpha_max << PERT_ALPHA_SHIFT;

		f->cwnd = pert_cwnd_ai(f->cwnd, &ca->ai_acc, acked,
				       ca->alpha < amax ? ca->alpha : amax,
				       UINT32_MAX);
	}
	if (!(f->cwnd < f->ssthresh))
		pert_check_early_response(f, ca);
}

static uint32_t pert_ssthresh(struct flow *f)
{
	struct pert *ca = f->ca;

	ca->loss_cwnd = f->cwnd;
	pert_li_event(&ca->hist.loss);
	pert_phase_note_loss(&ca->phase);
	pert_mark_response(f, ca);
	return pert_cwnd_after_decrease(f->cwnd, pert_decrease_beta(ca->sig.curq_us,
				ca->sig.maxq_us, pert_win_min(&ca->sig.rtt),
				ca->phase.compete, &pert_cfg));
}

static void pert_state(struct flow *f, int s)
{
	(void)f;
	(void)s;
}

/* pert_set_state(TCP_CA_Loss) */
static void pert_on_rto(struct flow *f)
{
	struct pert *ca = f->ca;

	pert_phase_restart(&ca->phase, now_us());
	ca->ai_acc = 0;
}

const struct cc_ops cc_pert = {
	.name = "pert", .alloc = pert_alloc, .init = pert_init,
	.on_ack = pert_on_ack, .ssthresh = pert_ssthresh,
	.set_state = pert_state, .on_rto = pert_on_rto,
	.pkts_acked = pert_pkts_acked,
};
