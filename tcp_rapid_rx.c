// SPDX-License-Identifier: GPL-2.0
/*
 * RAPID receiver helper: the receiving host's half of RAPID congestion
 * control.  Not a congestion control itself; load it on the host that
 * receives data from RAPID senders (tcp_rapid).
 *
 * RAPID (V. Konda and J. Kaur, "RAPID: Shrinking the Congestion-control
 * Timescale", IEEE INFOCOM 2009; full design in "Shrinking the Timescales
 * at Which Congestion-control Operates", UNC Chapel Hill TR08-011) sends
 * data in p-streams: groups of N packets whose gaps shrink geometrically, so
 * one stream probes a wide range of rates.  The receiver looks at each
 * stream's one-way delays: while the probing rate is below the available
 * bandwidth they stay flat, above it every packet queues behind the
 * previous one and the delays grow.  PathChirp's excursion analysis
 * (V. Ribeiro et al., "pathChirp: Efficient Available Bandwidth Estimation
 * for Network Paths", PAM 2003) turns that into ABest, which goes back to
 * the sender once per stream.  The analysis is rapid_pc_estimate() in
 * rapid_pathchirp.h (pure, unit tested); this module feeds it and carries
 * its answer.
 *
 *   sender (tcp_rapid)                       receiver (this module)
 *   every new data segment carries    --->   LOCAL_IN hook: arrival time
 *   {stream id, index, N, departure          ktime_get_ns(), before TCP;
 *    time} (kind 253, ExID "RD")             per-flow p-stream record;
 *                                            stream complete -> ABest
 *   reads {stream id, rule, ABest}    <---   LOCAL_OUT hook: appended to
 *   (kind 253, ExID "RA") on ACKs            the flow's next pure ACKs
 *
 * Both options are RFC 6994 experimental TCP options, codecs in
 * rapid_pathchirp.h; rapid_skb.h appends them to packets.  The departure
 * time is the low 32 bits of the sender's EDT timestamp in ns; only
 * differences are used, so the hosts need no clock sync, and the receiver
 * unwraps it packet to packet.
 *
 * Where the hooks sit:
 *  - LOCAL_IN, first priority: only packets for this host (transit traffic
 *    of a router costs nothing), after defragmentation and the route
 *    lookup, but before TCP: before socket backlog queueing and coalescing,
 *    which would merge or delay arrivals.  GRO runs before any hook, but
 *    it never merges TCP segments whose options differ, and every marked
 *    segment carries its own index and departure time, so each arrives
 *    alone; an arrival an offload merged anyway (skb_is_gso()) stops its
 *    stream there (rapid_pc_obs_add_segs(), counted as "merged").
 *  - LOCAL_OUT, last priority: after conntrack/NAT/mangle saw the ACK as
 *    TCP built it.  Only pure ACKs (no payload, no SYN/RST) of known flows
 *    get the 8-byte option; an ACK whose header is full (timestamps plus
 *    three SACK blocks: 40 bytes of options) goes without and the next one
 *    carries it.
 *  Both are registered in every network namespace (pernet_operations); the
 *  flow table is per namespace.
 *
 * Flows: a hash table per netns keyed by family and 4-tuple, looked up
 * under RCU, entries created by the first marked data segment of an
 * established connection (GFP_ATOMIC; none when the table holds max_flows
 * or memory is short),
 * removed when the sender's FIN, RST or a new SYN is seen, or when we send
 * a RST, evicted after idle_ms without marked data (a delayed work that
 * runs only while the table is not empty), freed at netns exit and module
 * unload.  Each flow has a spinlock (BH-safe: the receive hook runs in
 * softirq, the output hook also in process context); nothing sleeps.
 *
 * A stream is complete when all its N packets are in (with reorder=0: when
 * its last index arrives) or a newer stream starts; packets of older
 * streams are ignored.  Packets that arrive out of order are recorded
 * (reorder=1, rapid_pc_obs_tolerate(); a newer stream's packet that
 * overtook the current stream's tail is held for its own stream,
 * rapid_rx_record()); a packet that never arrives ends the usable prefix
 * there, which is analysed and the result flagged truncated.  Each completed stream's
 * result (also "no estimate", rule 0) is reported on the next feedback_acks
 * pure ACKs of the flow.
 *
 * Lab switch: mark_tx_port makes the module mark the outgoing data of any
 * TCP socket to that port with a synthetic numbering (30-packet streams,
 * index from the socket's data segment count), so that the receive path
 * can be tested end to end with any sender.  Off by default; only in the
 * lab build (make LAB=1, -DRAPID_LAB): production modules have no such
 * parameter.  It changes the marked socket for good (one MSS per skb, a
 * smaller MSS), which is fine for the lab's test sockets only.
 *
 * Counters: /sys/module/tcp_rapid_rx/parameters/stats (all namespaces);
 * the flows of a namespace: /proc/net/rapid_rx.  docs/rapid-helper.md has
 * the details.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/seq_file_net.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/inet6_hashtables.h>
#include <net/inet_hashtables.h>
#include <net/netns/generic.h>
#include <net/tcp.h>

#include "cc_param.h"
#include "cc_stats.h"
#include "compat.h"
#include "rapid_pathchirp.h"
#include "rapid_skb.h"

#define RAPID_RX_HASH_BITS	8		/* 256 buckets per netns */
#define RAPID_RX_GC_MIN_MS	50		/* idle scan period bounds (ms) */
#define RAPID_RX_GC_MAX_MS	1000
#define RAPID_RX_MARK_N		30		/* lab marker: packets per stream */

