// SPDX-License-Identifier: GPL-2.0
/*
 * RAPID congestion control: the sender.
 *
 * RAPID (V. Konda and J. Kaur, "RAPID: Shrinking the Congestion-control
 * Timescale", IEEE INFOCOM 2009; full design in "Shrinking the Timescales
 * at Which Congestion-control Operates", UNC Chapel Hill TR08-011) is
 * rate based.  Data leaves in logical groups of N packets, p-streams, whose
 * gaps probe an exponentially wide range of rates within one stream while
 * the stream as a whole averages r_avg, the latest estimate of the
 * available bandwidth (avail-bw):
 *
 *	packet i leaves P / r_{i-1} after packet i-1,  r_0 = r_avg
 *	r_i = m^(i-1) r_1				(Eq. 4)
 *	(N-1) / r_avg = sum_{i=1}^{N-1} 1 / r_i		(Eq. 1)
 *
 * so a stream lasts l = N P / r_avg.  The receiver looks for the first
 * packet from which one-way delays keep increasing (self-induced
 * congestion, PathChirp's excursion analysis) and returns ABest, the rate
 * of the gap where it starts (r_{N-1} when there is none).  The sender:
 *
 *	ABest < r_avg:  r_avg = ABest at once
 *	ABest > r_avg:  r_avg += (l / tau) (ABest - r_avg)	(Eq. 6)
 *
 * tau (200 ms) makes every flow, whatever its rate, converge in about tau:
 * feedback arrives once per stream, i.e. more often at high rates, and the
 * filter cancels that bias.  Defaults: N = 30, m = 1.07 (r_1 = 0.45 r_avg,
 * r_{N-1} = 3.01 r_avg).
 *
 * Slow start (Section 3.1.5, Table 4) sends one stream per round trip:
 * N = 2, 4, 8, 16 with m = 2, starting at r_avg = 100 kbit/s.  While ABest
 * is the stream's top rate, N doubles and r_1 = ABest; the first lower
 * ABest ends it with r_avg = ABest.  ~1 Gbit/s is found in 4 streams.
 *
 *	     ABest == r_{N-1}: N *= 2 (<= ss_n_max), r_1 = ABest
 *	          +----+
 *	          |    v
 *	init -> SLOW START --- ABest < r_{N-1}, or fast recovery ---> STEADY
 *	       (N=2, m=2, 100 kbit/s)                                 | ABest < r_avg: at once
 *	          ^                                                   | ABest > r_avg: Eq. 6
 *	          +------------- RTO: r_1 = r_avg / 4 ----------------+ loss in 2 streams: x0.7
 *
 *	fixed_rate_kbps != 0 ------------------------------------> FIXED (lab mode)
 *
 * How the gaps are made.  No tcp_congestion_ops callback runs per packet,
 * but with EDT pacing TCP stamps packet i with its departure time, hands it
 * to IP, and only afterwards adds the gap after it, len / sk_pacing_rate
 * (tcp_update_skb_after_send()).  A netfilter LOCAL_OUT hook runs in
 * between, synchronously inside __tcp_transmit_skb(): for every new data
 * segment of a RAPID socket it advances the stream cursor and writes the
 * rate of the gap after that segment into sk_pacing_rate.  TCP shortens a
 * gap by up to half when the segment leaves late (its "credit" for OS
 * jitter); the hook replays TCP's planned departure time and asks for a
 * gap longer by exactly that cut, so the gaps on the wire are the
 * schedule's.  Retransmissions get r_avg's gap and mark their stream; pure
 * ACKs only advance the replayed clock; new data that a qdisc refused
 * (snd_nxt did not move) keeps its place and rate when TCP sends it again.
 * The hook is registered in every network namespace (pernet_operations)
 * and returns at once for packets of other sockets; it and the tcp_probe
 * probe are attached only while RAPID sockets exist (rapid_hooks_get()).
 *
 * Locking: the hook runs on the stack of the socket's transmit path, in
 * process context with lock_sock() held or in softirq/timer/tasklet
 * context with bh_lock_sock() held and the socket not owned by a user, the
 * same exclusion the congestion-control callbacks run under.  So struct
 * rapid needs no lock of its own.  sk_pacing_rate is written with
 * WRITE_ONCE() because fq and TSQ read it locklessly.  get_info() reads
 * scalars without the lock (inet_diag), which at worst shows a stale value.
 *
 * What RAPID needs from the stack:
 *  - EDT pacing: fq on the sender's egress (it honours skb->tstamp), or
 *    TCP's internal pacing when fq is absent (coarser: hrtimer slack);
 *    get_info reports which (RAPID_F_FQ / RAPID_F_INTERNAL).  Other qdiscs
 *    on a socket fq has once seen are not paced at all (the socket's
 *    pacing status stays "fq"): keep fq on the egress.
 *  - One MSS per skb: .init sets sk_gso_max_segs = 1 and sk_gso_disable();
 *    .release gives the socket its GSO, MSS and pacing settings back.
 *  - TCP does not pace its first 10 data segments: the first streams of a
 *    connection leave back to back (marked RAPID_SF_UNPACED).
 *  - An ABest source, one of two (both PathChirp's excursion analysis,
 *    rapid_pathchirp.h, bounded by rapid_estimate_value() and
 *    rapid_on_estimate() before rapid_on_abest()):
 *    1. the receiver's helper tcp_rapid_rx.ko: every new data segment
 *       carries a 12-byte option {stream id, index, N, EDT departure}
 *       (mark_data; the MSS shrinks by 12 bytes), the helper stamps
 *       arrivals and returns ABest in an option on pure ACKs, read here in
 *       a probe on the tcp_probe tracepoint (socket locked, before the ACK
 *       is processed);
 *    2. without it (a stock receiver), the sender's own analysis of the
 *       ACK arrival times (rapid_sest.h): the packets that ACKs acknowledge
 *       exactly form a thinner p-stream whose send times are the
 *       schedule's.  It runs until the first feedback option arrives.
 *    The lab modes fixed_rate_kbps and inject_abest_kbps override both.
 *
 * cwnd is not RAPID's limiter: in steady state it is set to twice what
 * r_avg keeps in flight over srtt plus two streams (rapid_cwnd_target());
 * in slow start it opens exactly one stream per round trip.
 *
 * The arithmetic (schedule, cursor, controller) is in rapid_chirp.h and is
 * unit tested in userspace (tests/unit/test_rapid_schedule.c).  docs/rapid.md
 * maps every choice to the report; docs/rapid-deviations.md lists the
 * deviations, docs/rapid-helper.md the receiver helper.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/inet_diag.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/log2.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/overflow.h>
#include <linux/win_minmax.h>
#include <linux/percpu.h>
#include <linux/tracepoint.h>
#include <net/net_namespace.h>
#include <net/tcp.h>

#include "cc_info.h"
#include "cc_pacing.h"
#include "cc_param.h"
#include "cc_stats.h"
#include "compat.h"
#include "rapid_sest.h"
#include "rapid_skb.h"

#define CREATE_TRACE_POINTS
#include "rapid_trace.h"

/* The socket default for sk_pacing_shift (sk_init_data()), restored on release. */
#define RAPID_PACING_SHIFT_STOCK	10
/* TCP paces a segment's gap only once data_segs_out reaches this. */
#define RAPID_TCP_UNPACED_SEGS		10
#define RAPID_CWND_MIN			1U	/* the slow-start gate may close at 1 */

/*
 * Socket flags, sticky, held in struct rapid.flags (u8) and reported as
 * struct rapid_cc_info.flags by get_info (cc_info.h).  The values are
 * user-visible and fixed: scripts/obs/cc_info.py and tests/vm/lib-rapid.sh
 * decode them (docs/rapid.md, "get_info").
 */
enum rapid_flag {
	RAPID_F_FQ = BIT(0),		/* sk_pacing_status is SK_PACING_FQ */
	RAPID_F_INTERNAL = BIT(1),	/* TCP internal pacing (no fq seen) */
	RAPID_F_NORING = BIT(2),	/* no stream ring: no per-stream records */
	RAPID_F_INJECT = BIT(3),	/* inject_abest_kbps fed an ABest */
	RAPID_F_LOSS = BIT(4),		/* a loss reduction or an RTO restart */
	RAPID_F_RING_FULL = BIT(5),	/* a stream went unrecorded (ring full) */
	RAPID_F_RXFB = BIT(6),		/* the receiver's helper sends feedback */
	RAPID_F_SEST = BIT(7),		/* a sender-side estimate was applied */
};

static_assert(RAPID_F_FQ == 0x01 && RAPID_F_INTERNAL == 0x02 &&
	      RAPID_F_NORING == 0x04 && RAPID_F_INJECT == 0x08 &&
	      RAPID_F_LOSS == 0x10 && RAPID_F_RING_FULL == 0x20 &&
	      RAPID_F_RXFB == 0x40 && RAPID_F_SEST == 0x80);

/*
 * State flags, not sticky, not stored in struct rapid.flags: get_info
 * reads them from the law (struct rapid_law) when it reports.
 */
#define RAPID_INFO_COMPETE	BIT(8)	/* competing with a standing queue */
#define RAPID_INFO_KEEP		BIT(9)	/* the keep after competing holds */
#define RAPID_INFO_REORDER	BIT(10)	/* the path reorders: the base RTT is
					 * the lowest stream median
					 * (rapid_base_rtt())
					 */

/* Smallest stream_slots the allocation falls back to. */
#define RAPID_SLOTS_MIN		8U

/*
 * What the sender-side estimate made of a stream, held in struct
 * rapid_stream.est (u8); internal to the module.
 */
enum rapid_est_state {
	RAPID_EST_NONE = 0,		/* not analysed */
	RAPID_EST_DONE = 1,		/* est_rule / est_kbps hold the result */
	RAPID_EST_LATE = 2,		/* did not leave as planned: no estimate */
};

/*
 * Per-stream record flags, held in struct rapid_stream.flags (u8), for the
 * estimator and the loss accounting; internal to the module.
 */
enum rapid_stream_flag {
	RAPID_SF_CLOSED = BIT(0),	/* all its packets have been sent */
	RAPID_SF_RETRANS = BIT(1),	/* a packet of it was retransmitted */
	RAPID_SF_UNPACED = BIT(2),	/* a gap inside it was not applied */
	RAPID_SF_TRUNCATED = BIT(3),	/* ended early (idle restart, RTO) */
	RAPID_SF_REPAIRED = BIT(4),	/* one of its own packets was retransmitted */
	RAPID_SF_JUDGED = BIT(5),	/* its loss accounting is done */
	RAPID_SF_LOSSY = BIT(6),	/* ... and found congestive loss */
	RAPID_SF_FB_PENDING = BIT(7),	/* feedback came before it was delivered */
};

static_assert(RAPID_SF_FB_PENDING <= U8_MAX);

/*
 * One p-stream as sent: what the estimator needs to map ACKs or feedback
 * to it and to know the intended gap of every packet
 * (rapid_schedule_rate(&sched, i) is the gap after packet i).
 */
struct rapid_stream {
	struct rapid_schedule sched;	/* the schedule it follows */
	u64 t_first_ns;			/* EDT departure of packet 1, ns (mono) */
	u64 t_last_ns;			/* EDT departure of the last packet sent */
	u32 id;				/* stream id: 1, 2, ... (never 0) */
	u32 start_seq;			/* first payload byte */
	u32 end_seq;			/* one past the last payload byte sent */
	u32 est_kbps;			/* sender-side ABest, kbit/s */
	u16 mss;			/* payload of its full-sized packets, bytes */
	u8 k;				/* packets planned */
	u8 sent;			/* packets sent */
	u8 flags;			/* enum rapid_stream_flag, RAPID_SF_* */
	u8 est;				/* enum rapid_est_state, RAPID_EST_* */
	u8 est_rule;			/* enum rapid_pc_rule of the estimate */
	u8 est_lossy;			/* the estimate is from a stopped prefix */
	u8 fb_rule;			/* RAPID_SF_FB_PENDING: the feedback's rule */
	u8 fb_truncated;		/* ... and its truncated flag */
	u64 fb_abest;			/* ... and its ABest, B/s */
};

/*
 * Records of the streams sent and not yet fully acknowledged, oldest at
 * tail, and the sender-side estimator that follows the oldest one through
 * its ACKs.  Allocated in .init; when full, new streams go unrecorded, so
 * the records stay in sequence order.
 */
struct rapid_ring {
	struct rapid_sest est;		/* the stream at tail, from its ACKs */
	u32 abest_kbps;			/* last ABest applied, kbit/s */
	u32 win_rtt_us;			/* lowest RTT sample since the last
					 * stream completed, us (U32_MAX: none)
					 */
	struct rapid_rtt_win rtt_win;	/* ... and the first of them (of
					 * cumulative ACKs while the path
					 * reorders)
					 */
	u32 una;			/* snd_una after the last ACK */
	struct rapid_wmin base_med;	/* lowest median of a stream's RTT
					 * samples, us, over TCP's min-RTT
					 * window (time in jiffies;
					 * rapid_base_rtt())
					 */
	struct rapid_min_hold min_hold;	/* TCP's min RTT as RAPID takes it,
					 * us (rapid_min_rtt_us())
					 */
	u32 reord_seen;			/* tp->reord_seen at the last stream */
	u32 reord_t;			/* when it last changed, jiffies */
	u8 reordered;			/* ... within TCP's min-RTT window */
	u32 qd_us;			/* standing queue: rapid_qd_sample() of
					 * the last completed stream, us
					 */
	u8 fb_quiet;			/* streams completed since the last
					 * feedback option for a stream in flight
					 */
	u64 fb_abest;			/* feedback waiting for cong_control: B/s */
	u32 fb_id;			/* ... its stream (0: none waiting) */
	u8 fb_rule;			/* ... enum rapid_pc_rule */
	u8 fb_truncated;		/* ... from a stream's prefix */
	u8 fb_disagree;			/* streams in a row on which the feedback
					 * and the own estimate disagreed
					 */
	u8 fb_distrust;			/* 1: the receiver's feedback is ignored */
	u32 fb_checked_id;		/* the newest stream whose feedback was
					 * checked (0: none): the helper repeats
					 * it on up to feedback_acks ACKs
					 */
	struct minmax dr_max;		/* highest delivery rate, kbit/s, over the
					 * last RAPID_DR_WIN_RTTS round trips
					 * (time in us)
					 */
	struct minmax dr_lim;		/* ... of streams' stretched tails
					 * (rapid_sest_stretched_rate()), slow
					 * start and the refinement only
					 */
	u32 sest_last_id;		/* the last completed stream with an own */
	u32 sest_last_kbps;		/* estimate, and that estimate (bounded) */
	u16 head;			/* streams recorded (free-running) */
	u16 tail;			/* streams completed (free-running) */
	u16 judge;			/* next stream for the loss accounting
					 * (free-running, in [tail, head])
					 */
	u16 mask;			/* slots - 1 (slots a power of two) */
	struct rapid_abest_hist hist;	/* newest steady-state estimates */
	struct rapid_law law;		/* the queue's growth, the last cut */
	struct rapid_stream rec[];	/* the slots */
};

