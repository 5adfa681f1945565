/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RAPID's sender-side estimate: PathChirp's analysis of a p-stream from the
 * arrival times of its ACKs, for a receiver without tcp_rapid_rx.
 *
 * Pure code (cc_pure.h); shared by tcp_rapid.c and
 * tests/unit/test_rapid_sest.c.
 *
 * A stock receiver returns no estimate, but its ACKs carry the same
 * information one step removed: an ACK leaves the receiver when a segment
 * arrives (every segment in quick-ack mode, every second full-sized one
 * otherwise), so on an uncongested reverse path the ACK that acknowledges
 * packet p reaches the sender at  arrival_p + (constant reverse delay) +
 * (receiver and sender processing).  The constant cancels in PathChirp's
 * relative queuing delay q = (ack_p - ack_0) - (snd_p - snd_0), so the
 * analysis of rapid_pathchirp.h applies unchanged to the "virtual stream"
 * of the packets that ACKs acknowledge exactly (packet boundaries).
 *
 * Send times are the schedule's: packet p leaves
 *
 *	snd_p = sum_{i<p} P / r_{i+1}		(r_i = r_avg for i >= N)
 *
 * after packet 0, which is what the transmit hook makes TCP do (its EDT
 * credit replay, see tcp_rapid.c); the caller checks that the stream really
 * left that way (rapid_sest_as_planned()) and drops streams that were held
 * back by cwnd, TSQ or the application.
 *
 * Virtual packet j is the j-th distinct boundary p_j; the gap between two
 * boundaries carries the (p_{j+1} - p_j) full-sized packets between them,
 * so its rate is (p_{j+1} - p_j) P / (snd_{p_{j+1}} - snd_{p_j}): the
 * harmonic mean of the schedule's rates over those packets.  With delayed
 * ACKs (every second packet) a 30-packet stream gives about 15 virtual
 * packets; rapid_sest_params() halves PathChirp's L accordingly.
 *
 * What the analysis cannot do here, and what the caller does instead:
 *  - "no increasing trend" reports the rate of the last virtual gap, a mean
 *    of the top two rates; the sender knows its own top rate exactly and
 *    reports r_{N-1} (rapid_sest_abest());
 *  - loss, SACK or retransmissions: the caller stops the record
 *    (rapid_sest_stop()) and the prefix is analysed, as at the receiver;
 *  - ACK compression on the reverse path or a busy sender (ACKs processed
 *    from the socket backlog in a batch) look like coalesced receive
 *    stamps: recv_gap_min_ns treats ACKs closer than that as one group
 *    (rapid_pathchirp.h), and q_noise_ns is the sender's ACK timing
 *    noise floor.
 */
#ifndef RAPID_SEST_H
#define RAPID_SEST_H

#include "rapid_chirp.h"

/* Coalesced-ACK threshold of the sender-side analysis (ns). */
#define RAPID_SEST_RECV_GAP_MIN_NS	2000U
/* Default ACK timing noise floor (ns); module parameter ack_noise_us. */
#define RAPID_SEST_Q_NOISE_NS_DEF	10000U
/*
 * Default growth of that floor with the stream's own ACK jitter J, in
 * halves of J (module parameter ack_noise_mult), as the helper's
 * noise_mult: on a path whose delay jitters by milliseconds every dip
 * otherwise opens an excursion and the estimates collapse
 * (docs/rapid-deviations.md#sender-jitter-floor).
 */
#define RAPID_SEST_NOISE_MULT_DEF	3U
/*
 * Excursion end factor F of the sender-side analysis (1/1000): 3, half the
 * receiver's.  ACK timing already smooths what delayed ACKs thin out, and
 * at 6 the lab's medians ran 19% low with 60 Mbit/s of cross traffic, at
 * 3 within 8% (docs/rapid-deviations.md#excursion-factor).
 */