/* A flow, as the receiver sees it: the sender is "remote". */
struct rapid_rx_key {
	__be32 raddr[4];	/* sender's address (IPv4: raddr[0]) */
	__be32 laddr[4];	/* our address (IPv4: laddr[0]) */
	__be16 rport;		/* sender's port */
	__be16 lport;		/* our port */
	u32 version;		/* 4 or 6 */
};

struct rapid_rx_held {
	u64 tx;				/* departure, unwrapped, ns */
	u64 rcv;			/* arrival, ktime ns */
	u16 bytes;			/* payload */
	u8 idx;				/* index in its stream */
};

struct rapid_rx_flow {
	struct hlist_node node;		/* in rapid_rx_net.hash (RCU) */
	struct rcu_head rcu;		/* for kfree_rcu() */
	struct rapid_rx_key key;	/* family and 4-tuple */
	u64 seen_ns;			/* last marked data (ktime ns), idle scan */
	spinlock_t lock;		/* protects everything below */
	u64 tx_last;			/* unwrapped departure of the last recorded packet, ns */
	u32 tx_last32;			/* its departure as received, ns mod 2^32 */
	u32 pkts;			/* marked data packets seen */
	u32 streams;			/* streams analysed */
	u32 fed;			/* ACKs that carried the current estimate */
	struct rapid_opt est;		/* result of the last analysed stream */
	struct rapid_rx_held held[RAPID_RX_HELD];	/* the next stream's */
	u64 last_rcv;			/* arrival of the last packet recorded, ns */
	u16 held_id;			/* stream id of the held packets */
	u8 nheld;			/* packets in held[] */
	u8 held_n;			/* their stream's N */
	u16 done_id;			/* its stream id */
	u8 n;				/* packets (N) of the stream being recorded */
	u8 active:1,			/* a stream is being recorded in obs */
	   have_est:1;			/* est/done_id are valid */
	struct rapid_pc_obs obs;	/* the stream being recorded */
};

/* Per network namespace. */
struct rapid_rx_net {
	struct hlist_head hash[1 << RAPID_RX_HASH_BITS];	/* flows, RCU */
	spinlock_t lock;		/* insertions and removals */
	atomic_t nflows;		/* flows in hash */
	u32 seed;			/* hash seed */
	struct delayed_work gc;		/* idle eviction, while nflows > 0 */
};

static unsigned int rapid_rx_net_id __read_mostly;

/* ---- counters ------------------------------------------------------------ */

enum rapid_rx_stat {
	RAPID_RX_FLOWS_NEW,	/* flows created */
	RAPID_RX_FLOWS_CLOSED,	/* removed on FIN/RST/SYN */
	RAPID_RX_FLOWS_EVICTED,	/* removed after idle_ms */
	RAPID_RX_FLOWS_FREED,	/* removed at netns exit / unload */
	RAPID_RX_FLOWS_REFUSED,	/* not created: table full or no memory */
	RAPID_RX_NO_SOCKET,	/* marked data for no established connection */
	RAPID_RX_PKTS,		/* marked data packets seen */
	RAPID_RX_STALE,		/* packets of an older stream, ignored */
	RAPID_RX_BAD_OPT,	/* malformed options or inconsistent fields */
	RAPID_RX_STREAMS,	/* streams analysed */
	RAPID_RX_ESTIMATES,	/* ... that gave an estimate (rule != 0) */
	RAPID_RX_TRUNCATED,	/* ... from a prefix (loss, reordering) */
	RAPID_RX_FEEDBACK,	/* feedback options appended to ACKs */
	RAPID_RX_NO_ROOM,	/* ACKs skipped: TCP header full */
	RAPID_RX_ADD_FAILED,	/* ACKs skipped: other errors */
	RAPID_RX_MARKED,	/* lab marker: data segments marked */
	RAPID_RX_MARK_FAILED,	/* lab marker: marking refused */
	RAPID_RX_MERGED,	/* marked arrivals merged by a receive offload */
	RAPID_RX_REORDERED,	/* packets recorded out of order (reorder=1) */
	RAPID_RX_EARLY,		/* packets of the next stream held (reorder=1) */
	RAPID_RX_SACK_TRADED,	/* feedback in place of a SACK block (sack_trade) */
	RAPID_RX_NSTATS
};

static const char * const rapid_rx_stat_names[RAPID_RX_NSTATS] = {
	"flows_new", "flows_closed", "flows_evicted", "flows_freed",
	"flows_refused", "no_socket", "pkts", "stale", "bad_opt", "streams", "estimates",
	"truncated", "feedback", "no_room", "add_failed", "marked",
	"mark_failed", "merged", "reordered", "early", "sack_traded",
};

static DEFINE_PER_CPU(unsigned long[RAPID_RX_NSTATS], rapid_rx_stats);

static void rapid_rx_count(enum rapid_rx_stat s)
{
	this_cpu_inc(rapid_rx_stats[s]);
}

/* ---- parameters ------------------------------------------------------------ */

/*
 * Every tunable is a struct cc_param (cc_param.h): out of its range it is
 * refused with -EINVAL and a pr_warn naming range and unit.  Readers use
 * READ_ONCE(); values are read per packet or per stream, so writes act on
 * running flows.  The pathchirp bounds and defaults are rapid_pathchirp.h's.
 */
CC_PARAM(max_flows, rapid_rx_p_max_flows, 0644, 1024, 1, 65536, "flows",
	 "flows tracked per network namespace, ~2 KB each");