/* Per-socket state, in icsk_ca_priv (104 bytes). */
struct rapid {
	struct rapid_ctl ctl;		/* controller: r_avg (B/s), N, m, phase */
	struct rapid_cursor cur;	/* the stream being sent, packet by packet */
	struct rapid_ring *ring;	/* stream records; NULL: none */
	u64 edt_ns;			/* TCP's next planned departure, replayed, ns */
	u32 cur_end_seq;		/* one past the current stream's last byte */
	u32 lost_snap;			/* tp->lost when the last stream was judged */
	u16 clamp_saved;		/* mss_clamp before the data option's room */
	u8 flags;			/* enum rapid_flag, RAPID_F_* */
	u8 cur_recorded:1,		/* current stream has a ring record */
	   cur_done:1,			/* current stream fully acknowledged */
	   marking:1,			/* new data carries the data option */
	   gso_off:1,			/* .init set sk_gso_disabled */
	   pacing_on:1,			/* .init set SK_PACING_NEEDED */
	   counted:1;			/* in rapid_users (.init, not .release) */
	u32 init_nxt;			/* snd_nxt at .init: data before it was
					 * sent by the congestion control the
					 * socket had before (setsockopt)
					 */
};

static struct tcp_congestion_ops tcp_rapid_ops;

/*
 * Module parameters (cc_param.h): out of range they are refused (-EINVAL
 * and a pr_warn naming the range and unit), min_rate_kbps <= max_rate_kbps
 * is kept by rapid_check_rate(), and where 0 means "off" it is accepted
 * too.  Readers use READ_ONCE() and see either value.  Values are read when
 * a stream starts (N, m, fixed rate), when an ABest or a loss is handled
 * (tau, rates, loss factor) and at .init (initial rate, pacing shift,
 * stream_slots), so writes take effect on running sockets.  The bounds and
 * defaults the pure headers name too are checked against them below.
 */
static bool rapid_check_rate(const struct cc_param *p, unsigned int v,
			     unsigned int *lo, unsigned int *hi);

CC_PARAM(n, rapid_p_n, 0644, 30, 2, 128, "packets",
	 "steady-state p-stream length N");
CC_PARAM(m, rapid_p_m, 0644, 1070, 1001, 4000, "1/1000",
	 "steady-state rate ratio m");
CC_PARAM(ss_n_max, rapid_p_ss_n_max, 0644, 16, 2, 128, "packets",
	 "slow start: N doubles up to this");
CC_PARAM(ss_n_init, rapid_p_ss_n_init, 0644, RAPID_DEF_SS_N_FIRST, 2, 128,
	 "packets",
	 "slow start: N of a connection's first stream (at most ss_n_max; 2, the report's; 8 with initial_rate_kbps=500: gentler when joining many flows, slower to a long fast path alone, docs/rapid-deviations.md#ss-first-stream)");
CC_PARAM(initial_rate_kbps, rapid_p_init_rate, 0644, 100, 10, 100000000,
	 "kbit/s", "r_avg of a new connection");
CC_PARAM(tau_ms, rapid_p_tau, 0644, 1200, 1, 60000, "ms",
	 "convergence time tau of increases, Eq. 6 (the report's: 200)");
CC_PARAM(min_rate_kbps, rapid_p_min_rate, 0644, 10, 10, 100000000, "kbit/s",
	 "floor of r_avg, at most max_rate_kbps (steady state and slow start's exit: also 2 packets per srtt)",
	 .check = rapid_check_rate);
CC_PARAM(max_rate_kbps, rapid_p_max_rate, 0644, 100000000, 10, 100000000,
	 "kbit/s", "ceiling of r_avg and slow start's r_1, at least min_rate_kbps",
	 .check = rapid_check_rate);
CC_PARAM(pacing_shift, rapid_p_pacing_shift, 0644, 7, 1, 10,
	 "rate >> shift bytes", "sk_pacing_shift of new sockets, TSQ's budget");
CC_PARAM(loss_factor, rapid_p_loss_factor, 0644, 700, 100, 1000, "1/1000",
	 "r_avg multiplier on loss in two consecutive streams, 1000 = off");
CC_PARAM_OFF_POW2(stream_slots, rapid_p_stream_slots, 0444, 128, 8, 4096,
		  "streams", "per-socket records of unacknowledged streams");
#ifdef RAPID_LAB
/* Lab modes: module parameters of the lab build (make LAB=1) only. */
CC_PARAM_OFF(fixed_rate_kbps, rapid_p_fixed_rate, 0644, 0, 10, 100000000,
	     "kbit/s",
	     "LAB MODE: hold r_avg at this rate, no slow start, ABest and losses ignored");
CC_PARAM_OFF(inject_abest_kbps, rapid_p_inject_abest, 0644, 0, 1, 100000000,
	     "kbit/s", "LAB MODE: every fully acked p-stream reports this ABest");
#else
/* Production build: no lab modes, both stay 0 (off). */
static const struct cc_param rapid_p_fixed_rate;
static const struct cc_param rapid_p_inject_abest;
#endif
CC_PARAM(mark_data, rapid_p_mark_data, 0644, 1, 0, 1, "boolean",
	 "new connections mark their data for a tcp_rapid_rx receiver (12-byte option, MSS 12 bytes smaller)");
CC_PARAM(sender_estimate, rapid_p_sender_estimate, 0644, 1, 0, 1, "boolean",
	 "estimate ABest from ACK arrival times while the receiver sends no feedback");
CC_PARAM(drain_max, rapid_p_drain_max, 0644, 250, 0, 1000, "1/1000",
	 "standing-queue drain: the largest cut of the rate (pace_drain) or of ABest, 0 = off");
CC_PARAM(pace_drain, rapid_p_pace_drain, 0644, RAPID_DEF_PACE_DRAIN, 0, 1, "boolean",
	 "report's law: a standing queue is drained by sending the streams below r_avg instead of cutting the estimates r_avg follows, and the re-acquire jump judges the newest estimates against a level of older ones; 0 = the drain cuts ABest");
CC_PARAM(bias_milli, rapid_p_bias_milli, 0644, RAPID_DEF_BIAS_MILLI, 0, RAPID_BIAS_MILLI_MAX, "1/1000",
	 "report's law: steady-state estimates are taken this much lower (PathChirp's ABest lies half a rate step above the avail-bw on average), 0 = as they are");
CC_PARAM(law, rapid_p_law, 0644, 0, 0, 1, "0 report, 1 queue",
	 "steady-state control law: the report's (Eq. 6 up, lower ABest adopted at once) or the queue law (docs/rapid.md)");
CC_PARAM(q_target_us, rapid_p_q_target, 0644, 2000, 100, 1000000, "us",
	 "queue law: standing-queue target above the path's delay noise");
CC_PARAM(law_t_ms, rapid_p_law_t, 0644, 100, 10, 10000, "ms",
	 "queue law: a standing queue above the target is drained within this time");
CC_PARAM(adapt_tau, rapid_p_adapt_tau, 0644, 1, 0, 1, "boolean",
	 "queue law: overshoots slow the increases (tau up to 64 times)");
CC_PARAM(compete, rapid_p_compete, 0644, 1, 0, 1, "boolean",
	 "both laws: hold a share against a flow that keeps a standing queue (a loss-based one)");
CC_PARAM(compete_pkts, rapid_p_compete_pkts, 0644, 2, 0, 64, "packets",
	 "while competing, r_avg rises by at least this many packets per srtt every srtt (Reno: 1), 0 = probe_milli alone");
CC_PARAM(compete_us, rapid_p_compete_us, 0644, RAPID_DEF_COMPETE_US,
	 RAPID_COMPETE_US_MIN, RAPID_COMPETE_US_MAX, "us",
	 "both laws: a standing queue whose floor stays above the larger of this and base RTT / 8 is a competitor's, one that keeps a queue (4000, the default: RAPID that joins a cubic flow on a 40 ms path keeps more of a fair share than with 8000)");
CC_PARAM(keep_milli, rapid_p_keep_milli, 0644, 750, 0, 1000, "1/1000",
	 "report's law: for keep_ms after competing ends, r_avg is cut to no less than this share of its rate then, 0 = off");
CC_PARAM(keep_ms, rapid_p_keep_ms, 0644, 10000, 0, 60000, "ms",
	 "report's law: how long keep_milli holds after competing ends, 0 = off");
CC_PARAM(keep_arm_ms, rapid_p_keep_arm_ms, 0644, 2000, 0, 60000, "ms",
	 "report's law: the keep follows only competing that lasted at least this long (a start's queue makes short episodes)");
CC_PARAM(count_flows, rapid_p_count_flows, 0644, 1, 0, 1, "boolean",
	 "queue law: increases slow down by the number of flows rising together, counted from how ABest answers the flow's own increases");
CC_PARAM(count_report, rapid_p_count_report, 0644, 1, 0, 1, "boolean",
	 "report's law: Eq. 6's increases slow down by the number of flows rising together, counted from how ABest answers the flow's unslowed increases (not while the path reorders)");
CC_PARAM(count_up_milli, rapid_p_count_up, 0644, 1000, 0, 1000, "1/1000",
	 "report's law: the weight of a rise of the estimate in the count's samples, 1000 = signed (a lone flow's noisy estimates count 1 flow, the default), 0 = rectified (fairer with 100 flows at 1 Gbit/s in the scale engine)");
static_assert(RAPID_DEF_COUNT_REPORT == 1);
static_assert(RAPID_DEF_COUNT_UP_MILLI == 1000 && RAPID_COUNT_UP_MILLI_MAX == 1000);
CC_PARAM_OFF(probe_milli, rapid_p_probe, 0644, 20, 1, 1000, "1/1000",
	     "queue law: probe up by this share of r_avg per srtt without a queue or a higher estimate");
CC_PARAM(median, rapid_p_median, 0644, 3, 1, 7, "streams",
	 "steady state acts on the median of this many newest per-stream estimates, 1 = each alone (the report's rule)");
CC_PARAM(jump_milli, rapid_p_jump, 0644, 1000, 0, 1000, "1/1000",
	 "report's law: share of the gap to a step up of ABest adopted at once when the estimates agree on it (jump_mean); off for 8 srtt when later estimates show others took it too (they fall below their level before it), or until a new level (jump_mean); 0 = off (Eq. 6 alone)");
CC_PARAM(jump_mean, rapid_p_jump_mean, 0644, RAPID_DEF_JUMP_MEAN, 0, RAPID_JUMP_MEAN_MAX, "streams",
	 "report's law: a jump when the mean of this many newest estimates and their median lie 1/8 above r_avg and the mean 1.15 times their noise (at least 3/16) above their slow level, to that mean (at most r_avg / 2); after a jump the estimates held, one more within an srtt when none lies below r_avg and their mean lies 1/16 above it (at most r_avg / 4); a lock ends at a mean 1/4 above the level; 0 = when the newest 3 lie within 1/4 of each other and 3/16 above the level (at most r_avg / 4)");
CC_PARAM(accel_max, rapid_p_accel_max, 0644, RAPID_DEF_ACCEL_MAX, 0, RAPID_ACCEL_MAX_MAX, "halvings",
	 "report's law: while ABest stays 1/8 to 1/2 of r_avg above r_avg (newest 3 estimates within r_avg / 2, no standing queue), each srtt halves Eq. 6's tau once more, at most this many times; an overshoot while accelerating locks it out for 8 srtt and more, or until the estimates reach a new level; 0 = off");
CC_PARAM(cut_max, rapid_p_cut_max, 0644, RAPID_DEF_CUT_MAX, 1, RAPID_CUT_MAX_MAX, "1/1000",
	 "report's law: one lower estimate cuts r_avg by at most this share of it (or the standing queue's share of the base RTT when larger, cut_deep), 1000 = adopt it at once (the report's rule)");
CC_PARAM(cut_deep, rapid_p_cut_deep, 0644, RAPID_DEF_CUT_DEEP, 0, 1, "boolean",
	 "report's law, opt-in: a standing queue deepens cut_max to its share of the base RTT (at least 10 ms), so that flows that overshot together give it up within a few estimates (with cut_max=50 fair_pkts=32: 100 flows at 1 Gbit/s fair and the link used; 12 flows at 50 Mbit/s converge more slowly after their joins); 0 = cut_max alone (the default)");
CC_PARAM_OFF(hold_milli, rapid_p_hold, 0644, 200, 1, 1000, "1/1000",
	     "report's law: a lower estimate within this share of r_avg is ignored while there is no standing queue, 0 = off");
CC_PARAM_OFF(share_pkts, rapid_p_share_pkts, 0644, RAPID_DEF_SHARE_PKTS, 1,
	     RAPID_SHARE_PKTS_MAX, "packets",
	     "report's law: while the standing queue holds fewer than this many of the flow's own packets (qd * r_avg) a lower estimate does not cut r_avg, so a flow at a small share is not cut down by a queue its larger peers keep and cut for (3, the default: 12 flows at 50 Mbit/s use more of the link, 100 at 1 Gbit/s are fairer); 0 = off, the queue alone");
CC_PARAM_OFF(fair_pkts, rapid_p_fair_pkts, 0644, RAPID_DEF_FAIR_PKTS, 1,
	     RAPID_FAIR_PKTS_MAX, "packets",
	     "report's law, opt-in: while the standing queue holds more than this many of the flow's own packets (qd * r_avg), a higher estimate does not raise r_avg but moves it towards the rate that would hold this many, with the time constant tau / 4, unless the queue is draining, so that flows at a larger share give way to those at a smaller one (32 measured: fairer joins; a lone flow at 1 Gbit/s uses less of the link); 0 = off, Eq. 6 alone (the default)");
CC_PARAM_OFF(ai_pkts, rapid_p_ai_pkts, 0644, RAPID_DEF_AI_PKTS, 1,
	     RAPID_AI_PKTS_MAX, "packets",
	     "report's law: while the report's count reads 1.5 flows or more, every estimate that does not cut raises r_avg by at least this many packets per 50 ms, times the stream's share of tau, the same for every flow whatever its rate, until the flow holds this many of its own packets in the standing queue, so that the shares of flows that see the same queue move together (4, the default: 12 flows at 50 Mbit/s fairer, the queue a few packets longer); 0 = off, Eq. 6 alone");