#define RAPID_SEST_F_DEFAULT		3000U
/* PathChirp's L in virtual gaps (about two packets each). */
#define RAPID_SEST_MIN_EXCURSION	3U
/* Streams that left later than planned by more than this are dropped. */
#define RAPID_SEST_LATE_SHIFT		3	/* 1/8 of the stream's span */
#define RAPID_SEST_LATE_MIN_NS		50000ULL

/* The stream being observed from its ACKs. */
struct rapid_sest {
	struct rapid_pc_obs obs;	/* virtual packets recorded so far */
	struct rapid_schedule sched;	/* the stream's schedule */
	u64 snd_ns;		/* planned send offset of packet pkt (ns) */
	u64 fp;			/* 1/256 B/s: rate of the gap after pkt */
	u64 pend_snd_ns;	/* send offset of the pending boundary (ns) */
	u64 pend_rcv_ns;	/* arrival time of its ACK (ns) */
	u64 first_snd_ns;	/* send offset of the first boundary (ns) */
	u64 first_rcv_ns;	/* arrival time of its ACK (ns) */
	u32 id;			/* stream id; 0 = none */
	u32 mss;		/* payload of its full-sized packets (bytes) */
	u16 pkt;		/* packet whose offset snd_ns is */
	u16 pend_pkt;		/* last packet the pending boundary acks */
	u16 first_pkt;		/* last packet the first boundary acks */
	u8 vn;			/* virtual packets in obs */
	u8 pending;		/* pend_* hold a boundary not yet in obs */
	u8 run;			/* the newest boundaries are a run the path
				 * stretched, from run_* on
				 */
	u16 run_pkt;		/* last packet the run's first boundary acks */
	u64 run_snd_ns;		/* its send offset (ns) */
	u64 run_rcv_ns;		/* arrival time of its ACK (ns) */
	u64 half_snd_ns;	/* send offset of the first boundary in the
				 * stream's second half (ns)
				 */
	u64 half_rcv_ns;	/* arrival time of its ACK (ns) */
	u16 half_pkt;		/* last packet it acks */
	u8 half;		/* half_* hold a boundary */
};

/*
 * The analysis' parameters: @q_noise_ns the floor on a delay rise's height
 * (ns), @noise_mult its growth with the stream's own jitter (halves of J,
 * when J exceeds the mean send gap; 0: off).  Both are clamped to what
 * rapid_pathchirp.h accepts.
 */
static inline void rapid_sest_params(struct rapid_pc_params *p,
				     u32 q_noise_ns, u32 noise_mult)
{
	rapid_pc_params_init(p);
	p->f_milli = RAPID_SEST_F_DEFAULT;
	p->min_excursion = RAPID_SEST_MIN_EXCURSION;
	p->recv_gap_min_ns = RAPID_SEST_RECV_GAP_MIN_NS;
	p->q_noise_ns = q_noise_ns > RAPID_PC_Q_NOISE_NS_MAX ?
			RAPID_PC_Q_NOISE_NS_MAX : q_noise_ns;
	p->noise_mult = noise_mult > RAPID_PC_NOISE_MULT_MAX ?
			RAPID_PC_NOISE_MULT_MAX : noise_mult;
}

/* Start observing stream @id sent with schedule @s and @mss-byte packets. */
static inline void rapid_sest_begin(struct rapid_sest *e, u32 id,
				    const struct rapid_schedule *s, u32 mss)
{
	static const struct rapid_pc_clock ns = { .tick_ns = 1, .bits = 64 };

	rapid_pc_obs_init(&e->obs, (u16)id, &ns, &ns);
	e->sched = *s;
	e->snd_ns = 0;
	e->fp = s->r1_fp;
	e->pend_snd_ns = 0;
	e->pend_rcv_ns = 0;
	e->id = id;
	e->mss = mss;
	e->pkt = 0;
	e->pend_pkt = 0;
	e->first_snd_ns = 0;
	e->first_rcv_ns = 0;
	e->first_pkt = 0;
	e->half = 0;
	e->half_pkt = 0;
	e->half_snd_ns = 0;
	e->half_rcv_ns = 0;
	e->vn = 0;
	e->pending = 0;
	e->run = 0;
	e->run_pkt = 0;
	e->run_snd_ns = 0;
	e->run_rcv_ns = 0;
	if (!mss || mss > RAPID_PC_BYTES_MAX || !s->r_avg)
		rapid_pc_obs_stop(&e->obs, RAPID_PC_STOP_BYTES);
}

