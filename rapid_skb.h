/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skb helpers shared by RAPID's sender (tcp_rapid.c) and its receiver
 * helper (tcp_rapid_rx.c): locate a TCP segment's options, append a TCP
 * option to an outgoing segment from a netfilter LOCAL_OUT hook, and mark a
 * data segment with RAPID's data option (rapid_pathchirp.h).  Kernel only.
 *
 * Where they may be called: netfilter hooks that see the packet with
 * skb->data at the IP header, i.e. NF_INET_LOCAL_OUT (the stack has built
 * the whole packet and filled tot_len / payload_len, the IPv4 header
 * checksum and, for CHECKSUM_PARTIAL, the TCP pseudo-header seed) and
 * NF_INET_LOCAL_IN / PRE_ROUTING for reading.  IPv4 (with or without IP
 * options, unfragmented) and IPv6 whose next header is TCP (no extension
 * headers); anything else is refused with an error, never half-modified.
 *
 * Appending an option (rapid_skb_add_tcp_option()): the option goes at the
 * end of the TCP header, before the payload, whether the payload is linear
 * or in page fragments.  The IP and TCP headers move @len bytes towards the
 * head (skb_cow_head() + skb_push() + memmove()), the option is written where
 * the old header ended, then doff, tot_len + IPv4 header checksum or
 * payload_len, the network/transport header offsets and the TCP checksum
 * are fixed: for CHECKSUM_PARTIAL the pseudo-header seed is recomputed for
 * the new length and csum_start follows the moved header; otherwise the
 * full checksum is computed in software.  Every check that can fail runs
 * before the first write, so on error the packet is unchanged (apart from
 * a possible re-allocation of its head by pskb_may_pull()/skb_cow_head(),
 * which keeps its contents).
 *
 * Pointers into the skb (iph, th, option area) taken before a call that may
 * re-allocate the head (rapid_skb_parse_tcp(), rapid_skb_add_tcp_option(),
 * rapid_skb_mark_data()) are stale afterwards: re-read them.
 */
#ifndef RAPID_SKB_H
#define RAPID_SKB_H

#ifndef __KERNEL__
#error "kernel-only header"
#endif

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <linux/timekeeping.h>
#include <net/dst.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/tcp.h>

#include "rapid_pathchirp.h"

/* Largest TCP header: doff is 4 bits of 32-bit words. */
#define RAPID_SKB_TCP_HDR_MAX	60

/* A TCP segment as found in an skb (all offsets from skb->data). */
struct rapid_skb_tcp {
	struct tcphdr *th;	/* TCP header, linear */
	const u8 *opts;		/* TCP options, linear, optlen bytes */
	unsigned int optlen;	/* options bytes: doff * 4 - 20, [0, 40] */
	unsigned int iphlen;	/* IP header bytes: ihl * 4, or 40 (IPv6) */
	unsigned int hdrlen;	/* IP + TCP header bytes */
	unsigned int payload;	/* TCP payload bytes, from the IP length */
	u8 version;		/* 4 or 6 */
};

/*
 * Parse the IPv4/IPv6 + TCP headers of @skb (skb->data at the IP header)
 * and make them linear.  Returns 0, or -EPROTONOSUPPORT (not TCP, IPv6
 * extension headers, not IP), -EINVAL (malformed, a fragment, lengths that
 * disagree with the skb), -ENOMEM (pull failed).
 */
static inline int rapid_skb_parse_tcp(struct sk_buff *skb,
				      struct rapid_skb_tcp *t)
{
	unsigned int iphlen, iplen, thlen;
	const struct tcphdr *th;