CC_PARAM(idle_ms, rapid_rx_p_idle_ms, 0644, 10000, 100, 3600000, "ms",
	 "a flow without marked data for this long is evicted");
CC_PARAM(f_milli, rapid_rx_p_f_milli, 0644, 6000, 1000, 1000000, "1/1000",
	 "excursion end factor F of the analysis");
static_assert(RAPID_PC_F_DEFAULT == 6000 && RAPID_PC_F_MIN == 1000 &&
	      RAPID_PC_F_MAX == 1000000);
CC_PARAM(min_excursion, rapid_rx_p_min_excursion, 0644, 5, 1, 128, "gaps",
	 "shortest valid excursion L of the analysis");
static_assert(RAPID_PC_L_DEFAULT == 5 && RAPID_PSTREAM_MAX == 128);
CC_PARAM(recv_gap_min_ns, rapid_rx_p_recv_gap_min, 0644, 1000, 0, 1000000, "ns",
	 "receive gaps below this are coalesced arrivals, 0 = off");
static_assert(RAPID_PC_RECV_GAP_MIN_NS_DEFAULT == 1000 &&
	      RAPID_PC_RECV_GAP_MIN_NS_MAX == 1000000);
CC_PARAM(q_noise_ns, rapid_rx_p_q_noise, 0644, 10000, 0, 1000000, "ns",
	 "a delay rise counts only once its height exceeds this stamping-jitter floor");
static_assert(RAPID_PC_Q_NOISE_NS_RX_DEFAULT == 10000 &&
	      RAPID_PC_Q_NOISE_NS_MAX == 1000000);
CC_PARAM(noise_mult, rapid_rx_p_noise_mult, 0644, 3, 0, 16, "x J/2",
	 "the height floor grows by this many halves of the stream's own delay jitter J, 0 = off");
static_assert(RAPID_PC_NOISE_MULT_RX_DEFAULT == 3 &&
	      RAPID_PC_NOISE_MULT_MAX == 16);
CC_PARAM(reorder, rapid_rx_p_reorder, 0644, 1, 0, 1, "bool",
	 "record a stream's packets in any order of arrival, 0 = stop at the first out of order");
CC_PARAM(min_pkts, rapid_rx_p_min_pkts, 0644, 3, 2, 128, "packets",
	 "fewer usable packets in a stream give no estimate");
static_assert(RAPID_PC_MIN_PKTS_DEFAULT == 3);
CC_PARAM(feedback_acks, rapid_rx_p_feedback_acks, 0644, 4, 0, 65535, "ACKs",
	 "pure ACKs that carry each stream's result, 0 = every ACK the latest result");
static_assert(RAPID_RX_FEEDBACK_ACKS_DEFAULT == 4);
/* the feedback option is exactly one SACK block (rapid_skb_trade_sack_block()) */
static_assert(RAPID_OPT_LEN == RAPID_SKB_SACK_BLOCK);
CC_PARAM(sack_trade, rapid_rx_p_sack_trade, 0644, 1, 0, 1, "bool",
	 "an ACK whose options are full carries the result in place of its SACK option's last (oldest) block, 0 = skip such ACKs");
#ifdef RAPID_LAB
/* the lab marker: a module parameter of the lab build (make LAB=1) only */
CC_PARAM(mark_tx_port, rapid_rx_p_mark_tx_port, 0644, 0, 0, 65535, "TCP port",
	 "LAB ONLY: mark outgoing data to this TCP port with synthetic 30-packet streams, 0 = off");
#endif

static int rapid_rx_stats_get(char *buffer, const struct kernel_param *kp)
{
	unsigned long gone, v[RAPID_RX_NSTATS];
	int i, len;

	for (i = 0; i < RAPID_RX_NSTATS; i++)
		v[i] = cc_stats_sum(rapid_rx_stats, i);
	gone = v[RAPID_RX_FLOWS_CLOSED] + v[RAPID_RX_FLOWS_EVICTED] +
	       v[RAPID_RX_FLOWS_FREED];
	len = scnprintf(buffer, PAGE_SIZE, "flows %lu\n",
			v[RAPID_RX_FLOWS_NEW] - gone);
	return cc_stats_print(buffer, len, rapid_rx_stat_names, v,
			      RAPID_RX_NSTATS);
}

static const struct kernel_param_ops rapid_rx_stats_ops = {
	.set = cc_stats_set,
	.get = rapid_rx_stats_get,
};

module_param_cb(stats, &rapid_rx_stats_ops, NULL, 0444);
MODULE_PARM_DESC(stats, "read-only counters, all namespaces: \"name value\" lines");

static void rapid_rx_params_load(struct rapid_pc_params *p)
{
	rapid_pc_params_init(p);
	p->f_milli = READ_ONCE(rapid_rx_p_f_milli.val);
	p->min_excursion = READ_ONCE(rapid_rx_p_min_excursion.val);
	p->recv_gap_min_ns = READ_ONCE(rapid_rx_p_recv_gap_min.val);
	p->min_pkts = READ_ONCE(rapid_rx_p_min_pkts.val);
	p->q_noise_ns = READ_ONCE(rapid_rx_p_q_noise.val);
	p->noise_mult = READ_ONCE(rapid_rx_p_noise_mult.val);
}

/* ---- flow table ------------------------------------------------------------ */

static struct rapid_rx_net *rapid_rx_pernet(const struct net *net)
{
	return net_generic(net, rapid_rx_net_id);
}

