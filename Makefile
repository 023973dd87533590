# OpenBench-compatible build: `make EXE=<name>` builds tarpon and copies the
# binary to <name>, so that `<name> bench` prints the OpenBench line
# ("<nodes> nodes <nps> nps"). OpenBench may pass CC/CXX/EVALFILE; they are
# not needed (the default net is embedded).
EXE ?= tarpon
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) build --release
	cp target/release/tarpon $(EXE)

clean:
	$(CARGO) clean
