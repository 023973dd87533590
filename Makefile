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

.PHONY: all clean

all:
	TARPON_EVALFILE='$(EVALFILE)' $(CARGO) build --release --locked --target-dir '$(TARGET_DIR)' $(if $(FEATURES),--features '$(FEATURES)')
	cp '$(TARGET_DIR)/release/tarpon' '$(EXE)'

clean:
	$(CARGO) clean --target-dir '$(TARGET_DIR)'
