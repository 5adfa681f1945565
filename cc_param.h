/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bounded module parameters: the one way all five modules declare a
 * tunable (kernel only).
 *
 * A tunable is a struct cc_param: its value and its static bounds.
 * CC_PARAM() defines one, registers it with module_param_cb() and writes
 * its MODULE_PARM_DESC from the same numbers, so a range is spelt once:
 *
 *	CC_PARAM(n, rapid_p_n, 0644, 30, 2, 128, "packets",
 *		 "steady-state p-stream length N");
 *
 * defines rapid_p_n (value 30) and describes n as "steady-state p-stream
 * length N (packets); 2..128, default 30".  Default and bounds are decimal
 * literals, for the description to spell them; where a pure header names
 * the same numbers (its unit tests use them), the module static_assert()s
 * that they agree.  Readers use READ_ONCE(var.val) and see either value.
 *
 * The setter ends in the in-tree param_set_uint_minmax() (as tcp_dctcp.c)
 * and says in the kernel log what it refuses, naming the parameter:
 *
 *	not an unsigned integer		kstrtouint()'s errno
 *	"NAME=V refused: must be in [LO, HI] UNIT"	-EINVAL
 *
 * CC_PARAM_OFF() also accepts 0, meaning "off"; CC_PARAM_OFF_POW2() takes
 * 0 or a power of two.  An optional cross-check (.check, with .id naming
 * the parameter to it) sees the new value together with the current
 * values of the others: it sets [LO, HI] from them and refuses a set that
 * would be inconsistent (ICC's Smin <= Smax, PERT's T1 < T2, SABUL's
 * k2 * alpha <= 0.5, the rate floors below the ceilings).  Setters run
 * under the kernel's parameter lock, so two of them never race.
 *
 * Only a module source includes this, after its pr_fmt: the messages carry
 * the module's name.
 */
#ifndef _CC_PARAM_H
#define _CC_PARAM_H

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>

#define CC_PARAM_ZERO_OFF	BIT(0)	/* 0 is accepted too: "off" */
#define CC_PARAM_POW2		BIT(1)	/* a power of two (or 0 if ZERO_OFF) */

struct cc_param {
	unsigned int val;	/* current value; kp->arg points here */
	unsigned int min;	/* static bounds, inclusive */
	unsigned int max;
	const char *unit;	/* for the refusal message and the description */
	unsigned int flags;	/* CC_PARAM_* */
	int id;			/* the module's index of it, for .check */
	/*
	 * Cross-check of value @v with the others' current values: sets
	 * [*lo, *hi] (on entry min and max) and returns false when the whole
	 * set would be invalid.
	 */
	bool (*check)(const struct cc_param *p, unsigned int v,
		      unsigned int *lo, unsigned int *hi);
};

/* What "must be ..." says before "[lo, hi]". */
static inline const char *cc_param_range_words(const struct cc_param *p)
{
	if (p->flags & CC_PARAM_POW2)
		return p->flags & CC_PARAM_ZERO_OFF ?
		       "0 (off) or a power of two in " : "a power of two in ";
	return p->flags & CC_PARAM_ZERO_OFF ? "0 (off) or " : "in ";
}

static inline int cc_param_set(const char *val,
			       const struct kernel_param *kp)
{
	const struct cc_param *p = container_of((unsigned int *)kp->arg,
						struct cc_param, val);
	unsigned int v, lo = p->min, hi = p->max;
	bool ok;
	int ret;

	ret = kstrtouint(val, 0, &v);
	if (ret) {
		pr_warn("%s: '%s' is not an unsigned integer\n", kp->name, val);
		return ret;
	}
	if (!v && (p->flags & CC_PARAM_ZERO_OFF))
		return param_set_uint_minmax(val, kp, 0, 0);
	ok = !p->check || p->check(p, v, &lo, &hi);
	if (!ok || v < lo || v > hi ||
	    ((p->flags & CC_PARAM_POW2) && !is_power_of_2(v))) {
		pr_warn("%s=%u refused: must be %s[%u, %u] %s\n", kp->name, v,
			cc_param_range_words(p), lo, hi, p->unit);
		return -EINVAL;
	}
	return param_set_uint_minmax(val, kp, lo, hi);
}