CC_PARAM_OFF(stream_srtt_pct, rapid_p_stream_srtt_pct, 0644,
	     RAPID_DEF_STREAM_SRTT_PCT, 10, RAPID_FIT_PCT_MAX, "%",
	     "opt-in: a steady-state stream lasts at most this share of srtt, with as many packets as fit (at least 16) and a larger m for the same range of rates, so a flow at a low rate hears from its streams every round trip instead of every 10-20 (50 measured in the scale engine); 0 = off, N packets always");
CC_PARAM(reorder_hold, rapid_p_reorder_hold, 0644, RAPID_DEF_REORDER_HOLD,
	 0, 1, "boolean",
	 "report's law: while the path reorders, a lower estimate without a standing queue (measured from the streams' median RTTs) does not cut r_avg at all: out-of-order delays make the estimates noise there (1, the default: a lone flow on 25% reordering at 0.95-0.98 of the link instead of 0.84-0.90); 0 = the hold of hold_milli alone");
CC_PARAM_OFF(cut_share_ms, rapid_p_cut_share, 0644, RAPID_DEF_CUT_SHARE_MS,
	     RAPID_CUT_SHARE_MS_MIN, RAPID_CUT_SHARE_MS_MAX, "ms",
	     "report's law, opt-in: a lower estimate's cut is scaled by r_avg over the highest estimate of about this long (5000 measured), so n flows together cut an overshoot about once, not n times; 0 = off, each cuts all of it (the default: at 1 Gbit/s with 24-100 flows it cost fairness)");
CC_PARAM(ss_exit_dr, rapid_p_ss_exit_dr, 0644, 4000, 1000, 4000, "1/1000",
	 "slow start ends at most at this multiple of the highest delivery rate of the last round trips (4000: the estimate cap alone, the default; 2000 ends the joins' buffer overflows of many flows but slows a joining flow)");
CC_PARAM(ss_refine, rapid_p_ss_refine, 0644, 16, 0, 255, "streams",
	 "after slow start, higher estimates are adopted at once until the second lower one in a row, for at most this many streams sent after r_avg's last raise, 0 = never (the report's rule, the tau filter)");
CC_PARAM_OFF(refine_m, rapid_p_refine_m, 0644, RAPID_DEF_REFINE_M, RAPID_M_MIN,
	     RAPID_M_MAX, "1/1000",
	     "after slow start, the refinement's streams probe with this rate ratio (wider than m) until one finds a trend below its top, 0 = m");
CC_PARAM(f_milli, rapid_p_f_milli, 0644, 3000, 1000, 1000000, "1/1000",
	 "sender-side estimate: PathChirp excursion end factor F");
CC_PARAM(ack_noise_us, rapid_p_ack_noise, 0644, 10, 0, 1000, "us",
	 "sender-side estimate: ACK timing noise floor");
CC_PARAM(ack_noise_mult, rapid_p_ack_noise_mult, 0644, 3, 0, 16, "x J/2",
	 "sender-side estimate: the ACK timing floor grows by this many halves of the stream's own ACK jitter J when J exceeds its mean send gap, 0 = off");

static_assert(RAPID_DEF_N == 30 && RAPID_N_MIN == 2 && RAPID_N_MAX == 128);
static_assert(RAPID_DEF_M == 1070 && RAPID_M_MIN == 1001 &&
	      RAPID_M_MAX == 4000);
static_assert(RAPID_DEF_SS_N_MAX == 16);
static_assert(RAPID_DEF_JUMP_MILLI == 1000 && RAPID_JUMP_MILLI_MAX == 1000);
static_assert(RAPID_DEF_INIT_KBPS == 100 && RAPID_KBPS_MIN == 10 &&
	      RAPID_KBPS_MAX == 100000000);
static_assert(RAPID_DEF_TAU_MS == 1200 && RAPID_TAU_MAX_MS == 60000);
static_assert(RAPID_DEF_CUT_MAX == 125 && RAPID_CUT_MAX_MAX == 1000 &&
	      RAPID_DEF_CUT_DEEP == 0);
static_assert(RAPID_DEF_HOLD_MILLI == 200 && RAPID_HOLD_MILLI_MAX == 1000);
static_assert(RAPID_DEF_SHARE_PKTS == 3 && RAPID_SHARE_PKTS_MAX == 64);
static_assert(RAPID_DEF_CUT_SHARE_MS == 0 && RAPID_CUT_SHARE_MS_MIN == 100 &&
	      RAPID_CUT_SHARE_MS_MAX == 60000);
static_assert(RAPID_DEF_KEEP_MILLI == 750 && RAPID_KEEP_MILLI_MAX == 1000 &&
	      RAPID_DEF_KEEP_MS == 10000 && RAPID_KEEP_MS_MAX == 60000 &&
	      RAPID_DEF_KEEP_ARM_MS == 2000);
static_assert(RAPID_PACING_SHIFT_STOCK == 10 && RAPID_SLOTS_MIN == 8);
static_assert(RAPID_DEF_LOSS_FACTOR == 700 && RAPID_LOSS_FACTOR_MIN == 100 &&
	      RAPID_LOSS_FACTOR_MAX == 1000);
static_assert(RAPID_LAW_REPORT == 0 && RAPID_LAW_QUEUE == 1);
static_assert(RAPID_DEF_MEDIAN == 3 && RAPID_MEDIAN_MAX == 7);
static_assert(RAPID_DEF_SS_REFINE == 16 && RAPID_SS_REFINE_MAX == 255);
static_assert(RAPID_DEF_SS_EXIT_DR == 4000 && RAPID_SS_EXIT_DR_MIN == 1000 &&
	      RAPID_SS_EXIT_DR_MAX == 4000);
static_assert(RAPID_DEF_COMPETE_PKTS == 2 && RAPID_COMPETE_PKTS_MAX == 64);
static_assert(RAPID_SEST_F_DEFAULT == 3000 && RAPID_PC_F_MIN == 1000 &&
	      RAPID_PC_F_MAX == 1000000);
static_assert(RAPID_SEST_Q_NOISE_NS_DEF == 10 * NSEC_PER_USEC &&
	      RAPID_PC_Q_NOISE_NS_MAX == 1000 * NSEC_PER_USEC);
static_assert(RAPID_SEST_NOISE_MULT_DEF == 3 && RAPID_PC_NOISE_MULT_MAX == 16);

/* min_rate_kbps at most max_rate_kbps, and the other way round. */
static bool rapid_check_rate(const struct cc_param *p, unsigned int v,
			     unsigned int *lo, unsigned int *hi)
{
	if (p == &rapid_p_min_rate)
		*hi = min(*hi, READ_ONCE(rapid_p_max_rate.val));
	else
		*lo = max(*lo, READ_ONCE(rapid_p_min_rate.val));
	return true;
}

/*
 * Event counters of all sockets and namespaces, read-only parameter
 * "stats" ("name value" lines), for tests and troubleshooting.
 */
enum rapid_stat {
	RAPID_ST_MARKED,	/* data segments that carry the data option */
	RAPID_ST_MARK_FAILED,	/* new data segments left unmarked */
	RAPID_ST_FB_ACKS,	/* ACKs with a feedback option */
	RAPID_ST_FB_REFUSED,	/* ... outside the window: ignored */
	RAPID_ST_FB_APPLIED,	/* feedback handed to the controller */
	RAPID_ST_FB_STALE,	/* ... for a stream already answered */
	RAPID_ST_SEST_STREAMS,	/* streams the sender-side estimate analysed */
	RAPID_ST_SEST_LATE,	/* ... that did not leave as planned */
	RAPID_ST_SEST_APPLIED,	/* sender-side ABest handed to the controller */
	RAPID_ST_NOMEM,		/* sockets without stream records */
	RAPID_ST_LOSS_RANDOM,	/* losses without a standing queue: ignored */
	RAPID_ST_FB_LAPSED,	/* feedback stopped: sender-side estimate again */
	RAPID_ST_FB_DISAGREE,	/* feedback not applied: the own estimate differs */
	RAPID_ST_FB_DISTRUSTED,	/* sockets that stopped believing their receiver */
	RAPID_ST_FB_IGNORED,	/* feedback options of such receivers */
	RAPID_ST_DR_CAPPED,	/* estimates cut to what the path delivered */
	RAPID_ST_TX_START,	/* restarts after idle (CA_EVENT_TX_START) */
	RAPID_ST_HOOK_ATTACH,	/* global hooks attached (first socket) */
	RAPID_ST_HOOK_DETACH,	/* ... detached (last socket gone) */
	RAPID_ST_UNHOOKED,	/* sockets started before the hooks were on */
	RAPID_ST_LOSS_INHERITED, /* recoveries of data sent before .init */
	RAPID_ST_SS_BLANK,	/* slow-start chirps that left as 1-2 packets */
	RAPID_NSTATS
};

static const char * const rapid_stat_names[RAPID_NSTATS] = {
	"marked", "mark_failed", "fb_acks", "fb_refused", "fb_applied", "fb_stale",
	"sest_streams", "sest_late", "sest_applied", "nomem", "loss_random",
	"fb_lapsed", "fb_disagree", "fb_distrusted", "fb_ignored", "dr_capped",
	"idle_restarts", "hook_attaches", "hook_detaches", "unhooked_starts",
	"loss_inherited", "ss_blank",
};

static DEFINE_PER_CPU(unsigned long[RAPID_NSTATS], rapid_stats);

/* RAPID sockets between .init and .release; the global hooks are on */
static atomic_t rapid_users = ATOMIC_INIT(0);
static bool rapid_hooks_on;

static void rapid_count(enum rapid_stat s)
{
	this_cpu_inc(rapid_stats[s]);
}

static int rapid_get_stats(char *buffer, const struct kernel_param *kp)
{
	unsigned long v[RAPID_NSTATS];
	int i;

	for (i = 0; i < RAPID_NSTATS; i++)
		v[i] = cc_stats_sum(rapid_stats, i);
	i = cc_stats_print(buffer, 0, rapid_stat_names, v, RAPID_NSTATS);
	/* not counters: RAPID sockets now, and whether the hooks are on */
	return i + scnprintf(buffer + i, PAGE_SIZE - i,
			     "sockets %d\nhooks_attached %d\n",
			     atomic_read(&rapid_users),
			     READ_ONCE(rapid_hooks_on));
}

static const struct kernel_param_ops rapid_stats_ops = {
	.set = cc_stats_set,
	.get = rapid_get_stats,
};

module_param_cb(stats, &rapid_stats_ops, NULL, 0444);
MODULE_PARM_DESC(stats, "read-only event counters, all sockets: \"name value\" lines");

static void rapid_load_cfg(struct rapid_cfg *cfg)
{
	cfg->init_rate = rapid_kbps_to_rate(READ_ONCE(rapid_p_init_rate.val));
	cfg->min_rate = rapid_kbps_to_rate(READ_ONCE(rapid_p_min_rate.val));
	cfg->max_rate = rapid_kbps_to_rate(READ_ONCE(rapid_p_max_rate.val));
	if (cfg->min_rate > cfg->max_rate)	/* two unlocked reads */
		cfg->min_rate = cfg->max_rate;
	cfg->tau_ns = (u64)READ_ONCE(rapid_p_tau.val) * NSEC_PER_MSEC;
	cfg->loss_factor = READ_ONCE(rapid_p_loss_factor.val);
	cfg->m = READ_ONCE(rapid_p_m.val);
	cfg->n = READ_ONCE(rapid_p_n.val);
	cfg->ss_n_max = READ_ONCE(rapid_p_ss_n_max.val);
	cfg->ss_n_init = READ_ONCE(rapid_p_ss_n_init.val);
	cfg->median = READ_ONCE(rapid_p_median.val);
	cfg->ss_refine = READ_ONCE(rapid_p_ss_refine.val);
	cfg->refine_m = READ_ONCE(rapid_p_refine_m.val);
	cfg->pace_drain = READ_ONCE(rapid_p_pace_drain.val);
	cfg->bias_milli = READ_ONCE(rapid_p_bias_milli.val);
	cfg->ss_r1_cap = 0;
	cfg->ss_exit_cap = 0;
	cfg->law = READ_ONCE(rapid_p_law.val);
	cfg->law_t_us = READ_ONCE(rapid_p_law_t.val) * USEC_PER_MSEC;
	cfg->q_target_us = READ_ONCE(rapid_p_q_target.val);
	cfg->adapt_tau = READ_ONCE(rapid_p_adapt_tau.val);
	cfg->compete = READ_ONCE(rapid_p_compete.val);
	cfg->compete_pkts = READ_ONCE(rapid_p_compete_pkts.val);
	cfg->compete_us = READ_ONCE(rapid_p_compete_us.val);
	cfg->keep_milli = READ_ONCE(rapid_p_keep_milli.val);
	cfg->keep_us = READ_ONCE(rapid_p_keep_ms.val) * USEC_PER_MSEC;
	cfg->keep_arm_us = READ_ONCE(rapid_p_keep_arm_ms.val) * USEC_PER_MSEC;
	cfg->count_flows = READ_ONCE(rapid_p_count_flows.val);
	cfg->count_report = READ_ONCE(rapid_p_count_report.val);
	cfg->count_up_milli = READ_ONCE(rapid_p_count_up.val);
	cfg->probe_milli = READ_ONCE(rapid_p_probe.val);
	cfg->jump_milli = READ_ONCE(rapid_p_jump.val);
	cfg->jump_mean = READ_ONCE(rapid_p_jump_mean.val);
	cfg->accel_max = READ_ONCE(rapid_p_accel_max.val);
	cfg->cut_max = READ_ONCE(rapid_p_cut_max.val);
	cfg->hold_milli = READ_ONCE(rapid_p_hold.val);
	cfg->cut_share_us = READ_ONCE(rapid_p_cut_share.val) * 1000U;
	cfg->fair_pkts = READ_ONCE(rapid_p_fair_pkts.val);
	cfg->ai_pkts = READ_ONCE(rapid_p_ai_pkts.val);
	cfg->reorder_hold = READ_ONCE(rapid_p_reorder_hold.val);
	cfg->stream_srtt_pct = READ_ONCE(rapid_p_stream_srtt_pct.val);
	cfg->cut_t_us = 0;
	cfg->qd_us = 0;
	cfg->queue_free = 0;
	cfg->queue_peers = 0;
	cfg->reorders = 0;
	cfg->steady_floor = 0;
}

/* ---- pacing and cwnd --------------------------------------------------- */