/* Key of the flow a packet belongs to; @in: received (sender -> us). */
static void rapid_rx_key_fill(struct rapid_rx_key *k, const struct sk_buff *skb,
			      const struct rapid_skb_tcp *t, bool in)
{
	memset(k, 0, sizeof(*k));
	k->version = t->version;
	if (t->version == 4) {
		const struct iphdr *iph = ip_hdr(skb);

		k->raddr[0] = in ? iph->saddr : iph->daddr;
		k->laddr[0] = in ? iph->daddr : iph->saddr;
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		memcpy(k->raddr, in ? &ip6h->saddr : &ip6h->daddr, sizeof(k->raddr));
		memcpy(k->laddr, in ? &ip6h->daddr : &ip6h->saddr, sizeof(k->laddr));
	}
	k->rport = in ? t->th->source : t->th->dest;
	k->lport = in ? t->th->dest : t->th->source;
}

static struct hlist_head *rapid_rx_bucket(struct rapid_rx_net *rn,
					  const struct rapid_rx_key *k)
{
	u32 h = jhash2((const u32 *)k, sizeof(*k) / sizeof(u32), rn->seed);

	return &rn->hash[h & ((1 << RAPID_RX_HASH_BITS) - 1)];
}

/* Under rcu_read_lock() (netfilter hooks hold it) or rn->lock. */
static struct rapid_rx_flow *rapid_rx_lookup(struct rapid_rx_net *rn,
					     const struct rapid_rx_key *k)
{
	struct rapid_rx_flow *f;

	hlist_for_each_entry_rcu(f, rapid_rx_bucket(rn, k), node,
				 lockdep_is_held(&rn->lock))
		if (!memcmp(&f->key, k, sizeof(*k)))
			return f;
	return NULL;
}

static void rapid_rx_gc_kick(struct rapid_rx_net *rn)
{
	unsigned int ms = READ_ONCE(rapid_rx_p_idle_ms.val) / 2;

	ms = clamp_t(unsigned int, ms, RAPID_RX_GC_MIN_MS, RAPID_RX_GC_MAX_MS);
	queue_delayed_work(system_wq, &rn->gc, msecs_to_jiffies(ms));
}

/*
 * Is there an established connection for this received segment?  Only such
 * segments create flows: stray or forged marked segments, and the tail of a
 * connection that the local application has already closed (FIN_WAIT, or
 * reset by us), leave no state.  A flow created earlier lives on until the
 * sender's FIN or idle eviction.
 * Under rcu_read_lock() (the hook).
 */
static bool rapid_rx_sk_receiving(struct net *net, const struct sk_buff *skb,
				  const struct rapid_skb_tcp *t)
{
	struct sock *sk;
	bool ok;

	if (t->version == 4)
		sk = compat_inet_lookup_established(net, ip_hdr(skb)->saddr,
						    t->th->source,
						    ip_hdr(skb)->daddr,
						    ntohs(t->th->dest),
						    inet_iif(skb),
						    inet_sdif(skb));
	else
		sk = compat_inet6_lookup_established(net,
						     &ipv6_hdr(skb)->saddr,
						     t->th->source,
						     &ipv6_hdr(skb)->daddr,
						     ntohs(t->th->dest),
						     inet6_iif(skb),
						     inet6_sdif(skb));
	if (!sk)
		return false;
	ok = READ_ONCE(sk->sk_state) == TCP_ESTABLISHED;
	sock_gen_put(sk);
	return ok;
}

/* The flow of a received marked segment, created if absent; or NULL. */
static struct rapid_rx_flow *rapid_rx_flow_get(struct rapid_rx_net *rn,
					       struct net *net,
					       const struct sk_buff *skb,
					       const struct rapid_skb_tcp *t,
					       const struct rapid_rx_key *k,
					       u64 now)
{
	struct rapid_rx_flow *f, *old;
	unsigned int cap = READ_ONCE(rapid_rx_p_max_flows.val);

	f = rapid_rx_lookup(rn, k);
	if (f)
		return f;
	if (!rapid_rx_sk_receiving(net, skb, t)) {
		rapid_rx_count(RAPID_RX_NO_SOCKET);
		return NULL;
	}
	if (atomic_read(&rn->nflows) >= cap)
		goto refused;
	f = kzalloc(sizeof(*f), GFP_ATOMIC | __GFP_NOWARN);
	if (!f)
		goto refused;
	f->key = *k;
	f->seen_ns = now;
	spin_lock_init(&f->lock);

	spin_lock_bh(&rn->lock);
	old = rapid_rx_lookup(rn, k);		/* lost a race? */
	if (old || atomic_read(&rn->nflows) >= cap) {
		spin_unlock_bh(&rn->lock);
		kfree(f);
		if (old)
			return old;
		goto refused;
	}
	hlist_add_head_rcu(&f->node, rapid_rx_bucket(rn, k));
	atomic_inc(&rn->nflows);
	spin_unlock_bh(&rn->lock);
	rapid_rx_count(RAPID_RX_FLOWS_NEW);
	rapid_rx_gc_kick(rn);
	return f;

refused:
	rapid_rx_count(RAPID_RX_FLOWS_REFUSED);
	return NULL;
}

/* Unlink and free after a grace period; rn->lock held. */
static void rapid_rx_flow_del(struct rapid_rx_net *rn, struct rapid_rx_flow *f,
			      enum rapid_rx_stat why)
{
	hlist_del_rcu(&f->node);
	atomic_dec(&rn->nflows);
	kfree_rcu(f, rcu);
	rapid_rx_count(why);
}

