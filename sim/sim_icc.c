// SPDX-License-Identifier: GPL-2.0
/*
 * ICC in the scale engine (docs/sim.md): icc_math.h unchanged, driven as
 * tcp_icc.c drives it, one function for one function:
 *
 *   icc_param_set(), icc_cfg  the module parameters (same names, defaults,
 *                             static ranges, and the cross-check of
 *                             icc_param_check(): Smin <= Smax)
 *   icc_init()                icc_init()
 *   icc_on_ack()              icc_cong_avoid() (slow start is Reno's)
 *   icc_ssthresh()            icc_ssthresh()
 *   icc_on_rto()              icc_set_state(TCP_CA_Loss): forget Wmax
 *
 * Not mirrored: icc_undo_cwnd() (the engine has no undo), get_info and
 * the tracepoints.  tcp_is_cwnd_limited() is true: the application is
 * always backlogged and the engine calls on_ack only on ACKs that move
 * data, as tcp_may_raise_cwnd() lets cong_avoid run.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "../icc_math.h"

struct icc {
	u64 wmax, prior_wmax, acc;
};

static struct icc_params icc_cfg = {
	.low_window = ICC_DEF_LOW_WINDOW, .smax = ICC_DEF_SMAX,
	.smin_milli = ICC_DEF_SMIN_MILLI, .b_milli = ICC_DEF_B_MILLI,
	.a = ICC_DEF_A, .fast_convergence = true,
};

/* tcp_icc.c's ICC_PARAM() lines: name, id, static [lo, hi] */
static const struct {
	const char *name;
	int id;			/* enum icc_param; -1: fast_convergence */
	unsigned lo, hi;
} icc_params_tab[] = {
	{ "low_window", ICC_PARAM_LOW_WINDOW, 2, 1000000 },
	{ "smax", ICC_PARAM_SMAX, 1, 1000000 },
	{ "smin_milli", ICC_PARAM_SMIN_MILLI, 1, 1000000000 },
	{ "b_milli", ICC_PARAM_B_MILLI, 1, 500 },
	{ "a", ICC_PARAM_A, 2, 16 },
	{ "fast_convergence", -1, 0, 1 },
};

int icc_param_set(const char *name, unsigned val)
{
	struct icc_params set = icc_cfg;
	size_t i;
	u32 lo, hi;

	for (i = 0; i < sizeof(icc_params_tab) / sizeof(icc_params_tab[0]); i++) {
		if (strcmp(icc_params_tab[i].name, name))
			continue;
		if (val < icc_params_tab[i].lo || val > icc_params_tab[i].hi)
			return -2;
		if (icc_params_tab[i].id < 0) {
			icc_cfg.fast_convergence = val;
			return 0;
		}
		/* cc_param_cross_check(): the new value with the others */
		icc_param_store(&set, (enum icc_param)icc_params_tab[i].id, val);
		icc_param_bounds((enum icc_param)icc_params_tab[i].id, &set, &lo, &hi);
		if (val < lo || val > hi || !icc_params_valid(&set))
			return -2;
		icc_cfg = set;
		return 0;
	}
	return -1;
}

static void *icc_alloc(void)
{
	return calloc(1, sizeof(struct icc));
}

static void icc_init(struct flow *f)
{
	struct icc *ca = f->ca;

	ca->wmax = 0;
	ca->acc = 0;
	ca->prior_wmax = 0;
	f->cwnd = 10;
	f->ssthresh = UINT32_MAX;
}

static void icc_on_ack(struct flow *f, uint32_t acked, const struct rate_sample *rs)
{
	struct icc *ca = f->ca;
	u32 cwnd, grow;
	u64 inc;

	(void)rs;
	if (!acked)
		return;
	if (f->cwnd < f->ssthresh) {
		acked = slow_start(f, acked);
		if (!acked)
			return;
	}
	cwnd = f->cwnd;
	inc = icc_increment(cwnd, ca->wmax, &icc_cfg);
	grow = icc_ack_step(&ca->acc, cwnd, inc, acked);
	if (grow)
		f->cwnd = (u64)cwnd + grow < UINT32_MAX ? cwnd + grow : UINT32_MAX;
}

static uint32_t icc_ssthresh(struct flow *f)
{
	struct icc *ca = f->ca;

	ca->prior_wmax = ca->wmax;
	ca->wmax = icc_loss_wmax(f->cwnd, ca->wmax, &icc_cfg);
	ca->acc = 0;
	return icc_loss_cwnd(f->cwnd, &icc_cfg);
}

static void icc_state(struct flow *f, int s)
{
	(void)f;
	(void)s;
}

/* icc_set_state(TCP_CA_Loss): icc_reset() */
static void icc_on_rto(struct flow *f)
{
	struct icc *ca = f->ca;

	ca->wmax = 0;
	ca->acc = 0;
}

const struct cc_ops cc_icc = {
	.name = "icc", .alloc = icc_alloc, .init = icc_init,
	.on_ack = icc_on_ack, .ssthresh = icc_ssthresh,
	.set_state = icc_state, .on_rto = icc_on_rto,
};