/* Planned send offset of packet @p (>= e->pkt): walks the schedule. */
static inline u64 rapid_sest_offset(struct rapid_sest *e, u32 p)
{
	while (e->pkt < p) {
		u32 i = e->pkt + 1U;	/* rate index of the gap after pkt */
		u64 rate = i < e->sched.n ? rapid_rate_from_fp(e->fp) :
					    e->sched.r_avg;

		e->snd_ns += rapid_schedule_gap_ns(rate ? rate : 1, e->mss);
		e->fp = rapid_rate_step(e->fp, e->sched.m);
		e->pkt++;
	}
	return e->snd_ns;
}

/* Stop recording: the prefix is what rapid_sest_finish() analyses. */
static inline void rapid_sest_stop(struct rapid_sest *e, u8 why)
{
	rapid_pc_obs_stop(&e->obs, why);
}

/*
 * An ACK arrived at @now_ns that acknowledges packets 0..@acked-1 of the
 * stream exactly (a packet boundary).  Older or repeated boundaries are
 * ignored.  Returns a RAPID_PC_ADD_* code of the previous boundary's
 * record, or RAPID_PC_ADD_DUP / _IGNORED.
 */
static inline int rapid_sest_ack(struct rapid_sest *e, u32 acked, u64 now_ns)
{
	u32 p, bytes;
	u64 off;
	int ret = RAPID_PC_ADD_OK;

	if (!acked || acked > RAPID_PSTREAM_MAX || e->obs.stop)
		return RAPID_PC_ADD_IGNORED;
	p = acked - 1;
	if (e->pending && p <= e->pend_pkt)
		return RAPID_PC_ADD_DUP;
	off = rapid_sest_offset(e, p);
	if (e->pending) {
		bytes = (p - e->pend_pkt) * e->mss;
		if (bytes > RAPID_PC_BYTES_MAX) {	/* a stretch ACK */
			rapid_pc_obs_stop(&e->obs, RAPID_PC_STOP_BYTES);
			return RAPID_PC_ADD_STOPPED;
		}
		ret = rapid_pc_obs_add(&e->obs, e->vn, e->pend_snd_ns,
				       e->pend_rcv_ns, bytes);
		if (ret == RAPID_PC_ADD_OK)
			e->vn++;
		else
			return ret;
	} else {
		e->first_pkt = (u16)p;
		e->first_snd_ns = off;
		e->first_rcv_ns = now_ns;
	}
	/*
	 * A pair of boundaries whose ACKs came further apart than the
	 * schedule sent them: the path spaced them (rapid_sest_stretched_rate())
	 */
	if (!e->pending || now_ns < e->pend_rcv_ns ||
	    now_ns - e->pend_rcv_ns <= off - e->pend_snd_ns) {
		e->run = 0;
	} else if (!e->run) {
		e->run = 1;
		e->run_pkt = e->pend_pkt;
		e->run_snd_ns = e->pend_snd_ns;
		e->run_rcv_ns = e->pend_rcv_ns;
	}
	e->pend_pkt = (u16)p;
	e->pend_snd_ns = off;
	e->pend_rcv_ns = now_ns;
	e->pending = 1;
	if (!e->half && 2U * (p + 1U) >= e->sched.n) {
		e->half = 1;
		e->half_pkt = (u16)p;
		e->half_snd_ns = off;
		e->half_rcv_ns = now_ns;
	}
	return ret;
}