	if (skb_network_offset(skb) != 0 || !pskb_may_pull(skb, 1))
		return -EINVAL;
	t->version = skb->data[0] >> 4;
	if (t->version == 4) {
		const struct iphdr *iph;

		if (!pskb_may_pull(skb, sizeof(struct iphdr)))
			return -EINVAL;
		iph = (const struct iphdr *)skb->data;
		if (iph->protocol != IPPROTO_TCP)
			return -EPROTONOSUPPORT;
		iphlen = iph->ihl * 4;
		iplen = ntohs(iph->tot_len);
		if (iphlen < sizeof(struct iphdr) || ip_is_fragment(iph))
			return -EINVAL;
	} else if (t->version == 6) {
		const struct ipv6hdr *ip6h;

		if (!pskb_may_pull(skb, sizeof(struct ipv6hdr)))
			return -EINVAL;
		ip6h = (const struct ipv6hdr *)skb->data;
		if (ip6h->nexthdr != IPPROTO_TCP)
			return -EPROTONOSUPPORT;
		iphlen = sizeof(struct ipv6hdr);
		iplen = ntohs(ip6h->payload_len);
		if (!iplen)		/* jumbogram / BIG TCP */
			return -EINVAL;
		iplen += iphlen;
	} else {
		return -EPROTONOSUPPORT;
	}
	if (iplen > skb->len || iplen < iphlen + sizeof(struct tcphdr) ||
	    !pskb_may_pull(skb, iphlen + sizeof(struct tcphdr)))
		return -EINVAL;
	th = (const struct tcphdr *)(skb->data + iphlen);
	thlen = th->doff * 4;
	if (thlen < sizeof(struct tcphdr) || iplen < iphlen + thlen)
		return -EINVAL;
	if (!pskb_may_pull(skb, iphlen + thlen))
		return -ENOMEM;
	/* the pulls may have moved the head: pointers from here on */
	t->th = (struct tcphdr *)(skb->data + iphlen);
	t->opts = (const u8 *)(t->th + 1);
	t->optlen = thlen - sizeof(struct tcphdr);
	t->iphlen = iphlen;
	t->hdrlen = iphlen + thlen;
	t->payload = iplen - t->hdrlen;
	return 0;
}

/* TCP option kinds that sign the header: a changed header fails them. */
#define RAPID_SKB_TCPOPT_MD5SIG	19	/* RFC 2385 */
#define RAPID_SKB_TCPOPT_AO	29	/* RFC 5925 */

/* Does the options area carry an MD5 or AO signature (RFC 2385, 5925)? */
static inline bool rapid_skb_tcp_signed(const u8 *opts, unsigned int optlen)
{
	unsigned int i = 0;

	while (i < optlen) {
		u8 kind = opts[i];

		if (kind == RAPID_OPT_KIND_EOL)
			break;
		if (kind == RAPID_OPT_KIND_NOP) {
			i++;
			continue;
		}
		if (kind == RAPID_SKB_TCPOPT_MD5SIG || kind == RAPID_SKB_TCPOPT_AO)
			return true;
		if (optlen - i < 2 || opts[i + 1] < 2)
			break;
		i += opts[i + 1];
	}
	return false;
}

/*
 * Fix the TCP checksum after the segment's header or length changed: the
 * pseudo-header seed for CHECKSUM_PARTIAL (as tcp_v4_send_check() /
 * tcp_v6_send_check() write it), else the full checksum in software.
 */
static inline void rapid_skb_fix_tcp_csum(struct sk_buff *skb,
					  const struct rapid_skb_tcp *t)
{
	struct tcphdr *th = tcp_hdr(skb);
	unsigned int tcplen = skb->len - t->iphlen;
	__wsum sum;

	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		skb->csum_start = skb_transport_header(skb) - skb->head;
		skb->csum_offset = offsetof(struct tcphdr, check);
		if (t->version == 4)
			th->check = ~tcp_v4_check(tcplen, ip_hdr(skb)->saddr,
						  ip_hdr(skb)->daddr, 0);
		else
			th->check = ~tcp_v6_check(tcplen, &ipv6_hdr(skb)->saddr,
						  &ipv6_hdr(skb)->daddr, 0);
		return;
	}
	th->check = 0;
	sum = skb_checksum(skb, t->iphlen, tcplen, 0);
	skb->ip_summed = CHECKSUM_NONE;
	if (t->version == 4)
		th->check = tcp_v4_check(tcplen, ip_hdr(skb)->saddr,
					 ip_hdr(skb)->daddr, sum);
	else
		th->check = tcp_v6_check(tcplen, &ipv6_hdr(skb)->saddr,
					 &ipv6_hdr(skb)->daddr, sum);
}

