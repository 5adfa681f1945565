// SPDX-License-Identifier: GPL-2.0
/*
 * RAPID's sender glue for the scale engine: the minimal equivalent of
 * tcp_rapid.c's driver of the pure headers (rapid_chirp.h, rapid_sest.h,
 * rapid_pathchirp.h), which are compiled in unchanged.  Every function
 * names the tcp_rapid.c function it mirrors; docs/sim.md lists what is
 * left out (undo, idle restart).  The receiving host's helper
 * (tcp_rapid_rx.c) is here too: rx_*() mirror its recording, analysis and
 * feedback, the same rapid_pathchirp.h calls on the exact arrival times.
 *
 * Sequence numbers here count segments (the engine's unit), so the byte
 * arithmetic of tcp_rapid.c (acked / mss) becomes a plain count; rates
 * and gaps use the real payload size SIM_MSS.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "../rapid_sest.h"

struct rapid_params rapid_p = {
	.n = RAPID_DEF_N, .m = RAPID_DEF_M, .ss_n_max = RAPID_DEF_SS_N_MAX,
	.initial_rate_kbps = RAPID_DEF_INIT_KBPS, .tau_ms = RAPID_DEF_TAU_MS,
	.min_rate_kbps = RAPID_KBPS_MIN, .max_rate_kbps = RAPID_KBPS_MAX,
	.loss_factor = RAPID_DEF_LOSS_FACTOR, .sender_estimate = 1,
	.drain_max = 250, .law = RAPID_LAW_REPORT, .q_target_us = 2000,
	.law_t_ms = 100, .adapt_tau = 1, .compete = 1,
	.compete_pkts = RAPID_DEF_COMPETE_PKTS, .keep_milli = RAPID_DEF_KEEP_MILLI,
	.keep_ms = RAPID_DEF_KEEP_MS, .keep_arm_ms = RAPID_DEF_KEEP_ARM_MS,
	.count_flows = 1,
	.probe_milli = 20, .jump_milli = RAPID_DEF_JUMP_MILLI,
	.jump_mean = RAPID_DEF_JUMP_MEAN,
	.accel_max = RAPID_DEF_ACCEL_MAX,
	.cut_max = RAPID_DEF_CUT_MAX, .cut_deep = RAPID_DEF_CUT_DEEP,
	.hold_milli = RAPID_DEF_HOLD_MILLI,
	.cut_share_ms = RAPID_DEF_CUT_SHARE_MS,
	.median = RAPID_DEF_MEDIAN, .ss_refine = RAPID_DEF_SS_REFINE,
	.refine_m = RAPID_DEF_REFINE_M,
	.pace_drain = RAPID_DEF_PACE_DRAIN, .bias_milli = RAPID_DEF_BIAS_MILLI,
	.ss_exit_dr = RAPID_DEF_SS_EXIT_DR,
	.f_milli = RAPID_SEST_F_DEFAULT,
	.ack_noise_us = RAPID_SEST_Q_NOISE_NS_DEF / 1000,
	.ack_noise_mult = RAPID_SEST_NOISE_MULT_DEF, .stream_slots = 128,
	.mark_data = 1, .count_report = RAPID_DEF_COUNT_REPORT,
	.share_pkts = RAPID_DEF_SHARE_PKTS, .fair_pkts = RAPID_DEF_FAIR_PKTS,
	.ai_pkts = RAPID_DEF_AI_PKTS, .reorder_hold = RAPID_DEF_REORDER_HOLD,
	.compete_us = RAPID_DEF_COMPETE_US,
	.ss_n_init = RAPID_DEF_SS_N_FIRST,
	.stream_srtt_pct = RAPID_DEF_STREAM_SRTT_PCT,
	.count_up_milli = RAPID_DEF_COUNT_UP_MILLI,
};

/* The module's parameter table: name, field, [min, max] (tcp_rapid.c). */
static const struct {
	const char *name;
	unsigned *v;
	unsigned lo, hi;
	bool zero_off;
} params[] = {
	{ "n", &rapid_p.n, RAPID_N_MIN, RAPID_N_MAX, false },
	{ "m", &rapid_p.m, RAPID_M_MIN, RAPID_M_MAX, false },
	{ "ss_n_max", &rapid_p.ss_n_max, RAPID_N_MIN, RAPID_N_MAX, false },
	{ "ss_n_init", &rapid_p.ss_n_init, RAPID_N_MIN, RAPID_N_MAX, false },
	{ "initial_rate_kbps", &rapid_p.initial_rate_kbps, RAPID_KBPS_MIN, RAPID_KBPS_MAX, false },
	{ "tau_ms", &rapid_p.tau_ms, 1, RAPID_TAU_MAX_MS, false },
	{ "min_rate_kbps", &rapid_p.min_rate_kbps, RAPID_KBPS_MIN, RAPID_KBPS_MAX, false },
	{ "max_rate_kbps", &rapid_p.max_rate_kbps, RAPID_KBPS_MIN, RAPID_KBPS_MAX, false },
	{ "loss_factor", &rapid_p.loss_factor, RAPID_LOSS_FACTOR_MIN, RAPID_LOSS_FACTOR_MAX, false },
	{ "fixed_rate_kbps", &rapid_p.fixed_rate_kbps, RAPID_KBPS_MIN, RAPID_KBPS_MAX, true },
	{ "inject_abest_kbps", &rapid_p.inject_abest_kbps, 1, RAPID_KBPS_MAX, true },
	{ "sender_estimate", &rapid_p.sender_estimate, 0, 1, false },
	{ "mark_data", &rapid_p.mark_data, 0, 1, false },
	{ "count_report", &rapid_p.count_report, 0, 1, false },
	{ "count_up_milli", &rapid_p.count_up_milli, 0, RAPID_COUNT_UP_MILLI_MAX, false },
	{ "drain_max", &rapid_p.drain_max, 0, 1000, false },
	{ "pace_drain", &rapid_p.pace_drain, 0, 1, false },
	{ "bias_milli", &rapid_p.bias_milli, 0, RAPID_BIAS_MILLI_MAX, false },
	{ "law", &rapid_p.law, RAPID_LAW_REPORT, RAPID_LAW_QUEUE, false },
	{ "q_target_us", &rapid_p.q_target_us, 100, 1000000, false },
	{ "law_t_ms", &rapid_p.law_t_ms, 10, 10000, false },
	{ "adapt_tau", &rapid_p.adapt_tau, 0, 1, false },
	{ "compete", &rapid_p.compete, 0, 1, false },
	{ "compete_pkts", &rapid_p.compete_pkts, 0, RAPID_COMPETE_PKTS_MAX, false },
	{ "compete_us", &rapid_p.compete_us, RAPID_COMPETE_US_MIN, RAPID_COMPETE_US_MAX, false },
	{ "keep_milli", &rapid_p.keep_milli, 0, RAPID_KEEP_MILLI_MAX, false },
	{ "keep_ms", &rapid_p.keep_ms, 0, RAPID_KEEP_MS_MAX, false },
	{ "keep_arm_ms", &rapid_p.keep_arm_ms, 0, RAPID_KEEP_MS_MAX, false },
	{ "count_flows", &rapid_p.count_flows, 0, 1, false },
	{ "probe_milli", &rapid_p.probe_milli, 1, 1000, true },
	{ "median", &rapid_p.median, 1, RAPID_MEDIAN_MAX, false },
	{ "jump_milli", &rapid_p.jump_milli, 0, RAPID_JUMP_MILLI_MAX, false },
	{ "jump_mean", &rapid_p.jump_mean, 0, RAPID_JUMP_MEAN_MAX, false },
	{ "accel_max", &rapid_p.accel_max, 0, RAPID_ACCEL_MAX_MAX, false },
	{ "cut_max", &rapid_p.cut_max, 1, RAPID_CUT_MAX_MAX, false },
	{ "cut_deep", &rapid_p.cut_deep, 0, 1, false },
	{ "hold_milli", &rapid_p.hold_milli, 1, RAPID_HOLD_MILLI_MAX, true },
	{ "share_pkts", &rapid_p.share_pkts, 1, RAPID_SHARE_PKTS_MAX, true },
	{ "fair_pkts", &rapid_p.fair_pkts, 1, RAPID_FAIR_PKTS_MAX, true },
	{ "ai_pkts", &rapid_p.ai_pkts, 1, RAPID_AI_PKTS_MAX, true },
	{ "reorder_hold", &rapid_p.reorder_hold, 0, 1, false },
	{ "stream_srtt_pct", &rapid_p.stream_srtt_pct, 10, RAPID_FIT_PCT_MAX, true },
	{ "cut_share_ms", &rapid_p.cut_share_ms, RAPID_CUT_SHARE_MS_MIN, RAPID_CUT_SHARE_MS_MAX, true },
	{ "ss_exit_dr", &rapid_p.ss_exit_dr, RAPID_SS_EXIT_DR_MIN, RAPID_SS_EXIT_DR_MAX, false },
	{ "ss_refine", &rapid_p.ss_refine, 0, RAPID_SS_REFINE_MAX, false },
	{ "refine_m", &rapid_p.refine_m, RAPID_M_MIN, RAPID_M_MAX, true },
	{ "f_milli", &rapid_p.f_milli, RAPID_PC_F_MIN, RAPID_PC_F_MAX, false },
	{ "ack_noise_us", &rapid_p.ack_noise_us, 0, RAPID_PC_Q_NOISE_NS_MAX / 1000, false },
	{ "ack_noise_mult", &rapid_p.ack_noise_mult, 0, RAPID_PC_NOISE_MULT_MAX, false },
	{ "stream_slots", &rapid_p.stream_slots, 8, 4096, false },
};

