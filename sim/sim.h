/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scale engine (docs/sim.md): a packet-level discrete-event model of
 * the lab's dumbbell, with the algorithms' pure headers compiled in.
 * Userspace only; floating point is allowed here (not in the pure headers).
 */
#ifndef SIM_H
#define SIM_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

typedef int64_t tns;			/* simulated time, ns */

#define NS_PER_MS	1000000LL
#define NS_PER_S	1000000000LL
#define SIM_MSS		1448U		/* TCP payload (timestamps on) */
#define SIM_FRAME	1514U		/* its Ethernet frame, what htb counts */
#define SIM_UDP_FRAME	1490U		/* iperf3 -u -l 1448: 1448 + 8 + 20 + 14 */
#define SIM_UNPACED	10U		/* fq's initial quantum: first segments */

/* ---- event queue: a binary heap of timers -------------------------- */
struct timer {
	tns t;
	int pos;			/* index in the heap, -1: not armed */
	void (*fn)(void *arg);
	void *arg;
};

void timer_init(struct timer *tm, void (*fn)(void *), void *arg);
void timer_set(struct timer *tm, tns t);
void timer_cancel(struct timer *tm);
extern tns sim_now;

/* Tracepoints the engine emits (a run's "trace"), as the module's */
#define SIM_TR_ABEST	1U	/* tcp_rapid:rapid_abest */
#define SIM_TR_LAW	2U	/* tcp_rapid:rapid_law */
extern unsigned int sim_trace_on;
struct flow;
void sim_trace(const struct flow *f, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- one TCP sender + its receiver ----------------------------------- */
#define PF_SACKED	0x01
#define PF_LOST		0x02
#define PF_RETRANS	0x04		/* a retransmission is outstanding */
#define PF_EVER_RETRANS	0x08
#define PF_INLIST	0x10
#define PF_RCVD		0x20		/* the receiver holds it (out of order) */

struct pkt {
	tns xmit;			/* last transmission */
	tns first_tx;			/* rate sampling (tcp_rate.c) */
	tns dlv_mstamp;
	uint64_t delivered;
	uint64_t txn;			/* transmission order (RACK) */
	uint32_t prev, next;		/* time-sorted list of outstanding */
	uint8_t flags;
	/* RAPID's data option on the first transmission (retransmissions
	 * carry none): stream id, index, stream length; opt_n 0: unmarked */
	uint16_t opt_id;
	uint8_t opt_idx, opt_n;
};

struct ack {
	tns arr;
	uint32_t cum;			/* next expected segment */
	uint32_t sack;			/* one segment newly held out of order,
					 * or UINT32_MAX */
	/* RAPID's feedback option as tcp_rapid_rx writes it (fb_len bytes,
	 * 0: none) */
	uint8_t fb_opt[8], fb_len;
};

struct rate_sample {
	uint64_t delivered;		/* packets over the interval */
	int64_t interval_us;
	int64_t rtt_us;			/* -1: none */
};

enum { CA_OPEN = 0, CA_RECOVERY = 3, CA_LOSS = 4 };

struct flow;
struct cc_ops {
	const char *name;
	void (*init)(struct flow *f);
	/* every ACK, after the scoreboard is updated (cong_control or
	 * cong_avoid + pacing) */
	void (*on_ack)(struct flow *f, uint32_t acked, const struct rate_sample *rs);
	uint32_t (*ssthresh)(struct flow *f);
	void (*set_state)(struct flow *f, int state);
	void (*on_rto)(struct flow *f);
	/* the gap after a segment that leaves now; NULL: cwnd / srtt pacing */
	tns (*on_xmit)(struct flow *f, uint32_t seq, bool retrans);
	void *(*alloc)(void);
	bool cong_control;		/* owns cwnd on every ACK (no PRR) */
	/* optional, every ACK before the state machine (tcp_clean_rtx_queue()'s
	 * pkts_acked): segments newly cumulatively acknowledged, the ACK's RTT
	 * sample (us, -1: none) */
	void (*pkts_acked)(struct flow *f, uint32_t pkts, int64_t rtt_us);
	/* optional, the receiver's host (tcp_rapid_rx): a new data segment
	 * arrived (its first transmission's record p: opt_*, xmit, flags),
	 * before TCP's ACK for it; an ACK leaves (may fill a->fb_*); an ACK
	 * with a->fb_len arrived, before on_ack (the tcp_probe tracepoint) */
	void (*rx_data)(struct flow *f, uint32_t seq, const struct pkt *p);
	void (*rx_ack_out)(struct flow *f, struct ack *a);
	void (*ack_opt_in)(struct flow *f, const struct ack *a);
};

struct flow {
	int id, port, tested;
	const struct cc_ops *cc;
	void *ca;			/* the algorithm's state */
	tns start, stop, fwd, rev;	/* times; delays after the bottleneck */
	double rtt_ms;
	/* sender */
	uint32_t snd_una, snd_nxt, cap, mask;
	struct pkt *p;
	uint32_t head, tail;		/* time-sorted list (UINT32_MAX: empty) */
	uint32_t *rq; uint32_t rq_n, rq_h, rq_cap;	/* retransmit queue */
	uint32_t sacked_out, lost_out, retrans_out;
	uint32_t high_sacked;		/* one past the highest SACKed segment */
	uint32_t cwnd, ssthresh, cwnd_cnt;
	uint32_t prior_cwnd, prr_delivered, prr_out;	/* PRR (RFC 6937) */
	int ca_state;
	uint32_t high_seq;
	uint64_t delivered, lost, data_segs_out, total_retrans;
	tns delivered_mstamp, first_tx_mstamp;
	uint64_t rack_txn;
	int64_t srtt_us8, mdev_us4, rttvar_us, min_rtt_us; /* Linux scaling */
	tns min_rtt_stamp;
	int backoff;
	tns next_send;
	uint64_t pacing_Bps;
	double pacing_ratio_ss, pacing_ratio_ca;
	struct timer send_tm, rto_tm, data_tm, ack_tm, delack_tm, start_tm;
	/* data pipe: bottleneck -> receiver */
	uint32_t *dq_seq; tns *dq_t; uint32_t dq_n, dq_h, dq_cap;
	/* ack pipe: receiver -> sender */
	struct ack *aq; uint32_t aq_n, aq_h, aq_cap;
	/* receiver */
	uint32_t rcv_nxt, delack_pending, rcv_ooo;
	uint64_t rcv_bytes;
	tns rcv_first, rcv_last;
	bool done;
};

/* Module parameters of tcp_rapid (--set modparams.tcp_rapid.X=V). */
struct rapid_params {
	unsigned n, m, ss_n_max, initial_rate_kbps, tau_ms, min_rate_kbps,
		 max_rate_kbps, loss_factor, fixed_rate_kbps, inject_abest_kbps,
		 sender_estimate, drain_max, law, q_target_us, law_t_ms,
		 adapt_tau, compete, compete_pkts, keep_milli, keep_ms, keep_arm_ms,
		 count_flows, probe_milli,
		 jump_milli, jump_mean, accel_max, median, ss_exit_dr, ss_refine, refine_m,
		 f_milli, cut_max, cut_deep, hold_milli, cut_share_ms,
		 ack_noise_us, ack_noise_mult, stream_slots, mark_data, count_report,
		 share_pkts, count_up_milli, fair_pkts, pace_drain, bias_milli,
		 ai_pkts, reorder_hold, compete_us, ss_n_init, stream_srtt_pct;
};
extern struct rapid_params rapid_p;
int rapid_param_set(const char *name, unsigned val);
/* tcp_rapid_rx's (the receiver's helper): --set modparams.tcp_rapid_rx.X=V */
int rapid_rx_param_set(const char *name, unsigned val);
/* the RAPID counters of the run, a JSON object (run.json) */
void rapid_stats_json(FILE *fp);

extern const struct cc_ops cc_rapid;

/* PERT, ICC (sim/sim_pert.c, sim/sim_icc.c) and HighSpeed (sim/sim_loss.c);
 * module parameters --set modparams.tcp_pert.X=V / modparams.tcp_icc.X=V:
 * 0 ok, -1 unknown name, -2 out of range (as rapid_param_set()) */
extern const struct cc_ops cc_pert, cc_icc, cc_highspeed;
int pert_param_set(const char *name, unsigned val);
int icc_param_set(const char *name, unsigned val);

/* engine services for the algorithms */
uint32_t flow_in_flight(const struct flow *f);
struct pkt *flow_pkt(const struct flow *f, uint32_t seq);
uint32_t flow_delivery_front(const struct flow *f);
uint32_t flow_srtt_us(const struct flow *f);
uint32_t flow_min_rtt_us(const struct flow *f);
void flow_kick(struct flow *f);
/* tcp_slow_start() (returns what is left of acked), tcp_cong_avoid_ai() */
uint32_t slow_start(struct flow *f, uint32_t acked);
void cong_avoid_ai(struct flow *f, uint32_t w, uint32_t acked);
/* get_random_u32() for the algorithms: a stream of its own, from the seed */
uint32_t sim_random_u32(void);

#endif /* SIM_H */