/*
 * The checks every change of an outgoing segment's TCP header starts with:
 * not GSO or encapsulated, IPv4/IPv6 + TCP as the stack built it (lengths
 * that agree with the skb), not signed.  Fills @t; 0 or a negative errno.
 */
static inline int rapid_skb_tcp_editable(struct sk_buff *skb,
					 struct rapid_skb_tcp *t)
{
	int err;

	if (skb_is_gso(skb) || skb->encapsulation)
		return -EOPNOTSUPP;
	err = rapid_skb_parse_tcp(skb, t);
	if (err)
		return err;
	if (t->hdrlen + t->payload != skb->len)
		return -EINVAL;
	if (rapid_skb_tcp_signed(t->opts, t->optlen))
		return -EPERM;
	return 0;
}

/*
 * Append @len bytes of TCP option(s) @opt (a multiple of 4, at most 40) at
 * the end of the TCP header of an outgoing segment (skb->data at the IP
 * header: a LOCAL_OUT hook).  Returns 0, or a negative errno with the packet
 * unchanged:
 *   -EINVAL          bad @len, or the packet is not IPv4/IPv6 + TCP as built
 *                    by the stack (see rapid_skb_parse_tcp())
 *   -EPROTONOSUPPORT not TCP, or IPv6 extension headers
 *   -EOPNOTSUPP      GSO (the option would be copied to every segment) or
 *                    an encapsulated packet
 *   -ENOSPC          the TCP header would exceed 60 bytes (doff 15)
 *   -EPERM           the segment is signed (TCP-MD5, TCP-AO option): any
 *                    change to its header would fail the peer's check
 *   -EMSGSIZE        the packet would exceed the route's MTU
 *   -ENOMEM          the head could not be made writable
 */
static inline int rapid_skb_add_tcp_option(struct sk_buff *skb, const u8 *opt,
					   unsigned int len)
{
	const struct dst_entry *dst = skb_dst(skb);
	struct rapid_skb_tcp t;
	int err;

	if (!opt || !len || len % 4 || len > RAPID_SKB_TCP_HDR_MAX - sizeof(struct tcphdr))
		return -EINVAL;
	err = rapid_skb_tcp_editable(skb, &t);
	if (err)
		return err;
	if (t.hdrlen - t.iphlen + len > RAPID_SKB_TCP_HDR_MAX)
		return -ENOSPC;
	if (skb->len + len > IP_MAX_MTU || (dst && skb->len + len > dst_mtu(dst)))
		return -EMSGSIZE;
	err = skb_cow_head(skb, len);
	if (err)
		return err;

	/* No failure from here on.  Headers move len bytes towards the head. */
	skb_push(skb, len);
	memmove(skb->data, skb->data + len, t.hdrlen);
	memcpy(skb->data + t.hdrlen, opt, len);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, t.iphlen);
	tcp_hdr(skb)->doff += len / 4;
	if (t.version == 4) {
		struct iphdr *iph = ip_hdr(skb);

		iph->tot_len = htons(skb->len);
		ip_send_check(iph);
	} else {
		ipv6_hdr(skb)->payload_len = htons(skb->len - t.iphlen);
	}
	rapid_skb_fix_tcp_csum(skb, &t);
	return 0;
}

/*
 * Mark an outgoing data segment with RAPID's data option (12 bytes, see
 * rapid_pathchirp.h): packet @idx (0-based) of the @n-packet p-stream
 * @stream_id (its low 16 bits go on the wire), departure time from
 * skb->tstamp (TCP's EDT departure time, CLOCK_MONOTONIC ns, set before
 * LOCAL_OUT; ktime_get_ns() if unset).  The sender must have made room
 * (MSS lowered by RAPID_DOPT_LEN), else -EMSGSIZE for full-sized segments.
 * Returns 0 or a negative errno as rapid_skb_add_tcp_option() (-EINVAL
 * also for idx >= n or n > 255); the segment is unchanged on error.
 */
