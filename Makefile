# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree TCP congestion controls: RAPID, PERT, ICC, SABUL.
#
#   make                 build the modules against the pinned lab kernel
#                        (scripts/lab/kernel.env), or against KDIR=<build dir>:
#                        make KDIR=/lib/modules/$(uname -r)/build
#   make LAB=1           the lab's modules (build/lab-modules/*.ko, what scripts/lab/run.sh
#                        loads): the production ones plus the lab-only
#                        parameters (docs/rapid.md, "Lab modes")
#   make setup           install/cache everything (scripts/lab/setup.sh)
#   make setup-k7        the same plus the 7.x kernel and its build chroot
#   make modules-k7      the lab modules (LAB=1) for the lab's 7.x kernel
#                        (build/k7/*.ko), built in its chroot (scripts/lab/kbuild-chroot.sh)
#   make matrix          W=1 builds against 6.12, Debian 12's 6.1, 7.3 (trixie-
#                        backports) and sid's 7.2 (each with the compiler its
#                        kernel was built with), warnings fail
#   make check           checkpatch --strict on every kernel source
#   make unit            userspace unit tests of the pure headers (ASan+UBSan)
#   make fuzz [FUZZ_SECONDS=30]  libFuzzer targets (tests/fuzz) on their corpus
#   make test            the whole suite: set-up, build, check, unit, fuzz, lab VM
#   make demo            set-up, build, boot the lab, RAPID/PERT/ICC vs cubic
#   make bench [BENCH=scenario] [CC=a,b]   lab benchmarks (precise clock)
#   make sim [SIM=scenario] [CC=a,b] [SET="k=v ..."]   the same scenarios in
#                        the scale engine (docs/sim.md)
#   make dkms            dkms add + build of dkms.conf against the pinned
#                        kernel in a private DKMS tree (build/dkms), which the
#                        lab VM's 80-dkms suite installs and loads
#   make dkms-k7         then the same package built for the 7.x kernel
#   make clean

include scripts/lab/kernel.env

LAB_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/tcp-cc-lab
PINNED_KDIR := $(LAB_CACHE)/kernel-$(LAB_KVER)/usr/src/linux-headers-$(LAB_KVER)
OLD_KDIR ?= $(LAB_CACHE)/kernel-$(LAB_OLD_KVER)/usr/src/linux-headers-$(LAB_OLD_KVER)
KDIR ?= $(PINNED_KDIR)
K7_KROOT := $(LAB_CACHE)/kernel-$(LAB_K7_KVER)
K7_KDIR := $(K7_KROOT)/usr/src/linux-headers-$(LAB_K7_KVER)
K7_CHROOT := $(LAB_CACHE)/chroot-$(LAB_K7_CHROOT_SUITE)
# The 7.x build runs in the chroot, where the headers are at /usr/src.
K7_MAKE := scripts/lab/kbuild-chroot.sh $(K7_CHROOT) $(K7_KROOT) -- \
	make -C /usr/src/linux-headers-$(LAB_K7_KVER)
# sid's 7.x: compile matrix only.
K7SID_KROOT := $(LAB_CACHE)/kernel-$(LAB_K7_SID_KVER)
K7SID_CHROOT := $(LAB_CACHE)/chroot-$(LAB_K7_SID_CHROOT_SUITE)
K7SID_MAKE := scripts/lab/kbuild-chroot.sh $(K7SID_CHROOT) $(K7SID_KROOT) -- \
	make -C /usr/src/linux-headers-$(LAB_K7_SID_KVER)
PAHOLE_BIN := $(LAB_CACHE)/tools/pahole
CHECKPATCH ?= $(LAB_CACHE)/tools/checkpatch/checkpatch.pl

# Module BTF needs pahole: use the cached one, else build without BTF.
ifneq ($(wildcard $(PAHOLE_BIN)),)
KBUILD_EXTRA := PAHOLE=$(PAHOLE_BIN)
else
KBUILD_EXTRA := CONFIG_DEBUG_INFO_BTF_MODULES=
endif