/*
 * Make TCP add exactly `rate`'s gap after the data segment leaving now.
 * tcp_update_skb_after_send() subtracts min(gap / 2, credit), credit being
 * how late the segment leaves against the departure time TCP had planned
 * (after an idle period, a slow-start wait, a late wake-up): that would
 * halve the first gap of every slow-start stream.  The hook replays TCP's
 * planned departure in ca->edt_ns and asks for a gap longer by what TCP
 * will take off (rapid_edt_rate()).  TCP adds no gap to its first 10
 * segments.
 */
static void rapid_pace_segment(struct sock *sk, const struct sk_buff *skb,
			       u32 len, u64 rate)
{
	struct rapid *ca = inet_csk_ca(sk);
	u64 t = ktime_to_ns(skb->tstamp);
	u64 credit = t > ca->edt_ns ? t - ca->edt_ns : 0;
	u64 max_rate = READ_ONCE(sk->sk_max_pacing_rate);

	if (tcp_sk(sk)->data_segs_out < RAPID_TCP_UNPACED_SEGS) {
		cc_set_pacing_rate(sk, rate);
		ca->edt_ns = t;
		return;
	}
	rate = clamp_t(u64, rate, 1, min_t(u64, max_rate, ULONG_MAX - 1));
	rate = rapid_edt_rate(rate, len, credit);
	cc_set_pacing_rate(sk, rate);
	ca->edt_ns = t + rapid_tcp_gap_ns(rate, len, credit);
}

/* Which EDT pacer honours the departure times; reported once. */
static void rapid_check_pacing(struct sock *sk)
{
	struct rapid *ca = inet_csk_ca(sk);
	u32 status = READ_ONCE(sk->sk_pacing_status);

	if (status == SK_PACING_FQ) {
		ca->flags = (ca->flags | RAPID_F_FQ) & ~RAPID_F_INTERNAL;
		return;
	}
	ca->flags = (ca->flags | RAPID_F_INTERNAL) & ~RAPID_F_FQ;
	if (status == SK_PACING_NONE)
		cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	pr_info_once("no fq qdisc on a RAPID sender's egress: TCP internal pacing times the p-streams (hrtimer slack makes the gaps coarser)\n");
}

/*
 * Slow start opens exactly one stream per round trip: in flight plus what
 * is left of the current stream, or the next stream once the current one
 * is fully acknowledged.  Elsewhere (and during loss recovery, so that
 * retransmissions flow) cwnd is a cap that pacing never reaches.
 */
static void rapid_set_cwnd(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rapid *ca = inet_csk_ca(sk);
	u32 cwnd;

	cwnd = rapid_cwnd_want(&ca->ctl, &ca->cur, ca->cur_done,
			       inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery,
			       tcp_packets_in_flight(tp), tp->srtt_us >> 3,
			       tp->mss_cache);
	cwnd = clamp(cwnd, RAPID_CWND_MIN, max(tp->snd_cwnd_clamp, RAPID_CWND_MIN));
	tcp_snd_cwnd_set(tp, cwnd);
}

/*
 * base_med (rapid_base_rtt()) while the path reorders, 0 otherwise: on a
 * path that delivers in order TCP's min RTT is exact.  TCP counted a
 * reordering event within its min-RTT window (rapid_sample_queue()).
 */
static bool rapid_reordered(const struct sock *sk)
{
	const struct rapid *ca = inet_csk_ca(sk);

	/* the count moved since the last stream: at once, not a stream late */
	return ca->ring && (ca->ring->reordered ||
			    tcp_sk(sk)->reord_seen != ca->ring->reord_seen);
}

static u32 rapid_base_med_us(const struct sock *sk)
{
	const struct rapid *ca = inet_csk_ca(sk);

	if (!rapid_reordered(sk))
		return 0;
	return rapid_wmin_get(&ca->ring->base_med);
}

/*
 * TCP's min RTT, us, a fall of it only once it has held for
 * RAPID_MIN_HOLD_RTTS round trips (rapid_min_hold_update(), kept up to
 * date in rapid_cong_control()).
 */
static u32 rapid_min_rtt_us(const struct sock *sk)
{
	const struct rapid *ca = inet_csk_ca(sk);
	u32 min_us = tcp_min_rtt(tcp_sk(sk));

	return ca->ring ? rapid_min_hold_get(&ca->ring->min_hold, min_us) :
			  min_us;
}

/* The path's base RTT, us (rapid_base_rtt()). */
static u32 rapid_base_rtt_us(const struct sock *sk)
{
	return rapid_base_rtt(rapid_min_rtt_us(sk), rapid_base_med_us(sk));
}

/*
 * The standing queue the loss responses look at, us: the sample of the
 * RTTs since the last stream completed (or of that stream,
 * rapid_qd_sample()), less the RTT's own noise (rapid_qd_denoise();
 * mdev_us is 4x scaled): on a jittery path a loss must not pass for
 * congestion.  (The drain takes qd as it is: there a false queue costs at
 * most drain_max of the rate, here it would cost the loss reductions.)
 */
static u32 rapid_queue_delay_us(struct sock *sk)
{
	const struct rapid *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 cur, base_med;

	if (!ca->ring)
		return 0;
	/* the median counts only against base_med (rapid_qd_sample()) */
	base_med = rapid_base_med_us(sk);
	cur = rapid_qd_sample(ca->ring->win_rtt_us, rapid_min_rtt_us(sk),
			      base_med ? rapid_rtt_win_median(&ca->ring->rtt_win) : 0,
			      base_med);
	return rapid_standing_qd(ca->ring->qd_us, cur, rapid_base_rtt_us(sk),
				 tp->mdev_us >> 2);
}

/* A loss is congestive when a standing queue comes with it. */
static bool rapid_loss_is_congestive(struct sock *sk)
{
	return rapid_loss_congestive(rapid_queue_delay_us(sk),
				     rapid_base_rtt_us(sk));
}

/* ---- stream records ------------------------------------------------- */

static struct rapid_stream *rapid_ring_slot(struct rapid_ring *ring, u16 i)
{
	return &ring->rec[i & ring->mask];
}

static struct rapid_stream *rapid_ring_current(struct rapid *ca)
{
	if (!ca->ring || !ca->cur_recorded)
		return NULL;
	return rapid_ring_slot(ca->ring, ca->ring->head - 1);
}

/* The unacknowledged stream that carried sequence number seq, if any. */
static struct rapid_stream *rapid_find_stream_by_seq(struct rapid *ca, u32 seq)
{
	struct rapid_ring *ring = ca->ring;
	u16 i;

	if (!ring)
		return NULL;
	for (i = ring->tail; i != ring->head; i++) {
		struct rapid_stream *rec = rapid_ring_slot(ring, i);

		if (!before(seq, rec->start_seq) && before(seq, rec->end_seq))
			return rec;
	}
	return NULL;
}

static void rapid_record_stream(struct rapid *ca,
				const struct rapid_schedule *s,
				u32 id, u32 k, u32 seq, u64 t_ns, u32 mss)
{
	struct rapid_ring *ring = ca->ring;
	struct rapid_stream *rec;

	ca->cur_recorded = 0;
	if (!ring)
		return;
	if ((u16)(ring->head - ring->tail) > ring->mask) {
		/* keep the oldest: completion stays in sequence order */
		ca->flags |= RAPID_F_RING_FULL;
		return;
	}
	rec = rapid_ring_slot(ring, ring->head);
	rec->sched = *s;
	rec->t_first_ns = t_ns;
	rec->t_last_ns = t_ns;
	rec->id = id;
	rec->start_seq = seq;
	rec->end_seq = seq;
	rec->k = k;
	rec->sent = 0;
	rec->flags = 0;
	rec->mss = (u16)min_t(u32, mss, U16_MAX);
	rec->est = RAPID_EST_NONE;
	rec->est_rule = RAPID_PC_RULE_INVALID;
	rec->est_lossy = 0;
	rec->est_kbps = 0;
	ring->head++;
	ca->cur_recorded = 1;
}

/* End the current stream early; the next new segment starts another. */
static void rapid_truncate_stream(struct rapid *ca)
{
	struct rapid_stream *rec = rapid_ring_current(ca);

	if (!rapid_cursor_open(&ca->cur))
		return;
	rapid_cursor_close(&ca->cur);
	if (rec)
		rec->flags |= RAPID_SF_CLOSED | RAPID_SF_TRUNCATED;
}

/* ---- the estimator interface ------------------------------------------ */

/* The recorded stream with this id, if it is still in the ring. */
static struct rapid_stream *rapid_find_stream_by_id(struct rapid *ca, u32 id)
{
	struct rapid_ring *ring = ca->ring;
	u16 i;

	if (!ring)
		return NULL;
	for (i = ring->tail; i != ring->head; i++) {
		struct rapid_stream *rec = rapid_ring_slot(ring, i);

		if (rec->id == id)
			return rec;
	}
	return NULL;
}

/*
 * ABest (bytes per second) for p-stream stream_id: the one entry point of
 * the estimators into the controller.  Call with the socket locked (from
 * cong_control or the tcp_probe tracepoint).  Stale, duplicate or, in slow
 * start, out-of-epoch stream ids are ignored by rapid_ctl_on_abest().
 */
static void rapid_on_abest(struct sock *sk, u32 stream_id, u64 abest,
			   u64 ss_r1_cap)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_cfg cfg;
	u32 exit_dr;

	if (!ca->ctl.n)
		return;
	rapid_load_cfg(&cfg);
	rapid_cfg_steady_floor(&cfg, &ca->ctl, tcp_sk(sk)->mss_cache,
			       tcp_sk(sk)->srtt_us >> 3);
	cfg.ss_r1_cap = ss_r1_cap;
	/*
	 * Every estimate is already cut to RAPID_DR_GAIN times the
	 * delivery-rate maximum (rapid_estimate_cap()): RAPID_SS_EXIT_DR_MAX
	 * is no cap
	 */
	exit_dr = READ_ONCE(rapid_p_ss_exit_dr.val);
	if (exit_dr < RAPID_SS_EXIT_DR_MAX && ca->ring)
		cfg.ss_exit_cap =
			div_u64(rapid_kbps_to_rate(minmax_get(&ca->ring->dr_max)) *
				exit_dr, 1000);
	if (ca->ring) {
		u32 base_us = rapid_base_rtt_us(sk), share;

		ca->ring->abest_kbps = rapid_rate_to_kbps(abest);
		cfg.qd_us = ca->ring->qd_us;
		if (READ_ONCE(rapid_p_cut_deep.val))
			cfg.cut_t_us = rapid_drain_t_us(base_us);
		share = READ_ONCE(rapid_p_share_pkts.val);
		cfg.queue_free =
			rapid_queue_free_share(ca->ring->qd_us, base_us,
					       ca->ctl.r_avg,
					       tcp_sk(sk)->mss_cache, share);
		cfg.queue_peers =
			rapid_queue_peers(ca->ring->qd_us, base_us,
					  ca->ctl.r_avg,
					  tcp_sk(sk)->mss_cache, share);
		cfg.reorders = rapid_reordered(sk);
	}
	rapid_ctl_on_abest_law(&ca->ctl, &cfg, ca->ring ? &ca->ring->hist : NULL,
			       ca->ring ? &ca->ring->law : NULL, stream_id,
			       abest, tcp_sk(sk)->mss_cache,
			       tcp_sk(sk)->srtt_us >> 3,
			       (u32)tcp_sk(sk)->tcp_mstamp);
}

/*
 * The schedule stream rec followed: its record's, or without a record the
 * one the controller gives now (filled into *cur).
 */
static const struct rapid_schedule *
rapid_rec_schedule(struct sock *sk, const struct rapid_stream *rec,
		   struct rapid_schedule *cur)
{
	const struct rapid *ca = inet_csk_ca(sk);

	if (rec)
		return &rec->sched;
	rapid_ctl_schedule(&ca->ctl, cur);
	return cur;
}

/*
 * The value of an estimate of a stream (rec: its record, if any; receiver
 * feedback or the sender's own): rule, ABest (B/s), lossy = from the
 * prefix of a stream with a hole; bounded by rapid_estimate_bound().  B/s,
 * 0 for none.
 */
static u64 rapid_estimate_value(struct sock *sk, u32 src, u32 rule,
				u64 abest, bool lossy,
				const struct rapid_stream *rec)
{
	struct rapid *ca = inet_csk_ca(sk);
	const struct rapid_schedule *sched;
	struct rapid_schedule cur;
	u32 eb = 0;

	/*
	 * The receiver marks an unpaced stream truncated (its send stamps do
	 * not increase): for those only the sender's own retransmission flag
	 * says loss.
	 */
	if (rec && (rec->flags & RAPID_SF_UNPACED) && src == RAPID_SRC_RECEIVER)
		lossy = false;
	/* loss without a standing queue is random (a lossy link) */
	if (lossy && !rapid_loss_is_congestive(sk))
		eb |= RAPID_EB_RANDOM;
	sched = rapid_rec_schedule(sk, rec, &cur);
	if (rec) {
		eb |= RAPID_EB_RECORDED;
		if (rec->flags & RAPID_SF_UNPACED)
			eb |= RAPID_EB_UNPACED;
		if (rec->flags & RAPID_SF_RETRANS)
			eb |= RAPID_EB_RETRANS;
		if (rec->est == RAPID_EST_LATE)
			eb |= RAPID_EB_LATE;
	}
	if (ca->ctl.phase == RAPID_PHASE_SS)
		eb |= RAPID_EB_SS;
	if (lossy)
		eb |= RAPID_EB_LOSSY;
	return rapid_estimate_bound(rule, abest, rapid_schedule_top(sched), eb,
				    ca->ctl.r_avg,
				    rapid_rate_from_fp(sched->r1_fp));
}

/*
 * The stretched tails' maximum (kbit/s), 0 once RAPID_DR_WIN_RTTS round
 * trips passed without one: a restart of slow start long after must not
 * inherit a path's old rate.
 */
static u32 rapid_dr_lim_kbps(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct rapid *ca = inet_csk_ca(sk);

	if (!ca->ring || (u32)tp->tcp_mstamp - ca->ring->dr_lim.s[0].t >
			 rapid_dr_win_us(tp->srtt_us >> 3))
		return 0;
	return minmax_get(&ca->ring->dr_lim);
}

/*
 * Hand an estimate of stream id to the controller: its value (abest, from
 * rapid_estimate_value() of the raw ABest raw), less the standing-queue
 * drain in steady state.  Returns true when the controller got an ABest.
 */