/* 0 ok, -1 unknown name, -2 out of range (rapid_param_set()). */
/*
 * tcp_rapid_rx's parameters that act on the analysis and the feedback
 * (--set modparams.tcp_rapid_rx.X=V): names, defaults and ranges of
 * tcp_rapid_rx.c's CC_PARAMs.  reorder is always 1 (the default; nothing
 * reorders here), max_flows, idle_ms and sack_trade do not apply.
 */
static struct {
	unsigned f_milli, min_excursion, recv_gap_min_ns, q_noise_ns,
		 noise_mult, min_pkts, feedback_acks;
} rapid_rx_p = {
	.f_milli = RAPID_PC_F_DEFAULT, .min_excursion = RAPID_PC_L_DEFAULT,
	.recv_gap_min_ns = RAPID_PC_RECV_GAP_MIN_NS_DEFAULT,
	.q_noise_ns = RAPID_PC_Q_NOISE_NS_RX_DEFAULT,
	.noise_mult = RAPID_PC_NOISE_MULT_RX_DEFAULT,
	.min_pkts = RAPID_PC_MIN_PKTS_DEFAULT,
	.feedback_acks = RAPID_RX_FEEDBACK_ACKS_DEFAULT,
};

static const struct {
	const char *name;
	unsigned *v;
	unsigned lo, hi;
} rx_params_tab[] = {
	{ "f_milli", &rapid_rx_p.f_milli, RAPID_PC_F_MIN, RAPID_PC_F_MAX },
	{ "min_excursion", &rapid_rx_p.min_excursion, 1, RAPID_PSTREAM_MAX },
	{ "recv_gap_min_ns", &rapid_rx_p.recv_gap_min_ns, 0, RAPID_PC_RECV_GAP_MIN_NS_MAX },
	{ "q_noise_ns", &rapid_rx_p.q_noise_ns, 0, RAPID_PC_Q_NOISE_NS_MAX },
	{ "noise_mult", &rapid_rx_p.noise_mult, 0, RAPID_PC_NOISE_MULT_MAX },
	{ "min_pkts", &rapid_rx_p.min_pkts, 2, RAPID_PSTREAM_MAX },
	{ "feedback_acks", &rapid_rx_p.feedback_acks, 0, 65535 },
};

/* 0 ok, -1 unknown name, -2 out of range (as rapid_param_set()) */
int rapid_rx_param_set(const char *name, unsigned val)
{
	size_t i;

	for (i = 0; i < sizeof(rx_params_tab) / sizeof(rx_params_tab[0]); i++) {
		if (strcmp(name, rx_params_tab[i].name))
			continue;
		if (val < rx_params_tab[i].lo || val > rx_params_tab[i].hi)
			return -2;
		*rx_params_tab[i].v = val;
		return 0;
	}
	return -1;
}

int rapid_param_set(const char *name, unsigned val)
{
	size_t i;

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		if (strcmp(params[i].name, name))
			continue;
		if (!(params[i].zero_off && !val) &&
		    (val < params[i].lo || val > params[i].hi))
			return -2;
		if (!strcmp(name, "stream_slots") && (val & (val - 1)))
			return -2;
		*params[i].v = val;
		return 0;
	}
	return -1;
}

/* ---- lib/win_minmax.c's running max (Kathleen Nichols' algorithm) ---- */
struct mm_sample { uint32_t t, v; };
struct minmax { struct mm_sample s[3]; };

static uint32_t minmax_reset(struct minmax *m, uint32_t t, uint32_t meas)
{
	struct mm_sample val = { t, meas };

	m->s[2] = m->s[1] = m->s[0] = val;
	return m->s[0].v;
}

static uint32_t minmax_subwin_update(struct minmax *m, uint32_t win,
				     const struct mm_sample *val)
{
	uint32_t dt = val->t - m->s[0].t;

	if (dt > win) {
		m->s[0] = m->s[1];
		m->s[1] = m->s[2];
		m->s[2] = *val;
		if (val->t - m->s[0].t > win) {
			m->s[0] = m->s[1];
			m->s[1] = m->s[2];
			m->s[2] = *val;
		}
	} else if (m->s[1].t == m->s[0].t && dt > win / 4) {
		m->s[2] = m->s[1] = *val;
	} else if (m->s[2].t == m->s[1].t && dt > win / 2) {
		m->s[2] = *val;
	}
	return m->s[0].v;
}