static void rapid_rx_flow_close(struct rapid_rx_net *rn,
				const struct rapid_rx_key *k)
{
	struct rapid_rx_flow *f;

	spin_lock_bh(&rn->lock);
	f = rapid_rx_lookup(rn, k);
	if (f)
		rapid_rx_flow_del(rn, f, RAPID_RX_FLOWS_CLOSED);
	spin_unlock_bh(&rn->lock);
}

/* Evict flows idle for idle_ms (all of them when @all). */
static void rapid_rx_flush(struct rapid_rx_net *rn, bool all)
{
	u64 idle = (u64)READ_ONCE(rapid_rx_p_idle_ms.val) * NSEC_PER_MSEC;
	u64 now = ktime_get_ns();
	struct rapid_rx_flow *f;
	struct hlist_node *tmp;
	int b;

	spin_lock_bh(&rn->lock);
	for (b = 0; b < ARRAY_SIZE(rn->hash); b++) {
		hlist_for_each_entry_safe(f, tmp, &rn->hash[b], node) {
			if (all)
				rapid_rx_flow_del(rn, f, RAPID_RX_FLOWS_FREED);
			else if (now - READ_ONCE(f->seen_ns) > idle)
				rapid_rx_flow_del(rn, f, RAPID_RX_FLOWS_EVICTED);
		}
	}
	spin_unlock_bh(&rn->lock);
}

static void rapid_rx_gc(struct work_struct *work)
{
	struct rapid_rx_net *rn = container_of(to_delayed_work(work),
					       struct rapid_rx_net, gc);

	rapid_rx_flush(rn, false);
	if (atomic_read(&rn->nflows))
		rapid_rx_gc_kick(rn);
}

/* ---- receive side: recording p-streams ------------------------------------ */

/* Analyse the stream in f->obs and keep its result for the feedback. */
static void rapid_rx_stream_finish(struct rapid_rx_flow *f)
{
	struct rapid_pc_result res;
	struct rapid_pc_params p;
	int rule;

	rapid_rx_params_load(&p);
	rule = rapid_pc_estimate(&f->obs, &p, &res);
	f->est.stream_id = f->obs.id;
	f->est.rule = rule;
	f->est.abest = res.abest;
	/* a prefix: recording stopped, or the tail never came */
	f->est.truncated = res.stop || f->obs.n < f->n;
	f->done_id = f->obs.id;
	f->have_est = 1;
	f->active = 0;
	f->fed = 0;
	f->streams++;
	rapid_rx_count(RAPID_RX_STREAMS);
	if (rule != RAPID_PC_RULE_INVALID)
		rapid_rx_count(RAPID_RX_ESTIMATES);
	if (f->est.truncated)
		rapid_rx_count(RAPID_RX_TRUNCATED);
}

/* Record a packet in f->obs; updates the departure the next one unwraps from. */
static void rapid_rx_add(struct rapid_rx_flow *f, u32 idx, u64 tx, u32 tx32,
			 u64 rcv, u32 bytes, u32 segs)
{
	u8 got = f->obs.got;
	int ret;

	ret = rapid_pc_obs_add_segs(&f->obs, idx, tx, rcv, bytes, segs);
	if (ret != RAPID_PC_ADD_OK)
		return;
	f->tx_last = tx;
	f->tx_last32 = tx32;
	f->last_rcv = rcv;
	if (f->obs.tolerant && got && idx + 1 != f->obs.n)
		rapid_rx_count(RAPID_RX_REORDERED);
}

/*
 * One marked data packet of @bytes payload arrived at @now, as @segs
 * segments (more than one: merged by GRO/LRO, rapid_pc_obs_add_segs());
 * f->lock held.
 *
 * With reorder=1 a stream is recorded in any order (rapid_pc_obs_tolerate())
 * and completes when all its N packets are in, or when a newer stream
 * starts.  Packets of the next stream that arrive while the current one
 * is incomplete (its stragglers may still come: netem's jitter, or the new
 * packets overtook it: netem's "reorder") are held, up to RAPID_RX_HELD,
 * and recorded first when their stream starts; the current stream ends
 * when it is complete, when held[] is full, or when a packet of a stream
 * after the held one arrives.  Held packets that arrived before the
 * current stream's last one overtook it: their delay counts as their
 * neighbours' median (rapid_pc_obs_mark_overtook()).  Departures unwrap from the last
 * recorded packet's in either direction.
 */
