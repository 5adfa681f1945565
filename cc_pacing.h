/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Setting sk_pacing_rate from a congestion control that paces by rate
 * (tcp_rapid, tcp_sabul; kernel only).
 */
#ifndef _CC_PACING_H
#define _CC_PACING_H

#include <linux/kernel.h>
#include <net/sock.h>

/*
 * A pacing rate in B/s that TCP honours: at most sk_max_pacing_rate, never
 * 0 or ~0UL ("not paced").
 */
static inline void cc_set_pacing_rate(struct sock *sk, u64 rate)
{
	u64 max_rate = READ_ONCE(sk->sk_max_pacing_rate);

	if (rate > max_rate)
		rate = max_rate;
	if (rate >= ULONG_MAX)
		rate = ULONG_MAX - 1;
	if (!rate)
		rate = 1;
	WRITE_ONCE(sk->sk_pacing_rate, (unsigned long)rate);
}

#endif /* _CC_PACING_H */