static uint32_t minmax_running_max(struct minmax *m, uint32_t win, uint32_t t,
				   uint32_t meas)
{
	struct mm_sample val = { t, meas };

	if (val.v >= m->s[0].v || val.t - m->s[2].t > win)
		return minmax_reset(m, t, meas);
	if (val.v >= m->s[1].v)
		m->s[2] = m->s[1] = val;
	else if (val.v >= m->s[2].v)
		m->s[2] = val;
	return minmax_subwin_update(m, win, &val);
}

/*
 * Counters of all RAPID flows of a run, the module's and the helper's of
 * the same names (/sys/module/tcp_rapid{,_rx}/parameters/stats), in
 * run.json's "rapid_stats" (rapid_stats_json()).
 */
static struct {
	unsigned long long fb_acks, fb_applied, fb_stale, fb_lapsed,
		fb_disagree, fb_distrusted, fb_ignored, sest_applied,
		rx_streams, rx_estimates;
} st;

void rapid_stats_json(FILE *fp)
{
	fprintf(fp, "{\"fb_acks\": %llu, \"fb_applied\": %llu, \"fb_stale\": %llu, "
		"\"fb_lapsed\": %llu, \"fb_disagree\": %llu, "
		"\"fb_distrusted\": %llu, \"fb_ignored\": %llu, "
		"\"sest_applied\": %llu, \"rx_streams\": %llu, "
		"\"rx_estimates\": %llu}", st.fb_acks, st.fb_applied, st.fb_stale,
		st.fb_lapsed, st.fb_disagree, st.fb_distrusted, st.fb_ignored,
		st.sest_applied, st.rx_streams, st.rx_estimates);
}

/* ---- per-flow state (struct rapid + struct rapid_ring) ---------------- */
#define SF_CLOSED	0x01
#define SF_RETRANS	0x02
#define SF_UNPACED	0x04
#define SF_TRUNCATED	0x08
#define SF_REPAIRED	0x10
#define SF_JUDGED	0x20
#define SF_LOSSY	0x40
#define SF_FB_PENDING	0x80
#define EST_NONE	0
#define EST_DONE	1
#define EST_LATE	2

struct rstream {
	struct rapid_schedule sched;
	tns t_first, t_last;
	uint32_t id, start_seq, end_seq, est_kbps;
	uint8_t k, sent, flags, est, est_rule, est_lossy;
	u64 fb_abest;			/* feedback kept until judged */
	uint8_t fb_rule, fb_truncated;
};

/* tcp_rapid_rx.c's struct rapid_rx_flow: the receiving host's helper */
struct rx_flow {
	struct rapid_pc_obs obs;	/* the stream being recorded */
	struct rapid_opt est;		/* the last complete stream's result */
	struct {
		u64 tx, rcv;
		uint8_t idx;
	} held[RAPID_RX_HELD];		/* the next stream's, see rx_record() */
	u64 last_rcv;
	uint32_t fed;			/* ACKs that carried est */
	uint16_t done_id, held_id;
	uint8_t n, held_n, nheld, active, have_est;
};

struct rapid {
	struct rapid_ctl ctl;
	struct rapid_cursor cur;
	uint32_t cur_end_seq;
	uint64_t lost_snap;
	bool cur_recorded, cur_done;
	/* the ring */
	struct rapid_sest est;
	uint32_t win_rtt_us, qd_us;
	struct rapid_min_hold min_hold;	/* rapid_min_rtt_us() */
	struct minmax dr_max, dr_lim;
	uint16_t head, tail, judge, mask;
	struct rapid_abest_hist hist;
	struct rapid_law law;
	struct rstream *rec;
	/* receiver feedback, the sender's side (RAPID_F_RXFB, ring->fb_*) */
	bool rxfb, fb_distrust;
	uint8_t fb_quiet, fb_disagree, fb_rule, fb_truncated;
	uint32_t fb_id, fb_checked_id, sest_last_id, sest_last_kbps;
	u64 fb_abest;
	struct rx_flow *rx;		/* the receiver's helper, first marked packet */
};

static void *rapid_alloc(void)
{
	struct rapid *ca = calloc(1, sizeof(*ca));

	if (!ca)
		abort();
	ca->rec = calloc(rapid_p.stream_slots, sizeof(*ca->rec));
	ca->mask = (uint16_t)(rapid_p.stream_slots - 1);
	return ca;
}

static uint32_t now_us(void)
{
	return (uint32_t)(sim_now / 1000);
}

/* rapid_load_cfg() */
static void cfg_load(struct rapid_cfg *cfg)
{
	cfg->init_rate = rapid_kbps_to_rate(rapid_p.initial_rate_kbps);
	cfg->min_rate = rapid_kbps_to_rate(rapid_p.min_rate_kbps);
	cfg->max_rate = rapid_kbps_to_rate(rapid_p.max_rate_kbps);
	if (cfg->min_rate > cfg->max_rate)
		cfg->min_rate = cfg->max_rate;
	cfg->tau_ns = (u64)rapid_p.tau_ms * RAPID_NSEC_PER_MSEC;
	cfg->loss_factor = rapid_p.loss_factor;
	cfg->m = (u16)rapid_p.m;
	cfg->n = (u8)rapid_p.n;
	cfg->ss_n_max = (u8)rapid_p.ss_n_max;
	cfg->ss_n_init = (u8)rapid_p.ss_n_init;
	cfg->median = (u8)rapid_p.median;
	cfg->ss_refine = (u8)rapid_p.ss_refine;
	cfg->refine_m = (u16)rapid_p.refine_m;
	cfg->pace_drain = (u8)rapid_p.pace_drain;
	cfg->bias_milli = (u16)rapid_p.bias_milli;
	cfg->ss_r1_cap = 0;
	cfg->ss_exit_cap = 0;
	cfg->law = (u8)rapid_p.law;
	cfg->law_t_us = rapid_p.law_t_ms * 1000U;
	cfg->q_target_us = rapid_p.q_target_us;
	cfg->adapt_tau = (u8)rapid_p.adapt_tau;
	cfg->compete = (u8)rapid_p.compete;
	cfg->compete_pkts = (u8)rapid_p.compete_pkts;
	cfg->compete_us = rapid_p.compete_us;
	cfg->keep_milli = (u16)rapid_p.keep_milli;
	cfg->keep_us = rapid_p.keep_ms * 1000U;
	cfg->keep_arm_us = rapid_p.keep_arm_ms * 1000U;
	cfg->count_flows = (u8)rapid_p.count_flows;
	cfg->probe_milli = (u16)rapid_p.probe_milli;
	cfg->jump_milli = (u16)rapid_p.jump_milli;
	cfg->jump_mean = (u8)rapid_p.jump_mean;
	cfg->accel_max = (u8)rapid_p.accel_max;
	cfg->cut_max = (u16)rapid_p.cut_max;
	cfg->hold_milli = (u16)rapid_p.hold_milli;
	cfg->cut_share_us = rapid_p.cut_share_ms * 1000U;
	cfg->count_report = (u8)rapid_p.count_report;
	cfg->count_up_milli = (u16)rapid_p.count_up_milli;
	cfg->fair_pkts = (u16)rapid_p.fair_pkts;
	cfg->ai_pkts = (u16)rapid_p.ai_pkts;
	cfg->reorder_hold = (u8)rapid_p.reorder_hold;
	cfg->stream_srtt_pct = (u16)rapid_p.stream_srtt_pct;
	cfg->cut_t_us = 0;
	cfg->qd_us = 0;
	cfg->queue_free = 0;
	cfg->queue_peers = 0;
	cfg->reorders = 0;	/* the engine delivers in order */
	cfg->steady_floor = 0;
}