static void rapid_rx_record(struct rapid_rx_flow *f, const struct rapid_dopt *d,
			    u32 bytes, u32 segs, u64 now)
{
	static const struct rapid_pc_clock clk = { .tick_ns = 1, .bits = 64 };
	bool tol = READ_ONCE(rapid_rx_p_reorder.val);
	u64 tx = d->tx_ns;

	if (f->active && d->stream_id != f->obs.id) {
		if ((s16)(d->stream_id - f->obs.id) < 0) {
			rapid_rx_count(RAPID_RX_STALE);
			return;
		}
		if (f->obs.tolerant && f->obs.got < f->n && segs <= 1 &&
		    d->idx < RAPID_PSTREAM_MAX && f->nheld < RAPID_RX_HELD &&
		    (!f->nheld || (d->stream_id == f->held_id &&
				   d->n == f->held_n)) &&
		    rapid_dopt_unwrap_any(f->tx_last, f->tx_last32, d->tx_ns,
					  &tx)) {
			struct rapid_rx_held *h = &f->held[f->nheld++];

			h->tx = tx;
			h->rcv = now;
			h->bytes = (u16)min_t(u32, bytes, U16_MAX);
			h->idx = (u8)d->idx;
			f->held_id = d->stream_id;
			f->held_n = d->n;
			rapid_rx_count(RAPID_RX_EARLY);
			return;
		}
		rapid_rx_stream_finish(f);	/* a newer stream closes it */
	}
	if (!f->active) {
		u64 prev_rcv = f->last_rcv;
		u32 i;

		/* (held packets of a newer stream stay held) */
		if (f->have_est && (s16)(d->stream_id - f->done_id) <= 0) {
			rapid_rx_count(RAPID_RX_STALE);
			return;
		}
		rapid_pc_obs_init(&f->obs, d->stream_id, &clk, &clk);
		if (tol)
			rapid_pc_obs_tolerate(&f->obs);
		f->n = d->n;
		f->active = 1;
		/*
		 * Held packets first, in their order of arrival; those that
		 * arrived before the last packet of the stream they overtook
		 * are marked (their delay is their neighbours' median).
		 */
		for (i = 0; tol && i < f->nheld && f->held_id == d->stream_id &&
		     f->held_n == d->n; i++) {
			struct rapid_rx_held *h = &f->held[i];

			rapid_rx_add(f, h->idx, h->tx, (u32)h->tx, h->rcv,
				     h->bytes, 1);
			if (h->rcv < prev_rcv) {
				rapid_pc_obs_mark_overtook(&f->obs, h->idx);
				rapid_rx_count(RAPID_RX_REORDERED);
			}
		}
		f->nheld = 0;
	}
	if (d->n != f->n) {
		rapid_rx_count(RAPID_RX_BAD_OPT);
		return;
	}
	f->pkts++;
	tx = d->tx_ns;
	if (f->obs.tolerant) {
		/* from the last recorded packet, in either direction */
		if (f->obs.got && !f->obs.stop &&
		    !rapid_dopt_unwrap_any(f->tx_last, f->tx_last32, d->tx_ns,
					   &tx))
			rapid_pc_obs_stop(&f->obs, RAPID_PC_STOP_CLOCK);
	} else if (d->idx && d->idx == f->obs.n && !f->obs.stop &&
		   !rapid_dopt_unwrap(f->tx_last, f->tx_last32, d->tx_ns, &tx)) {
		/* the next packet in order: its departure unwraps from the last */
		rapid_pc_obs_stop(&f->obs, RAPID_PC_STOP_CLOCK);
	}
	if (segs > 1)
		rapid_rx_count(RAPID_RX_MERGED);
	rapid_rx_add(f, d->idx, tx, d->tx_ns, now, bytes, segs);
	if (f->obs.tolerant ? f->obs.got >= f->n || f->obs.stop :
	    d->idx == f->n - 1)
		rapid_rx_stream_finish(f);
}

static void rapid_rx_on_data(struct rapid_rx_net *rn, struct net *net,
			     const struct sk_buff *skb,
			     const struct rapid_skb_tcp *t,
			     const struct rapid_dopt *d, u64 now)
{
	struct rapid_rx_flow *f;
	struct rapid_rx_key k;

	if (!t->payload || t->th->syn) {
		rapid_rx_count(RAPID_RX_BAD_OPT);
		return;
	}
	rapid_rx_key_fill(&k, skb, t, true);
	f = rapid_rx_flow_get(rn, net, skb, t, &k, now);
	if (!f)
		return;
	WRITE_ONCE(f->seen_ns, now);
	rapid_rx_count(RAPID_RX_PKTS);
	spin_lock_bh(&f->lock);
	rapid_rx_record(f, d, t->payload,
			skb_is_gso(skb) ? max_t(u32, skb_shinfo(skb)->gso_segs, 2) : 1,
			now);
	spin_unlock_bh(&f->lock);
}

static unsigned int rapid_rx_local_in(void *priv, struct sk_buff *skb,
				      const struct nf_hook_state *state)
{
	struct rapid_rx_net *rn;
	struct rapid_skb_tcp t;
	struct rapid_dopt d;
	struct rapid_rx_key k;
	u64 now = ktime_get_ns();	/* first: the arrival time */
	int ret;

	if (rapid_skb_parse_tcp(skb, &t))
		return NF_ACCEPT;
	rn = rapid_rx_pernet(state->net);
	if (t.optlen) {
		ret = rapid_dopt_decode(t.opts, t.optlen, &d);
		if (!ret)
			rapid_rx_on_data(rn, state->net, skb, &t, &d, now);
		else if (ret != RAPID_OPT_ENOENT)
			rapid_rx_count(RAPID_RX_BAD_OPT);
	}
	/* the sender is done (FIN, RST) or starts over on the same 4-tuple */
	if ((t.th->fin || t.th->rst || t.th->syn) && atomic_read(&rn->nflows)) {
		rapid_rx_key_fill(&k, skb, &t, true);
		rapid_rx_flow_close(rn, &k);
	}
	return NF_ACCEPT;
}

/* ---- transmit side: feedback on pure ACKs ---------------------------------- */