/*
 * The rate (B/s) at which the path delivered the packets after @pkt (a
 * boundary sent at offset @snd_ns, its ACK at @rcv_ns) up to the pending
 * boundary: over the longer of the time their ACKs took and the time the
 * schedule took to send them (ACK compression cannot raise it above the
 * sending rate).  0 without a later boundary.
 */
static inline u64 rapid_sest_rate_from(const struct rapid_sest *e, u16 pkt,
				       u64 snd_ns, u64 rcv_ns)
{
	u64 rcv_span, snd_span, span;

	if (!e->pending || e->pend_pkt <= pkt || e->pend_rcv_ns < rcv_ns ||
	    e->pend_snd_ns < snd_ns)
		return 0;
	rcv_span = e->pend_rcv_ns - rcv_ns;
	snd_span = e->pend_snd_ns - snd_ns;
	span = rcv_span > snd_span ? rcv_span : snd_span;
	if (!span)
		return 0;
	/* < 2^8 packets of < 2^16 bytes, times 2^30: no overflow */
	return div64_u64((u64)(e->pend_pkt - pkt) * e->mss *
			 RAPID_NSEC_PER_SEC, span);
}

/*
 * The rate (B/s) at which the path delivered the stream so far, from its
 * first boundary (rapid_sest_rate_from()).  Slow start's streams are sent
 * far above the bottleneck at their end, so this is what the path can
 * carry, where TCP's delivery-rate samples see one stream per round trip.
 * 0 with fewer than two boundaries.
 */
static inline u64 rapid_sest_delivery_rate(const struct rapid_sest *e)
{
	return rapid_sest_rate_from(e, e->first_pkt, e->first_snd_ns,
				    e->first_rcv_ns);
}

/*
 * The rate (B/s) at which the path delivered the stream's second half:
 * the faster half of a chirp, which on a free path arrives at its sending
 * rate, 2-3 times r_avg for the refinement's wide streams (where the whole
 * stream's is r_avg).  0 before a boundary past the middle and a later one.
 */
static inline u64 rapid_sest_half_rate(const struct rapid_sest *e)
{
	if (!e->half)
		return 0;
	return rapid_sest_rate_from(e, e->half_pkt, e->half_snd_ns,
				    e->half_rcv_ns);
}

/*
 * The rate (B/s) at which the path delivered the stream's stretched tail,
 * 0 if it has none.  The tail is the newest run of boundaries each of
 * whose ACKs came further apart than the schedule sent them (the
 * bottleneck queued them and spaced them at its rate) over at least
 * RAPID_SEST_STRETCH_PKTS packets, whose ACKs took more than 1 +
 * 1/2^RAPID_SEST_STRETCH_SHIFT times the span the schedule sent them in.
 * Its delivery rate is what the path gave the stream while it queued: the
 * capacity alone, at least the avail-bw beside others (FIFO); the whole
 * stream's (rapid_sest_delivery_rate()) counts the slow first packets of
 * a chirp too, which read a 50 Mbit/s path as 11-15.  A burst TCP did not
 * pace left faster than its schedule, which only understates the
 * stretch; ACK compression shortens ACK gaps, so it can end a run, never
 * raise the rate above the schedule's within one.
 */
#define RAPID_SEST_STRETCH_PKTS		4U
#define RAPID_SEST_STRETCH_SHIFT	2
static inline u64 rapid_sest_stretched_rate(const struct rapid_sest *e)
{
	u64 rcv_span, snd_span;

	if (!e->pending || !e->run ||
	    e->pend_pkt < e->run_pkt + RAPID_SEST_STRETCH_PKTS ||
	    e->pend_rcv_ns < e->run_rcv_ns || e->pend_snd_ns < e->run_snd_ns)
		return 0;
	rcv_span = e->pend_rcv_ns - e->run_rcv_ns;
	snd_span = e->pend_snd_ns - e->run_snd_ns;
	if (rcv_span <= snd_span + (snd_span >> RAPID_SEST_STRETCH_SHIFT))
		return 0;
	/* < 2^8 packets of < 2^16 bytes, times 2^30: no overflow */
	return div64_u64((u64)(e->pend_pkt - e->run_pkt) * e->mss *
			 RAPID_NSEC_PER_SEC, rcv_span);
}

