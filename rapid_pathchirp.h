/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RAPID's available-bandwidth estimator (the receiver's analysis of one
 * p-stream), the receiver->sender feedback option and the sender->receiver
 * data-marking option.
 *
 * Pure code: fixed point, no floating point, no libc, no kernel API beyond
 * cc_pure.h.  Compiled unchanged into the kernel modules and into the
 * userspace unit tests (tests/unit/test_rapid_pathchirp.c) and trace tool
 * (scripts/rapid/trace.c).
 *
 * The model (Konda & Kaur, "Shrinking the Timescales at Which
 * Congestion-control Operates", UNC TR08-011, Sec. 3.1.2, which defers to
 * PathChirp: Ribeiro et al., PAM 2003):
 *
 * A p-stream of n packets leaves the sender with send gaps Delta_k shrinking
 * geometrically.  Gap k lies between packets k and k+1 (0-based) and probes
 * the instantaneous rate R_k = P_k / Delta_k.  Self-induced congestion: while
 * R_k is below the available bandwidth A the bottleneck queue stays flat;
 * once R_k > A every packet queues behind its predecessor and the relative
 * queuing delay
 *
 *	q_k = (rcv_k - rcv_0) - (snd_k - snd_0)
 *
 * grows.  The excursion analysis finds those growing stretches:
 *
 *  1. an excursion starts at the first i with q_i < q_{i+1} (by more than
 *     the clocks' quantisation: 0 for ns clocks, see rapid_pc_noise();
 *     with a jitter floor q_noise_ns, see rapid_pc_find_excursions());
 *  2. walking j = i+1, ..., with maxq = max over (i, j] of (q_k - q_i), it
 *     ends at the first j with q_j - q_i < maxq / F (PathChirp's F = 1.5;
 *     RAPID_PC_F_DEFAULT is 6: docs/rapid-deviations.md#excursion-factor);
 *  3. a valid excursion (j - i >= L, L = 5) marks E_k = R_k at every gap k in
 *     [i, j-1] with q_k < q_{k+1} (same test as 1.); the search goes on
 *     from j;
 *  4. an excursion that never ends (starts at l, reaches the last packet)
 *     sets E_k = R_l for every k >= l;
 *  5. every unmarked E_k is R_l (l of step 4), or the last rate when no
 *     excursion is left open;
 *  6. D = sum(E_k Delta_k) / sum(Delta_k).
 *
 * RAPID's rules on top (TR08-011 footnote 7):
 *  - no increasing trend at all: ABest = r_{N-1}, the last (highest) rate
 *    (also when the only open excursion is the last gap: D is the same);
 *  - the trend starts at the first or second packet (the open excursion
 *    starts at gap 0, i.e. already r_1 >= A): ABest = r_1 / 2;
 *  - otherwise ABest = D.
 *
 * Decisions of this implementation (see docs/rapid.md):
 *
 *  - Rate of a gap: R_k = bytes_k * 10^9 / Delta_k bytes per second, with
 *    bytes_k the payload of the packet *before* the gap.  That is how the
 *    kernel paces: the gap after a packet is len / sk_pacing_rate.  All rates
 *    in this file are bytes per second (the unit of sk_pacing_rate).
 *
 *  - Loss or reordering inside a p-stream: the analysis uses the prefix
 *    before the first lost, late or out-of-order packet, and flags the result
 *    "truncated".  PathChirp drops such chirps; RAPID cannot: it adapts once
 *    per p-stream, so dropping every lossy stream would freeze the sender at
 *    its old rate exactly when the path is congested.  Loss in a p-stream is
 *    most likely self-induced at its highest rates, i.e. at its tail, so the
 *    prefix holds the information: a queue building up in the prefix is an
 *    open excursion and gives a lower estimate.  Everything after a hole is
 *    dropped rather than guessed.  A truncated "no trend" answer is only a
 *    lower bound (the rates above the hole were not seen): the sender decides
 *    what to do with it (the flag travels in the option).  A recording made
 *    tolerant (rapid_pc_obs_tolerate(), tcp_rapid_rx's reorder=1) takes
 *    packets in any order instead: only a packet that never arrives cuts
 *    the prefix, and a packet out of order with a neighbour counts as the
 *    median of its and their delays (rapid_pc_q()).  Prefixes shorter
 *    than min_pkts give no estimate.  A rise still open where a prefix is
 *    cut counts as a trend only when it spans at least L gaps: a shorter one
 *    may have been about to end (with random loss, short prefixes that end
 *    in a rise of timing noise otherwise read as early trends and halve the
 *    sender's rate stream after stream).
 *
 *  - Unreliable receive gaps (interrupt coalescing, GRO, batched
 *    timestamps): a receive gap below recv_gap_min_ns means the two packets
 *    were stamped together.  A maximal run of such packets s..b is a
 *    "coalesced group": only the last one's stamp (b) is close to its arrival,
 *    the others were stamped late.  Their delays are replaced by the straight
 *    line, in send time, between the packet before the group (s-1, whose own
 *    next gap was large, so its stamp is reliable) and b.  A group that starts
 *    at packet 0 takes q_b (flat).  This is the "spike-to-spike" idea (only
 *    the stamps that end a burst are trusted) but interpolating q rather than
 *    spreading receive gaps evenly: an even spread over a group whose send
 *    gaps shrink (a chirp!) invents a dip and then a rise of q, i.e. a false
 *    excursion, whereas the straight line between two trusted delays only
 *    keeps the net change.  0 disables it; the default (1 us) only catches
 *    gaps that 1500-byte packets cannot have below 12 Gbit/s.
 *
 *  - Quantised stamps: "q increased" means by more than the clocks'
 *    quantisation (snd_tick - 1) + (rcv_tick - 1) ns.  It is 0 for ns
 *    clocks (PathChirp exactly as above), 999 ns for a microsecond TSval
 *    against ns arrival times: without it the TSval's sawtooth opens
 *    excursions that never end (in a fluid model a no-trend stream read
 *    14.9 instead of 24.1 Mbit/s).  The price: a trend whose first delay
 *    step is below the floor is seen one packet later (at most one more
 *    rate step).
 *
 *  - Stamping jitter (q_noise_ns, 0 by default, 10 us in tcp_rapid_rx):
 *    a floor on the height of a rise, not on its steps.  A rise from q_i
 *    is an excursion only once it gets more than quantisation + q_noise_ns
 *    above q_i before the walk of step 2 ends; it then starts at the last
 *    packet before that whose rise was within 1/F of the height that
 *    crossed the floor.  Jitter of less than the floor, peak to peak,
 *    never opens an excursion; a trend does, whatever its steps (which
 *    with cross traffic are much smaller than the jitter).
 *
 *  - Path jitter (noise_mult, 0 by default, 3 in tcp_rapid_rx): the floor
 *    grows by noise_mult * J / 2, J the stream's own median |second
 *    difference| of q (rapid_pc_jitter()), near 0 for a queue's ramp, and
 *    ~1.65 s for independent delay noise of deviation s (radio links,
 *    netem jitter), applied when J exceeds the stream's mean send gap.
 *    Without it such noise opens excursions from every dip and the
 *    estimates collapse (docs/rapid-helper.md#jitter-floor).
 *
 *  - Clocks: send and receive timestamps are counters of any width from 16
 *    to 64 bits (e.g. a 32-bit TCP TSval in microseconds with tcp_usec_ts, or
 *    64-bit ktime ns) with a tick length in ns; offsets from packet 0 are
 *    taken modulo 2^bits, so a counter may wrap once mid-stream.  An offset
 *    in the upper half of the counter range means "before packet 0" and
 *    counts as reordering.
 *
 * Memory: struct rapid_pc_obs keeps one p-stream as u32 offsets from
 * packet 0 (units 2^shift ns; shift grows when a stream spans more than
 * 4.29 s) and u16 payload sizes: 1368 bytes on x86_64 for
 * RAPID_PSTREAM_MAX = 128 (RAPID_PC_OBS_SIZE_MAX bounds it).  The estimator
 * needs about 500 bytes of stack and runs in O(n); D is rounded down, by at
 * most 3 bytes/s.
 *
 * Overflow bounds: offsets <= RAPID_PC_SPAN_MAX_NS = 2^38 ns (275 s), so
 * |q| < 2^33; payload < 2^16 bytes, so R_k <= 65535 * 10^9 < 2^46; the
 * F test multiplies |q| < 2^33 by F * 1000 <= 2^20; sums of gaps <= 2^38.
 * Every product that can exceed 64 bits goes through rapid_pc_mul_div(),
 * an exact 64x64/64 with a 128-bit intermediate that saturates at U64_MAX.
 * No division by zero: send gaps are strictly positive (checked), the
 * denominators of rapid_pc_mul_div() are checked.
 *
 * The feedback option (receiver -> sender, on pure ACKs), RFC 6994
 * experimental option, 8 bytes, no padding needed on a 4-byte boundary:
 *
 *	+--------+--------+--------+--------+
 *	| 253    | len=8  | ExID 0x5241 "RA"|
 *	+--------+--------+--------+--------+
 *	| stream id (16)  |R R T|e(5)|m(8)  |
 *	+--------+--------+--------+--------+
 *
 *	RR: rule (enum rapid_pc_rule; 0 = this stream gave no estimate)
 *	T: truncated (estimate from the prefix before a loss/reordering)
 *	e, m: ABest in bytes per second, value m for e == 0, else
 *	      (256 + m) << (e - 1); rounded down, so at most 0.4% low;
 *	      0 .. 5.5e11 B/s (4.4 Tbit/s), covering 10 Kbit/s .. 100 Gbit/s.
 *
 * The data-marking option (sender -> receiver, on every new data segment
 * of a RAPID socket), RFC 6994 experimental option, 12 bytes:
 *
 *	+--------+--------+--------+--------+
 *	| 253    | len=12 | ExID 0x5244 "RD"|
 *	+--------+--------+--------+--------+
 *	| stream id (16)  | index  | N      |
 *	+--------+--------+--------+--------+
 *	| departure time (ns, low 32 bits)  |
 *	+--------+--------+--------+--------+
 *
 *	stream id: low 16 bits of the sender's stream id (serial arithmetic)
 *	index: position of the packet in its p-stream, 0 .. N-1
 *	N: packets in the p-stream, 1 .. 255
 *	departure time: the packet's EDT departure time (skb->tstamp,
 *	      CLOCK_MONOTONIC ns) modulo 2^32; wraps every 4.29 s.  Only
 *	      differences are used: the receiver unwraps it packet to packet
 *	      (consecutive packets must leave less than 2^31 ns apart).
 *
 * Neither ExID is registered with IANA (RFC 6994 Sec. 3.1 asks for it);
 * 0x5241 and 0x5244 are ASCII "RA" and "RD" and collide with no registered
 * ExID as of 2024.
 */
#ifndef RAPID_PATHCHIRP_H
#define RAPID_PATHCHIRP_H

#include "cc_pure.h"

/* Longest p-stream the receiver records (packets); at most 254 (u8 index). */
#ifndef RAPID_PSTREAM_MAX
#define RAPID_PSTREAM_MAX 128
#endif
#if RAPID_PSTREAM_MAX < 2 || RAPID_PSTREAM_MAX > 254
#error "RAPID_PSTREAM_MAX must be 2..254 (u8 indices, 0xff is RAPID_PC_NONE)"
#endif

/* 64-bit words of a per-gap bitmap. */
#define RAPID_PC_MAP_WORDS	((RAPID_PSTREAM_MAX + 63) / 64)
/* "no such packet" for u8 packet indices */
#define RAPID_PC_NONE		0xffU

#define RAPID_PC_NSEC_PER_SEC	1000000000ULL

/* Excursion end factor F, fixed point: F = f_milli / RAPID_PC_F_SCALE. */
#define RAPID_PC_F_SCALE	1000
/*
 * F = 6, not PathChirp's 1.5: with cross traffic every dip of the queuing
 * delay ended an excursion at 1.5, the next one started a few rate steps
 * higher, and the lab's per-stream medians ran 23-84% high at 0-60 Mbit/s
 * of cross traffic; at 6 they are within 7%
 * (docs/rapid-deviations.md#excursion-factor).
 */
#define RAPID_PC_F_DEFAULT	6000
#define RAPID_PC_F_PATHCHIRP	1500		/* PathChirp's F = 1.5 */
#define RAPID_PC_F_MIN		1000		/* F >= 1 */
#define RAPID_PC_F_MAX		1000000		/* F <= 1000: keeps q * F < 2^53 */
/* Minimum length L of a valid excursion, in gaps. */
#define RAPID_PC_L_DEFAULT	5
/* Receive gaps below this are coalesced (ns); 0 = off; at most 1 ms. */
#define RAPID_PC_RECV_GAP_MIN_NS_DEFAULT	1000
#define RAPID_PC_RECV_GAP_MIN_NS_MAX		1000000
/* Largest jitter floor on a rise's height (ns): 1 ms */
#define RAPID_PC_Q_NOISE_NS_MAX	1000000
/*
 * tcp_rapid_rx's stamping jitter floor (ns; the height a rise must exceed,
 * rapid_pc_find_excursions()): in the lab, arrival stamps taken in the
 * receive softirq wobble by microseconds, and the helper's per-stream
 * estimates without a floor had a low tail at 0 cross traffic (p10 at -21%
 * of the avail-bw), which the controller follows.  The price, in a
 * noise-free fluid model (tests/unit/test_rapid_pathchirp.c, "noise"):
 * median error +5% instead of +3.5% at 100 Mbit/s, +16% at 1 Gbit/s, with
 * or without cross traffic.  The pure default (rapid_pc_params_init(),
 * build/rapid-trace) stays 0: PathChirp.
 */
#define RAPID_PC_Q_NOISE_NS_RX_DEFAULT	10000
/*
 * Jitter measured on the stream itself (struct rapid_pc_params.noise_mult):
 * J = median over the stream of |q_{k+1} - 2 q_k + q_{k-1}|, which a queue
 * ramp (linear, or the chirp's slow curve) leaves near 0 and independent
 * delay noise of deviation s puts at ~1.65 s.  The height floor becomes
 * q_noise_ns + noise_mult * J / 2, at most RAPID_PC_NOISE_FLOOR_MAX_NS,
 * when J exceeds the stream's mean send gap: cross traffic's packets
 * between ours move the delay by up to a gap, which is the path's load,
 * not noise.  3 (a floor of ~2.5 s) is the helper's default (lab jitter
 * runs, docs/results.md#jitter-round).  0 = off (the pure default).
 */
#define RAPID_PC_NOISE_MULT_MAX		16
#define RAPID_PC_NOISE_MULT_RX_DEFAULT	3
#define RAPID_PC_NOISE_FLOOR_MAX_NS	50000000ULL	/* 50 ms */
/*
 * The helper (tcp_rapid_rx.c) and the scale engine's model of it
 * (sim/sim_rapid.c): packets of the next stream that arrived while the
 * current one was still incomplete (reorder=1) are held, since its
 * stragglers may be on their way.  16 hold 10 ms of a 20 Mbit/s stream,
 * about 2.5 standard deviations of netem's 5 ms jitter.  Each stream's
 * result rides on this many pure ACKs (feedback_acks' default).
 */
#define RAPID_RX_HELD			16
#define RAPID_RX_FEEDBACK_ACKS_DEFAULT	4
/* Fewer packets than this give no estimate; at least 2 (one gap). */
#define RAPID_PC_MIN_PKTS_DEFAULT	3
/* Longest p-stream, send or receive side, from packet 0 (ns): 275 s. */
#define RAPID_PC_SPAN_MAX_NS	274877906944ULL	/* 2^38 */
/* Largest payload per packet (bytes) */
#define RAPID_PC_BYTES_MAX	65535U
/* Clock ticks: from 1 ns to 1 ms; counter widths 16..64 bits */
#define RAPID_PC_TICK_NS_MAX	1000000U
#define RAPID_PC_CLOCK_BITS_MIN	16
#define RAPID_PC_CLOCK_BITS_MAX	64

/* What a p-stream's analysis concluded (also the option's 2-bit rule). */
enum rapid_pc_rule {
	RAPID_PC_RULE_INVALID = 0,	/* no estimate (too few usable packets) */
	RAPID_PC_RULE_EXCURSION = 1,	/* PathChirp's D */
	RAPID_PC_RULE_NO_TREND = 2,	/* no increasing trend: r_{N-1} */
	RAPID_PC_RULE_EARLY_TREND = 3,	/* trend from packet 1 or 2: r_1 / 2 */
};

/* Why recording stopped early (bits of rapid_pc_obs.stop). */
#define RAPID_PC_STOP_LOSS	0x01	/* a packet was missing (lost or late) */
#define RAPID_PC_STOP_REORDER	0x02	/* out of order (flag or clock) */
#define RAPID_PC_STOP_CLOCK	0x04	/* send time not increasing, or range */
#define RAPID_PC_STOP_BYTES	0x08	/* payload 0 or > RAPID_PC_BYTES_MAX */
#define RAPID_PC_STOP_FULL	0x10	/* more than RAPID_PSTREAM_MAX packets */
#define RAPID_PC_STOP_MERGED	0x20	/* arrived merged with others (GRO) */

/* Per-packet flags of struct rapid_pc_pkt */
#define RAPID_PC_PKT_LOST	0x01	/* never arrived */
#define RAPID_PC_PKT_REORDERED	0x02	/* arrived out of order */

/* Return values of rapid_pc_obs_add() */
#define RAPID_PC_ADD_OK		0	/* recorded */
#define RAPID_PC_ADD_DUP	1	/* index already recorded: ignored */
#define RAPID_PC_ADD_IGNORED	2	/* recording had stopped: ignored */
#define RAPID_PC_ADD_STOPPED	3	/* this packet stopped the recording */

/* A timestamp counter. */
struct rapid_pc_clock {
	u32 tick_ns;	/* ns per tick: 1 (ns), 1000 (us TSval), [1, 1e6] */
	u8 bits;	/* counter width, wraps modulo 2^bits, [16, 64] */
};

/* Tunables of the analysis. */
struct rapid_pc_params {
	u32 f_milli;		/* F * 1000, [RAPID_PC_F_MIN, RAPID_PC_F_MAX] */
	u32 min_excursion;	/* L in gaps, [1, RAPID_PSTREAM_MAX] */
	u32 recv_gap_min_ns;	/* coalescing threshold (ns), 0 = off, <= 1 ms */
	u32 min_pkts;		/* packets needed, [2, RAPID_PSTREAM_MAX] */
	u32 q_noise_ns;		/* jitter floor on a rise's height (ns), <= 1 ms */
	u32 noise_mult;		/* floor += mult * measured jitter / 2, <= 16 */
};

/*
 * One p-stream as the receiver saw it, compact: ~1.3 KB with
 * RAPID_PSTREAM_MAX = 128.  Packets 0..n-1 are recorded contiguously, or,
 * with @tolerant (rapid_pc_obs_tolerate()), in any order: @present says
 * which; the offsets are then from the first arrival (receive) and from
 * the earliest departure recorded (send).
 */
struct rapid_pc_obs {
	u64 snd0;				/* send stamp of packet 0 (ticks) */
	u64 rcv0;				/* receive stamp of packet 0 (ticks) */
	u64 last_snd_ns;			/* send offset of packet n-1 (ns) */
	u64 last_rcv_ns;			/* receive offset of packet n-1 (ns) */
	u32 snd_off[RAPID_PSTREAM_MAX];		/* snd_k - snd_0 (2^shift ns) */
	u32 rcv_off[RAPID_PSTREAM_MAX];		/* rcv_k - rcv_0 (2^shift ns) */
	u16 bytes[RAPID_PSTREAM_MAX];		/* payload of packet k (bytes) */
	u64 present[RAPID_PC_MAP_WORDS];	/* tolerant: packets recorded */
	u64 overtook[RAPID_PC_MAP_WORDS];	/* tolerant: known out of order */
	struct rapid_pc_clock snd_clk;		/* sender's counter */
	struct rapid_pc_clock rcv_clk;		/* receiver's counter */
	u16 id;					/* stream id (sender's, opaque) */
	u8 n;					/* packets recorded */
	u8 stop;				/* RAPID_PC_STOP_* bits, 0 = open */
	u8 shift;				/* offsets are in 2^shift ns */
	u8 tolerant;				/* any arrival order accepted */
	u8 got;					/* packets recorded */
};

#define RAPID_PC_OBS_SIZE_MAX	(32 + 10 * RAPID_PSTREAM_MAX + 64)

/* Input of rapid_pc_obs_load(): one packet of a p-stream. */
struct rapid_pc_pkt {
	u64 snd;	/* send stamp (sender ticks) */
	u64 rcv;	/* receive stamp (receiver ticks); ignored when lost */
	u32 bytes;	/* payload (bytes) */
	u32 flags;	/* RAPID_PC_PKT_* */
};

/* What the analysis found. */
struct rapid_pc_result {
	u64 abest;		/* the estimate (bytes/s), 0 when invalid */
	u64 pathchirp;		/* PathChirp's D before RAPID's rules (bytes/s) */
	u64 first_rate;		/* R_0 = r_1 (bytes/s) */
	u64 last_rate;		/* R of the last gap = r_{N-1} (bytes/s) */
	u64 top_rate;		/* highest R_k (bytes/s) */
	u64 marked[RAPID_PC_MAP_WORDS];	/* gaps k with E_k = R_k */
	u32 pkts;		/* packets analysed (the usable prefix) */
	u8 rule;		/* enum rapid_pc_rule */
	u8 stop;		/* RAPID_PC_STOP_* of the stream (0: complete) */
	u8 open_start;		/* l of the open excursion, RAPID_PC_NONE */
	u8 excursions;		/* valid (closed, >= L) excursions */
	u8 coalesced;		/* packets whose delay was interpolated */
	u8 reordered;		/* packets out of order with a neighbour */
	u32 jitter_ns;		/* J measured on the stream (0: not measured) */
	u64 floor_ns;		/* the height floor applied (ns) */
};

/* ------------------------------------------------------------------ */
/* Arithmetic helpers                                                 */

/* Position of the highest set bit, 1-based; 0 for 0. */
static inline u32 rapid_pc_fls64(u64 x)
{
	u32 r = 0;

	while (x) {
		r++;
		x >>= 1;
	}
	return r;
}

/*
 * floor(a * b / c) with a 128-bit intermediate; U64_MAX when c == 0 or the
 * quotient does not fit 64 bits.
 */
static inline u64 rapid_pc_mul_div(u64 a, u64 b, u64 c)
{
	u64 a_lo = (u32)a, a_hi = a >> 32, b_lo = (u32)b, b_hi = b >> 32;
	u64 lo, hi, mid1, mid2, t, r, q;
	int i;

	lo = a_lo * b_lo;
	mid1 = a_hi * b_lo;
	mid2 = a_lo * b_hi;
	hi = a_hi * b_hi;
	t = (lo >> 32) + (u32)mid1 + (u32)mid2;
	lo = (u32)lo | (t << 32);
	hi += (mid1 >> 32) + (mid2 >> 32) + (t >> 32);

	if (!c || hi >= c)
		return U64_MAX;
	if (!hi)
		return div64_u64(lo, c);

	/* Restoring long division of hi:lo by c; the remainder stays < c. */
	r = hi;
	q = 0;
	for (i = 63; i >= 0; i--) {
		u64 carry = r >> 63;

		r = (r << 1) | ((lo >> i) & 1);
		q <<= 1;
		if (carry || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
}

/* ------------------------------------------------------------------ */
/* Parameters                                                         */

static inline void rapid_pc_params_init(struct rapid_pc_params *p)
{
	p->f_milli = RAPID_PC_F_DEFAULT;
	p->min_excursion = RAPID_PC_L_DEFAULT;
	p->recv_gap_min_ns = RAPID_PC_RECV_GAP_MIN_NS_DEFAULT;
	p->min_pkts = RAPID_PC_MIN_PKTS_DEFAULT;
	p->q_noise_ns = 0;
	p->noise_mult = 0;
}

static inline bool rapid_pc_params_valid(const struct rapid_pc_params *p)
{
	return p->f_milli >= RAPID_PC_F_MIN && p->f_milli <= RAPID_PC_F_MAX &&
	       p->min_excursion >= 1 &&
	       p->min_excursion <= RAPID_PSTREAM_MAX &&
	       p->recv_gap_min_ns <= RAPID_PC_RECV_GAP_MIN_NS_MAX &&
	       p->q_noise_ns <= RAPID_PC_Q_NOISE_NS_MAX &&
	       p->noise_mult <= RAPID_PC_NOISE_MULT_MAX &&
	       p->min_pkts >= 2 && p->min_pkts <= RAPID_PSTREAM_MAX;
}

static inline bool rapid_pc_clock_valid(const struct rapid_pc_clock *c)
{
	return c->tick_ns >= 1 && c->tick_ns <= RAPID_PC_TICK_NS_MAX &&
	       c->bits >= RAPID_PC_CLOCK_BITS_MIN &&
	       c->bits <= RAPID_PC_CLOCK_BITS_MAX;
}

/* ------------------------------------------------------------------ */
/* Recording a p-stream                                               */

/*
 * Start recording stream @id.  Returns 0, or -1 when a clock is invalid
 * (the observation then refuses every packet).
 */
static inline int rapid_pc_obs_init(struct rapid_pc_obs *o, u16 id,
				    const struct rapid_pc_clock *snd_clk,
				    const struct rapid_pc_clock *rcv_clk)
{
	u32 k;

	o->snd0 = 0;
	o->rcv0 = 0;
	o->last_snd_ns = 0;
	o->last_rcv_ns = 0;
	o->snd_clk = *snd_clk;
	o->rcv_clk = *rcv_clk;
	o->id = id;
	o->n = 0;
	o->shift = 0;
	o->stop = 0;
	o->tolerant = 0;
	o->got = 0;
	for (k = 0; k < RAPID_PC_MAP_WORDS; k++) {
		o->present[k] = 0;
		o->overtook[k] = 0;
	}
	if (!rapid_pc_clock_valid(snd_clk) || !rapid_pc_clock_valid(rcv_clk)) {
		o->stop = RAPID_PC_STOP_CLOCK;
		return -1;
	}
	return 0;
}

/*
 * Offset t - t0 of counter @c in ns, modulo the counter width.  Returns
 * false when the offset is "negative" (upper half of the counter range) or
 * beyond RAPID_PC_SPAN_MAX_NS.
 */
static inline bool rapid_pc_clock_offset(const struct rapid_pc_clock *c,
					 u64 t, u64 t0, u64 *ns)
{
	u64 mask = c->bits >= 64 ? U64_MAX : (1ULL << c->bits) - 1;
	u64 d = (t - t0) & mask;

	if (d > (mask >> 1))
		return false;
	if (d > div_u64(RAPID_PC_SPAN_MAX_NS, c->tick_ns))
		return false;
	*ns = d * c->tick_ns;
	return true;
}

/* Halve the resolution of the stored offsets (a stream longer than 4.29 s). */
static inline void rapid_pc_obs_coarsen(struct rapid_pc_obs *o)
{
	u32 k;

	for (k = 0; k < o->n; k++) {
		o->snd_off[k] >>= 1;
		o->rcv_off[k] >>= 1;
	}
	o->shift++;
}

/*
 * Accept packets in any order from now on (before the first one): a packet
 * that overtook or trailed others is recorded, not a stop.  For paths that
 * reorder (parallel links, wireless retransmission, delay jitter: netem
 * gives every packet its own delay).  Its delay is still its own: only
 * where it breaks the order of arrivals its neighbours' median stands in
 * for it (rapid_pc_q()).  A packet never received leaves a hole: the
 * analysis uses the packets before the first hole.
 */
static inline void rapid_pc_obs_tolerate(struct rapid_pc_obs *o)
{
	if (!o->got)
		o->tolerant = 1;
}

static inline void rapid_pc_mark(u64 *map, u32 k)
{
	map[k / 64] |= 1ULL << (k % 64);
}

static inline bool rapid_pc_marked(const u64 *map, u32 k)
{
	return map[k / 64] & (1ULL << (k % 64));
}

/*
 * A departure before the earliest recorded one (tolerant mode): move the
 * send reference to it, shifting every recorded send offset by @back ns.
 */
static inline void rapid_pc_obs_rebase(struct rapid_pc_obs *o, u64 back)
{
	u64 top = 0;
	u32 k;

	for (k = 0; k < o->n; k++)
		if (rapid_pc_marked(o->present, k) && o->snd_off[k] > top)
			top = o->snd_off[k];
	while (top + (back >> o->shift) > U32_MAX) {
		rapid_pc_obs_coarsen(o);
		top >>= 1;
	}
	for (k = 0; k < o->n; k++)
		if (rapid_pc_marked(o->present, k))
			o->snd_off[k] += (u32)(back >> o->shift);
}

/*
 * The caller knows recorded packet @idx arrived out of order although its
 * stamps do not show it (it overtook another stream's packets): its delay
 * is its neighbours' median too (rapid_pc_q()).
 */
static inline void rapid_pc_obs_mark_overtook(struct rapid_pc_obs *o, u32 idx)
{
	if (o->tolerant && idx < RAPID_PSTREAM_MAX)
		rapid_pc_mark(o->overtook, idx);
}

/* Store packet @idx's offsets (ns from the references) and size. */
static inline void rapid_pc_obs_store(struct rapid_pc_obs *o, u32 idx,
				      u64 snd_ns, u64 rcv_ns, u32 bytes)
{
	while ((snd_ns >> o->shift) > U32_MAX || (rcv_ns >> o->shift) > U32_MAX)
		rapid_pc_obs_coarsen(o);
	o->snd_off[idx] = (u32)(snd_ns >> o->shift);
	o->rcv_off[idx] = (u32)(rcv_ns >> o->shift);
	o->bytes[idx] = (u16)bytes;
	o->last_rcv_ns = rcv_ns;
	o->got++;
}

/* rapid_pc_obs_add() in tolerant mode; @idx < RAPID_PSTREAM_MAX, bytes ok. */
static inline int rapid_pc_obs_add_any(struct rapid_pc_obs *o, u32 idx,
				       u64 snd, u64 rcv, u32 bytes)
{
	u64 snd_ns = 0, rcv_ns = 0, back;

	if (idx < o->n && rapid_pc_marked(o->present, idx))
		return RAPID_PC_ADD_DUP;
	if (!o->got) {
		o->snd0 = snd;
		o->rcv0 = rcv;
	} else {
		if (!rapid_pc_clock_offset(&o->rcv_clk, rcv, o->rcv0, &rcv_ns) ||
		    rcv_ns < o->last_rcv_ns) {
			o->stop = RAPID_PC_STOP_REORDER;	/* clock, not path */
			return RAPID_PC_ADD_STOPPED;
		}
		if (!rapid_pc_clock_offset(&o->snd_clk, snd, o->snd0, &snd_ns)) {
			if (!rapid_pc_clock_offset(&o->snd_clk, o->snd0, snd,
						   &back)) {
				o->stop = RAPID_PC_STOP_CLOCK;
				return RAPID_PC_ADD_STOPPED;
			}
			rapid_pc_obs_rebase(o, back);
			o->snd0 = snd;
		}
	}
	rapid_pc_obs_store(o, idx, snd_ns, rcv_ns, bytes);
	rapid_pc_mark(o->present, idx);
	if (idx >= o->n)
		o->n = (u8)(idx + 1);
	return RAPID_PC_ADD_OK;
}

/*
 * Record packet @idx (0-based position in the p-stream) sent at @snd and
 * received at @rcv (raw counter values) carrying @bytes of payload.
 * Packets must come in arrival order.  Index 0 sets the references.  An
 * index beyond the next expected one means a packet is missing: recording
 * stops there (the prefix is analysed).  Returns RAPID_PC_ADD_*.
 */
static inline int rapid_pc_obs_add(struct rapid_pc_obs *o, u32 idx, u64 snd,
				   u64 rcv, u32 bytes)
{
	u64 snd_ns = 0, rcv_ns = 0;

	if (o->stop)
		return RAPID_PC_ADD_IGNORED;
	if (o->tolerant && idx < RAPID_PSTREAM_MAX && bytes &&
	    bytes <= RAPID_PC_BYTES_MAX)
		return rapid_pc_obs_add_any(o, idx, snd, rcv, bytes);
	if (idx < o->n)
		return RAPID_PC_ADD_DUP;
	if (idx >= RAPID_PSTREAM_MAX) {
		o->stop = o->n == RAPID_PSTREAM_MAX ? RAPID_PC_STOP_FULL :
			  RAPID_PC_STOP_LOSS;
		return RAPID_PC_ADD_STOPPED;
	}
	if (idx > o->n) {
		o->stop = RAPID_PC_STOP_LOSS;
		return RAPID_PC_ADD_STOPPED;
	}
	if (!bytes || bytes > RAPID_PC_BYTES_MAX) {
		o->stop = RAPID_PC_STOP_BYTES;
		return RAPID_PC_ADD_STOPPED;
	}
	if (idx == 0) {
		o->snd0 = snd;
		o->rcv0 = rcv;
	} else {
		if (!rapid_pc_clock_offset(&o->snd_clk, snd, o->snd0, &snd_ns) ||
		    snd_ns <= o->last_snd_ns) {
			o->stop = RAPID_PC_STOP_CLOCK;
			return RAPID_PC_ADD_STOPPED;
		}
		if (!rapid_pc_clock_offset(&o->rcv_clk, rcv, o->rcv0, &rcv_ns) ||
		    rcv_ns < o->last_rcv_ns) {
			o->stop = RAPID_PC_STOP_REORDER;
			return RAPID_PC_ADD_STOPPED;
		}
	}
	rapid_pc_obs_store(o, idx, snd_ns, rcv_ns, bytes);
	o->last_snd_ns = snd_ns;
	o->n++;
	return RAPID_PC_ADD_OK;
}

/*
 * As rapid_pc_obs_add() for an arrival that carried @segs segments: a
 * receive offload (GRO, LRO) that merged segments leaves one arrival time
 * and one header for all of them, so the packet's own time and size are
 * unknown.  Such an arrival is not recorded and stops the stream
 * (RAPID_PC_STOP_MERGED): the analysis uses the prefix before it.  segs 0
 * or 1 is one packet.  Linux's GRO never merges two segments whose TCP
 * options differ, and every marked segment carries its own index and
 * departure time, so this is a guard against offloads that ignore options.
 */
static inline int rapid_pc_obs_add_segs(struct rapid_pc_obs *o, u32 idx,
					u64 snd, u64 rcv, u32 bytes, u32 segs)
{
	if (segs > 1 && !o->stop && idx >= o->n) {
		o->stop = RAPID_PC_STOP_MERGED;
		return RAPID_PC_ADD_STOPPED;
	}
	return rapid_pc_obs_add(o, idx, snd, rcv, bytes);
}

/*
 * Stop recording (e.g. the caller learnt that packet n was lost): the
 * packets recorded so far are the prefix that rapid_pc_estimate() uses.
 * @why is a RAPID_PC_STOP_* bit; an already stopped stream keeps its reason.
 */
static inline void rapid_pc_obs_stop(struct rapid_pc_obs *o, u8 why)
{
	if (!o->stop)
		o->stop = why ? why : RAPID_PC_STOP_LOSS;
}

/*
 * Record a whole p-stream given as an array in send order (packet k at
 * index k).  A packet flagged lost or reordered stops the recording there.
 */
static inline void rapid_pc_obs_load(struct rapid_pc_obs *o,
				     const struct rapid_pc_pkt *pkts, u32 n)
{
	u32 k;

	for (k = 0; k < n && !o->stop; k++) {
		if (pkts[k].flags & RAPID_PC_PKT_LOST)
			rapid_pc_obs_stop(o, RAPID_PC_STOP_LOSS);
		else if (pkts[k].flags & RAPID_PC_PKT_REORDERED)
			rapid_pc_obs_stop(o, RAPID_PC_STOP_REORDER);
		else if (k >= RAPID_PSTREAM_MAX)
			rapid_pc_obs_stop(o, RAPID_PC_STOP_FULL);
		else
			rapid_pc_obs_add(o, k, pkts[k].snd, pkts[k].rcv,
					 pkts[k].bytes);
	}
}

/* ------------------------------------------------------------------ */
/* The analysis                                                       */

/* Coalesced-group anchors of each packet, on the estimator's stack. */
struct rapid_pc_ctx {
	const struct rapid_pc_obs *o;
	u32 n;				/* packets analysed */
	u32 reordered;			/* packets marked in reo */
	u64 reo[RAPID_PC_MAP_WORDS];	/* out of order with a neighbour */
	u8 left[RAPID_PSTREAM_MAX];	/* trusted packet before the group */
	u8 right[RAPID_PSTREAM_MAX];	/* last packet of the group, or k */
};

/* Raw relative queuing delay of packet k (2^shift ns), |q| < 2^33. */
static inline s64 rapid_pc_q_raw(const struct rapid_pc_obs *o, u32 k)
{
	return (s64)o->rcv_off[k] - (s64)o->snd_off[k];
}

/* Median of three. */
static inline s64 rapid_pc_med3(s64 a, s64 b, s64 c)
{
	if (a > b) {
		s64 t = a;

		a = b;
		b = t;
	}
	if (c <= a)
		return a;
	return c < b ? c : b;
}

/*
 * Relative queuing delay of packet k after coalescing repair; a packet out
 * of order with a neighbour (tolerant recording) counts as the median of
 * itself and its neighbours' raw delays (one neighbour at either end): an
 * overtaking packet's dip or a trailing one's peak goes, a ramp stays.
 */
static inline s64 rapid_pc_q(const struct rapid_pc_ctx *c, u32 k)
{
	const struct rapid_pc_obs *o = c->o;
	u32 a = c->left[k], b = c->right[k];
	u64 pos, span;
	s64 qa, qb;

	if (c->reordered && rapid_pc_marked(c->reo, k)) {
		if (k == 0)
			return rapid_pc_q_raw(o, 1);
		if (k + 1 >= c->n)
			return rapid_pc_q_raw(o, k - 1);
		return rapid_pc_med3(rapid_pc_q_raw(o, k - 1),
				     rapid_pc_q_raw(o, k),
				     rapid_pc_q_raw(o, k + 1));
	}
	if (b == k)
		return rapid_pc_q_raw(o, k);
	qb = rapid_pc_q_raw(o, b);
	if (a == RAPID_PC_NONE)
		return qb;
	qa = rapid_pc_q_raw(o, a);
	pos = o->snd_off[k] - o->snd_off[a];
	span = o->snd_off[b] - o->snd_off[a];
	if (qb >= qa)
		return qa + (s64)rapid_pc_mul_div(qb - qa, pos, span);
	return qa - (s64)rapid_pc_mul_div(qa - qb, pos, span);
}

/* Send gap k, between packets k and k+1 (ns), >= 1 once validated. */
static inline u64 rapid_pc_gap_ns(const struct rapid_pc_obs *o, u32 k)
{
	return (u64)(o->snd_off[k + 1] - o->snd_off[k]) << o->shift;
}

/* Instantaneous rate of gap k (bytes/s), <= 65535 * 10^9. */
static inline u64 rapid_pc_rate(const struct rapid_pc_obs *o, u32 k)
{
	return div64_u64((u64)o->bytes[k] * RAPID_PC_NSEC_PER_SEC,
			 rapid_pc_gap_ns(o, k));
}

/* Find the coalesced groups among packets 0..n-1; returns packets repaired. */
static inline u32 rapid_pc_find_groups(struct rapid_pc_ctx *c, u32 n,
				       u32 gap_min_ns)
{
	const struct rapid_pc_obs *o = c->o;
	u32 k, m, s, b, fixed = 0;

	for (k = 0; k < n; k++) {
		c->left[k] = RAPID_PC_NONE;
		c->right[k] = (u8)k;
	}
	if (!gap_min_ns || c->reordered)
		return 0;
	k = 1;
	while (k < n) {
		u64 g = (u64)(o->rcv_off[k] - o->rcv_off[k - 1]) << o->shift;

		if (g >= gap_min_ns) {
			k++;
			continue;
		}
		s = k - 1;
		b = k;
		while (b + 1 < n &&
		       ((u64)(o->rcv_off[b + 1] - o->rcv_off[b]) << o->shift) <
		       gap_min_ns)
			b++;
		for (m = s; m < b; m++) {
			c->left[m] = s ? (u8)(s - 1) : RAPID_PC_NONE;
			c->right[m] = (u8)b;
		}
		fixed += b - s;
		k = b + 1;
	}
	return fixed;
}

/*
 * Tolerant recording: mark both packets of every pair of neighbours that
 * arrived in the wrong order (rapid_pc_q() then takes their medians).
 * Returns the packets marked.
 */
static inline u32 rapid_pc_find_reordered(struct rapid_pc_ctx *c, u32 n)
{
	const struct rapid_pc_obs *o = c->o;
	u32 k, m = 0;

	for (k = 0; k < RAPID_PC_MAP_WORDS; k++)
		c->reo[k] = 0;
	c->reordered = 0;
	if (!o->tolerant)
		return 0;
	for (k = 0; k < n; k++) {
		if (rapid_pc_marked(o->overtook, k)) {
			rapid_pc_mark(c->reo, k);
			m++;
		}
	}
	for (k = 1; k < n; k++) {
		if (o->rcv_off[k] >= o->rcv_off[k - 1])
			continue;
		if (!rapid_pc_marked(c->reo, k - 1)) {
			rapid_pc_mark(c->reo, k - 1);
			m++;
		}
		if (!rapid_pc_marked(c->reo, k)) {
			rapid_pc_mark(c->reo, k);
			m++;
		}
	}
	c->reordered = m;
	return m;
}

/*
 * The stream's own delay jitter J (2^shift ns): the median of
 * |q_{k+1} - 2 q_k + q_{k-1}| over packets 0..n-1, from a histogram of
 * powers of two, interpolated linearly inside the median's bucket (within
 * a few percent for a smooth spread).  A queue ramp has second differences
 * near 0, independent noise of deviation s a median of ~1.65 s.  0 with
 * fewer than three second differences.
 */
static inline u64 rapid_pc_jitter(const struct rapid_pc_ctx *c, u32 n)
{
	u8 cnt[40] = { 0 };
	u32 k, b, m, below = 0, half;
	u64 lo;

	if (n < 5)
		return 0;
	for (k = 1; k + 1 < n; k++) {
		s64 d = rapid_pc_q_raw(c->o, k + 1) -
			2 * rapid_pc_q_raw(c->o, k) +
			rapid_pc_q_raw(c->o, k - 1);

		cnt[rapid_pc_fls64(d < 0 ? (u64)-d : (u64)d)]++;
	}
	m = n - 2;
	half = m / 2;
	for (b = 0; b < 40; b++) {
		if (below + cnt[b] > half)
			break;
		below += cnt[b];
	}
	if (b == 0 || b >= 40)
		return 0;
	lo = 1ULL << (b - 1);
	return lo + div_u64(lo * (2 * (half - below) + 1), 2 * cnt[b]);
}

/*
 * Quantisation floor of "the delay increased" (2^shift ns): stamps
 * quantised to ticks make q jitter by up to (snd_tick - 1) + (rcv_tick - 1)
 * ns between packets (999 ns with a microsecond TSval), which would
 * otherwise open false excursions that never end (the jitter stays within
 * maxq / F).  0 for ns clocks: PathChirp's q_i < q_{i+1}.
 */
static inline s64 rapid_pc_noise(const struct rapid_pc_obs *o)
{
	u64 ns = (u64)(o->snd_clk.tick_ns - 1) + (o->rcv_clk.tick_ns - 1);

	return (s64)(ns >> o->shift);
}

/*
 * Where a rise from packet i starts once it is known to be a queue: it
 * first exceeded the floor at packet h; the start is the last packet in
 * [i, h) still within 1/F of that height above q_i (F: the fraction that
 * ends an excursion).  Stamping jitter makes a low q_i survive the walk for
 * packets before the queue builds; this skips them.  Without a floor
 * (h = i + 1) it is i.
 */
static inline u32 rapid_pc_rise_start(const struct rapid_pc_ctx *c, u32 i,
				      u32 f_milli, s64 floor)
{
	s64 qi = rapid_pc_q(c, i), dh;
	u32 h, k, s = i;

	for (h = i + 1; rapid_pc_q(c, h) - qi <= floor; h++)
		;
	dh = rapid_pc_q(c, h) - qi;
	for (k = i + 1; k < h; k++)
		if ((rapid_pc_q(c, k) - qi) * (s64)f_milli <=
		    dh * RAPID_PC_F_SCALE)
			s = k;
	return s;
}

/*
 * PathChirp's excursion walk (steps 1-5 of the header comment) over packets
 * 0..n-1.  Fills res->marked, res->excursions and res->open_start.
 *
 * The floor quant + jitter (jitter: q_noise_ns, the host's stamping
 * jitter) bounds an excursion's height, not its steps: a rise from q_i is a
 * queue only once max(q_k - q_i) exceeds the floor before the walk ends
 * (q_k back below q_i + maxq / F); it then starts at
 * rapid_pc_rise_start().  Jitter of less than the floor, peak to peak,
 * never builds such a rise; a trend does, however small its steps: a packet
 * sent at R into a bottleneck of capacity C with avail-bw A adds
 * (P / C)(1 - A / R) to the queue, which with cross traffic (A << C) is far
 * below the jitter and the send gap.  A floor on every step hid all trends
 * up to R = A + C / 8 (+130% at C = 1 Gbit/s, A = 100 Mbit/s:
 * docs/rapid-deviations.md#excursion-factor).  A rise that ends below the
 * floor is skipped whole (i = j, as after a short excursion); one still
 * open at the last packet, never above the floor, leaves no room for a
 * higher one after it: the walk stops.  O(n): each packet is visited at
 * most three times.
 */
static inline void rapid_pc_find_excursions(const struct rapid_pc_ctx *c,
					    u32 n, u32 f_milli, u32 min_len,
					    s64 quant, s64 jitter,
					    bool truncated,
					    struct rapid_pc_result *res)
{
	u32 i = 0, j, k;

	while (i + 1 < n) {
		s64 qi = rapid_pc_q(c, i), maxq = 0;
		bool ended = false;

		if (rapid_pc_q(c, i + 1) - qi <= quant) {
			i++;
			continue;
		}
		for (j = i + 1; j < n; j++) {
			s64 d = rapid_pc_q(c, j) - qi;

			if (d > maxq)
				maxq = d;
			/* q_j - q_i < maxq / F; |d|, maxq < 2^33, F*1000 < 2^20 */
			if (d * (s64)f_milli < maxq * RAPID_PC_F_SCALE) {
				ended = true;
				break;
			}
		}
		if (maxq <= quant + jitter) {
			/* never above the floor: stamping jitter */
			if (!ended)
				return;
			i = j;
			continue;
		}
		i = rapid_pc_rise_start(c, i, f_milli, quant + jitter);
		if (!ended) {
			/*
			 * A prefix cut by a hole may end in a short rise that
			 * was about to end: only one of at least L gaps is a
			 * persistent trend there.
			 */
			if (!truncated || n - 1 - i >= min_len)
				res->open_start = (u8)i;
			return;
		}
		if (j - i >= min_len) {
			res->excursions++;
			for (k = i; k < j; k++)
				if (rapid_pc_q(c, k + 1) - rapid_pc_q(c, k) >
				    quant)
					rapid_pc_mark(res->marked, k);
		}
		i = j;
	}
}

/*
 * Analyse the recorded p-stream.  Returns the rule applied (enum
 * rapid_pc_rule); RAPID_PC_RULE_INVALID (0) means no estimate: fewer than
 * p->min_pkts usable packets, or invalid parameters.  @res is always
 * filled; res->abest is in bytes per second.
 */
static inline int rapid_pc_estimate(const struct rapid_pc_obs *o,
				    const struct rapid_pc_params *p,
				    struct rapid_pc_result *res)
{
	struct rapid_pc_ctx c;
	u64 total_ns, unmarked_ns = 0, marked_bytes = 0, rate_x, d, floor;
	u32 n = o->n, k, l, x;

	*res = (struct rapid_pc_result){ 0 };
	res->open_start = RAPID_PC_NONE;
	res->stop = o->stop;

	/* Tolerant recording: the packets before the first hole. */
	for (k = 0; o->tolerant && k < n; k++) {
		if (!rapid_pc_marked(o->present, k)) {
			n = k;
			res->stop |= RAPID_PC_STOP_LOSS;
			break;
		}
	}
	/*
	 * Offsets coarsened by a long stream may tie (cut there); in any
	 * order, a sender's stamps that do not increase are not a chirp.
	 */
	for (k = 1; k < n; k++) {
		if (o->snd_off[k] <= o->snd_off[k - 1]) {
			n = k;
			res->stop |= RAPID_PC_STOP_CLOCK;
			break;
		}
	}
	res->pkts = n;
	if (!rapid_pc_params_valid(p) || n < p->min_pkts || n < 2)
		return RAPID_PC_RULE_INVALID;

	c.o = o;
	c.n = n;
	res->reordered = (u8)rapid_pc_find_reordered(&c, n);
	res->coalesced = (u8)rapid_pc_find_groups(&c, n, p->recv_gap_min_ns);
	floor = p->q_noise_ns >> o->shift;
	if (p->noise_mult) {
		u64 j = rapid_pc_jitter(&c, n);

		j <<= o->shift;
		res->jitter_ns = j > U32_MAX ? U32_MAX : (u32)j;
		j >>= o->shift;
		/*
		 * Only jitter above the stream's mean send gap: cross
		 * traffic's packets between ours move q by up to a gap.
		 */
		if (j * (n - 1) > o->snd_off[n - 1])
			floor += (p->noise_mult * j) >> 1;
		if (floor > (RAPID_PC_NOISE_FLOOR_MAX_NS >> o->shift))
			floor = RAPID_PC_NOISE_FLOOR_MAX_NS >> o->shift;
	}
	res->floor_ns = floor << o->shift;
	rapid_pc_find_excursions(&c, n, p->f_milli, p->min_excursion,
				 rapid_pc_noise(o), (s64)floor,
				 res->stop != 0, res);

	l = res->open_start;
	x = l != RAPID_PC_NONE ? l : n - 2;
	rate_x = rapid_pc_rate(o, x);
	total_ns = (u64)o->snd_off[n - 1] << o->shift;
	for (k = 0; k + 1 < n; k++) {
		u64 r = rapid_pc_rate(o, k);

		if (r > res->top_rate)
			res->top_rate = r;
		if (k < l && rapid_pc_marked(res->marked, k))
			marked_bytes += o->bytes[k];
		else
			unmarked_ns += rapid_pc_gap_ns(o, k);
	}
	res->first_rate = rapid_pc_rate(o, 0);
	res->last_rate = rapid_pc_rate(o, n - 2);

	/* D = (sum_marked bytes_k * 10^9 + R_x * sum_unmarked Delta_k) / T */
	d = rapid_pc_mul_div(marked_bytes, RAPID_PC_NSEC_PER_SEC, total_ns);
	d += rapid_pc_mul_div(rate_x, unmarked_ns, total_ns);
	res->pathchirp = d;

	if (l == 0) {
		res->abest = res->first_rate >> 1 ? res->first_rate >> 1 : 1;
		res->rule = RAPID_PC_RULE_EARLY_TREND;
	} else if (!res->excursions && (l == RAPID_PC_NONE || l == n - 2)) {
		/* a rate below 1 B/s rounds to 0: still an estimate */
		res->abest = res->last_rate ? res->last_rate : 1;
		res->rule = RAPID_PC_RULE_NO_TREND;
	} else {
		res->abest = d ? d : 1;
		res->rule = RAPID_PC_RULE_EXCURSION;
	}
	return res->rule;
}

static inline const char *rapid_pc_rule_name(int rule)
{
	switch (rule) {
	case RAPID_PC_RULE_EXCURSION:
		return "excursion";
	case RAPID_PC_RULE_NO_TREND:
		return "no-trend";
	case RAPID_PC_RULE_EARLY_TREND:
		return "early-trend";
	default:
		return "invalid";
	}
}

/* ------------------------------------------------------------------ */
/* Feedback option (receiver -> sender)                               */

#define RAPID_OPT_KIND		253	/* RFC 4727 experimental, RFC 6994 */
#define RAPID_OPT_EXID		0x5241	/* "RA" */
#define RAPID_OPT_LEN		8	/* bytes, kind and length included */
#define RAPID_OPT_KIND_EOL	0
#define RAPID_OPT_KIND_NOP	1

/* 13-bit rate code: 5-bit exponent, 8-bit mantissa */
#define RAPID_OPT_RATE_MANT_BITS	8
#define RAPID_OPT_RATE_EXP_MAX		31
#define RAPID_OPT_RATE_CODE_MAX		0x1fffU
/* Largest encodable rate: 511 << 30 bytes/s (4.4 Tbit/s) */
#define RAPID_OPT_RATE_MAX		(511ULL << 30)

/* Return values of the codec (negative: error) */
#define RAPID_OPT_ENOENT	(-1)	/* no RAPID option in the area */
#define RAPID_OPT_ETRUNC	(-2)	/* an option runs past the area */
#define RAPID_OPT_EBADLEN	(-3)	/* length byte < 2, or ours != 8 */
#define RAPID_OPT_EINVAL	(-4)	/* bad arguments */
#define RAPID_OPT_ENOSPC	(-5)	/* buffer too small to encode */
#define RAPID_OPT_ERANGE	(-6)	/* a field out of range (index >= N) */

/* The option's content. */
struct rapid_opt {
	u64 abest;		/* estimate (bytes/s); decoded: rounded down */
	u16 stream_id;		/* the p-stream it belongs to */
	u8 rule;		/* enum rapid_pc_rule */
	u8 truncated;		/* 1: estimate from a lossy stream's prefix */
};

/* Encode a rate (bytes/s) into 13 bits, rounding down, saturating. */
static inline u16 rapid_opt_rate_pack(u64 rate)
{
	u32 b, e;

	if (rate >= RAPID_OPT_RATE_MAX)
		return RAPID_OPT_RATE_CODE_MAX;
	if (rate < (1U << RAPID_OPT_RATE_MANT_BITS))
		return (u16)rate;
	b = rapid_pc_fls64(rate) - 1;		/* >= 8 */
	e = b - RAPID_OPT_RATE_MANT_BITS + 1;	/* >= 1, <= 31 */
	return (u16)((e << RAPID_OPT_RATE_MANT_BITS) |
		     ((rate >> (e - 1)) - (1U << RAPID_OPT_RATE_MANT_BITS)));
}

static inline u64 rapid_opt_rate_unpack(u16 code)
{
	u32 e = (code >> RAPID_OPT_RATE_MANT_BITS) & RAPID_OPT_RATE_EXP_MAX;
	u64 m = code & ((1U << RAPID_OPT_RATE_MANT_BITS) - 1);

	if (!e)
		return m;
	return (m + (1U << RAPID_OPT_RATE_MANT_BITS)) << (e - 1);
}

/*
 * Write the option into @buf (@len bytes available).  Returns the bytes
 * written (RAPID_OPT_LEN) or a negative RAPID_OPT_E* code.  Padding to a
 * 4-byte boundary (none needed: 8 bytes) is the caller's.
 */
static inline int rapid_opt_encode(u8 *buf, int len, const struct rapid_opt *opt)
{
	u16 word;

	if (!buf || !opt || opt->rule > RAPID_PC_RULE_EARLY_TREND)
		return RAPID_OPT_EINVAL;
	if (len < RAPID_OPT_LEN)
		return RAPID_OPT_ENOSPC;
	word = (u16)(opt->rule << 14) | (opt->truncated ? 1U << 13 : 0) |
	       rapid_opt_rate_pack(opt->abest);
	buf[0] = RAPID_OPT_KIND;
	buf[1] = RAPID_OPT_LEN;
	buf[2] = RAPID_OPT_EXID >> 8;
	buf[3] = RAPID_OPT_EXID & 0xff;
	buf[4] = opt->stream_id >> 8;
	buf[5] = opt->stream_id & 0xff;
	buf[6] = word >> 8;
	buf[7] = word & 0xff;
	return RAPID_OPT_LEN;
}

/*
 * Walk a TCP options area (@optlen bytes after the fixed header) from offset
 * @from (an option's start, or 0) for the first option of kind @kind (not
 * EOL or NOP).  Returns its offset in the area, or a negative RAPID_OPT_E*
 * code: ENOENT (none before EOL / the end), ETRUNC (an option whose length
 * byte is missing or exceeds the area), EBADLEN (a length byte < 2), EINVAL
 * (bad arguments).  Never reads outside the area.
 */
static inline int rapid_tcp_opt_find(const u8 *opts, int optlen, int from,
				     u8 kind)
{
	int i = from;

	if (optlen < 0 || from < 0 || (optlen && !opts))
		return RAPID_OPT_EINVAL;
	while (i < optlen) {
		int len;

		if (opts[i] == RAPID_OPT_KIND_EOL)
			break;
		if (opts[i] == RAPID_OPT_KIND_NOP) {
			i++;
			continue;
		}
		if (optlen - i < 2)
			return RAPID_OPT_ETRUNC;
		len = opts[i + 1];
		if (len < 2)
			return RAPID_OPT_EBADLEN;
		if (len > optlen - i)
			return RAPID_OPT_ETRUNC;
		if (opts[i] == kind)
			return i;
		i += len;
	}
	return RAPID_OPT_ENOENT;
}

/*
 * Walk a TCP options area (@optlen bytes after the fixed header) for the
 * first experimental option (kind 253) carrying ExID @exid.  Returns its
 * offset in the area, or a negative RAPID_OPT_E* code: ENOENT (none before
 * EOL / the end), ETRUNC (an option whose length byte is missing or exceeds
 * the area), EBADLEN (a length byte < 2, or @exid with a length other than
 * @want_len), EINVAL (bad arguments).  Other experimental options (kind
 * 253/254, other ExIDs, or too short for an ExID) are skipped.  Never reads
 * outside the area.
 */
static inline int rapid_exp_opt_find(const u8 *opts, int optlen, u16 exid,
				     int want_len)
{
	int i;

	for (i = rapid_tcp_opt_find(opts, optlen, 0, RAPID_OPT_KIND); i >= 0;
	     i = rapid_tcp_opt_find(opts, optlen, i + opts[i + 1],
				    RAPID_OPT_KIND)) {
		int len = opts[i + 1];

		if (len >= 4 &&
		    opts[i + 2] == (exid >> 8) && opts[i + 3] == (exid & 0xff))
			return len == want_len ? i : RAPID_OPT_EBADLEN;
	}
	return i;
}

/*
 * Walk a TCP options area (@optlen bytes after the fixed header) and decode
 * the first RAPID option into @out.  Returns 0 when found, else a negative
 * RAPID_OPT_E* code: ENOENT (none before EOL / the end), ETRUNC (an option
 * whose length byte is missing or exceeds the area), EBADLEN (a length
 * byte < 2, or a RAPID ExID with a length other than 8), EINVAL (bad
 * arguments).  Other experimental options (kind 253/254, other ExIDs, or
 * too short for an ExID) are skipped.  Never reads outside the area.
 */
static inline int rapid_opt_decode(const u8 *opts, int optlen,
				   struct rapid_opt *out)
{
	const u8 *o;
	u16 word;
	int at;

	if (!out)
		return RAPID_OPT_EINVAL;
	at = rapid_exp_opt_find(opts, optlen, RAPID_OPT_EXID, RAPID_OPT_LEN);
	if (at < 0)
		return at;
	o = opts + at;
	word = (u16)(o[6] << 8 | o[7]);
	out->stream_id = (u16)(o[4] << 8 | o[5]);
	out->rule = word >> 14;
	out->truncated = (word >> 13) & 1;
	out->abest = rapid_opt_rate_unpack(word & RAPID_OPT_RATE_CODE_MAX);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Data-marking option (sender -> receiver)                           */

#define RAPID_DOPT_EXID		0x5244	/* "RD" */
#define RAPID_DOPT_LEN		12	/* bytes, kind and length included */

/* The data option's content. */
struct rapid_dopt {
	u32 tx_ns;		/* departure time, ns modulo 2^32 */
	u16 stream_id;		/* low 16 bits of the sender's stream id */
	u8 idx;			/* packet index in the stream, [0, n) */
	u8 n;			/* packets in the stream, [1, 255] */
};

/*
 * Write the data option into @buf (@len bytes available).  Returns
 * RAPID_DOPT_LEN, or RAPID_OPT_EINVAL (NULL pointers), RAPID_OPT_ERANGE
 * (n == 0 or idx >= n), RAPID_OPT_ENOSPC (@len < 12).  12 bytes keep a
 * 4-byte aligned options area aligned: no padding.
 */
static inline int rapid_dopt_encode(u8 *buf, int len, const struct rapid_dopt *d)
{
	if (!buf || !d)
		return RAPID_OPT_EINVAL;
	if (!d->n || d->idx >= d->n)
		return RAPID_OPT_ERANGE;
	if (len < RAPID_DOPT_LEN)
		return RAPID_OPT_ENOSPC;
	buf[0] = RAPID_OPT_KIND;
	buf[1] = RAPID_DOPT_LEN;
	buf[2] = RAPID_DOPT_EXID >> 8;
	buf[3] = RAPID_DOPT_EXID & 0xff;
	buf[4] = d->stream_id >> 8;
	buf[5] = d->stream_id & 0xff;
	buf[6] = d->idx;
	buf[7] = d->n;
	buf[8] = d->tx_ns >> 24;
	buf[9] = (d->tx_ns >> 16) & 0xff;
	buf[10] = (d->tx_ns >> 8) & 0xff;
	buf[11] = d->tx_ns & 0xff;
	return RAPID_DOPT_LEN;
}

/*
 * Decode the first data option of a TCP options area into @out.  Returns 0,
 * or a negative RAPID_OPT_E* code as rapid_exp_opt_find() (EBADLEN: our
 * ExID with a length other than 12), or RAPID_OPT_ERANGE (N == 0 or
 * index >= N; @out is left untouched).  Never reads outside the area.
 */
static inline int rapid_dopt_decode(const u8 *opts, int optlen,
				    struct rapid_dopt *out)
{
	const u8 *o;
	int at;

	if (!out)
		return RAPID_OPT_EINVAL;
	at = rapid_exp_opt_find(opts, optlen, RAPID_DOPT_EXID, RAPID_DOPT_LEN);
	if (at < 0)
		return at;
	o = opts + at;
	if (!o[7] || o[6] >= o[7])
		return RAPID_OPT_ERANGE;
	out->stream_id = (u16)(o[4] << 8 | o[5]);
	out->idx = o[6];
	out->n = o[7];
	out->tx_ns = (u32)o[8] << 24 | (u32)o[9] << 16 | (u32)o[10] << 8 | o[11];
	return 0;
}

/* Largest step between consecutive departure stamps (ns): 2^31 - 1. */
#define RAPID_DOPT_STEP_MAX	0x7fffffffU

/*
 * Extend a packet's 32-bit departure stamp @tx32 to 64 bits from the
 * previous packet's stamps (@last64 unwrapped, @last32 as received):
 * *tx64 = last64 + ((tx32 - last32) mod 2^32).  Returns false, leaving
 * *tx64 alone, when that step exceeds RAPID_DOPT_STEP_MAX (the stamp went
 * backwards, or the packets left more than 2.1 s apart).
 */
static inline bool rapid_dopt_unwrap(u64 last64, u32 last32, u32 tx32,
				     u64 *tx64)
{
	u32 step = tx32 - last32;

	if (step > RAPID_DOPT_STEP_MAX)
		return false;
	*tx64 = last64 + step;
	return true;
}

/*
 * As rapid_dopt_unwrap() for a packet in any order: the step from the
 * previous packet may be negative (it left earlier), |step| <= 2^31 - 1 ns.
 * Returns false, leaving *tx64 alone, when it would go below 0.
 */
static inline bool rapid_dopt_unwrap_any(u64 last64, u32 last32, u32 tx32,
					 u64 *tx64)
{
	s32 step = (s32)(tx32 - last32);

	if (step < 0 && (u64)(-(s64)step) > last64)
		return false;
	*tx64 = last64 + (s64)step;
	return true;
}

/*
 * Is a received ABest believable for a p-stream whose highest sent rate was
 * @top_sent (bytes/s)?  A truthful receiver never reports more than the
 * stream's top rate (every rule returns one of the stream's rates or a
 * mean of them), except for its own clock error: @slack_milli (per mille,
 * clamped to [0, 1000]) allows for that (TSval quantisation: use ~100).
 * A lying receiver therefore cannot inflate the sender's rate beyond what it
 * already sent.  Zero is "no estimate", not plausible.
 */
static inline bool rapid_abest_plausible(u64 abest, u64 top_sent,
					 u32 slack_milli)
{
	u64 limit;

	if (!abest || !top_sent)
		return false;
	if (slack_milli > 1000)
		slack_milli = 1000;
	limit = top_sent + rapid_pc_mul_div(top_sent, slack_milli, 1000);
	if (limit < top_sent)		/* wrapped: saturate */
		limit = U64_MAX;
	return abest <= limit;
}

/* ABest bounded to [1, top_sent * (1 + slack)]; 0 stays 0 (no estimate). */
static inline u64 rapid_abest_clamp(u64 abest, u64 top_sent, u32 slack_milli)
{
	u64 limit;

	if (!abest || rapid_abest_plausible(abest, top_sent, slack_milli))
		return abest;
	if (slack_milli > 1000)
		slack_milli = 1000;
	limit = top_sent + rapid_pc_mul_div(top_sent, slack_milli, 1000);
	return limit < top_sent ? U64_MAX : (limit ? limit : 1);
}

#endif /* RAPID_PATHCHIRP_H */