static bool rapid_on_estimate(struct sock *sk, u32 id, u32 src, u32 rule,
			      u64 raw, u64 abest, bool lossy)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_stream *rec = NULL;
	u64 dr = 0;

	/* a chirp that left as one or two packets probed nothing */
	if (ca->ctl.phase == RAPID_PHASE_SS)
		rec = rapid_find_stream_by_id(ca, id);	/* no scan in steady state */
	if (rec && rapid_ctl_ss_blank(&ca->ctl, rec->k)) {
		rapid_count(RAPID_ST_SS_BLANK);
		abest = 0;
		goto out;
	}
	/*
	 * Never far above what the path has delivered: an ABest above
	 * RAPID_DR_GAIN times the delivery-rate maximum of the last round
	 * trips is cut to that (in slow start that ends slow start there:
	 * the tops of m = 2 streams are no rate bound).  In slow start TCP's
	 * samples see only one stream per round trip, far below the path's
	 * rate, so there the maximum also holds the rate at which the path
	 * delivered each stream, from its ACKs (rapid_close_sest()): the fast
	 * end of an m = 2 stream arrives at what the bottleneck carries.  A
	 * "no trend" below the cap grows slow start's r_1 at most to it; the
	 * refinement after slow start (ss_refine) takes the rate on from the
	 * exit.  A lying receiver gets no further, and neither do
	 * ACK-compressed "no trend" estimates of the sender's own.  The
	 * measurements: docs/rapid-deviations.md#delivery-rate-cap.  In slow
	 * start and the refinement twice the rate the path gave a stream's
	 * stretched tail caps them too (rapid_estimate_cap(),
	 * docs/rapid-deviations.md#stretched-cap).
	 */
	if (ca->ring)
		dr = rapid_estimate_cap(minmax_get(&ca->ring->dr_max),
					rapid_dr_lim_kbps(sk),
					ca->ctl.phase == RAPID_PHASE_SS ||
					ca->ctl.refine);
	if (dr && abest > dr) {
		rapid_count(RAPID_ST_DR_CAPPED);
		abest = dr;
	}
	if (ca->ring && ca->ctl.phase == RAPID_PHASE_STEADY &&
	    READ_ONCE(rapid_p_law.val) != RAPID_LAW_QUEUE &&
	    !ca->ring->law.compete)
		abest = rapid_report_abest(abest, ca->ring->qd_us,
					   rapid_base_rtt_us(sk),
					   READ_ONCE(rapid_p_drain_max.val),
					   READ_ONCE(rapid_p_pace_drain.val),
					   READ_ONCE(rapid_p_bias_milli.val));
	if (abest)
		rapid_on_abest(sk, id, abest, dr);
out:
	trace_rapid_abest(sk, id, src, rule, lossy, rapid_rate_to_kbps(raw),
			  rapid_rate_to_kbps(abest),
			  rapid_rate_to_kbps(ca->ctl.r_avg), ca->ctl.phase,
			  ca->ring ? ca->ring->hist.acc : 0);
	return abest != 0;
}

/*
 * The sender's own estimate of stream id to check feedback of rule `rule`
 * against, B/s, 0 for none.  Values are compared only when both saw a
 * trend: "no trend" is a lower bound, and ACK compression often hides from
 * the sender a trend the receiver's clock shows (cross traffic).
 */
static u64 rapid_own_estimate(struct sock *sk, u32 id, u32 rule,
			      const struct rapid_stream *rec)
{
	const struct rapid *ca = inet_csk_ca(sk);
	const struct rapid_ring *ring = ca->ring;

	if (rec && rec->est == RAPID_EST_DONE &&
	    rec->est_rule == RAPID_PC_RULE_EXCURSION &&
	    rule == RAPID_PC_RULE_EXCURSION)
		return rapid_estimate_value(sk, RAPID_SRC_SENDER, rec->est_rule,
					    rapid_kbps_to_rate(rec->est_kbps),
					    rec->est_lossy, rec);
	if (!rec && id == ring->sest_last_id && rule == RAPID_PC_RULE_EXCURSION)
		return rapid_kbps_to_rate(ring->sest_last_kbps);
	return 0;
}

/*
 * Steady state: may feedback of value fb (raw: as the receiver sent it)
 * for stream id be applied?  Traced.
 */
static bool rapid_vet_fb(struct sock *sk, u32 id, u32 rule, u64 raw, u64 fb,
			 const struct rapid_stream *rec)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_ring *ring = ca->ring;
	u64 own = rapid_own_estimate(sk, id, rule, rec);
	struct rapid_schedule cur;
	const struct rapid_schedule *sched = rapid_rec_schedule(sk, rec, &cur);

	if (rapid_fb_disagrees(fb, own) ||
	    rapid_fb_impossible(rule, raw, rapid_rate_from_fp(sched->r1_fp),
				rapid_schedule_top(sched))) {
		rapid_count(RAPID_ST_FB_DISAGREE);
		if (++ring->fb_disagree >= RAPID_FB_DISTRUST) {
			ring->fb_distrust = 1;
			rapid_count(RAPID_ST_FB_DISTRUSTED);
		}
		trace_rapid_fb_check(sk, id, rule, rapid_rate_to_kbps(fb),
				     rapid_rate_to_kbps(own),
				     ring->fb_disagree, RAPID_FBV_DISAGREE);
		return false;
	}
	/*
	 * Room above r_avg for a stream that lost packets to a standing
	 * queue (judged congestive) is not taken either; but it is no reason
	 * to distrust the receiver: the helper's estimates run high under
	 * cross traffic (docs/results.md#rapid-accuracy).
	 */
	if (rec && (rec->flags & RAPID_SF_LOSSY) && fb > ca->ctl.r_avg) {
		rapid_count(RAPID_ST_FB_DISAGREE);
		trace_rapid_fb_check(sk, id, rule, rapid_rate_to_kbps(fb),
				     rapid_rate_to_kbps(own),
				     ring->fb_disagree, RAPID_FBV_LOSSY);
		return false;
	}
	if (own && fb)
		ring->fb_disagree = 0;
	trace_rapid_fb_check(sk, id, rule, rapid_rate_to_kbps(fb),
			     rapid_rate_to_kbps(own), ring->fb_disagree,
			     RAPID_FBV_PASS);
	return true;
}

/*
 * Receiver feedback for stream id (rec: its record, if any) meets the
 * sender's own estimate of the same stream, from the same packets' ACKs.
 * The receiver is not trusted blindly: in steady state, where both
 * estimates are meaningful (slow start's m = 2 streams leave the ACK-based
 * one mostly "no trend"), feedback the own estimate contradicts
 * (rapid_fb_disagrees()) is not applied, and after RAPID_FB_DISTRUST
 * streams in a row the receiver is not believed again on this connection:
 * the sender-side estimate takes over.  A receiver that lies high would
 * otherwise drive r_avg to the stream tops and on, far above what the path
 * delivers; one that lies low would hold the flow near the rate floor.
 */
static void rapid_check_apply_fb(struct sock *sk, u32 id, u32 rule, u64 abest,
				 bool truncated, const struct rapid_stream *rec)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_ring *ring = ca->ring;
	u64 fb;

	if (ring->fb_distrust) {
		rapid_count(RAPID_ST_FB_IGNORED);
		trace_rapid_fb_check(sk, id, rule, rapid_rate_to_kbps(abest), 0,
				     ring->fb_disagree, RAPID_FBV_DISTRUSTED);
		return;
	}
	/*
	 * One verdict per stream: a repeat of feedback already checked (or
	 * feedback for an older stream) says nothing new, and counting its
	 * disagreement again would let one odd stream distrust an honest
	 * helper (docs/reliability.md#hostile-peers).  The controller would
	 * ignore it anyway (rapid_on_abest()).
	 */
	if (ring->fb_checked_id && !rapid_id_after(id, ring->fb_checked_id))
		return;
	ring->fb_checked_id = id;
	fb = rapid_estimate_value(sk, RAPID_SRC_RECEIVER, rule, abest, truncated,
				  rec);
	if (ca->ctl.phase == RAPID_PHASE_STEADY &&
	    !rapid_vet_fb(sk, id, rule, abest, fb, rec))
		return;
	if (rapid_on_estimate(sk, id, RAPID_SRC_RECEIVER, rule, abest, fb,
			      truncated))
		rapid_count(RAPID_ST_FB_APPLIED);
}

/*
 * The loss accounting of stream id (rec: its record, if any): was it
 * lossy?  TCP marked packets lost since the previous stream was judged, or
 * one of its own packets was retransmitted (without SACK one ACK may pass
 * several streams after a repaired hole: each of them with a hole
 * counts).  Not RAPID_SF_RETRANS alone: that also marks the stream a
 * retransmission was paced into, which would make one isolated loss look
 * like loss in two consecutive streams.  Loss without a standing queue is
 * random, not congestion.
 */
static bool rapid_judge_stream(struct sock *sk, u32 id,
			       struct rapid_stream *rec)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_cfg cfg;
	bool lossy;

	lossy = tp->lost != ca->lost_snap ||
		(rec && (rec->flags & RAPID_SF_REPAIRED));
	if (lossy && !rapid_loss_is_congestive(sk)) {
		lossy = false;
		rapid_count(RAPID_ST_LOSS_RANDOM);
	}
	ca->lost_snap = tp->lost;
	if (rec)
		rec->flags |= RAPID_SF_JUDGED | (lossy ? RAPID_SF_LOSSY : 0);
	rapid_load_cfg(&cfg);
	if (rapid_ctl_on_stream_done(&ca->ctl, &cfg, id, lossy) ==
	    RAPID_EV_LOSS_REDUCE)
		ca->flags |= RAPID_F_LOSS;
	return lossy;
}

/*
 * How far the receiver has reported data: snd_una or, with SACKed data,
 * the end of the highest SACKed segment (out-of-order data is
 * acknowledged at once, so past a hole the SACK blocks keep reporting
 * every arrival).
 */
static u32 rapid_delivery_front(const struct tcp_sock *tp)
{
	u32 una = tp->snd_una, front;

	front = tp->sacked_out ? tcp_highest_sack_seq((struct tcp_sock *)tp) : una;
	if (before(front, una) || after(front, tp->snd_nxt))
		front = una;
	return front;
}

/*
 * Judge every recorded stream the delivery front has passed, oldest
 * first.  Not at completion (snd_una): in a long recovery, where the
 * retransmissions meet the same full buffer, snd_una stalls for round
 * trips while every stream past the hole is already known to be lossy,
 * and the persistent-loss reduction would come that much later
 * (docs/rapid.md#per-stream-records).
 */
static void rapid_judge_streams(struct sock *sk)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_ring *ring = ca->ring;
	u32 front;

	if (!ring)
		return;
	front = rapid_delivery_front(tcp_sk(sk));
	if ((u16)(ring->judge - ring->tail) > (u16)(ring->head - ring->tail))
		ring->judge = ring->tail;
	for (; ring->judge != ring->head; ring->judge++) {
		struct rapid_stream *rec = rapid_ring_slot(ring, ring->judge);

		if (!(rec->flags & RAPID_SF_CLOSED) || after(rec->end_seq, front))
			break;
		if (!(rec->flags & RAPID_SF_JUDGED))
			rapid_judge_stream(sk, rec->id, rec);
		if (rec->flags & RAPID_SF_FB_PENDING) {
			rec->flags &= ~RAPID_SF_FB_PENDING;
			rapid_check_apply_fb(sk, rec->id, rec->fb_rule,
					     rec->fb_abest, rec->fb_truncated, rec);
		}
	}
}

/*
 * The queue law's clock: the standing-queue sample of the stream that
 * completed, competition (both laws), then the law's cut or probe (the
 * queue law, or the report's law while competing).
 */
static void rapid_update_law(struct sock *sk, u32 id)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rapid *ca = inet_csk_ca(sk);
	u32 now = (u32)tp->tcp_mstamp, srtt = tp->srtt_us >> 3;
	struct rapid_cfg cfg;
	u8 was = ca->ring->law.compete;
	bool tick;

	rapid_law_queue(&ca->ring->law, now, ca->ring->qd_us, srtt);
	rapid_load_cfg(&cfg);
	rapid_cfg_steady_floor(&cfg, &ca->ctl, tp->mss_cache, srtt);
	rapid_law_competing(&ca->ring->law, &cfg, rapid_base_rtt_us(sk),
			    ca->ctl.r_avg, now);
	/*
	 * The report's law ticks while competing and when it ends; it is
	 * traced then, and on every stream while it counts the flows.
	 */
	tick = cfg.law == RAPID_LAW_QUEUE || ca->ring->law.compete || was;
	if (!tick && !cfg.count_report)
		return;
	if (tick)
		rapid_ctl_law_tick(&ca->ctl, &cfg, &ca->ring->law, id,
				   tp->mss_cache, srtt, now);
	trace_rapid_law(sk, id, ca->ring->law.qd_us, ca->ring->law.growth_ppm,
			ca->ring->law.noise_us, ca->ring->law.tau_x,
			ca->ring->law.n_est, ca->ring->law.compete,
			rapid_rate_to_kbps(ca->ctl.r_avg));
}

/*
 * Feedback that stops (the helper unloaded, a middlebox that strips the
 * option after a route change, a peer that lied once and went quiet) hands
 * the estimate back to the sender's own: otherwise no ABest would ever come
 * again and r_avg would stay where the last option left it.
 * RAPID_FB_LAPSE streams completed without an option for a stream in
 * flight are the sign.
 */
static void rapid_check_fb_lapse(struct sock *sk)
{
	struct rapid *ca = inet_csk_ca(sk);

	if ((ca->flags & RAPID_F_RXFB) && ca->ring &&
	    ++ca->ring->fb_quiet > RAPID_FB_LAPSE) {
		ca->flags &= ~RAPID_F_RXFB;
		ca->ring->fb_quiet = 0;
		rapid_count(RAPID_ST_FB_LAPSED);
	}
}

/* The standing-queue sample of completed stream id, then the law's clock. */
static void rapid_sample_queue(struct sock *sk, u32 id)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_ring *ring = ca->ring;
	u32 med, wlen;

	if (!ring || ring->win_rtt_us == U32_MAX)
		return;
	med = rapid_rtt_win_median(&ring->rtt_win);
	/* TCP's own min-RTT window (tcp_update_rtt_min()) */
	wlen = READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_min_rtt_wlen) * HZ;
	rapid_wmin_update(&ring->base_med, rapid_rtt_win_base(&ring->rtt_win, med),
			  tcp_jiffies32, wlen / 2);
	if (tp->reord_seen != ring->reord_seen) {
		ring->reord_seen = tp->reord_seen;
		ring->reord_t = tcp_jiffies32;
		ring->reordered = 1;
	} else if (ring->reordered && tcp_jiffies32 - ring->reord_t > wlen) {
		ring->reordered = 0;
	}
	ring->qd_us = rapid_qd_sample(ring->win_rtt_us, rapid_min_rtt_us(sk), med,
				      rapid_base_med_us(sk));
	ring->win_rtt_us = U32_MAX;
	ring->rtt_win.n = 0;
	rapid_update_law(sk, id);
}

