/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event counters behind a read-only "stats" module parameter, shared by
 * tcp_rapid and tcp_rapid_rx.  The counters are per-CPU arrays
 * (DEFINE_PER_CPU(unsigned long[N], name)), incremented with
 * this_cpu_inc() and summed over all CPUs when the parameter is read; each
 * prints as one "name value" line.  A write is refused, also at insmod:
 * parse_one() calls ->set without checking it, so a get-only
 * kernel_param_ops would be called through NULL by "insmod ... stats=1".
 */
#ifndef _CC_STATS_H
#define _CC_STATS_H

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>

/* Counter i of the per-CPU counter array pcpu, over all CPUs. */
#define cc_stats_sum(pcpu, i) ({				\
	unsigned long __sum = 0;				\
	int __cpu;						\
	for_each_possible_cpu(__cpu)				\
		__sum += per_cpu(pcpu, __cpu)[i];		\
	__sum;							\
})

/*
 * Append "names[i] v[i]" lines, i < n, to a parameter's PAGE_SIZE buffer
 * that holds len bytes; returns the new length.
 */
static inline int cc_stats_print(char *buf, int len, const char * const *names,
				 const unsigned long *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%s %lu\n",
				 names[i], v[i]);
	return len;
}

/* ->set of a read-only parameter: refused, at insmod too. */
static inline int cc_stats_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

#endif /* _CC_STATS_H */
