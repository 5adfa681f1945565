// SPDX-License-Identifier: GPL-2.0
/*
 * The scale engine: a packet-level discrete-event model of the lab's
 * dumbbell (docs/sim.md).  One run per invocation, described by a small
 * text file that sim/sim.py writes from the bench plan; it writes the
 * sampler's files (tcp.csv, qdisc.csv, cbr.csv, run.json, flow<i>.json,
 * cbr<j>.json) so that python3 -m scripts.bench analyze reads them unchanged.
 *
 *   senders --(0)--> bottleneck FIFO (drop-tail, rate schedule)
 *           --(min RTT / 2, random loss)--> receiver
 *           --(RTT - min RTT / 2)--> sender (ACKs)
 *
 * Events live in a binary heap of timers.  Per-flow FIFO pipes with
 * constant delay keep one heap entry per flow and direction, not one per
 * packet in flight.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

tns sim_now;

/* ---- binary heap ------------------------------------------------------ */
static struct timer **heap;
static int heap_n, heap_cap;

static void heap_swap(int a, int b)
{
	struct timer *t = heap[a];

	heap[a] = heap[b];
	heap[b] = t;
	heap[a]->pos = a;
	heap[b]->pos = b;
}

static void heap_up(int i)
{
	while (i > 0) {
		int p = (i - 1) / 2;

		if (heap[p]->t <= heap[i]->t)
			break;
		heap_swap(p, i);
		i = p;
	}
}

static void heap_down(int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < heap_n && heap[l]->t < heap[m]->t)
			m = l;
		if (r < heap_n && heap[r]->t < heap[m]->t)
			m = r;
		if (m == i)
			return;
		heap_swap(i, m);
		i = m;
	}
}

void timer_init(struct timer *tm, void (*fn)(void *), void *arg)
{
	tm->pos = -1;
	tm->fn = fn;
	tm->arg = arg;
}

void timer_set(struct timer *tm, tns t)
{
	if (tm->pos >= 0) {
		tns old = tm->t;

		tm->t = t;
		if (t < old)
			heap_up(tm->pos);
		else
			heap_down(tm->pos);
		return;
	}
	if (heap_n == heap_cap) {
		heap_cap = heap_cap ? 2 * heap_cap : 1024;
		heap = realloc(heap, heap_cap * sizeof(*heap));
	}
	tm->t = t;
	tm->pos = heap_n;
	heap[heap_n++] = tm;
	heap_up(tm->pos);
}

void timer_cancel(struct timer *tm)
{
	int i = tm->pos;

	if (i < 0)
		return;
	tm->pos = -1;
	heap_n--;
	if (i == heap_n)
		return;
	heap[i] = heap[heap_n];
	heap[i]->pos = i;
	heap_up(i);
	heap_down(heap[i]->pos);
}

static struct timer *heap_pop(void)
{
	struct timer *t = heap[0];

	timer_cancel(t);
	return t;
}

/* ---- configuration ---------------------------------------------------- */
static double duration_s = 10, sample_ms = 100, loss_pct;
static double start_jitter_ms;	/* each flow starts up to this much later */
/*
 * Mean extra delay (us) of a data packet between the bottleneck and its
 * receiver, exponential, each flow's order kept: the timing noise of the
 * lab VM's single vCPU (softirqs that run late), 0: none (the default).
 */
static double rx_noise_us;
/*
 * CBR datagrams per burst: the lab's CBR sender paces through fq at a
 * SO_MAX_PACING_RATE, and fq paces such a flow per quantum (2 MTU), not
 * per packet: its datagrams leave in pairs, two periods apart.
 */
static int cbr_burst = 2;
static uint64_t rate_bps;		/* bottleneck, bit/s */
static uint32_t buffer_pkts = 100;
static uint64_t rng = 88172645463325252ULL;
static char outdir[4096] = ".";
static FILE *f_tcp, *f_q, *f_cbr, *f_trace;
unsigned int sim_trace_on;

/*
 * One tracepoint record in trace.txt, in the text that ftrace prints for
 * the module's own (rapid_trace.h): "sim-<flow> [000] ..... <s>: <event>:
 * sport=.. dport=.. skaddr=.. <fields>", so that scripts/rapid/events.py
 * and the lab's analyses read the engine's traces as the lab's.
 */
void sim_trace(const struct flow *f, const char *event, const char *fmt, ...)
{
	va_list ap;

	if (!f_trace)
		return;
	fprintf(f_trace, "sim-%d [000] ..... %lld.%06lld: %s: sport=%d dport=%d "
		"skaddr=%d ", f->id, (long long)(sim_now / 1000000000),
		(long long)(sim_now % 1000000000 / 1000), event, f->port,
		f->port, f->id);
	va_start(ap, fmt);
	vfprintf(f_trace, fmt, ap);
	va_end(ap);
	fputc('\n', f_trace);
}

static struct flow *flows;
static int nflows;

struct cbr {
	int id;
	tns start, stop, period;
	uint64_t sent, lost, bytes;
	struct timer tm;
};
static struct cbr *cbrs;
static int ncbrs;

struct sched { tns at; uint64_t rate_bps; struct timer tm; };
static struct sched *scheds;
static int nscheds;

static char modparams_json[4096] = "{}";