static void rapid_rx_feedback(struct rapid_rx_net *rn, struct sk_buff *skb,
			      const struct rapid_skb_tcp *t)
{
	unsigned int acks = READ_ONCE(rapid_rx_p_feedback_acks.val);
	u8 buf[RAPID_OPT_LEN];
	struct rapid_rx_flow *f;
	struct rapid_rx_key k;
	int ret;

	rapid_rx_key_fill(&k, skb, t, false);
	f = rapid_rx_lookup(rn, &k);
	if (!f)
		return;
	spin_lock_bh(&f->lock);
	if (!f->have_est || (acks && f->fed >= acks))
		goto out;
	if (rapid_opt_encode(buf, sizeof(buf), &f->est) != RAPID_OPT_LEN)
		goto out;
	ret = rapid_skb_add_tcp_option(skb, buf, sizeof(buf));
	/*
	 * No room: timestamps and three or four SACK blocks (a path that
	 * reorders or loses) fill the options on most pure ACKs, and their
	 * streams would get no result at all (reorder 25%: 10807 ACKs
	 * skipped, feedback for 172 of 251 streams, docs/rapid-helper.md).
	 */
	if (ret == -ENOSPC && READ_ONCE(rapid_rx_p_sack_trade.val)) {
		ret = rapid_skb_trade_sack_block(skb, buf, sizeof(buf));
		if (!ret)
			rapid_rx_count(RAPID_RX_SACK_TRADED);
	}
	if (!ret) {
		f->fed++;
		rapid_rx_count(RAPID_RX_FEEDBACK);
	} else {
		rapid_rx_count(ret == -ENOSPC ? RAPID_RX_NO_ROOM :
			       RAPID_RX_ADD_FAILED);
	}
out:
	spin_unlock_bh(&f->lock);
}

#ifdef RAPID_LAB
/*
 * LAB ONLY (mark_tx_port): do to any TCP socket connecting to @port what
 * the RAPID sender does to its own: make room for the data option and
 * send one MSS per skb once the connection is established, keep that room
 * under the path MTU at every stream start, and mark every new data
 * segment.  Segment k of the connection (k = data segments sent before it)
 * is index k % 30 of stream k / 30; retransmissions are not marked (the
 * receiver sees a hole).  Runs on the socket's transmit path, socket
 * locked, like tcp_rapid's hook.
 */
static void rapid_rx_mark_test(struct sk_buff *skb,
			       const struct rapid_skb_tcp *t, u16 port)
{
	struct sock *sk = skb->sk;
	struct tcp_sock *tp;
	u32 k;
	int ret;

	if (ntohs(t->th->dest) != port || !sk || !sk_fullsock(sk) ||
	    sk->sk_protocol != IPPROTO_TCP || sk->sk_type != SOCK_STREAM)
		return;
	tp = tcp_sk(sk);
	/*
	 * Once established (the first segment after the SYN, normally the
	 * handshake's ACK): room for the option and one MSS per skb, as
	 * tcp_rapid's .init.  sk_gso_disabled is never cleared: done once.
	 */
	if (!sk->sk_gso_disabled && sk->sk_state == TCP_ESTABLISHED) {
		rapid_tcp_reserve_opt_space(sk, RAPID_DOPT_LEN);
		sk->sk_gso_max_segs = 1;
		sk_gso_disable(sk);
	}
	if (!t->payload || t->th->syn || ntohl(t->th->seq) != tp->snd_nxt)
		return;
	if (rapid_exp_opt_find(t->opts, t->optlen, RAPID_DOPT_EXID,
			       RAPID_DOPT_LEN) >= 0)
		return;			/* tcp_rapid marked it already */
	if (sk->sk_gso_max_segs != 1)	/* a re-route reset it */
		sk->sk_gso_max_segs = 1;
	k = tp->data_segs_out - 1;
	if (k % RAPID_RX_MARK_N == 0)
		rapid_tcp_fit_opt_space(sk, RAPID_DOPT_LEN);
	ret = rapid_skb_mark_data(skb, k / RAPID_RX_MARK_N, k % RAPID_RX_MARK_N,
				  RAPID_RX_MARK_N);
	if (ret == -EMSGSIZE)
		rapid_tcp_fit_opt_space(sk, RAPID_DOPT_LEN);
	rapid_rx_count(ret ? RAPID_RX_MARK_FAILED : RAPID_RX_MARKED);
}

static u16 rapid_rx_mark_port(void)
{
	return READ_ONCE(rapid_rx_p_mark_tx_port.val);
}
#else
static u16 rapid_rx_mark_port(void)
{
	return 0;	/* production build: no lab marker */
}

static void rapid_rx_mark_test(struct sk_buff *skb,
			       const struct rapid_skb_tcp *t, u16 port)
{
}
#endif

static unsigned int rapid_rx_local_out(void *priv, struct sk_buff *skb,
				       const struct nf_hook_state *state)
{
	struct rapid_rx_net *rn = rapid_rx_pernet(state->net);
	u16 port = rapid_rx_mark_port();
	struct rapid_skb_tcp t;
	struct rapid_rx_key k;

	/* every packet the netns sends passes here: no flows, no work */
	if (!atomic_read(&rn->nflows) && !port)
		return NF_ACCEPT;
	if (rapid_skb_parse_tcp(skb, &t))
		return NF_ACCEPT;
	if (port) {
		rapid_rx_mark_test(skb, &t, port);
		if (rapid_skb_parse_tcp(skb, &t))	/* it may have moved */
			return NF_ACCEPT;
	}
	if (t.payload || t.th->syn || !atomic_read(&rn->nflows))
		return NF_ACCEPT;
	if (t.th->rst) {
		rapid_rx_key_fill(&k, skb, &t, false);
		rapid_rx_flow_close(rn, &k);
		return NF_ACCEPT;
	}
	rapid_rx_feedback(rn, skb, &t);
	return NF_ACCEPT;
}