static struct rstream *slot(struct rapid *ca, uint16_t i)
{
	return &ca->rec[i & ca->mask];
}

static struct rstream *ring_current(struct rapid *ca)
{
	return ca->cur_recorded ? slot(ca, (uint16_t)(ca->head - 1)) : NULL;
}

/* rapid_set_cwnd(): rapid_cwnd_want() (rapid_chirp.h) */
static void set_cwnd(struct flow *f)
{
	struct rapid *ca = f->ca;
	uint32_t cwnd;

	cwnd = rapid_cwnd_want(&ca->ctl, &ca->cur, ca->cur_done,
			       f->ca_state >= CA_RECOVERY, flow_in_flight(f),
			       flow_srtt_us(f), SIM_MSS);
	f->cwnd = cwnd < 1 ? 1 : cwnd;
}

/* rapid_min_rtt_us(): TCP's min RTT, a fall of it held (rapid_chirp.h) */
static uint32_t rapid_min_us(const struct flow *f)
{
	const struct rapid *ca = f->ca;

	return rapid_min_hold_get(&ca->min_hold, flow_min_rtt_us(f));
}

/* rapid_queue_delay_us(): rapid_standing_qd() (rapid_chirp.h) */
static uint32_t queue_delay_us(struct flow *f)
{
	struct rapid *ca = f->ca;

	/* the engine delivers in order: no base_med (rapid_reordered()) */
	return rapid_standing_qd(ca->qd_us,
				 rapid_qd_sample(ca->win_rtt_us,
						 rapid_min_us(f), 0, 0),
				 rapid_min_us(f),
				 (uint32_t)(f->mdev_us4 >> 2));
}

/* rapid_loss_is_congestive() */
static bool loss_is_congestive(struct flow *f)
{
	return rapid_loss_congestive(queue_delay_us(f), rapid_min_us(f));
}

/* rapid_on_abest() */
static void on_abest(struct flow *f, uint32_t id, u64 abest, u64 ss_r1_cap)
{
	struct rapid *ca = f->ca;
	struct rapid_cfg cfg;
	u32 base_us = rapid_min_us(f);

	cfg_load(&cfg);
	rapid_cfg_steady_floor(&cfg, &ca->ctl, SIM_MSS, flow_srtt_us(f));
	cfg.ss_r1_cap = ss_r1_cap;
	if (rapid_p.ss_exit_dr < RAPID_SS_EXIT_DR_MAX)
		cfg.ss_exit_cap = rapid_kbps_to_rate(ca->dr_max.s[0].v) *
				  rapid_p.ss_exit_dr / 1000;
	cfg.qd_us = ca->qd_us;
	if (rapid_p.cut_deep)
		cfg.cut_t_us = rapid_drain_t_us(base_us);
	cfg.queue_free = rapid_queue_free_share(ca->qd_us, base_us,
						ca->ctl.r_avg, SIM_MSS,
						rapid_p.share_pkts);
	cfg.queue_peers = rapid_queue_peers(ca->qd_us, base_us, ca->ctl.r_avg,
					    SIM_MSS, rapid_p.share_pkts);
	rapid_ctl_on_abest_law(&ca->ctl, &cfg, &ca->hist, &ca->law, id, abest,
			       SIM_MSS, flow_srtt_us(f), now_us());
}

/* rapid_estimate_value(): rx for RAPID_SRC_RECEIVER */
static u64 estimate_value(struct flow *f, bool rx, uint32_t rule, u64 abest,
			  bool lossy, const struct rstream *rec)
{
	struct rapid *ca = f->ca;
	const struct rapid_schedule *sched;
	struct rapid_schedule cur;
	uint32_t eb = 0;

	if (rec && (rec->flags & SF_UNPACED) && rx)
		lossy = false;
	if (lossy && !loss_is_congestive(f))
		eb |= RAPID_EB_RANDOM;
	if (rec) {
		sched = &rec->sched;
		eb |= RAPID_EB_RECORDED;
		if (rec->flags & SF_UNPACED)
			eb |= RAPID_EB_UNPACED;
		if (rec->flags & SF_RETRANS)
			eb |= RAPID_EB_RETRANS;
		if (rec->est == EST_LATE)
			eb |= RAPID_EB_LATE;
	} else {
		rapid_ctl_schedule(&ca->ctl, &cur);
		sched = &cur;
	}
	if (ca->ctl.phase == RAPID_PHASE_SS)
		eb |= RAPID_EB_SS;
	if (lossy)
		eb |= RAPID_EB_LOSSY;
	return rapid_estimate_bound(rule, abest, rapid_schedule_top(sched), eb,
				    ca->ctl.r_avg,
				    rapid_rate_from_fp(sched->r1_fp));
}

/* the sources of an estimate in tcp_rapid:rapid_abest (rapid_trace.h) */
enum { SRC_INJECT, SRC_RECEIVER, SRC_SENDER };

/* trace_rapid_abest(): what the module's tracepoint records */
static void trace_abest(struct flow *f, uint32_t id, uint32_t src,
			uint32_t rule, bool lossy, u64 raw, u64 abest)
{
	struct rapid *ca = f->ca;

	if (sim_trace_on & SIM_TR_ABEST)
		sim_trace(f, "rapid_abest", "id=%u src=%u rule=%u lossy=%u "
			  "raw_kbps=%u abest_kbps=%u r_avg_kbps=%u phase=%u acc=%u",
			  id, src, rule, lossy, rapid_rate_to_kbps(raw),
			  rapid_rate_to_kbps(abest),
			  rapid_rate_to_kbps(ca->ctl.r_avg), ca->ctl.phase,
			  ca->hist.acc);
}

static struct rstream *find_stream_by_id(struct rapid *ca, uint32_t id);