/*
 * No estimate sets r_avg above RAPID_DR_GAIN times the highest rate the
 * path delivered in the last RAPID_DR_WIN_RTTS round trips (dr_kbps), and
 * in slow start and the refinement after it (ss) none above
 * RAPID_DR_LIM_GAIN times the highest rate the path gave a stream's
 * stretched tail (lim_kbps, 0: none; rapid_sest_stretched_rate()).  The
 * first gain is for streams the sender's own rate held below the path's;
 * a stretched tail's rate is the path's, and four times it let a lone flow
 * on a 10 Mbit/s, 20 ms path leave slow start at 38 Mbit/s and overflow a
 * 60-packet buffer.  Twice it, not once: a flow joining a cubic flow sees
 * its FIFO share there, and needs the push
 * (docs/rapid-deviations.md#stretched-cap).  Returns B/s, 0 for no cap.
 */
#define RAPID_DR_GAIN		4ULL
#define RAPID_DR_WIN_RTTS	8U
#define RAPID_DR_LIM_GAIN	2ULL

static inline u64 rapid_estimate_cap(u32 dr_kbps, u32 lim_kbps, bool ss)
{
	u64 cap = rapid_kbps_to_rate(dr_kbps) * RAPID_DR_GAIN;
	u64 lim = rapid_kbps_to_rate(lim_kbps) * RAPID_DR_LIM_GAIN;

	if (ss && lim && (!cap || lim < cap))
		cap = lim;
	return cap;
}

/* The maxima's window: RAPID_DR_WIN_RTTS srtt, at least 1 ms (us). */
static inline u32 rapid_dr_win_us(u32 srtt_us)
{
	u32 win = srtt_us * RAPID_DR_WIN_RTTS;

	return win > 1000U ? win : 1000U;
}

/*
 * Did the stream leave as planned?  @sent packets, @span_ns between the
 * EDT departures of the first and the last one.  Late departures (cwnd,
 * TSQ, an application that wrote too little) stretch the span.
 */
static inline bool rapid_sest_as_planned(struct rapid_sest *e, u32 sent,
					 u64 span_ns)
{
	u64 planned;

	if (!sent)
		return false;
	planned = rapid_sest_offset(e, sent - 1);
	return span_ns <= planned + (planned >> RAPID_SEST_LATE_SHIFT) +
			  RAPID_SEST_LATE_MIN_NS;
}

/*
 * Analyse what was recorded: the pending boundary becomes the last virtual
 * packet.  Returns the rule (0: no estimate); @res as rapid_pc_estimate().
 */
static inline int rapid_sest_finish(struct rapid_sest *e,
				    const struct rapid_pc_params *p,
				    struct rapid_pc_result *res)
{
	if (e->pending && !e->obs.stop &&
	    rapid_pc_obs_add(&e->obs, e->vn, e->pend_snd_ns, e->pend_rcv_ns,
			     e->mss) == RAPID_PC_ADD_OK)
		e->vn++;
	e->pending = 0;
	e->id = 0;
	return rapid_pc_estimate(&e->obs, p, res);
}

/*
 * ABest (B/s) from a result and the stream's own top rate @top: "no trend"
 * of a complete stream is the top rate the sender probed; everything else
 * is the analysis' value.  0: no estimate.
 */
static inline u64 rapid_sest_abest(const struct rapid_pc_result *res, u64 top)
{
	if (res->rule == RAPID_PC_RULE_INVALID)
		return 0;
	if (res->rule == RAPID_PC_RULE_NO_TREND && !res->stop)
		return top;
	return res->abest;
}