KSRCS := tcp_icc.c tcp_pert.c tcp_rapid.c tcp_rapid_rx.c tcp_sabul.c
KHDRS := $(filter-out cc_pure.h,$(wildcard *.h)) cc_pure.h
MODULES := $(KSRCS:.c=.ko)

.PHONY: all modules modules-k7 setup setup-k7 k7-check dkms-k7 matrix check unit unit-build fuzz fuzz-build tools test demo bench sim clean kdir-check dkms

all: modules

kdir-check:
	@test -d "$(KDIR)" || { \
	  echo "error: no kernel build tree at $(KDIR)"; \
	  echo "       run 'make setup' (pinned lab kernel) or pass KDIR=/lib/modules/\$$(uname -r)/build"; \
	  exit 1; }

# The lab build in a copy of its own (build/lab-modules), as for the matrix: the
# production modules here and the lab's never share objects.
build/lab-modules/.stamp: $(KSRCS) $(KHDRS) Kbuild
	@rm -rf $(@D) && mkdir -p $(@D)
	@cp $(KSRCS) $(KHDRS) Kbuild $(@D)/
	@touch $@

ifeq ($(LAB),1)
modules: kdir-check build/lab-modules/.stamp
	$(MAKE) -C $(KDIR) M=$(CURDIR)/build/lab-modules LAB=1 $(KBUILD_EXTRA) modules
else
modules: kdir-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_EXTRA) modules
endif

setup:
	bash scripts/lab/setup.sh

setup-k7:
	bash scripts/lab/setup.sh --with-k7

k7-check:
	@test -f "$(K7_KROOT)/.complete" -a -f "$(K7_CHROOT)/.complete" || { \
	  echo "error: no 7.x kernel/chroot in $(LAB_CACHE): run 'make setup-k7'"; exit 1; }

# A copy of the sources per kernel, as for the matrix: objects never mix.
build/k7/.stamp: $(KSRCS) $(KHDRS) Kbuild
	@rm -rf $(@D) && mkdir -p $(@D)
	@cp $(KSRCS) $(KHDRS) Kbuild $(@D)/
	@touch $@

modules-k7: k7-check build/k7/.stamp
	$(K7_MAKE) M=$(CURDIR)/build/k7 LAB=1 modules

# Each matrix build runs in its own copy so that the two kernels' objects
# never mix with the in-place build.
build/matrix-%/.stamp: $(KSRCS) $(KHDRS) Kbuild
	@rm -rf $(@D) && mkdir -p $(@D)
	@cp $(KSRCS) $(KHDRS) Kbuild $(@D)/
	@touch $@