static const struct nf_hook_ops rapid_rx_nf_ops[] = {
	{
		.hook		= rapid_rx_local_in,
		.pf		= NFPROTO_IPV4,
		.hooknum	= NF_INET_LOCAL_IN,
		.priority	= NF_IP_PRI_FIRST,
	},
	{
		.hook		= rapid_rx_local_in,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_LOCAL_IN,
		.priority	= NF_IP6_PRI_FIRST,
	},
	{
		.hook		= rapid_rx_local_out,
		.pf		= NFPROTO_IPV4,
		.hooknum	= NF_INET_LOCAL_OUT,
		.priority	= NF_IP_PRI_LAST,
	},
	{
		.hook		= rapid_rx_local_out,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_LOCAL_OUT,
		.priority	= NF_IP6_PRI_LAST,
	},
};

/* ---- /proc/net/rapid_rx --------------------------------------------------- */

static int rapid_rx_proc_show(struct seq_file *seq, void *v)
{
	struct rapid_rx_net *rn = rapid_rx_pernet(seq_file_single_net(seq));
	u64 now = ktime_get_ns();
	struct rapid_rx_flow *f;
	int b;

	seq_printf(seq, "# flows %d\n", atomic_read(&rn->nflows));
	seq_puts(seq, "# sender receiver pkts streams last_id rule abest_Bps truncated fed idle_ms\n");
	rcu_read_lock();
	for (b = 0; b < ARRAY_SIZE(rn->hash); b++) {
		hlist_for_each_entry_rcu(f, &rn->hash[b], node) {
			struct rapid_opt est;
			u32 pkts, streams, fed;
			bool have;

			spin_lock_bh(&f->lock);
			est = f->est;
			have = f->have_est;
			pkts = f->pkts;
			streams = f->streams;
			fed = f->fed;
			spin_unlock_bh(&f->lock);
			if (f->key.version == 4)
				seq_printf(seq, "%pI4:%u %pI4:%u", &f->key.raddr[0],
					   ntohs(f->key.rport), &f->key.laddr[0],
					   ntohs(f->key.lport));
			else
				seq_printf(seq, "[%pI6c]:%u [%pI6c]:%u", f->key.raddr,
					   ntohs(f->key.rport), f->key.laddr,
					   ntohs(f->key.lport));
			seq_printf(seq, " %u %u %u %s %llu %u %u %llu\n", pkts,
				   streams, have ? est.stream_id : 0,
				   have ? rapid_pc_rule_name(est.rule) : "-",
				   have ? est.abest : 0, have ? est.truncated : 0,
				   fed, div_u64(now - READ_ONCE(f->seen_ns),
						NSEC_PER_MSEC));
		}
	}
	rcu_read_unlock();
	return 0;
}

/* ---- per-netns set-up ------------------------------------------------------- */

static int __net_init rapid_rx_net_init(struct net *net)
{
	struct rapid_rx_net *rn = rapid_rx_pernet(net);
	int ret;

	spin_lock_init(&rn->lock);
	atomic_set(&rn->nflows, 0);
	rn->seed = get_random_u32();
	INIT_DELAYED_WORK(&rn->gc, rapid_rx_gc);
	if (!proc_create_net_single("rapid_rx", 0444, net->proc_net,
				    rapid_rx_proc_show, NULL) &&
	    IS_ENABLED(CONFIG_PROC_FS))
		return -ENOMEM;
	ret = nf_register_net_hooks(net, rapid_rx_nf_ops,
				    ARRAY_SIZE(rapid_rx_nf_ops));
	if (ret)
		remove_proc_entry("rapid_rx", net->proc_net);
	return ret;
}

static void __net_exit rapid_rx_net_exit(struct net *net)
{
	struct rapid_rx_net *rn = rapid_rx_pernet(net);

	/* no hook runs after this returns: nothing adds flows or kicks gc */
	nf_unregister_net_hooks(net, rapid_rx_nf_ops, ARRAY_SIZE(rapid_rx_nf_ops));
	remove_proc_entry("rapid_rx", net->proc_net);
	cancel_delayed_work_sync(&rn->gc);
	rapid_rx_flush(rn, true);
}

static struct pernet_operations rapid_rx_net_ops = {
	.init = rapid_rx_net_init,
	.exit = rapid_rx_net_exit,
	.id = &rapid_rx_net_id,
	.size = sizeof(struct rapid_rx_net),
};

static int __init rapid_rx_register(void)
{
	BUILD_BUG_ON(sizeof(struct rapid_rx_key) % sizeof(u32));
	BUILD_BUG_ON(ARRAY_SIZE(rapid_rx_stat_names) != RAPID_RX_NSTATS);
	BUILD_BUG_ON(RAPID_RX_MARK_N > U8_MAX);
	return register_pernet_subsys(&rapid_rx_net_ops);
}

static void __exit rapid_rx_unregister(void)
{
	unregister_pernet_subsys(&rapid_rx_net_ops);
	rcu_barrier();		/* the flows' kfree_rcu() callbacks */
}

module_init(rapid_rx_register);
module_exit(rapid_rx_unregister);

MODULE_AUTHOR("tcp-cc-lab");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("RAPID receiver helper: p-stream analysis and ABest feedback option (Konda & Kaur, UNC TR08-011)");