/* rapid_on_estimate(): true when the controller got an ABest */
static bool on_estimate(struct flow *f, uint32_t id, uint32_t src,
			uint32_t rule, u64 raw, u64 abest, bool lossy)
{
	struct rapid *ca = f->ca;
	struct rstream *rec = ca->ctl.phase == RAPID_PHASE_SS ?
			      find_stream_by_id(ca, id) : NULL;
	uint32_t lim = now_us() - ca->dr_lim.s[0].t >
		       rapid_dr_win_us(flow_srtt_us(f)) ?
		       0 : ca->dr_lim.s[0].v;	/* rapid_dr_lim_kbps() */
	u64 dr = rapid_estimate_cap(ca->dr_max.s[0].v, lim,
				    ca->ctl.phase == RAPID_PHASE_SS ||
				    ca->ctl.refine);

	if (rec && rapid_ctl_ss_blank(&ca->ctl, rec->k))
		abest = 0;	/* a chirp that left as one or two packets */
	if (dr && abest > dr)
		abest = dr;
	if (ca->ctl.phase == RAPID_PHASE_STEADY && rapid_p.law != RAPID_LAW_QUEUE &&
	    !ca->law.compete)
		abest = rapid_report_abest(abest, ca->qd_us, rapid_min_us(f),
					   rapid_p.drain_max, rapid_p.pace_drain,
					   rapid_p.bias_milli);
	if (abest)
		on_abest(f, id, abest, dr);
	trace_abest(f, id, src, rule, lossy, raw, abest);
	return abest != 0;
}

/* rapid_own_estimate() */
static u64 own_estimate(struct flow *f, uint32_t id, uint32_t rule,
			const struct rstream *rec)
{
	struct rapid *ca = f->ca;

	if (rec && rec->est == EST_DONE &&
	    rec->est_rule == RAPID_PC_RULE_EXCURSION &&
	    rule == RAPID_PC_RULE_EXCURSION)
		return estimate_value(f, false, rec->est_rule,
				      rapid_kbps_to_rate(rec->est_kbps),
				      rec->est_lossy, rec);
	if (!rec && id == ca->sest_last_id && rule == RAPID_PC_RULE_EXCURSION)
		return rapid_kbps_to_rate(ca->sest_last_kbps);
	return 0;
}

/* rapid_vet_fb() */
static bool vet_fb(struct flow *f, uint32_t id, uint32_t rule, u64 fb,
		   const struct rstream *rec)
{
	struct rapid *ca = f->ca;
	u64 own = own_estimate(f, id, rule, rec);

	if (rapid_fb_disagrees(fb, own)) {
		st.fb_disagree++;
		if (++ca->fb_disagree >= RAPID_FB_DISTRUST) {
			ca->fb_distrust = 1;
			st.fb_distrusted++;
		}
		return false;
	}
	if (rec && (rec->flags & SF_LOSSY) && fb > ca->ctl.r_avg) {
		st.fb_disagree++;
		return false;
	}
	if (own && fb)
		ca->fb_disagree = 0;
	return true;
}

/* rapid_check_apply_fb() */
static void check_apply_fb(struct flow *f, uint32_t id, uint32_t rule,
			   u64 abest, bool truncated, const struct rstream *rec)
{
	struct rapid *ca = f->ca;
	u64 fb;

	if (ca->fb_distrust) {
		st.fb_ignored++;
		return;
	}
	if (ca->fb_checked_id && !rapid_id_after(id, ca->fb_checked_id))
		return;
	ca->fb_checked_id = id;
	fb = estimate_value(f, true, rule, abest, truncated, rec);
	if (ca->ctl.phase == RAPID_PHASE_STEADY &&
	    !vet_fb(f, id, rule, fb, rec))
		return;
	if (on_estimate(f, id, SRC_RECEIVER, rule, abest, fb, truncated))
		st.fb_applied++;
}

/* rapid_judge_stream() */
static bool stream_judge(struct flow *f, uint32_t id, struct rstream *rec)
{
	struct rapid *ca = f->ca;
	struct rapid_cfg cfg;
	bool lossy;

	lossy = f->lost != ca->lost_snap || (rec && (rec->flags & SF_REPAIRED));
	if (lossy && !loss_is_congestive(f))
		lossy = false;
	ca->lost_snap = f->lost;
	if (rec)
		rec->flags |= SF_JUDGED | (lossy ? SF_LOSSY : 0);
	cfg_load(&cfg);
	rapid_ctl_on_stream_done(&ca->ctl, &cfg, id, lossy);
	return lossy;
}

/* rapid_judge_streams() */
static void judge_streams(struct flow *f)
{
	struct rapid *ca = f->ca;
	uint32_t front = flow_delivery_front(f);

	if ((uint16_t)(ca->judge - ca->tail) > (uint16_t)(ca->head - ca->tail))
		ca->judge = ca->tail;
	for (; ca->judge != ca->head; ca->judge++) {
		struct rstream *rec = slot(ca, ca->judge);

		if (!(rec->flags & SF_CLOSED) || (int32_t)(rec->end_seq - front) > 0)
			break;
		if (!(rec->flags & SF_JUDGED))
			stream_judge(f, rec->id, rec);
		if (rec->flags & SF_FB_PENDING) {
			rec->flags &= ~SF_FB_PENDING;
			check_apply_fb(f, rec->id, rec->fb_rule, rec->fb_abest,
				       rec->fb_truncated, rec);
		}
	}
}

/* rapid_update_law(): calls only, the law itself is rapid_chirp.h's */
static void law_update(struct flow *f, uint32_t id)
{
	struct rapid *ca = f->ca;
	uint32_t now = now_us(), srtt = flow_srtt_us(f);
	struct rapid_cfg cfg;

	rapid_law_queue(&ca->law, now, ca->qd_us, srtt);
	cfg_load(&cfg);
	rapid_cfg_steady_floor(&cfg, &ca->ctl, SIM_MSS, srtt);
	rapid_law_competing(&ca->law, &cfg, rapid_min_us(f), ca->ctl.r_avg,
			    now);
	if (cfg.law == RAPID_LAW_QUEUE || ca->law.compete)
		rapid_ctl_law_tick(&ca->ctl, &cfg, &ca->law, id, SIM_MSS, srtt,
				   now);
	else if (!cfg.count_report)
		return;
	/*
	 * trace_rapid_law(), on the streams the module traces it on but
	 * the one after competing ended (the engine does not tick there)
	 */
	if (sim_trace_on & SIM_TR_LAW)
		sim_trace(f, "rapid_law", "id=%u qd_us=%u growth_ppm=%d "
			  "noise_us=%u tau_x=%u n_est16=%u compete=%u "
			  "r_avg_kbps=%u", id, ca->law.qd_us,
			  ca->law.growth_ppm, ca->law.noise_us, ca->law.tau_x,
			  ca->law.n_est, ca->law.compete,
			  rapid_rate_to_kbps(ca->ctl.r_avg));
}

