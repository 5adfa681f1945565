/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - minimal kselftest-style TAP output for the userspace unit tests.
 *
 * Every unit test is a C program that includes the very same pure headers
 * the kernel modules include (icc_math.h, pert_math.h, rapid_chirp.h) and
 * reports each check as one TAP line:
 *
 *	ok 3 - icc: increment clamps to smax
 *	not ok 4 - icc: ... # got 5 want 6
 *
 * tap_done() prints the plan and a "N passed, N failed" line and returns
 * the kselftest exit code (0 all passed, 1 any failed).
 */
#ifndef TESTS_UNIT_TAP_H
#define TESTS_UNIT_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count;
static int tap_failed;

static inline int tap_check(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report one check; returns cond so callers can chain diagnostics. */
static inline int tap_check(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

/* Diagnostic line (TAP comment). */
#define tap_diag(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)

#define tap_ok(cond, ...) tap_check(!!(cond), __VA_ARGS__)

/* Integer equality with both values printed on failure. */
#define tap_eq(got, want, ...) do {					\
	long long tap_g_ = (long long)(got), tap_w_ = (long long)(want);	\
	if (!tap_check(tap_g_ == tap_w_, __VA_ARGS__))			\
		tap_diag("got %lld want %lld", tap_g_, tap_w_);		\
} while (0)

/* |got - want| <= tol, printed on failure. */
#define tap_near(got, want, tol, ...) do {				\
	double tap_g_ = (double)(got), tap_w_ = (double)(want);		\
	double tap_d_ = tap_g_ - tap_w_;					\
	if (tap_d_ < 0)							\
		tap_d_ = -tap_d_;					\
	if (!tap_check(tap_d_ <= (double)(tol), __VA_ARGS__))		\
		tap_diag("got %g want %g (tol %g)", tap_g_, tap_w_,	\
			 (double)(tol));				\
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	printf("%d passed, %d failed\n", tap_count - tap_failed, tap_failed);
	return tap_failed ? 1 : 0;
}

#endif /* TESTS_UNIT_TAP_H */