# 6.12 and 6.1 build on the host (bookworm's gcc-12, their compiler); the
# two 7.x in their chroots (scripts/lab/kernel.env).  Any warning, including
# kbuild's own (compiler or pahole version differs), fails.  The kernels
# the lab boots (6.12, 7.3) are built twice: production and LAB=1
# (matrix-6.12-lab, matrix-7-lab).
MATRIX := 6.12 6.12-lab 6.1 7 7-lab 7sid
matrix: $(foreach m,$(MATRIX),build/matrix-$(m)/.stamp)
	@test -d "$(PINNED_KDIR)" -a -d "$(OLD_KDIR)" || { echo "error: run 'make setup' first"; exit 1; }
	@$(MAKE) -s k7-check
	@test -f "$(K7SID_KROOT)/.complete" -a -f "$(K7SID_CHROOT)/.complete" || { \
	  echo "error: no sid 7.x headers/chroot in $(LAB_CACHE): run 'make setup-k7'"; exit 1; }
	@set -e; for v in 6.12:$(PINNED_KDIR) 6.12-lab:$(PINNED_KDIR) 6.1:$(OLD_KDIR) \
	  7:$(K7_KDIR) 7-lab:$(K7_KDIR) \
	  7sid:$(K7SID_KROOT)/usr/src/linux-headers-$(LAB_K7_SID_KVER); do \
	  name=$${v%%:*}; kd=$${v#*:}; lab=; \
	  case $$name in *-lab) lab=LAB=1 ;; esac; \
	  echo "== W=1 build against $$kd $$lab"; \
	  if [ $${name%-lab} = 7 ]; then \
	    $(K7_MAKE) -s M=$(CURDIR)/build/matrix-$$name W=1 $$lab modules \
	      > build/matrix-$$name/build.log 2>&1 || { cat build/matrix-$$name/build.log; exit 1; }; \
	  elif [ $$name = 7sid ]; then \
	    $(K7SID_MAKE) -s M=$(CURDIR)/build/matrix-$$name W=1 modules \
	      > build/matrix-$$name/build.log 2>&1 || { cat build/matrix-$$name/build.log; exit 1; }; \
	  else \
	    $(MAKE) -s -C $$kd M=$(CURDIR)/build/matrix-$$name $(KBUILD_EXTRA) W=1 $$lab modules \
	      > build/matrix-$$name/build.log 2>&1 || { cat build/matrix-$$name/build.log; exit 1; }; \
	  fi; \
	  if grep -iE 'warning|error:' build/matrix-$$name/build.log; then \
	    echo "matrix: warnings against $$name"; exit 1; fi; \
	  echo "   ok: $$(cd build/matrix-$$name && ls *.ko | tr '\n' ' ')$$(grep -ho -- '-D\(COMPAT_[A-Z0-9_]*\|RAPID_LAB\)' build/matrix-$$name/.tcp_rapid.o.cmd | sort -u | tr '\n' ' ')"; \
	done

check:
	@test -f "$(CHECKPATCH)" || { echo "error: no checkpatch.pl at $(CHECKPATCH): run 'make setup'"; exit 1; }
	@mkdir -p build
	@perl $(CHECKPATCH) --no-tree --strict --terse --show-types \
	  --ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,LINUX_VERSION_CODE \
	  -f $(KSRCS) $(KHDRS) > build/checkpatch.log 2>&1; \
	  cat build/checkpatch.log; \
	  if grep -qE ': (ERROR|WARNING):' build/checkpatch.log; then \
	    echo "check: checkpatch found errors/warnings"; exit 1; fi; \
	  echo "check: checkpatch clean ($(words $(KSRCS) $(KHDRS)) files)"

# --- DKMS: the package a user installs, built as dkms would -------------------
# A private DKMS tree (--dkmstree, --sourcetree) keeps the host's
# /var/lib/dkms and /usr/src untouched; --kernelsourcedir is the pinned
# headers, so this works on a host that runs another kernel.  The guest
# (tests/vm/80-dkms.sh) runs `dkms install` from a copy of this tree: the
# compile happens here, at native speed, not under TCG emulation.
DKMS_NAME := $(shell sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' dkms.conf)
DKMS_VER := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_DIR := $(CURDIR)/build/dkms
DKMS_ARGS := -m $(DKMS_NAME) -v $(DKMS_VER) --dkmstree $(DKMS_DIR)/tree \
	--sourcetree $(DKMS_DIR)/src

dkms: kdir-check
	@rm -rf $(DKMS_DIR)
	@mkdir -p $(DKMS_DIR)/tree $(DKMS_DIR)/src/$(DKMS_NAME)-$(DKMS_VER)/scripts/lab
	@cp Kbuild Makefile dkms.conf $(KSRCS) $(KHDRS) $(DKMS_DIR)/src/$(DKMS_NAME)-$(DKMS_VER)/
	@cp scripts/lab/kernel.env $(DKMS_DIR)/src/$(DKMS_NAME)-$(DKMS_VER)/scripts/lab/
	PATH=$(LAB_CACHE)/tools:$$PATH dkms add $(DKMS_ARGS)
	PATH=$(LAB_CACHE)/tools:$$PATH dkms build $(DKMS_ARGS) -k $(LAB_KVER) \
	  --kernelsourcedir $(KDIR)

# The same package built for the lab's 7.x kernel, by the chroot's dkms
# (its compiler), into the same private tree (after `make dkms`): the 7.x
# boot's 80-dkms installs and loads it.
dkms-k7: k7-check
	@test -d $(DKMS_DIR)/tree/$(DKMS_NAME) || { echo "error: run 'make dkms' first"; exit 1; }
	scripts/lab/kbuild-chroot.sh $(K7_CHROOT) $(K7_KROOT) -- dkms build $(DKMS_ARGS) \
	  -k $(LAB_K7_KVER) --kernelsourcedir /usr/src/linux-headers-$(LAB_K7_KVER)

# --- userspace unit tests from the very same headers -------------------------
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,build/unit/%,$(UNIT_SRCS))
UNIT_CC ?= gcc
UNIT_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-function \
	-I. -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