/*
 * LAB MODE: hand the controller inject_abest_kbps as the ABest of stream
 * id.  Returns true when the lab mode is on.
 */
static bool rapid_inject_abest(struct sock *sk, u32 id, bool lossy)
{
	struct rapid *ca = inet_csk_ca(sk);
	u32 inject = READ_ONCE(rapid_p_inject_abest.val);

	if (!inject)
		return false;
	ca->flags |= RAPID_F_INJECT;
	rapid_on_abest(sk, id, rapid_kbps_to_rate(inject), 0);
	trace_rapid_abest(sk, id, RAPID_SRC_INJECT, 0, lossy, inject, inject,
			  rapid_rate_to_kbps(ca->ctl.r_avg), ca->ctl.phase,
			  ca->ring ? ca->ring->hist.acc : 0);
	return true;
}

/*
 * The sender-side estimate of completed stream id (rec: its record, if
 * any), kept to check later feedback and applied unless a receiver the
 * sender believes answers.
 */
static void rapid_apply_sest(struct sock *sk, u32 id,
			     const struct rapid_stream *rec)
{
	struct rapid *ca = inet_csk_ca(sk);
	u64 raw, value;

	if (!rec || rec->est != RAPID_EST_DONE)
		return;
	raw = rapid_kbps_to_rate(rec->est_kbps);
	value = rapid_estimate_value(sk, RAPID_SRC_SENDER, rec->est_rule, raw,
				     rec->est_lossy, rec);
	/* kept to check feedback that comes after the stream completed */
	ca->ring->sest_last_id = id;
	ca->ring->sest_last_kbps = rec->est_rule != RAPID_PC_RULE_EXCURSION ? 0 :
				   rapid_rate_to_kbps(value);
	/* the sender-side estimate, unless a receiver it believes answers */
	if ((!(ca->flags & RAPID_F_RXFB) || ca->ring->fb_distrust) &&
	    rapid_on_estimate(sk, id, RAPID_SRC_SENDER, rec->est_rule, raw, value,
			      rec->est_lossy)) {
		ca->flags |= RAPID_F_SEST;
		rapid_count(RAPID_ST_SEST_APPLIED);
	}
}

/* Stream id has been fully acknowledged; rec is its record, if any. */
static void rapid_complete_stream(struct sock *sk, u32 id,
				  struct rapid_stream *rec)
{
	bool lossy;

	rapid_check_fb_lapse(sk);
	/* unrecorded streams (ring full or none) are judged here */
	if (!rec || !(rec->flags & RAPID_SF_JUDGED))
		lossy = rapid_judge_stream(sk, id, rec);
	else
		lossy = rec->flags & RAPID_SF_LOSSY;
	rapid_sample_queue(sk, id);
	rapid_check_pacing(sk);
	if (rapid_inject_abest(sk, id, lossy))
		return;
	rapid_apply_sest(sk, id, rec);
}

/* A delivery rate (B/s) for the maximum (m) of the last round trips. */
static void rapid_push_dr_to(struct sock *sk, struct minmax *m, u64 rate)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	if (!rate)
		return;
	minmax_running_max(m, rapid_dr_win_us(tp->srtt_us >> 3),
			   (u32)tp->tcp_mstamp, rapid_rate_to_kbps(rate));
}

static void rapid_push_dr(struct sock *sk, u64 rate)
{
	struct rapid *ca = inet_csk_ca(sk);

	if (ca->ring)
		rapid_push_dr_to(sk, &ca->ring->dr_max, rate);
}

/* Track the highest delivery rate of the last round trips (kbit/s). */
static void rapid_update_dr(struct sock *sk, const struct rate_sample *rs)
{
	if (rs->delivered <= 0 || rs->interval_us <= 0)
		return;
	rapid_push_dr(sk, div64_u64((u64)rs->delivered *
				    tcp_sk(sk)->mss_cache * USEC_PER_SEC,
				    rs->interval_us));
}

/* Analyse the stream the sender-side estimator followed; keep the result. */
static void rapid_close_sest(struct sock *sk, struct rapid_sest *e,
			     struct rapid_stream *rec)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_pc_params p;
	struct rapid_pc_result res;
	u64 abest;

	rapid_count(RAPID_ST_SEST_STREAMS);
	/*
	 * In slow start TCP's delivery-rate samples see one stream per round
	 * trip, and for a round trip after it they still hold its gaps; the
	 * rate at which the path delivered the stream itself is what bounds
	 * the estimates there and in the refinement that follows
	 * (rapid_on_estimate()).  The refinement's wide streams add the rate
	 * of their faster half: the whole stream's, r_avg at most, held the
	 * first one at 4 times the exit where it had read the link
	 * (docs/rapid-deviations.md#wide-refine).
	 */
	if (ca->ctl.phase == RAPID_PHASE_SS || ca->ctl.refine) {
		rapid_push_dr(sk, rapid_sest_delivery_rate(e));
		if (ca->ctl.wide)
			rapid_push_dr(sk, rapid_sest_half_rate(e));
		rapid_push_dr_to(sk, &ca->ring->dr_lim,
				 rapid_sest_stretched_rate(e));
	}
	if (!rapid_sest_as_planned(e, rec->sent, rec->t_last_ns - rec->t_first_ns)) {
		rapid_count(RAPID_ST_SEST_LATE);
		e->id = 0;
		rec->est = RAPID_EST_LATE;
		return;
	}
	rapid_sest_params(&p, READ_ONCE(rapid_p_ack_noise.val) * NSEC_PER_USEC,
			  READ_ONCE(rapid_p_ack_noise_mult.val));
	p.f_milli = READ_ONCE(rapid_p_f_milli.val);
	rec->est_rule = (u8)rapid_sest_finish(e, &p, &res);
	rec->est_lossy = !!res.stop;
	abest = rapid_sest_abest(&res, rapid_schedule_top(&rec->sched));
	rec->est_kbps = rapid_rate_to_kbps(abest);
	if (abest && !rec->est_kbps)
		rec->est_kbps = 1;
	rec->est = RAPID_EST_DONE;
}

/*
 * Sender-side estimate (rapid_sest.h): hand this ACK's arrival time to the
 * estimator if it acknowledges a packet boundary of the oldest unfinished
 * stream(s); analyse the streams it completes.  From cong_control, before
 * the streams are completed.  The delivery frontier is snd_una or, with
 * SACKed data, the end of the highest SACKed segment: after a loss the
 * receiver still reports every arrival in SACK blocks (out-of-order data
 * is acknowledged at once), so the streams after the hole keep their
 * timing, while the cumulative ACK that finally covers the repaired hole
 * carries none.  The stream that holds the hole (snd_una inside it) or a
 * retransmission stops its record: its prefix is analysed.  While TCP sees
 * the path reorder (rapid_reordered()) a hole is a packet that is late,
 * not lost: the packets after it keep their arrival times in the SACK
 * front, so the record goes on past it; a retransmission still stops it
 * (docs/rapid-deviations.md#sender-jitter-floor).
 */
static void rapid_feed_sest(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_ring *ring = ca->ring;
	u32 una = tp->snd_una, front;
	bool reorders;
	u16 i;

	if (!ring || !READ_ONCE(rapid_p_sender_estimate.val))
		return;
	front = rapid_delivery_front(tp);
	reorders = rapid_reordered(sk);
	for (i = ring->tail; i != ring->head; i++) {
		struct rapid_stream *rec = rapid_ring_slot(ring, i);
		struct rapid_sest *e = &ring->est;
		u32 acked, pkts = 0;
		bool full;

		if (!after(front, rec->start_seq))
			break;
		if (rec->est != RAPID_EST_NONE)
			continue;
		if (e->id != rec->id)
			rapid_sest_begin(e, rec->id, &rec->sched, rec->mss);
		if ((rec->flags & RAPID_SF_RETRANS) ||
		    (front != una && before(una, rec->end_seq) && !reorders))
			rapid_sest_stop(e, RAPID_PC_STOP_LOSS);
		full = (rec->flags & RAPID_SF_CLOSED) && !before(front, rec->end_seq);
		acked = (full ? rec->end_seq : front) - rec->start_seq;
		if (full)
			pkts = rec->sent;
		else if (rec->mss && !(acked % rec->mss))
			pkts = acked / rec->mss;
		if (pkts)
			rapid_sest_ack(e, pkts, tp->tcp_clock_cache);
		if (!full)
			break;
		rapid_close_sest(sk, e, rec);
	}
}

/* Complete every recorded stream that snd_una has passed, oldest first. */
static void rapid_complete_streams(struct sock *sk)
{
	struct rapid *ca = inet_csk_ca(sk);
	u32 una = tcp_sk(sk)->snd_una;
	struct rapid_ring *ring = ca->ring;

	while (ring && ring->tail != ring->head) {
		struct rapid_stream *rec = rapid_ring_slot(ring, ring->tail);

		if (!(rec->flags & RAPID_SF_CLOSED) || after(rec->end_seq, una))
			break;
		rapid_complete_stream(sk, rec->id, rec);
		ring->tail++;
	}
	/* the current stream, also when it has no record */
	if (ca->cur.k && !rapid_cursor_open(&ca->cur) && !ca->cur_done &&
	    !after(ca->cur_end_seq, una)) {
		ca->cur_done = 1;
		if (!ca->cur_recorded)
			rapid_complete_stream(sk, ca->ctl.launched_id, NULL);
	}
}

/*
 * Whether a feedback result for stream id is recent: for a stream in the
 * ring, or one of the RAPID_FB_LAPSE streams completed before the oldest
 * there (without a ring: every id).
 */
static bool rapid_fb_recent(const struct rapid *ca, u32 id)
{
	const struct rapid_ring *ring = ca->ring;
	u32 oldest;

	if (!ring)
		return true;
	oldest = ring->tail != ring->head ?
		 ring->rec[ring->tail & ring->mask].id : ca->ctl.launched_id;
	return !rapid_id_after(oldest - RAPID_FB_LAPSE, id);
}

/*
 * The feedback option of skb, if it is one on an ACK that could be the
 * peer's next in-order pure ACK (its sequence number is rcv_nxt, its
 * ack_seq in [snd_una, snd_nxt]).  Counted.
 */
static bool rapid_read_fb(struct sock *sk, const struct sk_buff *skb,
			  struct rapid_opt *fb)
{
	const struct tcphdr *th = (const struct tcphdr *)skb->data;
	const struct tcp_sock *tp = tcp_sk(sk);
	unsigned int hlen = th->doff * 4;
	u32 ack;

	if (hlen <= sizeof(*th) || skb->len != hlen || skb_headlen(skb) < hlen)
		return false;
	if (rapid_opt_decode((const u8 *)(th + 1), hlen - sizeof(*th), fb))
		return false;
	rapid_count(RAPID_ST_FB_ACKS);
	ack = ntohl(th->ack_seq);
	if (ntohl(th->seq) != tp->rcv_nxt || before(ack, tp->snd_una) ||
	    after(ack, tp->snd_nxt)) {
		rapid_count(RAPID_ST_FB_REFUSED);
		return false;
	}
	return true;
}

/*
 * Feedback fb for stream id, from a receiver the sender listens to: at
 * once without a ring, else kept for cong_control (rapid_apply_fb()).
 */
static void rapid_take_fb(struct sock *sk, u32 id, const struct rapid_opt *fb)
{
	struct rapid *ca = inet_csk_ca(sk);

	if (!ca->ring) {
		if (rapid_on_estimate(sk, id, RAPID_SRC_RECEIVER, fb->rule,
				      fb->abest,
				      rapid_estimate_value(sk, RAPID_SRC_RECEIVER,
							   fb->rule, fb->abest,
							   fb->truncated, NULL),
				      fb->truncated))
			rapid_count(RAPID_ST_FB_APPLIED);
		return;
	}
	/* checked against the own estimate once this ACK is processed */
	ca->ring->fb_id = id;
	ca->ring->fb_abest = fb->abest;
	ca->ring->fb_rule = fb->rule;
	ca->ring->fb_truncated = fb->truncated;
}

/*
 * Receiver feedback (tcp_rapid_rx's option on a pure ACK), from the
 * tcp_probe tracepoint: tcp_rcv_established() fires it first thing, with
 * the socket locked, before the ACK is processed.  The option is believed
 * only on an ACK that could be the peer's next in-order pure ACK (its
 * sequence number is rcv_nxt, its ack_seq in [snd_una, snd_nxt]); the
 * 16-bit stream id is taken as the newest launched stream with those low
 * bits, and its ABest is bounded by rapid_estimate_value() and
 * rapid_on_estimate().
 */
static void rapid_probe_ack(void *data, struct sock *sk,
			    COMPAT_TCP_PROBE_SKB *skb)
{
	struct rapid *ca;
	struct rapid_opt fb;
	u32 id;

	if (inet_csk(sk)->icsk_ca_ops != &tcp_rapid_ops)
		return;
	ca = inet_csk_ca(sk);
	if (!ca->ctl.n || !rapid_read_fb(sk, skb, &fb))
		return;
	id = ca->ctl.launched_id - (u16)((u16)ca->ctl.launched_id - fb.stream_id);
	/*
	 * A result for a recent stream says a helper is there (it answers on
	 * the ACKs right after a stream's last packet).  Results for older
	 * streams do not: a peer that repeats old ids must not keep the
	 * sender-side estimate off.
	 */
	if (rapid_fb_recent(ca, id)) {
		ca->flags |= RAPID_F_RXFB;
		if (ca->ring)
			ca->ring->fb_quiet = 0;
	}
	/* the helper repeats each result on a few ACKs: one is enough */
	if (ca->ctl.last_id && !rapid_id_after(id, ca->ctl.last_id)) {
		rapid_count(RAPID_ST_FB_STALE);
		return;
	}
	if (READ_ONCE(rapid_p_inject_abest.val) || !id ||
	    !(ca->flags & RAPID_F_RXFB))
		return;
	rapid_take_fb(sk, id, &fb);
}

static struct tracepoint *rapid_tp_tcp_probe;

static void rapid_lookup_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "tcp_probe"))
		rapid_tp_tcp_probe = tp;
}

/* ---- transmit side: the LOCAL_OUT hook ----------------------------------- */