static inline int rapid_skb_mark_data(struct sk_buff *skb, u32 stream_id,
				      u32 idx, u32 n)
{
	u8 buf[RAPID_DOPT_LEN];
	struct rapid_dopt d;
	u64 t;

	if (idx >= n || n > U8_MAX)
		return -EINVAL;
	t = ktime_to_ns(skb->tstamp);
	if (!t)
		t = ktime_get_ns();
	d.tx_ns = (u32)t;
	d.stream_id = (u16)stream_id;
	d.idx = (u8)idx;
	d.n = (u8)n;
	if (rapid_dopt_encode(buf, sizeof(buf), &d) != RAPID_DOPT_LEN)
		return -EINVAL;
	return rapid_skb_add_tcp_option(skb, buf, sizeof(buf));
}

/*
 * Keep @len bytes of room under the path MTU last synced into the socket
 * (icsk_pmtu_cookie) when the path, not the peer's MSS, limits the segment
 * size (a PMTU below the peer's MSS + 40): move mss_clamp below the path
 * MTU by @len, so that tcp_sync_mss() keeps the room at every later
 * recomputation (it runs again e.g. whenever the peer's window grows), and
 * lower mss_cache to match.  Cheap; call it with the socket locked where
 * segments are built, e.g. when a p-stream starts and after
 * rapid_skb_mark_data() returned -EMSGSIZE.
 */
static inline void rapid_tcp_fit_opt_space(struct sock *sk, unsigned int len)
{
	const struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	int clamp, mss;

	if (!icsk->icsk_pmtu_cookie)
		return;
	/* __tcp_mtu_to_mss(): pmtu - network header - 20 bytes, then clamped */
	clamp = (int)icsk->icsk_pmtu_cookie - icsk->icsk_af_ops->net_header_len -
		(int)sizeof(struct tcphdr) - (int)len;
	mss = clamp - icsk->icsk_ext_hdr_len -
	      (tp->tcp_header_len - (int)sizeof(struct tcphdr));
	if (mss < TCP_MIN_MSS)
		return;
	if (tp->rx_opt.mss_clamp > clamp)
		tp->rx_opt.mss_clamp = clamp;
	if (tp->mss_cache > mss)
		tp->mss_cache = mss;
}

/*
 * Room for @len more bytes of TCP options on every segment of TCP socket
 * @sk (socket locked, connection established, e.g. from .init): lower the
 * sending MSS by @len now (mss_cache) and for every later recomputation
 * (mss_clamp: the peer's MSS, which tcp_sync_mss() never exceeds; MTU
 * probing's upper bound follows it).  tcp_sync_mss() itself is not
 * exported by kernels built with IPV6=y since 6.12 (EXPORT_IPV6_MOD), so
 * mss_cache is lowered directly: exactly what tcp_sync_mss() would compute
 * with the lower clamp when the clamp is the limit; when the path MTU is,
 * rapid_tcp_fit_opt_space() moves the clamp under it.
 * Returns the socket's previous mss_clamp, to hand back to
 * rapid_tcp_release_opt_space(), or 0, changing nothing, when the MSS would
 * drop below TCP_MIN_MSS.
 */
static inline u16 rapid_tcp_reserve_opt_space(struct sock *sk, unsigned int len)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u16 old = tp->rx_opt.mss_clamp;

	if (old < TCP_MIN_MSS + len || tp->mss_cache < TCP_MIN_MSS + len)
		return 0;
	tp->rx_opt.mss_clamp -= len;
	tp->mss_cache -= len;
	if (icsk->icsk_mtup.search_high > len)
		icsk->icsk_mtup.search_high -= len;
	rapid_tcp_fit_opt_space(sk, len);
	return old;
}

/*
 * Give the socket back what rapid_tcp_reserve_opt_space(@len) took (@old_clamp
 * as it returned; 0 does nothing), e.g. in .release of a socket that
 * switches to another congestion control: mss_clamp, MTU probing's upper
 * bound (up to what the clamp allows) and mss_cache, which
 * tcp_sync_mss() (not exported, see above) would otherwise recompute only
 * at the next path MTU change or window growth.  mss_cache grows by @len
 * but never above what the last synced path MTU (icsk_pmtu_cookie) or the
 * restored clamp allow, __tcp_mtu_to_mss()'s arithmetic; tcp_sync_mss()'s
 * other bounds only ever lower it, so mss_cache already carries them.
 */