/* rapid_complete_stream() */
static void stream_done(struct flow *f, uint32_t id, struct rstream *rec)
{
	struct rapid *ca = f->ca;
	u64 raw, value;

	if (ca->rxfb && ++ca->fb_quiet > RAPID_FB_LAPSE) {	/* rapid_check_fb_lapse() */
		ca->rxfb = false;
		ca->fb_quiet = 0;
		st.fb_lapsed++;
	}
	if (!rec || !(rec->flags & SF_JUDGED))
		stream_judge(f, id, rec);
	if (ca->win_rtt_us != UINT32_MAX) {
		uint32_t base = rapid_min_us(f);

		ca->qd_us = ca->win_rtt_us > base ? ca->win_rtt_us - base : 0;
		ca->win_rtt_us = UINT32_MAX;
		law_update(f, id);
	}
	if (rapid_p.inject_abest_kbps) {
		u64 inject = rapid_kbps_to_rate(rapid_p.inject_abest_kbps);

		on_abest(f, id, inject, 0);
		trace_abest(f, id, SRC_INJECT, 0, false, inject, inject);
		return;
	}
	if (!rec || rec->est != EST_DONE)
		return;
	/* rapid_apply_sest() */
	raw = rapid_kbps_to_rate(rec->est_kbps);
	value = estimate_value(f, false, rec->est_rule, raw, rec->est_lossy, rec);
	ca->sest_last_id = id;
	ca->sest_last_kbps = rec->est_rule != RAPID_PC_RULE_EXCURSION ? 0 :
			     rapid_rate_to_kbps(value);
	if ((!ca->rxfb || ca->fb_distrust) &&
	    on_estimate(f, id, SRC_SENDER, rec->est_rule, raw, value,
			rec->est_lossy))
		st.sest_applied++;
}

/* rapid_push_dr_to() */
static void dr_push_to(struct flow *f, struct minmax *m, u64 rate)
{
	if (!rate)
		return;
	minmax_running_max(m, rapid_dr_win_us(flow_srtt_us(f)), now_us(),
			   rapid_rate_to_kbps(rate));
}

/* rapid_push_dr() */
static void dr_push(struct flow *f, u64 rate)
{
	dr_push_to(f, &((struct rapid *)f->ca)->dr_max, rate);
}

/* rapid_close_sest() */
static void sest_close(struct flow *f, struct rapid_sest *e, struct rstream *rec)
{
	struct rapid *ca = f->ca;
	struct rapid_pc_params p;
	struct rapid_pc_result res;
	u64 abest;

	if (ca->ctl.phase == RAPID_PHASE_SS || ca->ctl.refine) {
		dr_push(f, rapid_sest_delivery_rate(e));
		if (ca->ctl.wide)
			dr_push(f, rapid_sest_half_rate(e));
		dr_push_to(f, &ca->dr_lim, rapid_sest_stretched_rate(e));
	}
	if (!rapid_sest_as_planned(e, rec->sent, (u64)(rec->t_last - rec->t_first))) {
		e->id = 0;
		rec->est = EST_LATE;
		return;
	}
	rapid_sest_params(&p, rapid_p.ack_noise_us * 1000U,
			  rapid_p.ack_noise_mult);
	p.f_milli = rapid_p.f_milli;
	rec->est_rule = (u8)rapid_sest_finish(e, &p, &res);
	rec->est_lossy = !!res.stop;
	abest = rapid_sest_abest(&res, rapid_schedule_top(&rec->sched));
	rec->est_kbps = rapid_rate_to_kbps(abest);
	if (abest && !rec->est_kbps)
		rec->est_kbps = 1;
	rec->est = EST_DONE;
}

/* rapid_feed_sest() (segment units: acked is a packet count) */
static void sest_on_ack(struct flow *f)
{
	struct rapid *ca = f->ca;
	uint32_t una = f->snd_una, front;
	uint16_t i;

	if (!rapid_p.sender_estimate)
		return;
	front = flow_delivery_front(f);
	for (i = ca->tail; i != ca->head; i++) {
		struct rstream *rec = slot(ca, i);
		struct rapid_sest *e = &ca->est;
		uint32_t pkts;
		bool full;

		if ((int32_t)(front - rec->start_seq) <= 0)
			break;
		if (rec->est != EST_NONE)
			continue;
		if (e->id != rec->id)
			rapid_sest_begin(e, rec->id, &rec->sched, SIM_MSS);
		/* in order: a hole is a loss (the module goes on past it
		 * while the path reorders, rapid_reordered())
		 */
		if ((rec->flags & SF_RETRANS) ||
		    (front != una && (int32_t)(una - rec->end_seq) < 0))
			rapid_sest_stop(e, RAPID_PC_STOP_LOSS);
		full = (rec->flags & SF_CLOSED) && (int32_t)(front - rec->end_seq) >= 0;
		pkts = full ? rec->sent : front - rec->start_seq;
		if (pkts)
			rapid_sest_ack(e, pkts, (u64)sim_now);
		if (!full)
			break;
		sest_close(f, e, rec);
	}
}

/* rapid_complete_streams() */
static void complete_streams(struct flow *f)
{
	struct rapid *ca = f->ca;
	uint32_t una = f->snd_una;

	while (ca->tail != ca->head) {
		struct rstream *rec = slot(ca, ca->tail);

		if (!(rec->flags & SF_CLOSED) || (int32_t)(rec->end_seq - una) > 0)
			break;
		stream_done(f, rec->id, rec);
		ca->tail++;
	}
	if (ca->cur.k && !rapid_cursor_open(&ca->cur) && !ca->cur_done &&
	    (int32_t)(ca->cur_end_seq - una) <= 0) {
		ca->cur_done = 1;
		if (!ca->cur_recorded)
			stream_done(f, ca->ctl.launched_id, NULL);
	}
}

/* rapid_apply_params() */
static void apply_params(struct rapid *ca, const struct rapid_cfg *cfg)
{
	if (rapid_p.fixed_rate_kbps) {
		u64 rate = rapid_kbps_to_rate(rapid_p.fixed_rate_kbps);

		if (ca->ctl.phase != RAPID_PHASE_FIXED || ca->ctl.r_avg != rate ||
		    ca->ctl.n != cfg->n || ca->ctl.m != cfg->m)
			rapid_ctl_set_fixed(&ca->ctl, cfg, rate);
	} else if (ca->ctl.phase != RAPID_PHASE_SS) {
		if (ca->ctl.phase == RAPID_PHASE_FIXED)
			rapid_ctl_enter_steady(&ca->ctl, cfg, ca->ctl.r_avg);
		rapid_ctl_set_params(&ca->ctl, cfg->n,
				     rapid_ctl_steady_m(&ca->ctl, cfg));
	}
}

/* rapid_record_stream() */
static void ring_push(struct rapid *ca, const struct rapid_schedule *s,
		      uint32_t id, uint32_t k, uint32_t seq)
{
	struct rstream *rec;

	ca->cur_recorded = 0;
	if ((uint16_t)(ca->head - ca->tail) > ca->mask)
		return;
	rec = slot(ca, ca->head);
	memset(rec, 0, sizeof(*rec));
	rec->sched = *s;
	rec->t_first = rec->t_last = sim_now;
	rec->id = id;
	rec->start_seq = rec->end_seq = seq;
	rec->k = (uint8_t)k;
	rec->est_rule = RAPID_PC_RULE_INVALID;
	ca->head++;
	ca->cur_recorded = 1;
}