/* Facts about a stream for rapid_estimate_bound() (RAPID_EB_*). */
#define RAPID_EB_SS		0x01	/* the sender is in slow start */
#define RAPID_EB_LOSSY		0x02	/* the estimate is from a stopped prefix */
#define RAPID_EB_UNPACED	0x04	/* TCP did not pace the stream */
#define RAPID_EB_RETRANS	0x08	/* a packet of it was retransmitted */
#define RAPID_EB_RECORDED	0x10	/* the sender has the stream's record */
#define RAPID_EB_RANDOM		0x20	/* its loss came without a standing queue */
#define RAPID_EB_LATE		0x40	/* it left later than its schedule */

/* An ABest above the stream's top rate by more than this is cut to it. */
#define RAPID_EB_SLACK_MILLI	100	/* 1/1000 */
/* Slow start leaves on a truncated stream at most at this times its r_1. */
#define RAPID_EB_SS_EXIT_LOSSY	4ULL
/* No ABest below r_1 >> this: the lowest value the analysis can give. */
#define RAPID_EB_FLOOR_SHIFT	1

/*
 * The ABest (B/s) the controller gets from an estimate of a stream whose
 * top rate was @top and first rate @r1, with the controller at @r_avg, or 0
 * for none.  @rule and @abest come from the receiver's feedback (untrusted)
 * or from rapid_sest_abest().
 *  - never above the top rate + 10%: nobody can measure more than was
 *    sent, so a higher value is a lie or a bug (bounded, not dropped);
 *  - "no trend" of a complete stream is the exact top rate;
 *  - streams TCP did not pace (the first 10 segments of a connection) and
 *    recorded slow-start streams without an estimate (too few ACKs, e.g.
 *    N = 2 with delayed ACKs) count as "no trend" in slow start when
 *    loss-free: they show no congestion, and slow start must not wedge;
 *  - otherwise no estimate leaves the rate alone;
 *  - in steady state, a stream that left later than its schedule
 *    (RAPID_EB_LATE: held back by cwnd, the receive window or TSQ, then
 *    released in a burst) gives nothing, as the sender-side estimate
 *    already drops it: its "no trend" never probed the top rate, and its
 *    excursions are those of a burst (measured after slow start, the
 *    receive window still growing, 50 Mbit/s path: feedback of 112 and 72
 *    Mbit/s, and r_avg at 1.2 to 1.4 times the link for a moment);
 *  - random loss (RAPID_EB_RANDOM: no standing queue came with it, a lossy
 *    link): a "no trend" prefix is a lower bound, which in steady state
 *    may raise r_avg but not lower it and in slow start says nothing (slow
 *    start waits for a loss-free stream);
 *  - never below r_1 / 2, the "trend from the first packets" value: no
 *    analysis of the stream's delays can give less (every other rule
 *    averages rates in [r_1, top]), so a lower value is a lie or a bug;
 *  - slow start leaving on the trend of a truncated prefix (loss or
 *    reordering cut the stream): PathChirp's D over the few, far apart
 *    rates of an m = 2 prefix can land far above the rate where the trend
 *    starts (seen: 684 and 815 Mbit/s on a 20 Mbit/s path), and the later
 *    estimates of such a path are truncated too: at most
 *    RAPID_EB_SS_EXIT_LOSSY times r_1, the rate the previous stream
 *    confirmed.
 */