static const struct kernel_param_ops cc_param_ops = {
	.set = cc_param_set,
	.get = param_get_uint,
};

#define __CC_PARAM(_name, _var, _perm, _def, _lo, _hi, _flags, _words,	\
		   _unit, _text, ...)					\
	static struct cc_param _var __read_mostly = {			\
		.val = _def, .min = _lo, .max = _hi, .unit = _unit,	\
		.flags = _flags, ##__VA_ARGS__				\
	};								\
	module_param_cb(_name, &cc_param_ops, &_var.val, _perm);	\
	MODULE_PARM_DESC(_name, _text " (" _unit "); " _words #_lo ".."	\
			 #_hi ", default " #_def)

/*
 * CC_PARAM(name, var, perm, default, lo, hi, unit, text[, .check = fn,
 * .id = i]): module parameter @name, an unsigned int in [lo, hi] kept in
 * struct cc_param @var.
 */
#define CC_PARAM(_name, _var, _perm, _def, _lo, _hi, _unit, _text, ...)	\
	__CC_PARAM(_name, _var, _perm, _def, _lo, _hi, 0, "", _unit,	\
		   _text, ##__VA_ARGS__)
/* The same, and 0 is accepted too (it switches the feature off). */
#define CC_PARAM_OFF(_name, _var, _perm, _def, _lo, _hi, _unit, _text, ...) \
	__CC_PARAM(_name, _var, _perm, _def, _lo, _hi, CC_PARAM_ZERO_OFF, \
		   "0 (off) or ", _unit, _text, ##__VA_ARGS__)
/* 0 (off) or a power of two in [lo, hi]. */
#define CC_PARAM_OFF_POW2(_name, _var, _perm, _def, _lo, _hi, _unit, _text) \
	__CC_PARAM(_name, _var, _perm, _def, _lo, _hi,			\
		   CC_PARAM_ZERO_OFF | CC_PARAM_POW2,			\
		   "0 (off) or a power of two in ", _unit, _text)

/*
 * cc_param_cross_check(type, load, store, bounds, valid, p, v, lo, hi): the
 * body of a .check for a module whose pure header holds its parameter
 * rules over a struct @type of all values: load() reads the current ones,
 * store() puts @v in by index (@p's id), bounds() sets [*lo, *hi] given
 * the others and valid() checks the whole set (icc_math.h, pert_math.h,
 * sabul_math.h).
 */
#define cc_param_cross_check(_type, _load, _store, _bounds, _valid,	\
			     _p, _v, _lo, _hi)				\
({									\
	int __cp_id = (_p)->id;						\
	_type __cp_set;							\
									\
	_load(&__cp_set);						\
	_store(&__cp_set, __cp_id, _v);					\
	_bounds(__cp_id, &__cp_set, _lo, _hi);				\
	_valid(&__cp_set);						\
})

/* param_set_bool() refuses anything that is not a boolean; say so. */
static inline int cc_param_bool_set(const char *val,
				    const struct kernel_param *kp)
{
	int ret = param_set_bool(val, kp);

	if (ret)
		pr_warn("%s: '%s' refused: must be a boolean (0/1, n/y)\n",
			kp->name, val);
	return ret;
}

static const struct kernel_param_ops cc_param_bool_ops __maybe_unused = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = cc_param_bool_set,
	.get = param_get_bool,
};

/* CC_PARAM_BOOL(name, var, perm, default, text): a bool @var. */
#define CC_PARAM_BOOL(_name, _var, _perm, _def, _text)			\
	static bool _var __read_mostly = _def;				\
	module_param_cb(_name, &cc_param_bool_ops, &_var, _perm);	\
	MODULE_PARM_DESC(_name, _text "; 0/1 (bool), default " #_def)

#endif /* _CC_PARAM_H */
