// SPDX-License-Identifier: GPL-2.0
/*
 * PLACEHOLDER, NOT RAPID YET.
 *
 * This registers "rapid" with Reno's behaviour (tcp_reno_cong_avoid,
 * tcp_reno_ssthresh, tcp_reno_undo_cwnd) so that the build, the lab VM and
 * the tests can be exercised end to end.  The real algorithm replaces this
 * file in its own issue.
 */
#include <linux/module.h>
#include <net/tcp.h>

static struct tcp_congestion_ops tcp_rapid_placeholder __read_mostly = {
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.owner		= THIS_MODULE,
	.name		= "rapid",
};

static int __init tcp_rapid_register(void)
{
	return tcp_register_congestion_control(&tcp_rapid_placeholder);
}

static void __exit tcp_rapid_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_rapid_placeholder);
}

module_init(tcp_rapid_register);
module_exit(tcp_rapid_unregister);

MODULE_AUTHOR("tcp-cc-lab");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("PLACEHOLDER: Reno behaviour registered as rapid; not the RAPID algorithm yet");