static inline u64 rapid_estimate_bound(u32 rule, u64 abest, u64 top, u32 eb,
				       u64 r_avg, u64 r1)
{
	bool ss = eb & RAPID_EB_SS;
	bool grow_ok = ss && !(eb & (RAPID_EB_LOSSY | RAPID_EB_RETRANS));
	u64 cap, floor;

	if (!top || ((eb & RAPID_EB_LATE) && !ss))
		return 0;
	if (eb & RAPID_EB_UNPACED) {
		if (!grow_ok)
			return 0;
		abest = top;
	} else if (rule == RAPID_PC_RULE_INVALID ||
		   rule > RAPID_PC_RULE_EARLY_TREND) {
		if (!grow_ok || !(eb & RAPID_EB_RECORDED) ||
		    rule != RAPID_PC_RULE_INVALID)
			return 0;
		abest = top;
	} else if (rule == RAPID_PC_RULE_NO_TREND && !(eb & RAPID_EB_LOSSY)) {
		abest = top;
	}
	if (!abest)
		return 0;
	abest = rapid_abest_clamp(abest, top, RAPID_EB_SLACK_MILLI);
	floor = r1 >> RAPID_EB_FLOOR_SHIFT;
	if (floor > top)
		floor = top;	/* (r_1 above the top: not a schedule) */
	if (abest < floor)
		abest = floor;
	if ((eb & RAPID_EB_RANDOM) && rule == RAPID_PC_RULE_NO_TREND &&
	    (ss || abest < r_avg))
		return 0;
	if (ss && (eb & RAPID_EB_LOSSY) && rule != RAPID_PC_RULE_NO_TREND) {
		cap = r1 > U64_MAX / RAPID_EB_SS_EXIT_LOSSY ? U64_MAX :
		      r1 * RAPID_EB_SS_EXIT_LOSSY;
		if (abest > cap)
			abest = cap;
	}
	return abest;
}

/*
 * Receiver feedback against the sender's own estimate of the same stream
 * (both bounded by rapid_estimate_bound(), B/s): they disagree when one is
 * more than RAPID_FB_DISAGREE times the other.  The two see the same
 * packets, one by their arrival times, the other by their ACKs': a helper
 * that tells the truth stays well within that (measured in timing-55:
 * per-stream p10..p90 of both within 0.7..2.2 of the avail-bw); a receiver
 * that lies (an ABest far above what its own ACKs show was delivered, or
 * far below) does not.  No value (0) never disagrees.
 */
#define RAPID_FB_DISAGREE	3ULL
/*
 * Streams completed without a feedback option for a stream in flight
 * before the sender-side estimate takes over again (the helper answers
 * every stream, on feedback_acks ACKs: eight streams without any is not
 * ACK loss).
 */
#define RAPID_FB_LAPSE		8U
/* Streams in a row whose feedback the own estimate contradicts: distrust. */
#define RAPID_FB_DISTRUST	3U

/*
 * Feedback that no analysis of the stream can give: an excursion estimate
 * averages the stream's rates, all within [r1, top], so one below
 * r1 >> RAPID_EB_FLOOR_SHIFT (the "trend from the first packets" floor) or
 * above RAPID_FB_IMPOSSIBLE_TOP times the top came from a liar (or a
 * bug), whatever the sender's own estimate says.  rapid_fb_disagrees()
 * needs an own estimate with a trend to compare against, and a flow that
 * a low liar holds at two packets per round trip has none: every stream
 * of its own reads "no trend".  Only the excursion rule is judged: "no
 * trend" and "early trend" carry no value of their own.
 */
#define RAPID_FB_IMPOSSIBLE_TOP	2ULL

static inline bool rapid_fb_impossible(u32 rule, u64 raw, u64 r1, u64 top)
{
	if (rule != RAPID_PC_RULE_EXCURSION || !top || !r1)
		return false;
	return raw < (r1 >> RAPID_EB_FLOOR_SHIFT) ||
	       raw / RAPID_FB_IMPOSSIBLE_TOP > top;
}

static inline bool rapid_fb_disagrees(u64 fb, u64 own)
{
	u64 lo = fb < own ? fb : own, hi = fb < own ? own : fb;

	if (!lo)
		return false;
	return hi / RAPID_FB_DISAGREE > lo ||
	       (hi / RAPID_FB_DISAGREE == lo && hi % RAPID_FB_DISAGREE);
}

#endif /* RAPID_SEST_H */