static inline void rapid_tcp_release_opt_space(struct sock *sk, u16 old_clamp,
					       unsigned int len)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	int opts = tp->tcp_header_len - (int)sizeof(struct tcphdr);
	int hdrs = icsk->icsk_af_ops->net_header_len + (int)sizeof(struct tcphdr);
	int mss;

	if (!old_clamp || old_clamp <= tp->rx_opt.mss_clamp)
		return;
	tp->rx_opt.mss_clamp = old_clamp;
	if (icsk->icsk_mtup.search_high + len <= old_clamp + hdrs)
		icsk->icsk_mtup.search_high += len;
	mss = min_t(int, tp->mss_cache + len, old_clamp - icsk->icsk_ext_hdr_len - opts);
	if (icsk->icsk_pmtu_cookie)
		mss = min_t(int, mss, (int)icsk->icsk_pmtu_cookie - hdrs -
			    icsk->icsk_ext_hdr_len - opts);
	if (mss > (int)tp->mss_cache)
		tp->mss_cache = mss;
}

/* A SACK option (RFC 2018): kind, length, then 8-byte blocks. */
#define RAPID_SKB_SACK_BASE	2
#define RAPID_SKB_SACK_BLOCK	8

/*
 * Where there is no room left to append (a pure ACK whose timestamps and
 * three or four SACK blocks fill the 40 bytes of options): put the
 * RAPID_SKB_SACK_BLOCK bytes of option(s) @opt in place of the SACK
 * option's last block, the oldest (RFC 2018 puts the newest first and
 * repeats older blocks in later ACKs for redundancy).  The header keeps its
 * length: the options after the SACK option move up by one block, @opt
 * goes at the end of the options area, the SACK length shrinks by one
 * block, and the TCP checksum is fixed.  Only a SACK option of at least
 * two blocks gives one up.  Returns 0, or a negative errno with the packet
 * unchanged (apart from a possible re-allocation of its head):
 *   -EINVAL, -EPROTONOSUPPORT, -EOPNOTSUPP, -EPERM, -ENOMEM as
 *                    rapid_skb_add_tcp_option()
 *   -ENOSPC          no SACK option of two blocks or more
 */
static inline int rapid_skb_trade_sack_block(struct sk_buff *skb,
					     const u8 *opt, unsigned int len)
{
	struct rapid_skb_tcp t;
	unsigned int slen;
	int err, sack;
	u8 *opts;

	if (!opt || len != RAPID_SKB_SACK_BLOCK)
		return -EINVAL;
	err = rapid_skb_tcp_editable(skb, &t);
	if (err)
		return err;
	sack = rapid_tcp_opt_find(t.opts, t.optlen, 0, TCPOPT_SACK);
	if (sack == RAPID_OPT_ENOENT)
		return -ENOSPC;
	if (sack < 0)
		return -EINVAL;	/* a malformed options area */
	slen = t.opts[sack + 1];
	if (slen < RAPID_SKB_SACK_BASE + 2 * RAPID_SKB_SACK_BLOCK ||
	    (slen - RAPID_SKB_SACK_BASE) % RAPID_SKB_SACK_BLOCK)
		return -ENOSPC;
	err = skb_ensure_writable(skb, t.hdrlen);
	if (err)
		return err;
	err = rapid_skb_parse_tcp(skb, &t);	/* the head may have moved */
	if (err)
		return err;

	/* No failure from here on. */
	opts = (u8 *)t.opts;
	memmove(opts + sack + slen - RAPID_SKB_SACK_BLOCK, opts + sack + slen,
		t.optlen - sack - slen);
	memcpy(opts + t.optlen - RAPID_SKB_SACK_BLOCK, opt, len);
	opts[sack + 1] = slen - RAPID_SKB_SACK_BLOCK;
	rapid_skb_fix_tcp_csum(skb, &t);
	return 0;
}

#endif /* RAPID_SKB_H */