/* rapid_start_stream() (an application that always has data queued) */
static void stream_start(struct flow *f, uint32_t seq)
{
	struct rapid *ca = f->ca;
	struct rapid_schedule s, eff;
	struct rapid_cfg cfg;
	uint32_t id, k;
	u64 rate;

	cfg_load(&cfg);
	apply_params(ca, &cfg);
	rapid_ctl_ss_raise(&ca->ctl, &cfg,
			   rapid_ss_floor(ca->ctl.n, SIM_MSS, flow_srtt_us(f)));
	id = ca->ctl.launched_id + 1;
	if (!id)
		id = 1;
	rapid_ctl_stream_started(&ca->ctl, id);
	rapid_ctl_schedule(&ca->ctl, &s);
	rate = rapid_ctl_stream_rate(&ca->ctl, &cfg, &ca->law, ca->qd_us,
				     rapid_min_us(f), rapid_p.drain_max);
	rapid_ctl_stream_schedule(&ca->ctl, &cfg, &s, rate, flow_srtt_us(f),
				  SIM_MSS);
	/*
	 * Until the first ACK TCP sends each segment as the application
	 * writes it (tcp_push_one() while the window is open), so the streams
	 * of the first flight have one packet each (the lab, traced: the
	 * first stream of ss_n_init = 8 left as eight); after it the bulk
	 * application keeps the queue full.
	 */
	k = rapid_cursor_start(&ca->cur, &s, f->delivered ? RAPID_N_MAX : 1,
			       &eff);
	ca->cur_done = 0;
	ring_push(ca, &eff, id, k, seq);
}

/* rapid_pace_new_data() / rapid_pace_retransmit() + rapid_pace_segment() */
static tns rapid_xmit(struct flow *f, uint32_t seq, bool retrans)
{
	struct rapid *ca = f->ca;
	struct rstream *rec;
	bool last;
	u64 rate;
	uint16_t i;

	if (retrans) {
		bool open = rapid_cursor_open(&ca->cur);

		for (i = ca->tail; i != ca->head; i++) {
			rec = slot(ca, i);
			if ((int32_t)(seq - rec->start_seq) >= 0 &&
			    (int32_t)(seq - rec->end_seq) < 0) {
				rec->flags |= SF_RETRANS | SF_REPAIRED;
				break;
			}
		}
		if (open && (rec = ring_current(ca)))
			rec->flags |= SF_RETRANS;
		rate = open ? ca->cur.r_avg : ca->ctl.r_avg;
	} else {
		if (!rapid_cursor_open(&ca->cur))
			stream_start(f, seq);
		rate = rapid_cursor_next(&ca->cur, &last);
		ca->cur_end_seq = seq + 1;
		if (rapid_p.mark_data) {	/* rapid_mark_data() */
			struct pkt *p = flow_pkt(f, seq);

			p->opt_id = (uint16_t)ca->ctl.launched_id;
			p->opt_idx = (uint8_t)(ca->cur.sent - 1);
			p->opt_n = ca->cur.k;
		}
		rec = ring_current(ca);
		if (rec) {
			rec->sent = ca->cur.sent;
			rec->end_seq = seq + 1;
			rec->t_last = sim_now;
			if (!last && f->data_segs_out < SIM_UNPACED)
				rec->flags |= SF_UNPACED;
			if (last)
				rec->flags |= SF_CLOSED;
		}
	}
	f->pacing_Bps = rate;
	if (f->data_segs_out < SIM_UNPACED)
		return 0;
	return (tns)rapid_schedule_gap_ns(rate ? rate : 1, SIM_MSS);
}

/* rapid_find_stream_by_id() */
static struct rstream *find_stream_by_id(struct rapid *ca, uint32_t id)
{
	uint16_t i;

	for (i = ca->tail; i != ca->head; i++)
		if (slot(ca, i)->id == id)
			return slot(ca, i);
	return NULL;
}

/* rapid_apply_fb() */
static void apply_fb(struct flow *f)
{
	struct rapid *ca = f->ca;
	struct rstream *rec;
	uint32_t id = ca->fb_id;

	if (!id)
		return;
	ca->fb_id = 0;
	rec = find_stream_by_id(ca, id);
	if (rec && !(rec->flags & SF_JUDGED)) {
		if (!(rec->flags & SF_FB_PENDING)) {
			rec->flags |= SF_FB_PENDING;
			rec->fb_rule = ca->fb_rule;
			rec->fb_truncated = ca->fb_truncated;
			rec->fb_abest = ca->fb_abest;
		}
		return;
	}
	check_apply_fb(f, id, ca->fb_rule, ca->fb_abest, ca->fb_truncated, rec);
}

/* rapid_fb_recent() */
static bool fb_recent(const struct rapid *ca, uint32_t id)
{
	uint32_t oldest = ca->tail != ca->head ?
			  ca->rec[ca->tail & ca->mask].id : ca->ctl.launched_id;

	return !rapid_id_after(oldest - RAPID_FB_LAPSE, id);
}

/* rapid_probe_ack() + rapid_read_fb() + rapid_take_fb(): the engine's ACKs
 * are all the peer's next in-order pure ACKs */
static void rapid_ack_opt_in(struct flow *f, const struct ack *a)
{
	struct rapid *ca = f->ca;
	struct rapid_opt fb;
	uint32_t id;

	if (!ca->ctl.n || rapid_opt_decode(a->fb_opt, a->fb_len, &fb))
		return;
	st.fb_acks++;
	id = ca->ctl.launched_id -
	     (uint16_t)((uint16_t)ca->ctl.launched_id - fb.stream_id);
	if (fb_recent(ca, id)) {
		ca->rxfb = true;
		ca->fb_quiet = 0;
	}
	if (ca->ctl.last_id && !rapid_id_after(id, ca->ctl.last_id)) {
		st.fb_stale++;
		return;
	}
	if (rapid_p.inject_abest_kbps || !id || !ca->rxfb)
		return;
	ca->fb_id = id;
	ca->fb_abest = fb.abest;
	ca->fb_rule = fb.rule;
	ca->fb_truncated = fb.truncated;
}

/* ---- the receiving host's helper (tcp_rapid_rx.c) ---------------------- */

/* rapid_rx_params_load() */
static void rx_params(struct rapid_pc_params *p)
{
	rapid_pc_params_init(p);
	p->f_milli = rapid_rx_p.f_milli;
	p->min_excursion = rapid_rx_p.min_excursion;
	p->recv_gap_min_ns = rapid_rx_p.recv_gap_min_ns;
	p->min_pkts = rapid_rx_p.min_pkts;
	p->q_noise_ns = rapid_rx_p.q_noise_ns;
	p->noise_mult = rapid_rx_p.noise_mult;
}