/* One xorshift64 step of stream *s; the new state. */
static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double urand(void)
{
	return (xorshift64(&rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* the algorithms' own stream (PERT's draws), so that they leave the
 * random losses' draws as they are */
static uint64_t cc_rng = 0x2545F4914F6CDD1DULL;

/* rx_noise_us' own stream too */
static uint64_t noise_rng = 0x9FB21C651E98DF25ULL;

static tns rx_noise(void)
{
	double u;

	if (!(rx_noise_us > 0))
		return 0;
	u = ((xorshift64(&noise_rng) >> 11) + 1) * (1.0 / 9007199254740993.0);
	return (tns)(-log(u) * rx_noise_us * 1e3);
}

uint32_t sim_random_u32(void)
{
	return (uint32_t)(xorshift64(&cc_rng) >> 32);
}

/* ---- the bottleneck: drop-tail FIFO in packets ------------------------- */
struct qpkt { int32_t src; uint32_t seq; uint16_t len; };
static struct qpkt *q;
static uint32_t q_cap, q_h, q_n;
static bool link_busy;
static struct qpkt in_service;
static struct timer link_tm;
static uint64_t q_bytes, q_pkts, q_drops, q_backlog, random_losses;

static tns tx_time(uint32_t len)
{
	return (tns)((double)len * 8e9 / (double)rate_bps + 0.5);
}

static void link_start(void)
{
	in_service = q[q_h];
	q_h = (q_h + 1) % q_cap;
	q_n--;
	q_backlog -= in_service.len;
	link_busy = true;
	timer_set(&link_tm, sim_now + tx_time(in_service.len));
}

static void data_pipe_push(struct flow *f, uint32_t seq, tns t);

static void link_done(void *arg)
{
	struct qpkt p = in_service;

	(void)arg;
	link_busy = false;
	q_bytes += p.len;
	q_pkts++;
	if (p.src >= 0) {
		struct flow *f = &flows[p.src];

		if (!(loss_pct > 0 && urand() * 100.0 < loss_pct))
			data_pipe_push(f, p.seq, sim_now + f->fwd + rx_noise());
		else
			random_losses++;
	}
	if (q_n)
		link_start();
}

static void link_enqueue(int32_t src, uint32_t seq, uint16_t len)
{
	if (q_n >= buffer_pkts) {
		q_drops++;
		if (src < 0)
			cbrs[-src - 1].lost++;
		return;
	}
	q[(q_h + q_n) % q_cap] = (struct qpkt){ src, seq, len };
	q_n++;
	q_backlog += len;
	if (!link_busy)
		link_start();
}

/* ---- TCP sender ---------------------------------------------------- */
#define NONE UINT32_MAX

static struct pkt *P(const struct flow *f, uint32_t seq)
{
	return &f->p[seq & f->mask];
}

struct pkt *flow_pkt(const struct flow *f, uint32_t seq)
{
	return P(f, seq);
}

uint32_t flow_in_flight(const struct flow *f)
{
	return (f->snd_nxt - f->snd_una) - (f->sacked_out + f->lost_out) +
	       f->retrans_out;
}

uint32_t flow_srtt_us(const struct flow *f)
{
	return (uint32_t)(f->srtt_us8 >> 3);
}

uint32_t flow_min_rtt_us(const struct flow *f)
{
	return f->min_rtt_us > 0 ? (uint32_t)f->min_rtt_us : UINT32_MAX;
}

/* snd_una, or past SACKed data the end of the highest SACKed segment
 * (tcp_highest_sack_seq()) */
static uint32_t highest_sack_end(const struct flow *f)
{
	if (!f->sacked_out || (int32_t)(f->high_sacked - f->snd_una) < 0)
		return f->snd_una;
	return f->high_sacked;
}

uint32_t flow_delivery_front(const struct flow *f)
{
	return f->sacked_out ? highest_sack_end(f) : f->snd_una;
}

static void grow(struct flow *f)
{
	uint32_t ncap = f->cap * 2, s;
	struct pkt *np = calloc(ncap, sizeof(*np));

	for (s = f->snd_una; s != f->snd_nxt; s++)
		np[s & (ncap - 1)] = f->p[s & f->mask];
	free(f->p);
	f->p = np;
	f->cap = ncap;
	f->mask = ncap - 1;
}

static void list_unlink(struct flow *f, uint32_t seq)
{
	struct pkt *p = P(f, seq);

	if (!(p->flags & PF_INLIST))
		return;
	if (p->prev != NONE)
		P(f, p->prev)->next = p->next;
	else
		f->head = p->next;
	if (p->next != NONE)
		P(f, p->next)->prev = p->prev;
	else
		f->tail = p->prev;
	p->flags &= ~PF_INLIST;
}

static void list_append(struct flow *f, uint32_t seq)
{
	struct pkt *p = P(f, seq);

	p->prev = f->tail;
	p->next = NONE;
	if (f->tail != NONE)
		P(f, f->tail)->next = seq;
	else
		f->head = seq;
	f->tail = seq;
	p->flags |= PF_INLIST;
}

static void rq_push(struct flow *f, uint32_t seq)
{
	if (f->rq_n == f->rq_cap) {
		uint32_t ncap = f->rq_cap ? 2 * f->rq_cap : 256, i;
		uint32_t *n = malloc(ncap * sizeof(*n));

		for (i = 0; i < f->rq_n; i++)
			n[i] = f->rq[(f->rq_h + i) % f->rq_cap];
		free(f->rq);
		f->rq = n;
		f->rq_cap = ncap;
		f->rq_h = 0;
	}
	f->rq[(f->rq_h + f->rq_n) % f->rq_cap] = seq;
	f->rq_n++;
}

/* the next segment to retransmit, NONE if none */
static uint32_t rq_peek(struct flow *f)
{
	while (f->rq_n) {
		uint32_t s = f->rq[f->rq_h];

		if ((int32_t)(s - f->snd_una) >= 0 && (int32_t)(s - f->snd_nxt) < 0 &&
		    (P(f, s)->flags & (PF_LOST | PF_SACKED | PF_RETRANS)) == PF_LOST)
			return s;
		f->rq_h = (f->rq_h + 1) % f->rq_cap;
		f->rq_n--;
	}
	return NONE;
}

static tns rto_ns(const struct flow *f)
{
	int64_t var = f->mdev_us4 > 200000 ? f->mdev_us4 : 200000;
	tns rto = f->srtt_us8 ? ((f->srtt_us8 >> 3) + var) * 1000 : NS_PER_S;

	if (rto > 120 * NS_PER_S)
		rto = 120 * NS_PER_S;
	return rto << (f->backoff < 7 ? f->backoff : 7);
}

static uint64_t txn_ctr;

static void xmit(struct flow *f, uint32_t seq, bool retrans)
{
	struct pkt *p;

	if (f->snd_nxt == f->snd_una)
		f->first_tx_mstamp = f->delivered_mstamp = sim_now;
	if (!retrans) {
		if (f->snd_nxt - f->snd_una + 1 >= f->cap)
			grow(f);
		p = P(f, seq);
		memset(p, 0, sizeof(*p));
		f->snd_nxt++;
	} else {
		p = P(f, seq);
		p->flags |= PF_RETRANS | PF_EVER_RETRANS;
		f->retrans_out++;
		f->total_retrans++;
	}
	p->xmit = sim_now;
	p->delivered = f->delivered;
	p->dlv_mstamp = f->delivered_mstamp;
	p->first_tx = f->first_tx_mstamp;
	p->txn = ++txn_ctr;
	list_append(f, seq);
	f->data_segs_out++;
	if (f->ca_state == CA_RECOVERY && !f->cc->cong_control)
		f->prr_out++;		/* tcp_in_cwnd_reduction(): prr_out */
	if (f->rto_tm.pos < 0)
		timer_set(&f->rto_tm, sim_now + rto_ns(f));
	link_enqueue(f->id, seq, SIM_FRAME);
}

/* tcp_update_pacing_rate(): 200% of cwnd / srtt in slow start, else 120% */
static tns default_gap(struct flow *f)
{
	uint64_t cw = f->cwnd > f->snd_nxt - f->snd_una ? f->cwnd : f->snd_nxt - f->snd_una;
	double ratio = f->cwnd < f->ssthresh / 2 ? 2.0 : 1.2, rate;

	if (!f->srtt_us8 || f->data_segs_out <= SIM_UNPACED) {
		f->pacing_Bps = 0;
		return 0;
	}
	rate = ratio * SIM_MSS * (double)cw * 1e6 / (double)(f->srtt_us8 >> 3);
	f->pacing_Bps = (uint64_t)rate;
	return (tns)(SIM_FRAME * 1e9 / rate);
}

static void try_send(struct flow *f)
{
	while (!f->done) {
		uint32_t seq;
		bool re;
		tns gap;

		if (sim_now < f->next_send) {
			timer_set(&f->send_tm, f->next_send);
			return;
		}
		if (flow_in_flight(f) >= f->cwnd)
			return;
		seq = rq_peek(f);
		re = seq != NONE;
		if (!re) {
			if (sim_now >= f->stop)
				return;
			seq = f->snd_nxt;
		}
		xmit(f, seq, re);
		gap = f->cc->on_xmit ? f->cc->on_xmit(f, seq, re) : default_gap(f);
		f->next_send = sim_now + gap;
	}
}

void flow_kick(struct flow *f)
{
	try_send(f);
}

static void send_timer(void *arg)
{
	try_send(arg);
}

static void mark_lost(struct flow *f, uint32_t seq)
{
	struct pkt *p = P(f, seq);

	list_unlink(f, seq);
	if (p->flags & PF_SACKED)
		return;
	if (p->flags & PF_RETRANS) {	/* a lost retransmission */
		p->flags &= ~PF_RETRANS;
		f->retrans_out--;
	} else if (p->flags & PF_LOST) {
		return;			/* already waiting in the queue */
	} else {
		p->flags |= PF_LOST;
		f->lost_out++;
	}
	f->lost++;
	rq_push(f, seq);
}

static void rtt_sample(struct flow *f, int64_t m)
{
	if (m <= 0)
		m = 1;
	if (!f->min_rtt_us || m < f->min_rtt_us)
		f->min_rtt_us = m;
	if (f->srtt_us8) {		/* tcp_rtt_estimator() */
		m -= f->srtt_us8 >> 3;
		f->srtt_us8 += m;
		if (m < 0) {
			m = -m;
			m -= f->mdev_us4 >> 2;
			if (m > 0)
				m >>= 3;
		} else {
			m -= f->mdev_us4 >> 2;
		}
		f->mdev_us4 += m;
	} else {
		f->srtt_us8 = m << 3;
		f->mdev_us4 = m << 1;
	}
	f->rttvar_us = f->mdev_us4;
}

static void rto_fire(void *arg)
{
	struct flow *f = arg;
	uint32_t s;

	if (f->snd_una == f->snd_nxt)
		return;
	f->rq_n = 0;
	for (s = f->snd_una; s != f->snd_nxt; s++) {
		struct pkt *p = P(f, s);

		list_unlink(f, s);
		if (p->flags & PF_SACKED)
			continue;
		if (p->flags & PF_RETRANS) {
			p->flags &= ~PF_RETRANS;
			f->retrans_out--;
		}
		if (!(p->flags & PF_LOST)) {
			p->flags |= PF_LOST;
			f->lost_out++;
			f->lost++;
		}
		rq_push(f, s);
	}
	if (f->ca_state < CA_LOSS)
		f->ssthresh = f->cc->ssthresh(f);
	f->ca_state = CA_LOSS;
	f->high_seq = f->snd_nxt;
	if (!f->cc->cong_control) {
		f->cwnd = 1;
		f->cwnd_cnt = 0;
	}
	f->cc->on_rto(f);
	f->backoff++;
	timer_set(&f->rto_tm, sim_now + rto_ns(f));
	f->next_send = sim_now;
	try_send(f);
}

/* tcp_cwnd_reduction(): Proportional Rate Reduction (RFC 6937) in
 * recovery, for the algorithms that do not own cwnd */
static void prr_reduction(struct flow *f, uint32_t acked, uint32_t newly_lost,
			  bool una_advanced)
{
	int64_t in_flight = flow_in_flight(f), sndcnt;
	int64_t delta = (int64_t)f->ssthresh - in_flight;

	if (!acked || !f->prior_cwnd)
		return;
	f->prr_delivered += acked;
	if (delta < 0) {
		sndcnt = (int64_t)(((uint64_t)f->ssthresh * f->prr_delivered +
				    f->prior_cwnd - 1) / f->prior_cwnd) - f->prr_out;
	} else {
		sndcnt = (int64_t)f->prr_delivered - f->prr_out;
		if (sndcnt < acked)
			sndcnt = acked;
		if (una_advanced && !newly_lost)
			sndcnt++;
		if (sndcnt > delta)
			sndcnt = delta;
	}
	if (sndcnt < (f->prr_out ? 0 : 1))	/* force the fast retransmit */
		sndcnt = f->prr_out ? 0 : 1;
	f->cwnd = in_flight + sndcnt > 1 ? (uint32_t)(in_flight + sndcnt) : 1;
}

static void on_ack(struct flow *f, const struct ack *a)
{
	struct rate_sample rs = { 0, 0, -1 };
	struct pkt *best = NULL;
	uint64_t rack = 0;
	uint32_t acked = 0, prior_una = f->snd_una;
	int64_t rtt = -1;
	uint32_t newloss = 0;

#define DELIVER(p) do {							\
		acked++;						\
		f->delivered++;						\
		if (!((p)->flags & PF_EVER_RETRANS) &&			\
		    (!best || (p)->xmit >= best->xmit)) {		\
			rtt = (sim_now - (p)->xmit) / 1000;		\
		}							\
		if (!best || (p)->delivered >= best->delivered)		\
			best = (p);					\
	} while (0)

	while ((int32_t)(a->cum - f->snd_una) > 0 && f->snd_una != f->snd_nxt) {
		struct pkt *p = P(f, f->snd_una);

		if (p->flags & PF_SACKED) {
			f->sacked_out--;
		} else {
			if (p->flags & PF_LOST)
				f->lost_out--;
			if (p->flags & PF_RETRANS)
				f->retrans_out--;
			if (p->txn > rack)
				rack = p->txn;
			DELIVER(p);
		}
		list_unlink(f, f->snd_una);
		f->snd_una++;
	}
	if (a->sack != NONE && (int32_t)(a->sack - f->snd_una) >= 0 &&
	    (int32_t)(a->sack - f->snd_nxt) < 0) {
		struct pkt *p = P(f, a->sack);

		if (!(p->flags & PF_SACKED)) {
			if (p->txn > rack)
				rack = p->txn;
			p->flags |= PF_SACKED;
			f->sacked_out++;
			if (f->sacked_out == 1 ||
			    (int32_t)(a->sack + 1 - f->high_sacked) > 0)
				f->high_sacked = a->sack + 1;
			if (p->flags & PF_LOST) {
				p->flags &= ~PF_LOST;
				f->lost_out--;
			}
			if (p->flags & PF_RETRANS) {
				p->flags &= ~PF_RETRANS;
				f->retrans_out--;
			}
			list_unlink(f, a->sack);
			DELIVER(p);
		}
	}
	if (rtt >= 0)
		rtt_sample(f, rtt);
	if (f->cc->pkts_acked)
		f->cc->pkts_acked(f, f->snd_una - prior_una, rtt);
	if (acked) {
		/* tcp_rate_gen() */
		int64_t snd_int = best->xmit - best->first_tx;
		int64_t ack_int = sim_now - best->dlv_mstamp;

		f->first_tx_mstamp = best->xmit;
		f->delivered_mstamp = sim_now;
		rs.delivered = f->delivered - best->delivered;
		rs.interval_us = (snd_int > ack_int ? snd_int : ack_int) / 1000;
		rs.rtt_us = rtt;
	}
	/* RACK: everything sent before the newest delivered is lost (the
	 * model has no reordering, so the reordering window is 0) */
	if (rack > f->rack_txn)
		f->rack_txn = rack;
	while (f->head != NONE && P(f, f->head)->txn < f->rack_txn) {
		mark_lost(f, f->head);
		newloss++;
	}
	if (f->snd_una != prior_una) {
		f->backoff = 0;
		if (f->snd_una != f->snd_nxt)
			timer_set(&f->rto_tm, sim_now + rto_ns(f));
		else
			timer_cancel(&f->rto_tm);
	}
	if (f->ca_state != CA_OPEN && (int32_t)(f->snd_una - f->high_seq) >= 0) {
		if (f->ca_state == CA_RECOVERY && !f->cc->cong_control)
			f->cwnd = f->ssthresh;
		f->ca_state = CA_OPEN;
		f->cc->set_state(f, CA_OPEN);
	}
	if (newloss && f->ca_state == CA_OPEN) {
		f->ca_state = CA_RECOVERY;
		f->high_seq = f->snd_nxt;
		f->ssthresh = f->cc->ssthresh(f);
		f->cc->set_state(f, CA_RECOVERY);
		if (!f->cc->cong_control) {	/* tcp_init_cwnd_reduction() */
			f->prior_cwnd = f->cwnd;
			f->prr_delivered = 0;
			f->prr_out = 0;
			f->cwnd_cnt = 0;
		}
	}
	if (f->cc->cong_control || f->ca_state != CA_RECOVERY)
		f->cc->on_ack(f, acked, &rs);
	else
		prr_reduction(f, acked, newloss, f->snd_una != prior_una);
	if (f->cwnd < 1)
		f->cwnd = 1;
	try_send(f);
}

static void rto_timer(void *arg)
{
	rto_fire(arg);
}

/* ---- pipes and the receiver ------------------------------------------ */
static void ack_pipe_push(struct flow *f, uint32_t sack)
{
	if (f->aq_n == f->aq_cap) {
		uint32_t ncap = f->aq_cap ? 2 * f->aq_cap : 256, i;
		struct ack *n = malloc(ncap * sizeof(*n));

		for (i = 0; i < f->aq_n; i++)
			n[i] = f->aq[(f->aq_h + i) % f->aq_cap];
		free(f->aq);
		f->aq = n;
		f->aq_cap = ncap;
		f->aq_h = 0;
	}
	f->aq[(f->aq_h + f->aq_n) % f->aq_cap] =
		(struct ack){ .arr = sim_now + f->rev, .cum = f->rcv_nxt,
			      .sack = sack };
	if (f->cc->rx_ack_out)
		f->cc->rx_ack_out(f, &f->aq[(f->aq_h + f->aq_n) % f->aq_cap]);
	if (!f->aq_n)
		timer_set(&f->ack_tm, sim_now + f->rev);
	f->aq_n++;
}

static void ack_arrive(void *arg)
{
	struct flow *f = arg;
	struct ack a = f->aq[f->aq_h];

	f->aq_h = (f->aq_h + 1) % f->aq_cap;
	f->aq_n--;
	if (f->aq_n)
		timer_set(&f->ack_tm, f->aq[f->aq_h].arr);
	if (a.fb_len && f->cc->ack_opt_in)
		f->cc->ack_opt_in(f, &a);
	on_ack(f, &a);
}

static void send_ack(struct flow *f, uint32_t sack)
{
	f->delack_pending = 0;
	timer_cancel(&f->delack_tm);
	ack_pipe_push(f, sack);
}

static void delack_fire(void *arg)
{
	send_ack(arg, NONE);
}

/* tcp_data_queue() + __tcp_ack_snd_check(): an ACK every second
 * in-order segment or after 40 ms, at once for out-of-order data, a hole
 * filled or a duplicate */
static void rcv_data(struct flow *f, uint32_t seq)
{
	struct pkt *p = P(f, seq);
	bool filled;

	if ((int32_t)(seq - f->rcv_nxt) < 0 || (p->flags & PF_RCVD)) {
		send_ack(f, NONE);
		return;
	}
	if (f->cc->rx_data)
		f->cc->rx_data(f, seq, p);
	if (!f->rcv_bytes)
		f->rcv_first = sim_now;
	f->rcv_bytes += SIM_MSS;
	f->rcv_last = sim_now;
	if (seq != f->rcv_nxt) {
		p->flags |= PF_RCVD;
		f->rcv_ooo++;
		send_ack(f, seq);
		return;
	}
	f->rcv_nxt++;
	filled = f->rcv_ooo != 0;
	while (f->rcv_ooo && (P(f, f->rcv_nxt)->flags & PF_RCVD)) {
		P(f, f->rcv_nxt)->flags &= ~PF_RCVD;
		f->rcv_nxt++;
		f->rcv_ooo--;
	}
	if (filled) {	/* a hole filled, or data out of order remains */
		send_ack(f, NONE);
		return;
	}
	if (++f->delack_pending >= 2) {
		send_ack(f, NONE);
		return;
	}
	if (f->delack_tm.pos < 0)
		timer_set(&f->delack_tm, sim_now + 40 * NS_PER_MS);
}

static void data_pipe_push(struct flow *f, uint32_t seq, tns t)
{
	if (f->dq_n == f->dq_cap) {
		uint32_t ncap = f->dq_cap ? 2 * f->dq_cap : 256, i;
		uint32_t *ns = malloc(ncap * sizeof(*ns));
		tns *nt = malloc(ncap * sizeof(*nt));

		for (i = 0; i < f->dq_n; i++) {
			ns[i] = f->dq_seq[(f->dq_h + i) % f->dq_cap];
			nt[i] = f->dq_t[(f->dq_h + i) % f->dq_cap];
		}
		free(f->dq_seq);
		free(f->dq_t);
		f->dq_seq = ns;
		f->dq_t = nt;
		f->dq_cap = ncap;
		f->dq_h = 0;
	}
	/*
	 * The pipe is a FIFO: a packet that drew less rx_noise_us than the
	 * one before it arrives right after that one, never before it
	 */
	if (f->dq_n && t < f->dq_t[(f->dq_h + f->dq_n - 1) % f->dq_cap])
		t = f->dq_t[(f->dq_h + f->dq_n - 1) % f->dq_cap];
	f->dq_seq[(f->dq_h + f->dq_n) % f->dq_cap] = seq;
	f->dq_t[(f->dq_h + f->dq_n) % f->dq_cap] = t;
	if (!f->dq_n)
		timer_set(&f->data_tm, t);
	f->dq_n++;
}

static void data_arrive(void *arg)
{
	struct flow *f = arg;
	uint32_t seq = f->dq_seq[f->dq_h];

	f->dq_h = (f->dq_h + 1) % f->dq_cap;
	f->dq_n--;
	if (f->dq_n)
		timer_set(&f->data_tm, f->dq_t[f->dq_h]);
	rcv_data(f, seq);
}

static void flow_start(void *arg)
{
	struct flow *f = arg;

	f->cc->init(f);
	f->next_send = sim_now;
	timer_init(&f->send_tm, send_timer, f);
	try_send(f);
}

/* ---- cross traffic and the rate schedule -------------------------------- */
static void cbr_send(void *arg)
{
	struct cbr *c = arg;
	int i;

	if (sim_now >= c->stop)
		return;
	for (i = 0; i < cbr_burst; i++) {
		c->sent++;
		c->bytes += SIM_UDP_FRAME;
		link_enqueue(-c->id - 1, 0, SIM_UDP_FRAME);
	}
	timer_set(&c->tm, sim_now + c->period * cbr_burst);
}

static void sched_fire(void *arg)
{
	rate_bps = ((struct sched *)arg)->rate_bps;
}

/* ---- baselines: Reno and CUBIC (tcp_cong.c, tcp_cubic.c) ---------------- */
static uint32_t reno_ssthresh(struct flow *f)
{
	return f->cwnd / 2 > 2 ? f->cwnd / 2 : 2;
}

/* tcp_slow_start(): returns what is left of acked */
uint32_t slow_start(struct flow *f, uint32_t acked)
{
	uint32_t cwnd = f->cwnd + acked;

	if (cwnd > f->ssthresh)
		cwnd = f->ssthresh;
	acked -= cwnd - f->cwnd;
	f->cwnd = cwnd;
	return acked;
}

/* tcp_cong_avoid_ai() */
void cong_avoid_ai(struct flow *f, uint32_t w, uint32_t acked)
{
	if (f->cwnd_cnt >= w) {
		f->cwnd_cnt = 0;
		f->cwnd++;
	}
	f->cwnd_cnt += acked;
	if (f->cwnd_cnt >= w) {
		uint32_t delta = f->cwnd_cnt / w;

		f->cwnd_cnt -= delta * w;
		f->cwnd += delta;
	}
}

static void reno_on_ack(struct flow *f, uint32_t acked, const struct rate_sample *rs)
{
	(void)rs;
	if (!acked)
		return;
	if (f->cwnd < f->ssthresh) {
		acked = slow_start(f, acked);
		if (!acked)
			return;
	}
	cong_avoid_ai(f, f->cwnd, acked);
}

static void reno_init(struct flow *f)
{
	f->cwnd = 10;
	f->ssthresh = UINT32_MAX;
}

static void nop_state(struct flow *f, int s)
{
	(void)f;
	(void)s;
}

static void nop_rto(struct flow *f)
{
	(void)f;
}

static void *nop_alloc(void)
{
	return NULL;
}

static const struct cc_ops cc_reno = {
	.name = "reno", .alloc = nop_alloc, .init = reno_init,
	.on_ack = reno_on_ack, .ssthresh = reno_ssthresh,
	.set_state = nop_state, .on_rto = nop_rto,
};

/* CUBIC as tcp_cubic.c (beta 717/1024, C 0.4, fast convergence, TCP
 * friendliness, HyStart's ACK-train and delay detection), the cubic in
 * floating point. */
struct cubic {
	uint32_t last_max_cwnd, last_cwnd, origin_point, ack_cnt, tcp_cwnd;
	double k;
	tns epoch_start, last_time;
	uint32_t cnt;
	/* HyStart */
	tns round_start, last_ack;
	uint32_t end_seq, sample_cnt, found;
	int64_t curr_rtt, delay_min;
};

static void hystart_reset(struct flow *f)
{
	struct cubic *ca = f->ca;

	ca->round_start = ca->last_ack = sim_now;
	ca->end_seq = f->snd_nxt;
	ca->curr_rtt = INT64_MAX;
	ca->sample_cnt = 0;
}

/* hystart_update() with hystart_detect = ACK train | delay, low window 16 */
static void hystart_update(struct flow *f, int64_t delay)
{
	struct cubic *ca = f->ca;
	int64_t thr;

	if ((int32_t)(f->snd_una - ca->end_seq) > 0)
		hystart_reset(f);
	if (ca->found)
		return;
	if (sim_now - ca->last_ack <= 2 * NS_PER_MS) {	/* ACK train */
		ca->last_ack = sim_now;
		/* the senders are paced (fq): the train may span a whole
		 * delay_min, plus hystart_ack_delay() (at most 1 ms) */
		thr = ca->delay_min + 1000;
		if ((sim_now - ca->round_start) / 1000 > thr) {
			ca->found = 1;
			f->ssthresh = f->cwnd;
			return;
		}
	}
	if (ca->curr_rtt > delay)
		ca->curr_rtt = delay;
	if (ca->sample_cnt < 8) {
		ca->sample_cnt++;
	} else {
		thr = ca->delay_min >> 3;
		thr = thr < 4000 ? 4000 : thr > 16000 ? 16000 : thr;
		if (ca->curr_rtt > ca->delay_min + thr) {
			ca->found = 1;
			f->ssthresh = f->cwnd;
		}
	}
}

#define CUBIC_BETA	(717.0 / 1024.0)
#define CUBIC_C		0.4

static void *cubic_alloc(void)
{
	return calloc(1, sizeof(struct cubic));
}

static void cubic_init(struct flow *f)
{
	memset(f->ca, 0, sizeof(struct cubic));
	reno_init(f);
	hystart_reset(f);
}

static uint32_t cubic_ssthresh(struct flow *f)
{
	struct cubic *ca = f->ca;
	uint32_t s;

	ca->epoch_start = 0;
	if (f->cwnd < ca->last_max_cwnd)
		ca->last_max_cwnd = (uint32_t)(f->cwnd * (1.0 + CUBIC_BETA) / 2.0);
	else
		ca->last_max_cwnd = f->cwnd;
	s = (uint32_t)(f->cwnd * CUBIC_BETA);
	return s > 2 ? s : 2;
}

static void cubic_update(struct flow *f, uint32_t acked)
{
	struct cubic *ca = f->ca;
	double t, target, delta, max_cnt, scale;
	uint32_t cwnd = f->cwnd, cnt;

	ca->ack_cnt += acked;
	if (ca->last_cwnd == cwnd && sim_now - ca->last_time <= NS_PER_S / 32)
		return;
	ca->last_cwnd = cwnd;
	ca->last_time = sim_now;
	if (!ca->epoch_start) {
		ca->epoch_start = sim_now;
		ca->ack_cnt = acked;
		ca->tcp_cwnd = cwnd;
		if (ca->last_max_cwnd <= cwnd) {
			ca->k = 0;
			ca->origin_point = cwnd;
		} else {
			ca->k = cbrt((ca->last_max_cwnd - cwnd) / CUBIC_C);
			ca->origin_point = ca->last_max_cwnd;
		}
	}
	t = (double)(sim_now - ca->epoch_start) / 1e9 + f->min_rtt_us / 1e6;
	target = ca->origin_point + CUBIC_C * pow(t - ca->k, 3);
	if (target > cwnd)
		cnt = (uint32_t)(cwnd / (target - cwnd));
	else
		cnt = 100 * cwnd;
	if (ca->last_max_cwnd == 0 && cnt > 20)
		cnt = 20;
	/* TCP friendliness */
	scale = 3.0 * CUBIC_BETA / (2.0 - CUBIC_BETA) ;
	delta = cwnd / scale;
	while (ca->ack_cnt > delta) {
		ca->ack_cnt -= (uint32_t)delta;
		ca->tcp_cwnd++;
	}
	if (ca->tcp_cwnd > cwnd) {
		max_cnt = cwnd / (double)(ca->tcp_cwnd - cwnd);
		if (cnt > max_cnt)
			cnt = (uint32_t)max_cnt;
	}
	ca->cnt = cnt > 2 ? cnt : 2;
}

static void cubic_on_ack(struct flow *f, uint32_t acked, const struct rate_sample *rs)
{
	struct cubic *ca = f->ca;

	/* cubictcp_acked() */
	if (rs->rtt_us > 0 && f->ca_state == CA_OPEN) {
		if (!ca->delay_min || ca->delay_min > rs->rtt_us)
			ca->delay_min = rs->rtt_us;
		if (f->cwnd < f->ssthresh && f->cwnd >= 16)
			hystart_update(f, rs->rtt_us);
	}
	if (!acked)
		return;
	if (f->cwnd < f->ssthresh) {
		acked = slow_start(f, acked);
		if (!acked)
			return;
	}
	cubic_update(f, acked);
	cong_avoid_ai(f, ca->cnt, acked);
}

/* cubictcp_state(CA_LOSS): bictcp_reset() and hystart_reset() */
static void cubic_rto(struct flow *f)
{
	memset(f->ca, 0, sizeof(struct cubic));
	hystart_reset(f);
}

static const struct cc_ops cc_cubic = {
	.name = "cubic", .alloc = cubic_alloc, .init = cubic_init,
	.on_ack = cubic_on_ack, .ssthresh = cubic_ssthresh,
	.set_state = nop_state, .on_rto = cubic_rto,
};

/* Scalable TCP as tcp_scalable.c: +1 per min(cwnd, 100) ACKed, x 7/8 */
static uint32_t scalable_ssthresh(struct flow *f)
{
	uint32_t s = f->cwnd - (f->cwnd >> 3);

	return s > 2 ? s : 2;
}

static void scalable_on_ack(struct flow *f, uint32_t acked, const struct rate_sample *rs)
{
	(void)rs;
	if (!acked)
		return;
	if (f->cwnd < f->ssthresh) {
		acked = slow_start(f, acked);
		if (!acked)
			return;
	}
	cong_avoid_ai(f, f->cwnd < 100 ? f->cwnd : 100, acked);
}

static const struct cc_ops cc_scalable = {
	.name = "scalable", .alloc = nop_alloc, .init = reno_init,
	.on_ack = scalable_on_ack, .ssthresh = scalable_ssthresh,
	.set_state = nop_state, .on_rto = nop_rto,
};

static const struct cc_ops *ccs[] = { &cc_rapid, &cc_cubic, &cc_reno, &cc_scalable,
				      &cc_pert, &cc_icc, &cc_highspeed };

/* ---- sampling: what bench/sampler.py writes ----------------------------- */
static struct timer sample_tm;
static tns sample_period;

static void sample(void *arg)
{
	double t = (double)sim_now / 1e9;
	int i;

	(void)arg;
	fprintf(f_q, "%.6f,10:,pfifo,%llu,%llu,%llu,0,%u,%llu\n", t,
		(unsigned long long)q_bytes, (unsigned long long)q_pkts,
		(unsigned long long)q_drops, q_n, (unsigned long long)q_backlog);
	for (i = 0; i < nflows; i++) {
		struct flow *f = &flows[i];
		uint64_t sent = (uint64_t)f->snd_nxt * SIM_MSS;

		if (sim_now < f->start || sim_now > f->stop + sample_period)
			continue;
		fprintf(f_tcp, "%.6f,%d,%d,%d,%d,%s,1,%d,%u,%u,%lld,%lld,%lld,%llu,0,"
			"%llu,%llu,%llu,%llu,%llu,%llu,%u,0,%llu,%u\n",
			t, i, 40000 + i, f->port, i + 1, f->cc->name, f->ca_state,
			f->cwnd, f->ssthresh > 2147483647U ? 2147483647U : f->ssthresh,
			(long long)(f->srtt_us8 >> 3), (long long)(f->rttvar_us >> 2),
			(long long)f->min_rtt_us, (unsigned long long)f->pacing_Bps,
			(unsigned long long)f->snd_una * SIM_MSS,
			(unsigned long long)(sent + f->total_retrans * SIM_MSS),
			(unsigned long long)f->total_retrans * SIM_MSS,
			(unsigned long long)f->data_segs_out,
			(unsigned long long)f->total_retrans,
			(unsigned long long)f->lost, f->snd_nxt - f->snd_una,
			(unsigned long long)f->delivered, SIM_MSS);
	}
	for (i = 0; i < ncbrs; i++)
		fprintf(f_cbr, "%.6f,%d,%llu,%llu\n", t, i,
			(unsigned long long)cbrs[i].bytes,
			(unsigned long long)cbrs[i].sent);
	timer_set(&sample_tm, sim_now + sample_period);
}

/* ---- configuration file (sim/sim.py writes it) ------------------------ */
static tns secs(double s)
{
	return (tns)llround(s * 1e9);
}

static const struct cc_ops *cc_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(ccs) / sizeof(ccs[0]); i++)
		if (!strcmp(ccs[i]->name, name))
			return ccs[i];
	return NULL;
}