/* Lab mode and live N / m: applied when a stream starts. */
static void rapid_apply_params(struct rapid *ca, const struct rapid_cfg *cfg)
{
	u32 fixed = READ_ONCE(rapid_p_fixed_rate.val);

	if (fixed) {
		u64 rate = rapid_kbps_to_rate(fixed);

		if (ca->ctl.phase != RAPID_PHASE_FIXED || ca->ctl.r_avg != rate ||
		    ca->ctl.n != cfg->n || ca->ctl.m != cfg->m)
			rapid_ctl_set_fixed(&ca->ctl, cfg, rate);
	} else if (ca->ctl.phase != RAPID_PHASE_SS) {
		/* FIXED -> STEADY at the held rate; STEADY picks up N, m */
		if (ca->ctl.phase == RAPID_PHASE_FIXED)
			rapid_ctl_enter_steady(&ca->ctl, cfg, ca->ctl.r_avg);
		rapid_ctl_set_params(&ca->ctl, cfg->n,
				     rapid_ctl_steady_m(&ca->ctl, cfg));
	}
}

static void rapid_start_stream(struct sock *sk, const struct sk_buff *skb,
			       u32 seq)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_schedule s, eff;
	struct rapid_cfg cfg;
	u32 id, avail, k;
	u64 rate;

	rapid_load_cfg(&cfg);
	rapid_apply_params(ca, &cfg);
	/* slow start: no slower than one stream per smoothed RTT */
	rapid_ctl_ss_raise(&ca->ctl, &cfg,
			   rapid_ss_floor(ca->ctl.n, tp->mss_cache,
					  tp->srtt_us >> 3));
	id = ca->ctl.launched_id + 1;
	if (!id)
		id = 1;
	rapid_ctl_stream_started(&ca->ctl, id);
	rapid_ctl_schedule(&ca->ctl, &s);
	/* a standing queue is drained by sending below r_avg */
	rate = rapid_ctl_stream_rate(&ca->ctl, &cfg,
				     ca->ring ? &ca->ring->law : NULL,
				     ca->ring ? ca->ring->qd_us : 0,
				     rapid_base_rtt_us(sk),
				     READ_ONCE(rapid_p_drain_max.val));
	rapid_ctl_stream_schedule(&ca->ctl, &cfg, &s, rate, tp->srtt_us >> 3,
				  tp->mss_cache);
	/* packets of data queued now, this one included */
	avail = DIV_ROUND_UP(tp->write_seq - seq, max(tp->mss_cache, 1U));
	k = rapid_cursor_start(&ca->cur, &s, avail, &eff);
	ca->cur_done = 0;
	rapid_record_stream(ca, &eff, id, k, seq, ktime_to_ns(skb->tstamp),
			    tp->mss_cache);
	trace_rapid_stream(sk, id, k, rapid_rate_to_kbps(eff.r_avg),
			   rapid_rate_to_kbps(rapid_schedule_top(&eff)),
			   ca->ctl.phase);
	/* keep the data option's room if the path MTU became the limit */
	if (ca->marking)
		rapid_tcp_fit_opt_space(sk, RAPID_DOPT_LEN);
}

/* The data option for a tcp_rapid_rx receiver: stream id, index, N, EDT. */
static void rapid_mark_data(struct sock *sk, struct sk_buff *skb)
{
	struct rapid *ca = inet_csk_ca(sk);
	int ret;

	ret = rapid_skb_mark_data(skb, ca->ctl.launched_id, ca->cur.sent - 1,
				  ca->cur.k);
	if (!ret) {
		rapid_count(RAPID_ST_MARKED);
		return;
	}
	rapid_count(RAPID_ST_MARK_FAILED);
	if (ret == -EMSGSIZE)
		rapid_tcp_fit_opt_space(sk, RAPID_DOPT_LEN);
}

/* Called last on the segment: marking may move its headers. */
static void rapid_pace_new_data(struct sock *sk, struct sk_buff *skb,
				u32 seq, u32 len)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_stream *rec;
	bool last;
	u64 rate;

	if (!rapid_cursor_open(&ca->cur))
		rapid_start_stream(sk, skb, seq);
	rate = rapid_cursor_next(&ca->cur, &last);
	ca->cur_end_seq = seq + len;
	rec = rapid_ring_current(ca);
	if (rec) {
		rec->sent = ca->cur.sent;
		rec->end_seq = seq + len;
		rec->t_last_ns = ktime_to_ns(skb->tstamp);
		/* data_segs_out already counts this segment */
		if (!last && tcp_sk(sk)->data_segs_out < RAPID_TCP_UNPACED_SEGS)
			rec->flags |= RAPID_SF_UNPACED;
		if (last)
			rec->flags |= RAPID_SF_CLOSED;
	}
	rapid_pace_segment(sk, skb, len, rate);
	if (ca->marking)
		rapid_mark_data(sk, skb);
}

/*
 * New data that TCP sends again because its first attempt failed: a qdisc
 * refused it at enqueue (fq's flow_limit, a full pfifo), so snd_nxt did not
 * move and TCP added no gap after the attempt.  It keeps its place in the
 * stream, its rate and its mark; the replayed clock goes back to the failed
 * attempt's departure time, TCP's planned time for this one.  Without a
 * record the rate is the stream's r_avg.  Called last, as new data.
 */
static void rapid_pace_again(struct sock *sk, struct sk_buff *skb, u32 len)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_stream *rec = rapid_ring_current(ca);
	u64 t = ktime_to_ns(skb->tstamp);
	u64 rate = ca->cur.r_avg;

	if (rec && rec->sent) {
		rate = rapid_schedule_rate(&rec->sched, rec->sent);
		ca->edt_ns = rec->t_last_ns;
		if (rec->sent == 1)
			rec->t_first_ns = t;
		rec->t_last_ns = t;
	}
	rapid_pace_segment(sk, skb, len, rate);
	if (ca->marking && ca->cur.sent)
		rapid_mark_data(sk, skb);
}

/* A retransmission costs r_avg's gap and disturbs the stream it repairs. */
static void rapid_pace_retransmit(struct sock *sk, const struct sk_buff *skb,
				  u32 seq, u32 len)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_stream *rec = rapid_find_stream_by_seq(ca, seq);
	bool open = rapid_cursor_open(&ca->cur);

	if (rec)
		rec->flags |= RAPID_SF_RETRANS | RAPID_SF_REPAIRED;
	if (open) {
		rec = rapid_ring_current(ca);
		if (rec)
			rec->flags |= RAPID_SF_RETRANS;
	}
	rapid_pace_segment(sk, skb, len, open ? ca->cur.r_avg : ca->ctl.r_avg);
}

static bool rapid_skb_is_tcp(const struct sk_buff *skb, u8 pf)
{
	if (pf == NFPROTO_IPV4)
		return ip_hdr(skb)->protocol == IPPROTO_TCP;
	return pf == NFPROTO_IPV6 && ipv6_hdr(skb)->nexthdr == IPPROTO_TCP;
}

static void rapid_on_xmit(struct sock *sk, struct sk_buff *skb, u8 pf)
{
	struct rapid *ca = inet_csk_ca(sk);
	const struct tcphdr *th;
	struct tcphdr _th;
	unsigned int hdr;
	int thoff;
	u32 seq, len;

	if (!inet_csk(sk)->icsk_ca_initialized || !ca->ctl.n)
		return;
	if (!skb_transport_header_was_set(skb) || !rapid_skb_is_tcp(skb, pf))
		return;
	thoff = skb_transport_offset(skb);
	if (thoff < 0)
		return;
	th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
	if (!th || th->syn)
		return;
	hdr = thoff + th->doff * 4;
	if (skb->len <= hdr) {
		/* pure ACK, FIN or RST: TCP moved its clock, added no gap */
		ca->edt_ns = max_t(u64, ca->edt_ns, ktime_to_ns(skb->tstamp));
		return;
	}
	seq = ntohl(th->seq);
	len = skb->len - hdr;
	/*
	 * snd_nxt advances only after the transmit returns.  th is stale
	 * after these calls: marking may move the headers.
	 */
	if (seq != tcp_sk(sk)->snd_nxt)
		rapid_pace_retransmit(sk, skb, seq, len);
	else if (ca->cur.k && before(seq, ca->cur_end_seq))
		rapid_pace_again(sk, skb, len);	/* paced, but not sent */
	else
		rapid_pace_new_data(sk, skb, seq, len);
}

static unsigned int rapid_nf_local_out(void *priv, struct sk_buff *skb,
				       const struct nf_hook_state *state)
{
	struct sock *sk = skb->sk;

	/* every locally generated packet of the netns passes here */
	if (!sk || !sk_fullsock(sk) || !sk_is_tcp(sk) ||
	    inet_csk(sk)->icsk_ca_ops != &tcp_rapid_ops)
		return NF_ACCEPT;
	rapid_on_xmit(sk, skb, state->pf);
	return NF_ACCEPT;
}

static const struct nf_hook_ops rapid_nf_ops[] = {
	{
		.hook		= rapid_nf_local_out,
		.pf		= NFPROTO_IPV4,
		.hooknum	= NF_INET_LOCAL_OUT,
		.priority	= NF_IP_PRI_LAST,
	},
	{
		.hook		= rapid_nf_local_out,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_LOCAL_OUT,
		.priority	= NF_IP6_PRI_LAST,
	},
};

static int __net_init rapid_net_init(struct net *net)
{
	return nf_register_net_hooks(net, rapid_nf_ops, ARRAY_SIZE(rapid_nf_ops));
}

static void __net_exit rapid_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, rapid_nf_ops, ARRAY_SIZE(rapid_nf_ops));
}

static struct pernet_operations rapid_net_ops = {
	.init = rapid_net_init,
	.exit = rapid_net_exit,
};

/*
 * The global hooks (the LOCAL_OUT hook in every netns, the tcp_probe
 * probe) are on only while RAPID sockets exist: every packet the host
 * sends and every ACK it takes passes through them, cubic's too.  .init
 * counts a socket and .release uncounts it; both can run in softirq (a
 * passive open, a timer), and registering sleeps, so a work item attaches
 * the hooks at once after the first socket and detaches them
 * RAPID_HOOKS_LINGER after the last (short connections one after another
 * do not register and unregister each time).  Until the work has run, a
 * new socket's packets miss the hook: it sends at r_avg through TCP's
 * own pacing and starts no stream (no record, no mark), as before its
 * first stream; the first packet the hook sees starts one.
 */
#define RAPID_HOOKS_LINGER	HZ	/* detach 1 s after the last socket */

static DEFINE_MUTEX(rapid_hooks_lock);	/* rapid_hooks_on, registrations */

static void rapid_hooks_attach(void)
{
	if (rapid_tp_tcp_probe &&
	    tracepoint_probe_register(rapid_tp_tcp_probe, rapid_probe_ack, NULL))
		pr_warn_once("tcp_probe probe not attached: receiver feedback is ignored\n");
	if (register_pernet_subsys(&rapid_net_ops)) {
		pr_warn("LOCAL_OUT hooks not attached: no p-streams until the next socket\n");
		if (rapid_tp_tcp_probe)
			tracepoint_probe_unregister(rapid_tp_tcp_probe,
						    rapid_probe_ack, NULL);
		return;
	}
	WRITE_ONCE(rapid_hooks_on, true);
	rapid_count(RAPID_ST_HOOK_ATTACH);
}

/* The probe may still run on another CPU: the module's exit waits for it. */
static void rapid_hooks_detach(void)
{
	unregister_pernet_subsys(&rapid_net_ops);
	if (rapid_tp_tcp_probe)
		tracepoint_probe_unregister(rapid_tp_tcp_probe, rapid_probe_ack,
					    NULL);
	WRITE_ONCE(rapid_hooks_on, false);
	rapid_count(RAPID_ST_HOOK_DETACH);
}

/* Bring the hooks in line with the socket count (process context). */
static void rapid_hooks_work_fn(struct work_struct *work)
{
	mutex_lock(&rapid_hooks_lock);
	if (atomic_read(&rapid_users) && !rapid_hooks_on)
		rapid_hooks_attach();
	else if (!atomic_read(&rapid_users) && rapid_hooks_on)
		rapid_hooks_detach();
	mutex_unlock(&rapid_hooks_lock);
}

static DECLARE_DELAYED_WORK(rapid_hooks_work, rapid_hooks_work_fn);

/* .init: count the socket; the first one attaches the hooks. */
static void rapid_hooks_get(struct rapid *ca)
{
	ca->counted = 1;
	if (atomic_inc_return(&rapid_users) == 1 || !READ_ONCE(rapid_hooks_on))
		mod_delayed_work(system_wq, &rapid_hooks_work, 0);
	if (!READ_ONCE(rapid_hooks_on))
		rapid_count(RAPID_ST_UNHOOKED);
}

/* .release: the last socket detaches them, RAPID_HOOKS_LINGER later. */
static void rapid_hooks_put(struct rapid *ca)
{
	if (!ca->counted)
		return;
	ca->counted = 0;
	if (atomic_dec_and_test(&rapid_users))
		mod_delayed_work(system_wq, &rapid_hooks_work,
				 RAPID_HOOKS_LINGER);
}

/* ---- tcp_congestion_ops -------------------------------------------------- */

static void rapid_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_cfg cfg;
	u32 slots;

	memset(ca, 0, sizeof(*ca));
	rapid_load_cfg(&cfg);
	rapid_ctl_init(&ca->ctl, &cfg);
	rapid_apply_params(ca, &cfg);

	/*
	 * Per-stream records and the sender-side estimator, as tcp_cdg.c
	 * allocates its window: atomic, may fail.  Fewer slots on failure;
	 * without any the socket still paces its streams and takes receiver
	 * feedback, but has no sender-side estimate.
	 */
	for (slots = READ_ONCE(rapid_p_stream_slots.val); slots >= RAPID_SLOTS_MIN;
	     slots >>= 1) {
		ca->ring = kzalloc(struct_size(ca->ring, rec, slots),
				   GFP_NOWAIT | __GFP_NOWARN);
		if (ca->ring)
			break;
	}
	if (ca->ring) {
		ca->ring->mask = slots - 1;
		ca->ring->win_rtt_us = U32_MAX;
	} else {
		ca->flags |= RAPID_F_NORING;
		if (READ_ONCE(rapid_p_stream_slots.val))
			rapid_count(RAPID_ST_NOMEM);
	}

	/* room for the data option in every segment (lowers the MSS) */
	if (READ_ONCE(rapid_p_mark_data.val)) {
		ca->clamp_saved = rapid_tcp_reserve_opt_space(sk, RAPID_DOPT_LEN);
		ca->marking = ca->clamp_saved != 0;
	}

	ca->lost_snap = tp->lost;
	ca->init_nxt = tp->snd_nxt;
	ca->edt_ns = tp->tcp_wstamp_ns;
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;

	/* one MSS per skb, also across route changes (undone in .release) */
	ca->gso_off = !sk->sk_gso_disabled;
	sk->sk_gso_max_segs = 1;
	sk_gso_disable(sk);
	WRITE_ONCE(sk->sk_pacing_shift, READ_ONCE(rapid_p_pacing_shift.val));
	ca->pacing_on = cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE,
				SK_PACING_NEEDED) == SK_PACING_NONE;
	cc_set_pacing_rate(sk, ca->ctl.r_avg);
	rapid_set_cwnd(sk);
	rapid_hooks_get(ca);
}

