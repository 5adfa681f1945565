/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference the modules care about, and
 * nowhere else.  Built and tested against Debian's 6.12 (the lab kernel)
 * and 7.3, compile-checked against Debian 12's 6.1.
 *
 * Where the upstream version of a change is known, LINUX_VERSION_CODE
 * decides.  Where it is not (changes first seen in Debian's 7.x headers;
 * distributions backport such changes to any version), Kbuild probes the
 * kernel's own headers and passes a COMPAT_* flag (see Kbuild):
 *
 *   COMPAT_HAVE_CWND_EVENT_TX_START   include/net/tcp.h
 *   COMPAT_INET_LOOKUP_NO_HASHINFO    include/net/inet_hashtables.h
 *   COMPAT_INET6_LOOKUP_NO_HASHINFO   include/net/inet6_hashtables.h
 *   COMPAT_TCP_PROBE_CONST_SKB        include/trace/events/tcp.h
 */
#ifndef TCP_CC_COMPAT_H
#define TCP_CC_COMPAT_H

#include <linux/version.h>
#include <net/inet_hashtables.h>
#include <net/inet6_hashtables.h>

/*
 * 6.1 is the oldest kernel built here (per-netns TCP hash tables,
 * net->ipv4.tcp_death_row.hashinfo, came in 6.1).  Say so rather than
 * fail somewhere inside the modules.
 */
#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
#error "tcp-cc: Linux 6.1 or newer is needed (README, Supported kernels)"
#endif

/*
 * cong_control gained (ack, flag) in 6.10 (commit 57bfc7605ca5 "tcp: Add
 * a parameter to cong_control for the ack number").  Define the callback
 * with COMPAT_CONG_CONTROL_ARGS and use only sk and rs inside it.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define COMPAT_CONG_CONTROL_ARGS \
	struct sock *sk, u32 ack, int flag, const struct rate_sample *rs
#else
#define COMPAT_CONG_CONTROL_ARGS \
	struct sock *sk, const struct rate_sample *rs
#endif

/*
 * CA_EVENT_TX_START (the first transmit with nothing in flight: restart
 * after idle).  Where struct tcp_congestion_ops has cwnd_event_tx_start
 * (commit d1e59a469737 "tcp: add cwnd_event_tx_start to
 * tcp_congestion_ops", seen in linux-next in March 2026 and said to be in
 * 7.1-rc1, not checked against the mainline tree here; Debian's 7.2 and
 * 7.3 headers have it), tcp_ca_event() hands this event to that
 * member only and never to cwnd_event: a module that handles it in
 * cwnd_event still compiles and silently never sees it.  A module that
 * needs the event sets .cwnd_event_tx_start under
 * #ifdef COMPAT_HAVE_CWND_EVENT_TX_START and keeps its cwnd_event case for
 * older kernels.
 */

/*
 * The tcp_probe tracepoint's skb became const (Debian's 7.x headers).
 * A probe is registered through a void pointer, so a mismatch would
 * compile; its prototype must still match the tracepoint's (kCFI checks
 * indirect calls by type), hence the probe's skb is COMPAT_TCP_PROBE_SKB *.
 */
#ifdef COMPAT_TCP_PROBE_CONST_SKB
#define COMPAT_TCP_PROBE_SKB const struct sk_buff
#else
#define COMPAT_TCP_PROBE_SKB struct sk_buff
#endif

/*
 * __inet_lookup_established() and __inet6_lookup_established() lost their
 * struct inet_hashinfo * argument: the table comes from the netns
 * ("tcp: Don't pass hashinfo to socket lookup helpers", Kuniyuki
 * Iwashima, posted to net-next in August 2025; the mainline commit and
 * release were not checked here; Debian's 7.x headers have it, 6.12's not).  Before that, pass the netns's TCP table
 * (tcp_hashinfo itself is not exported).  Either way: an RCU-protected
 * lookup that returns a referenced socket (sock_gen_put() it) or NULL.
 */
static inline struct sock *
compat_inet_lookup_established(struct net *net, __be32 saddr, __be16 sport,
			       __be32 daddr, u16 hnum, int dif, int sdif)
{
#ifdef COMPAT_INET_LOOKUP_NO_HASHINFO
	return __inet_lookup_established(net, saddr, sport, daddr, hnum, dif,
					 sdif);
#else
	return __inet_lookup_established(net, net->ipv4.tcp_death_row.hashinfo,
					 saddr, sport, daddr, hnum, dif, sdif);
#endif
}

#if IS_ENABLED(CONFIG_IPV6)
static inline struct sock *
compat_inet6_lookup_established(struct net *net, const struct in6_addr *saddr,
				__be16 sport, const struct in6_addr *daddr,
				u16 hnum, int dif, int sdif)
{
#ifdef COMPAT_INET6_LOOKUP_NO_HASHINFO
	return __inet6_lookup_established(net, saddr, sport, daddr, hnum, dif,
					  sdif);
#else
	return __inet6_lookup_established(net, net->ipv4.tcp_death_row.hashinfo,
					  saddr, sport, daddr, hnum, dif, sdif);
#endif
}
#endif

/*
 * Read in the 7.3 headers and source and found to keep their meaning for
 * these modules (no code here): cong_control(sk, ack, flag, rs) is still
 * called at the end of ACK processing; tcp_probe still fires first in
 * tcp_rcv_established(); min_tso_segs, sndbuf_expand,
 * get_info, in_ack_event, pkts_acked, set_state, undo_cwnd and the other
 * cwnd_event events (CWND_RESTART, COMPLETE_CWR, LOSS, ECN_*) are called as
 * in 6.12; nf_hookfn and nf_register_net_hooks() are unchanged (struct
 * nf_hook_ops gained leading members: designated initialisers only).
 * Changed, harmless here: release() runs only for a socket whose init()
 * ran (icsk_ca_initialized; our init/release pairs allocate and free
 * only there), and TCP small queues now cap even paced sockets at
 * net.ipv4.tcp_limit_output_bytes (4 MB by default, far above RAPID's
 * rate >> pacing_shift at lab rates).
 */

#endif /* TCP_CC_COMPAT_H */