static int read_config(const char *path)
{
	char line[4096], key[64], a[256];
	FILE *fp = fopen(path, "r");
	int ln = 0;

	if (!fp) {
		fprintf(stderr, "sim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		ln++;
		if (sscanf(line, "%63s", key) != 1 || key[0] == '#')
			continue;
		if (!strcmp(key, "out")) {
			sscanf(line, "%*s %4095s", outdir);
		} else if (!strcmp(key, "duration_s")) {
			sscanf(line, "%*s %lf", &duration_s);
		} else if (!strcmp(key, "sample_ms")) {
			sscanf(line, "%*s %lf", &sample_ms);
		} else if (!strcmp(key, "seed")) {
			unsigned long long s;

			sscanf(line, "%*s %llu", &s);
			rng ^= s * 0x9E3779B97F4A7C15ULL;
			cc_rng ^= s * 0xD1B54A32D192ED03ULL;
			noise_rng ^= s * 0xBF58476D1CE4E5B9ULL;
		} else if (!strcmp(key, "start_jitter_ms")) {
			sscanf(line, "%*s %lf", &start_jitter_ms);
			if (!(start_jitter_ms >= 0 && start_jitter_ms <= 1000))
				start_jitter_ms = 0;
		} else if (!strcmp(key, "cbr_burst")) {
			sscanf(line, "%*s %d", &cbr_burst);
			if (cbr_burst < 1 || cbr_burst > 64)
				cbr_burst = 1;
		} else if (!strcmp(key, "rx_noise_us")) {
			sscanf(line, "%*s %lf", &rx_noise_us);
			if (!(rx_noise_us >= 0 && rx_noise_us <= 100000))
				rx_noise_us = 0;
		} else if (!strcmp(key, "rate_kbit")) {
			unsigned long long r;

			sscanf(line, "%*s %llu", &r);
			rate_bps = r * 1000ULL;
		} else if (!strcmp(key, "buffer_pkts")) {
			sscanf(line, "%*s %u", &buffer_pkts);
		} else if (!strcmp(key, "loss_pct")) {
			sscanf(line, "%*s %lf", &loss_pct);
		} else if (!strcmp(key, "modparams_json")) {
			char *s = line + strlen("modparams_json ");

			s[strcspn(s, "\n")] = 0;
			snprintf(modparams_json, sizeof(modparams_json), "%s", s);
		} else if (!strcmp(key, "param")) {
			unsigned v;
			int r;

			if (sscanf(line, "%*s %255s %u", a, &v) != 2) {
				fprintf(stderr, "sim: %s:%d: param NAME VALUE\n", path, ln);
				return -1;
			}
			r = rapid_param_set(a, v);
			if (r) {
				fprintf(stderr, "sim: tcp_rapid parameter %s: %s\n", a,
					r == -1 ? "unknown" : "out of range");
				return -1;
			}
		} else if (!strcmp(key, "modparam")) {	/* MODULE NAME VALUE */
			char m[64];
			unsigned v;
			int r;

			if (sscanf(line, "%*s %63s %255s %u", m, a, &v) != 3) {
				fprintf(stderr, "sim: %s:%d: modparam MODULE NAME VALUE\n", path, ln);
				return -1;
			}
			if (!strcmp(m, "tcp_pert"))
				r = pert_param_set(a, v);
			else if (!strcmp(m, "tcp_rapid_rx"))
				r = rapid_rx_param_set(a, v);
			else if (!strcmp(m, "tcp_icc"))
				r = icc_param_set(a, v);
			else
				r = -3;
			if (r) {
				fprintf(stderr, "sim: %s parameter %s: %s\n", m, a,
					r == -1 ? "unknown" : r == -2 ? "out of range" :
					"module not in the engine");
				return -1;
			}
		} else if (!strcmp(key, "flow")) {
			struct flow *f;
			double rtt, st, sp, fwd;
			int id, port, tested;

			flows = realloc(flows, (nflows + 1) * sizeof(*flows));
			f = &flows[nflows];
			memset(f, 0, sizeof(*f));
			if (sscanf(line, "%*s %d %d %255s %d %lf %lf %lf %lf", &id, &port,
				   a, &tested, &rtt, &st, &sp, &fwd) != 8) {
				fprintf(stderr, "sim: %s:%d: bad flow line\n", path, ln);
				return -1;
			}
			f->cc = cc_find(a);
			if (!f->cc) {
				fprintf(stderr, "sim: congestion control '%s' is not in the engine (rapid, cubic, reno, scalable, pert, icc, highspeed)\n", a);
				return -1;
			}
			f->id = nflows;
			f->port = port;
			f->tested = tested;
			f->rtt_ms = rtt;
			f->start = secs(st);
			f->stop = secs(sp);
			f->fwd = secs(fwd / 1000);
			f->rev = secs((rtt - fwd) / 1000);
			nflows++;
		} else if (!strcmp(key, "cbr")) {
			double r, st, sp;

			cbrs = realloc(cbrs, (ncbrs + 1) * sizeof(*cbrs));
			if (sscanf(line, "%*s %lf %lf %lf", &r, &st, &sp) != 3)
				return -1;
			cbrs[ncbrs] = (struct cbr){ .id = ncbrs, .start = secs(st),
				.stop = secs(sp),
				.period = (tns)(1448.0 * 8e9 / (r * 1e6)) };
			ncbrs++;
		} else if (!strcmp(key, "trace")) {
			char ev[64];

			if (sscanf(line, "%*s %63s", ev) != 1)
				return -1;
			if (!strcmp(ev, "tcp_rapid:rapid_abest")) {
				sim_trace_on |= SIM_TR_ABEST;
			} else if (!strcmp(ev, "tcp_rapid:rapid_law")) {
				sim_trace_on |= SIM_TR_LAW;
			} else {
				fprintf(stderr, "sim: %s:%d: trace '%s': the engine has "
					"tcp_rapid:rapid_abest and tcp_rapid:rapid_law only\n",
					path, ln, ev);
				return -1;
			}
		} else if (!strcmp(key, "sched")) {
			double at;
			unsigned long long r;

			scheds = realloc(scheds, (nscheds + 1) * sizeof(*scheds));
			if (sscanf(line, "%*s %lf %llu", &at, &r) != 2)
				return -1;
			scheds[nscheds] = (struct sched){ .at = secs(at), .rate_bps = r * 1000ULL };
			nscheds++;
		} else {
			fprintf(stderr, "sim: %s:%d: unknown key '%s'\n", path, ln, key);
			return -1;
		}
	}
	fclose(fp);
	return 0;
}

static FILE *out_open(const char *name)
{
	char p[4200];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/%s", outdir, name);
	fp = fopen(p, "w");
	if (!fp) {
		fprintf(stderr, "sim: %s: %s\n", p, strerror(errno));
		exit(1);
	}
	return fp;
}

int main(int argc, char **argv)
{
	tns end;
	uint64_t events = 0;
	int i;

	if (argc == 3 && !strcmp(argv[1], "--check"))
		return read_config(argv[2]) ? 2 : 0;
	if (argc != 2) {
		fprintf(stderr, "usage: sim [--check] CONFIG\n");
		return 2;
	}
	if (read_config(argv[1]))
		return 2;
	q_cap = buffer_pkts + 1;
	q = calloc(q_cap, sizeof(*q));
	timer_init(&link_tm, link_done, NULL);
	f_tcp = out_open("tcp.csv");
	f_q = out_open("qdisc.csv");
	f_cbr = out_open("cbr.csv");
	if (sim_trace_on)
		f_trace = out_open("trace.txt");
	fprintf(f_tcp, "t,sender,sport,dport,cookie,cc,state,ca_state,cwnd,ssthresh,"
		"srtt_us,rttvar_us,min_rtt_us,pacing_Bps,delivery_Bps,bytes_acked,"
		"bytes_sent,bytes_retrans,data_segs_out,total_retrans,lost,unacked,"
		"app_limited,delivered,snd_mss\n");
	fprintf(f_q, "t,handle,kind,bytes,packets,drops,overlimits,qlen,backlog_bytes\n");
	fprintf(f_cbr, "t,cbr,bytes,packets\n");
	for (i = 0; i < nflows; i++) {
		struct flow *f = &flows[i];

		f->cap = 1024;
		f->mask = f->cap - 1;
		f->p = calloc(f->cap, sizeof(*f->p));
		f->head = f->tail = NONE;
		f->ca = f->cc->alloc();
		f->cwnd = 10;
		f->ssthresh = UINT32_MAX;
		timer_init(&f->send_tm, send_timer, f);
		timer_init(&f->rto_tm, rto_timer, f);
		timer_init(&f->data_tm, data_arrive, f);
		timer_init(&f->ack_tm, ack_arrive, f);
		timer_init(&f->delack_tm, delack_fire, f);
		timer_init(&f->start_tm, flow_start, f);
		/* seeded: every seed its own starts (sim.py --start-jitter-ms) */
		if (start_jitter_ms > 0)
			f->start += (tns)(urand() * start_jitter_ms * 1e6);
		timer_set(&f->start_tm, f->start);
	}
	for (i = 0; i < ncbrs; i++) {
		timer_init(&cbrs[i].tm, cbr_send, &cbrs[i]);
		timer_set(&cbrs[i].tm, cbrs[i].start);
	}
	for (i = 0; i < nscheds; i++) {
		timer_init(&scheds[i].tm, sched_fire, &scheds[i]);
		timer_set(&scheds[i].tm, scheds[i].at);
	}
	sample_period = secs(sample_ms / 1000);
	timer_init(&sample_tm, sample, NULL);
	timer_set(&sample_tm, 0);
	end = secs(duration_s) + sample_period / 2;
	while (heap_n) {
		struct timer *tm = heap_pop();

		if (tm->t > end)
			break;
		sim_now = tm->t;
		tm->fn(tm->arg);
		events++;
	}
	fclose(f_tcp);
	fclose(f_q);
	fclose(f_cbr);
	if (f_trace)
		fclose(f_trace);
	for (i = 0; i < nflows; i++) {
		struct flow *f = &flows[i];
		char name[64];
		FILE *fp;
		double secs_ = (double)(f->stop - f->start) / 1e9;

		snprintf(name, sizeof(name), "flow%d.json", i);
		fp = out_open(name);
		fprintf(fp, "{\"end\": {\"sum_received\": {\"bytes\": %llu, "
			"\"bits_per_second\": %.1f}}}\n",
			(unsigned long long)f->rcv_bytes,
			secs_ > 0 ? f->rcv_bytes * 8.0 / secs_ : 0.0);
		fclose(fp);
	}
	for (i = 0; i < ncbrs; i++) {
		char name[64];
		FILE *fp;

		snprintf(name, sizeof(name), "cbr%d.json", i);
		fp = out_open(name);
		fprintf(fp, "{\"end\": {\"sum\": {\"lost_percent\": %.4f}}}\n",
			cbrs[i].sent ? 100.0 * cbrs[i].lost / cbrs[i].sent : 0.0);
		fclose(fp);
	}
	{
		/* totals at the end, for conservation checks (tests/unit/test_sim.py) */
		FILE *fp = out_open("run.json");
		uint64_t segs = 0, cbr = 0, rcvd = 0, acked = 0, piped = 0;

		for (i = 0; i < nflows; i++) {
			segs += flows[i].data_segs_out;
			rcvd += flows[i].rcv_bytes / SIM_MSS;
			acked += flows[i].snd_una;
			piped += flows[i].dq_n;
		}
		for (i = 0; i < ncbrs; i++)
			cbr += cbrs[i].sent;
		fprintf(fp, "{\"t0\": 0, \"end\": %.3f, \"events\": %llu, "
			"\"modparams\": %s, \"totals\": {\"tcp_segs_sent\": %llu, "
			"\"cbr_sent\": %llu, \"dequeued\": %llu, \"dropped\": %llu, "
			"\"queued\": %u, \"in_service\": %d, \"random_loss\": %llu, "
			"\"in_data_pipes\": %llu, \"received_segs\": %llu, "
			"\"acked_segs\": %llu}, \"rapid_stats\": ", duration_s,
			(unsigned long long)events, modparams_json,
			(unsigned long long)segs, (unsigned long long)cbr,
			(unsigned long long)q_pkts, (unsigned long long)q_drops, q_n,
			link_busy ? 1 : 0, (unsigned long long)random_losses,
			(unsigned long long)piped, (unsigned long long)rcvd,
			(unsigned long long)acked);
		rapid_stats_json(fp);
		fprintf(fp, "}\n");
		fclose(fp);
	}
	return 0;
}