build/unit/%: tests/unit/%.c $(wildcard *.h) tests/unit/tap.h
	@mkdir -p $(@D)
	$(UNIT_CC) $(UNIT_CFLAGS) -o $@ $< -lm

# Offline tools built from the same pure headers.
TOOLS := build/rapid-trace
build/rapid-trace: scripts/rapid/trace.c $(wildcard *.h)
	@mkdir -p $(@D)
	$(UNIT_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -I. -o $@ $<

tools: $(TOOLS)

# The scale engine (docs/sim.md): -O2 for `make sim`, ASan+UBSan for the
# unit test that drives it (tests/unit/test_sim.py).
SIM_SRCS := sim/sim.c sim/sim_rapid.c sim/sim_pert.c sim/sim_icc.c sim/sim_loss.c
SIM_DEPS := $(SIM_SRCS) sim/sim.h $(wildcard *.h)
build/sim/sim: $(SIM_DEPS)
	@mkdir -p $(@D)
	$(UNIT_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-function -I. -o $@ $(SIM_SRCS) -lm

build/unit/sim: $(SIM_DEPS)
	@mkdir -p $(@D)
	$(UNIT_CC) $(UNIT_CFLAGS) -O2 -o $@ $(SIM_SRCS) -lm

unit-build: $(UNIT_BINS) $(TOOLS) build/unit/sim

# --- fuzzing: libFuzzer (clang) on the option codecs and the estimators -------
# `make fuzz FUZZ_SECONDS=N` runs each target N seconds on a copy of its
# corpus (tests/fuzz/corpus/<target>; new finds are not written back).
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(FUZZ_SRCS))
FUZZ_CC ?= clang
FUZZ_CFLAGS := -g -O1 -Wall -Wextra -Werror -Wno-unused-function -I. \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS ?= 30

build/fuzz/%: tests/fuzz/%.c $(wildcard *.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $<

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/run.sh --fuzz-only

unit: unit-build
	@bash tests/run.sh --unit-only

test:
	bash tests/run.sh

demo:
	bash scripts/demo.sh

# make sim SIM=<scenario> [CC=a,b] [SET="path=value ..."]: the scenario in the
# scale engine (docs/sim.md), analysed as `make bench` analyses the lab's.
SIM_PY := $(firstword $(wildcard $(LAB_CACHE)/venv/bin/python) python3)
sim: build/sim/sim
	PYTHONPATH=$(CURDIR) $(SIM_PY) sim/sim.py --scenario $(or $(SIM),demo) $(if $(filter command line,$(origin CC)),--cc $(CC)) $(foreach s,$(SET),--set $(s))

bench:
	bash scripts/bench/run.sh $(if $(BENCH),--scenario $(BENCH)) $(if $(filter command line,$(origin CC)),--cc $(CC))

clean:
	-test -d "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf build
