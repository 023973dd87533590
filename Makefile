# OpenBench's build: `make -j EXE=<name> [EVALFILE=<net>]` in a fresh unzip of
# the commit leaves the binary at <name> (a path relative to this folder, or
# absolute). EVALFILE embeds that net instead of nets/default.nnue (build.rs
# reads it as TARPON_EVALFILE); nothing is downloaded but the crates of
# Cargo.lock, which cargo takes from its cache when it has them. OpenBench
# may pass CC or CXX; cargo needs neither. FEATURES=tune builds the SPSA
# binary whose search parameters are UCI options (docs/openbench.md).
EXE ?= tarpon
EVALFILE ?=
FEATURES ?=
CARGO ?= cargo
# Our own target folder, so a CARGO_TARGET_DIR in the environment cannot
# send the binary somewhere the copy below does not look.
TARGET_DIR ?= target

.PHONY: all pgo pgo-tools clean

# The release build every target makes; each adds its target folder.
BUILD = TARPON_EVALFILE='$(EVALFILE)' $(CARGO) build --release --locked $(if $(FEATURES),--features '$(FEATURES)')

all:
	$(BUILD) --target-dir '$(TARGET_DIR)'
	cp '$(TARGET_DIR)/release/tarpon' '$(EXE)'

# `make pgo [EXE=...] [EVALFILE=...]`: a profile-guided build, like
# Stockfish's `profile-build`. An instrumented binary runs the bench with the
# net and with the PST evaluator and a short perft; the release build is then
# optimised with the branch and call counts they recorded (same moves and
# node counts, fewer instructions: docs/measurements.md). It needs
# llvm-profdata of the LLVM major version rustc was built with (`rustc -vV`):
# rustup's `llvm-tools` component, or Debian's `llvm-NN`, or LLVM_PROFDATA=path.
# The profile describes the CPU it ran on (its SIMD path above all): build
# where the engine will run, as with target-cpu=native.
PGO_DIR = $(abspath $(TARGET_DIR))/pgo
LLVM_MAJOR = $(shell rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
LLVM_PROFDATA ?= $(firstword $(wildcard $(shell rustc --print sysroot)/lib/rustlib/*/bin/llvm-profdata) $(shell command -v llvm-profdata-$(LLVM_MAJOR)) $(wildcard /usr/lib/llvm-$(LLVM_MAJOR)/bin/llvm-profdata))

pgo: pgo-tools
	rm -rf '$(PGO_DIR)/profiles'
	RUSTFLAGS='$(RUSTFLAGS) -Cprofile-generate=$(PGO_DIR)/profiles' $(BUILD) --target-dir '$(PGO_DIR)/instrumented'
	'$(PGO_DIR)/instrumented/release/tarpon' bench >/dev/null
	'$(PGO_DIR)/instrumented/release/tarpon' bench --eval pst >/dev/null
	'$(PGO_DIR)/instrumented/release/tarpon' perft 6 --hash 0 --threads 1 >/dev/null
	'$(LLVM_PROFDATA)' merge -o '$(PGO_DIR)/merged.profdata' '$(PGO_DIR)/profiles'
	RUSTFLAGS='$(RUSTFLAGS) -Cprofile-use=$(PGO_DIR)/merged.profdata' $(BUILD) --target-dir '$(PGO_DIR)/optimised'
	cp '$(PGO_DIR)/optimised/release/tarpon' '$(EXE)'

# Names the llvm-profdata `make pgo` would use, or fails saying what is missing.
pgo-tools:
	@test -n '$(LLVM_PROFDATA)' || { echo 'llvm-profdata for LLVM $(LLVM_MAJOR) not found: rustup component add llvm-tools, or install llvm-$(LLVM_MAJOR), or set LLVM_PROFDATA' >&2; exit 1; }
	@echo '$(LLVM_PROFDATA)'

clean:
	$(CARGO) clean --target-dir '$(TARGET_DIR)'