/* rapid_rx_stream_finish() */
static void rx_stream_finish(struct rx_flow *r)
{
	struct rapid_pc_result res;
	struct rapid_pc_params p;
	int rule;

	rx_params(&p);
	rule = rapid_pc_estimate(&r->obs, &p, &res);
	r->est.stream_id = r->obs.id;
	r->est.rule = (u8)rule;
	r->est.abest = res.abest;
	r->est.truncated = res.stop || r->obs.n < r->n;
	r->done_id = r->obs.id;
	r->have_est = 1;
	r->active = 0;
	r->fed = 0;
	st.rx_streams++;
	if (rule != RAPID_PC_RULE_INVALID)
		st.rx_estimates++;
}

/* rapid_rx_add() (one segment: the engine has no GRO) */
static void rx_add(struct rx_flow *r, uint32_t idx, u64 tx, u64 rcv)
{
	if (rapid_pc_obs_add_segs(&r->obs, idx, tx, rcv, SIM_MSS, 1) ==
	    RAPID_PC_ADD_OK)
		r->last_rcv = rcv;
}

/* rapid_rx_record() with reorder=1 (the default) and 64-bit departures */
static void rx_record(struct rx_flow *r, uint16_t id, uint8_t idx, uint8_t n,
		      u64 tx, u64 now)
{
	static const struct rapid_pc_clock clk = { .tick_ns = 1, .bits = 64 };
	uint32_t i;

	if (r->active && id != r->obs.id) {
		if ((int16_t)(id - r->obs.id) < 0)
			return;
		if (r->obs.got < r->n && idx < RAPID_PSTREAM_MAX &&
		    r->nheld < RAPID_RX_HELD &&
		    (!r->nheld || (id == r->held_id && n == r->held_n))) {
			r->held[r->nheld].tx = tx;
			r->held[r->nheld].rcv = now;
			r->held[r->nheld].idx = idx;
			r->nheld++;
			r->held_id = id;
			r->held_n = n;
			return;
		}
		rx_stream_finish(r);
	}
	if (!r->active) {
		u64 prev_rcv = r->last_rcv;

		if (r->have_est && (int16_t)(id - r->done_id) <= 0)
			return;
		rapid_pc_obs_init(&r->obs, id, &clk, &clk);
		rapid_pc_obs_tolerate(&r->obs);
		r->n = n;
		r->active = 1;
		for (i = 0; i < r->nheld && r->held_id == id && r->held_n == n;
		     i++) {
			rx_add(r, r->held[i].idx, r->held[i].tx, r->held[i].rcv);
			if (r->held[i].rcv < prev_rcv)
				rapid_pc_obs_mark_overtook(&r->obs, r->held[i].idx);
		}
		r->nheld = 0;
	}
	if (n != r->n)
		return;
	rx_add(r, idx, tx, now);
	if (r->obs.got >= r->n || r->obs.stop)
		rx_stream_finish(r);
}

/* rapid_rx_local_in(): a marked first transmission arrived */
static void rapid_rx_data(struct flow *f, uint32_t seq, const struct pkt *p)
{
	struct rapid *ca = f->ca;

	(void)seq;
	if (!p->opt_n || (p->flags & PF_EVER_RETRANS))
		return;
	if (!ca->rx) {
		ca->rx = calloc(1, sizeof(*ca->rx));
		if (!ca->rx)
			abort();
	}
	rx_record(ca->rx, p->opt_id, p->opt_idx, p->opt_n, (u64)p->xmit,
		  (u64)sim_now);
}

/* rapid_rx_feedback(): the result on the next feedback_acks pure ACKs */
static void rapid_rx_ack_out(struct flow *f, struct ack *a)
{
	struct rx_flow *r = ((struct rapid *)f->ca)->rx;
	int len;

	if (!r || !r->have_est ||
	    (rapid_rx_p.feedback_acks && r->fed >= rapid_rx_p.feedback_acks))
		return;
	len = rapid_opt_encode(a->fb_opt, sizeof(a->fb_opt), &r->est);
	if (len != RAPID_OPT_LEN)
		return;
	a->fb_len = (uint8_t)len;
	r->fed++;
}

/* rapid_cong_control() */
static void rapid_on_ack(struct flow *f, uint32_t acked, const struct rate_sample *rs)
{
	struct rapid *ca = f->ca;

	(void)acked;
	rapid_min_hold_update(&ca->min_hold, flow_min_rtt_us(f), now_us(),
			      RAPID_MIN_HOLD_RTTS * flow_srtt_us(f));
	if (rs->rtt_us > 0 && (uint32_t)rs->rtt_us < ca->win_rtt_us)
		ca->win_rtt_us = (uint32_t)rs->rtt_us;
	if (rs->delivered > 0 && rs->interval_us > 0)	/* rapid_update_dr() */
		dr_push(f, rs->delivered * SIM_MSS * 1000000ULL / (u64)rs->interval_us);
	sest_on_ack(f);
	apply_fb(f);
	judge_streams(f);
	complete_streams(f);
	set_cwnd(f);
}

/* rapid_init() */
static void rapid_init(struct flow *f)
{
	struct rapid *ca = f->ca;
	struct rapid_cfg cfg;

	cfg_load(&cfg);
	rapid_ctl_init(&ca->ctl, &cfg);
	apply_params(ca, &cfg);
	ca->win_rtt_us = UINT32_MAX;
	ca->lost_snap = f->lost;
	f->ssthresh = UINT32_MAX;
	f->pacing_Bps = ca->ctl.r_avg;
	set_cwnd(f);
}

static uint32_t rapid_ssthresh(struct flow *f)
{
	return f->ssthresh;
}

/* rapid_set_state() */
static void rapid_set_state(struct flow *f, int state)
{
	struct rapid *ca = f->ca;
	struct rapid_cfg cfg;

	if (state != CA_RECOVERY || !loss_is_congestive(f))
		return;
	cfg_load(&cfg);
	rapid_cfg_steady_floor(&cfg, &ca->ctl, SIM_MSS, flow_srtt_us(f));
	rapid_ctl_on_recovery(&ca->ctl, &cfg);
}

/* rapid_cwnd_event(CA_EVENT_LOSS): rapid_truncate_stream() + on_rto */
static void rapid_on_rto(struct flow *f)
{
	struct rapid *ca = f->ca;
	struct rstream *rec = ring_current(ca);
	struct rapid_cfg cfg;

	if (rapid_cursor_open(&ca->cur)) {
		rapid_cursor_close(&ca->cur);
		if (rec)
			rec->flags |= SF_CLOSED | SF_TRUNCATED;
	}
	cfg_load(&cfg);
	rapid_ctl_on_rto(&ca->ctl, &cfg, rapid_rto_floor(SIM_MSS, flow_srtt_us(f)));
	set_cwnd(f);
}

const struct cc_ops cc_rapid = {
	.name = "rapid",
	.alloc = rapid_alloc,
	.init = rapid_init,
	.on_ack = rapid_on_ack,
	.ssthresh = rapid_ssthresh,
	.set_state = rapid_set_state,
	.on_rto = rapid_on_rto,
	.on_xmit = rapid_xmit,
	.rx_data = rapid_rx_data,
	.rx_ack_out = rapid_rx_ack_out,
	.ack_opt_in = rapid_ack_opt_in,
	.cong_control = true,
};