/*
 * Give the socket back what .init changed, for the congestion control it
 * switches to (setsockopt(TCP_CONGESTION)); also runs when the socket is
 * destroyed or disconnected.  icsk_ca_priv is zeroed before a new .init
 * and after tcp_disconnect(), so a release without .init restores nothing.
 *  - GSO: sk_gso_disabled as it was (tcp_md5 and TCP-AO set it too), and
 *    sk_route_caps / sk_gso_max_segs / sk_gso_max_size re-derived from the
 *    socket's route by sk_setup_caps(), as ip_queue_xmit() and
 *    inet6_csk_xmit() do when they set a route (it takes over a reference:
 *    dst_hold() first).  Without a cached route the next transmit routes
 *    and does the same.
 *  - the data option's room: mss_clamp and mss_cache
 *    (rapid_tcp_release_opt_space()).
 *  - sk_pacing_shift: the socket default (sk_init_data()); nothing else in
 *    the stack keeps another value (mac80211 sets its own on every packet).
 *  - sk_pacing_status: back to SK_PACING_NONE if .init moved it to
 *    SK_PACING_NEEDED and no fq has claimed the socket since (fq marks
 *    every socket it sees SK_PACING_FQ, whatever its congestion control).
 */
static void rapid_release(struct sock *sk)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct dst_entry *dst;

	rapid_hooks_put(ca);
	kfree(ca->ring);
	ca->ring = NULL;
	ca->ctl.n = 0;		/* the hooks ignore the socket from now on */
	ca->marking = 0;
	rapid_tcp_release_opt_space(sk, ca->clamp_saved, RAPID_DOPT_LEN);
	ca->clamp_saved = 0;
	WRITE_ONCE(sk->sk_pacing_shift, RAPID_PACING_SHIFT_STOCK);
	if (ca->pacing_on)
		cmpxchg(&sk->sk_pacing_status, SK_PACING_NEEDED, SK_PACING_NONE);
	ca->pacing_on = 0;
	if (ca->gso_off)
		sk->sk_gso_disabled = 0;
	ca->gso_off = 0;
	if (sk->sk_state == TCP_CLOSE)
		return;		/* destroyed or disconnected: no route to keep */
	dst = __sk_dst_get(sk);
	if (dst) {
		dst_hold(dst);
		sk_setup_caps(sk, dst);
	}
}

/*
 * Feedback the probe took off this ACK, once the ACK is processed.  For a
 * stream the receiver has not yet reported delivered (the delivery front
 * short of its end: no helper can have analysed it) it waits on the
 * record until the front passes (rapid_judge_streams()), when the own
 * estimate of the stream is there to check it against.
 */
static void rapid_apply_fb(struct sock *sk)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_ring *ring = ca->ring;
	struct rapid_stream *rec;
	u32 id;

	if (!ring || !ring->fb_id)
		return;
	id = ring->fb_id;
	ring->fb_id = 0;
	rec = rapid_find_stream_by_id(ca, id);
	if (rec && !(rec->flags & RAPID_SF_JUDGED)) {
		if (!(rec->flags & RAPID_SF_FB_PENDING)) {
			rec->flags |= RAPID_SF_FB_PENDING;
			rec->fb_rule = ring->fb_rule;
			rec->fb_truncated = ring->fb_truncated;
			rec->fb_abest = ring->fb_abest;
		}
		return;
	}
	rapid_check_apply_fb(sk, id, ring->fb_rule, ring->fb_abest,
			     ring->fb_truncated, rec);
}

/*
 * The RTT samples of the standing queue (rapid_sample_queue()): the
 * lowest of an ACK's, and the median of the first RAPID_RTT_SAMPLES.
 * While the path reorders an ACK that does not move snd_una only SACKs:
 * its RTT is a packet's that arrived out of order, most often one that
 * overtook the others, and the receiver acknowledges each of those at
 * once where it acknowledges every other in-order segment.  On
 * 50-rapid-loss's reordering run (10% of the packets 10 ms early) windows
 * of 13 ACKs had a fast median, and base_med, their lowest, read every
 * later stream 9 ms "above" it (docs/rapid-deviations.md#min-hold): so
 * the median takes cumulative ACKs only then.
 */
static void rapid_sample_rtt(struct sock *sk, const struct rate_sample *rs)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_ring *ring = ca->ring;

	if (!ring)
		return;
	rapid_min_hold_update(&ring->min_hold, tcp_min_rtt(tp),
			      (u32)tp->tcp_mstamp,
			      RAPID_MIN_HOLD_RTTS * (tp->srtt_us >> 3));
	if (rs->rtt_us > 0) {
		ring->win_rtt_us = min_t(u32, ring->win_rtt_us, rs->rtt_us);
		if (tp->snd_una != ring->una || !rapid_reordered(sk))
			rapid_rtt_win_push(&ring->rtt_win, rs->rtt_us);
	}
	ring->una = tp->snd_una;
}

static void rapid_cong_control(COMPAT_CONG_CONTROL_ARGS)
{
	struct rapid *ca = inet_csk_ca(sk);

	if (!ca->ctl.n)
		return;
	rapid_sample_rtt(sk, rs);
	rapid_update_dr(sk, rs);
	rapid_feed_sest(sk);
	rapid_apply_fb(sk);
	rapid_judge_streams(sk);
	rapid_complete_streams(sk);
	rapid_set_cwnd(sk);
}

/* RAPID owns cwnd; keep ssthresh where .init put it (as tcp_bbr.c). */
static u32 rapid_ssthresh(struct sock *sk)
{
	return tcp_sk(sk)->snd_ssthresh;
}

static u32 rapid_undo_cwnd(struct sock *sk)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_cfg cfg;

	if (ca->ctl.n) {
		rapid_load_cfg(&cfg);
		rapid_ctl_undo(&ca->ctl, &cfg);
	}
	return tcp_snd_cwnd(tcp_sk(sk));
}

static void rapid_set_state(struct sock *sk, u8 new_state)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_cfg cfg;

	/* also called on a fresh child socket before .init */
	if (!ca->ctl.n || new_state != TCP_CA_Recovery)
		return;
	/*
	 * A socket switched to RAPID mid-connection: the hole is in data the
	 * previous congestion control sent, at its rate, and says nothing of
	 * RAPID's.  Leaving slow start for it put RAPID in steady state at
	 * its initial rate, where a 30-packet stream lasts seconds (a 1 MB
	 * transfer switched between algorithms under 1% loss took 10-14 s
	 * instead of 0.7 in 4 of 40 runs, docs/rapid.md "Switching to RAPID").
	 */
	if (before(tcp_sk(sk)->snd_una, ca->init_nxt)) {
		rapid_count(RAPID_ST_LOSS_INHERITED);
		return;
	}
	if (!rapid_loss_is_congestive(sk)) {
		rapid_count(RAPID_ST_LOSS_RANDOM);
		return;
	}
	rapid_load_cfg(&cfg);
	rapid_cfg_steady_floor(&cfg, &ca->ctl, tcp_sk(sk)->mss_cache,
			       tcp_sk(sk)->srtt_us >> 3);
	rapid_ctl_on_recovery(&ca->ctl, &cfg);
}

/*
 * Restart after idle (CA_EVENT_TX_START: the first transmit with nothing
 * in flight): the stream in progress is cut short.  Kernels with
 * tcp_congestion_ops.cwnd_event_tx_start deliver the event only there
 * (compat.h); older ones through cwnd_event.
 */
static void rapid_on_tx_start(struct sock *sk)
{
	struct rapid *ca = inet_csk_ca(sk);

	if (!ca->ctl.n)
		return;
	rapid_count(RAPID_ST_TX_START);
	rapid_truncate_stream(ca);
}

#ifdef COMPAT_HAVE_CWND_EVENT_TX_START
static void rapid_cwnd_event_tx_start(struct sock *sk)
{
	rapid_on_tx_start(sk);
}
#endif

static void rapid_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct rapid *ca = inet_csk_ca(sk);
	struct rapid_cfg cfg;

	if (ev == CA_EVENT_TX_START) {	/* kernels without cwnd_event_tx_start */
		rapid_on_tx_start(sk);
		return;
	}
	if (!ca->ctl.n)
		return;
	switch (ev) {
	case CA_EVENT_LOSS:		/* RTO (tcp_enter_loss) */
		rapid_truncate_stream(ca);
		rapid_load_cfg(&cfg);
		if (rapid_ctl_on_rto(&ca->ctl, &cfg,
				     rapid_rto_floor(tcp_sk(sk)->mss_cache,
						     tcp_sk(sk)->srtt_us >> 3)) ==
		    RAPID_EV_RTO)
			ca->flags |= RAPID_F_LOSS;
		break;
	default:
		break;
	}
}

static u32 rapid_min_tso_segs(struct sock *sk)
{
	return 1;
}

/* RAPID_INFO_* of the state the ring holds (none without it). */
static u32 rapid_info_state_flags(const struct sock *sk,
				  const struct rapid_ring *ring)
{
	u32 f = 0;

	if (!ring)
		return 0;
	if (rapid_reordered(sk))
		f |= RAPID_INFO_REORDER;
	if (READ_ONCE(ring->law.compete))
		f |= RAPID_INFO_COMPETE;
	if (READ_ONCE(ring->law.keep_rate))
		f |= RAPID_INFO_KEEP;
	return f;
}

/*
 * get_info (cc_info.h).  `ss -ti` gets struct tcp_bbr_info with what ss
 * labels each field:
 *   bbr_bw_lo/hi     r_avg of the next stream, bytes/s  (ss bw: in bit/s)
 *   bbr_min_rtt      RAPID's base RTT, us (TCP's min RTT
 *                    but on a path that reorders,
 *                    rapid_base_rtt())                  (ss mrtt: in ms)
 *   bbr_cwnd_gain    cwnd / (r_avg * min_rtt), 1/256
 *   bbr_pacing_gain  0 (streams chirp around r_avg: no one gain; omitted)
 * getsockopt(TCP_CC_INFO) gets struct rapid_cc_info: r_avg, the last
 * ABest, flags (RAPID_F_*, RAPID_INFO_*), m, phase and N
 * (scripts/obs/cc_info.py, docs/rapid.md "get_info").
 */
static size_t rapid_get_info(struct sock *sk, u32 ext, int *attr,
			     union tcp_cc_info *info)
{
	const struct rapid *ca = inet_csk_ca(sk);
	u64 bw = READ_ONCE(ca->ctl.r_avg);

	if (cc_info_sockopt(ext)) {
		const struct rapid_ring *ring = READ_ONCE(ca->ring);
		struct rapid_cc_info ri = {
			.r_avg_lo = (u32)bw,
			.r_avg_hi = (u32)(bw >> 32),
			.abest_kbps = ring ? READ_ONCE(ring->abest_kbps) : 0,
			.flags = READ_ONCE(ca->flags) |
				 rapid_info_state_flags(sk, ring),
			.m_milli = READ_ONCE(ca->ctl.m),
			.phase = READ_ONCE(ca->ctl.phase),
			.n = READ_ONCE(ca->ctl.n),
		};

		BUILD_BUG_ON(sizeof(ri) > sizeof(*info));
		memcpy(info, &ri, sizeof(ri));
		*attr = INET_DIAG_NONE;
		return sizeof(ri);
	}
	if (ext & (1 << (INET_DIAG_BBRINFO - 1)) ||
	    ext & (1 << (INET_DIAG_VEGASINFO - 1))) {
		const struct tcp_sock *tp = tcp_sk(sk);
		u32 min_rtt = rapid_base_rtt_us(sk);

		if (min_rtt == ~0U)
			min_rtt = 0;
		memset(&info->bbr, 0, sizeof(info->bbr));
		info->bbr.bbr_bw_lo = (u32)bw;
		info->bbr.bbr_bw_hi = (u32)(bw >> 32);
		info->bbr.bbr_min_rtt = min_rtt;
		info->bbr.bbr_cwnd_gain =
			cc_info_cwnd_gain(tcp_snd_cwnd(tp),
					  READ_ONCE(tp->mss_cache), bw, min_rtt);
		*attr = INET_DIAG_BBRINFO;
		return sizeof(info->bbr);
	}
	return 0;
}

/*
 * Not TCP_CONG_NON_RESTRICTED: RAPID probes well above its average rate,
 * installs a per-packet hook and needs fq; selecting it takes CAP_NET_ADMIN
 * or an entry in net.ipv4.tcp_allowed_congestion_control.
 */
static struct tcp_congestion_ops tcp_rapid_ops __read_mostly = {
	.init		= rapid_init,
	.release	= rapid_release,
	.ssthresh	= rapid_ssthresh,
	.cong_control	= rapid_cong_control,
	.undo_cwnd	= rapid_undo_cwnd,
	.set_state	= rapid_set_state,
	.cwnd_event	= rapid_cwnd_event,
#ifdef COMPAT_HAVE_CWND_EVENT_TX_START
	.cwnd_event_tx_start = rapid_cwnd_event_tx_start,
#endif
	.min_tso_segs	= rapid_min_tso_segs,
	.get_info	= rapid_get_info,
	.owner		= THIS_MODULE,
	.name		= "rapid",
};

static int __init tcp_rapid_register(void)
{
	BUILD_BUG_ON(sizeof(struct rapid) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(RAPID_N_MAX > U8_MAX);

	/*
	 * receiver feedback arrives through the tcp_probe tracepoint; the
	 * probe and the LOCAL_OUT hooks are attached with the first socket
	 */
	for_each_kernel_tracepoint(rapid_lookup_tp, NULL);
	if (!rapid_tp_tcp_probe)
		pr_warn("tracepoint tcp_probe unavailable: receiver feedback is ignored, sender-side estimate only\n");
	return tcp_register_congestion_control(&tcp_rapid_ops);
}

/*
 * No RAPID socket is left (each holds a module reference), so nothing
 * queues the work again once it is cancelled.
 */
static void __exit tcp_rapid_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_rapid_ops);
	cancel_delayed_work_sync(&rapid_hooks_work);
	if (rapid_hooks_on)
		rapid_hooks_detach();
	/* a probe that was attached once may still be running */
	if (rapid_tp_tcp_probe)
		tracepoint_synchronize_unregister();
}

module_init(tcp_rapid_register);
module_exit(tcp_rapid_unregister);

MODULE_AUTHOR("tcp-cc-lab");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("RAPID congestion control: p-stream sender (Konda & Kaur, UNC TR08-011)");
