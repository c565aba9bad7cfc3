# crawl-frontier toolkit. `make` builds the tools, `make check` runs every
# test suite, `make demo` runs a real crawl of a local site, `make bench`
# measures. See README.md.

CXX      ?= g++
CXXFLAGS ?= -O2 -g
PREFIX   ?= /usr/local
DESTDIR  ?=

BUILD    ?= build
BIN      ?= bin
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
PQ_CFLAGS  := -I$(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
override CXXFLAGS += -std=c++20 -Wall -Wextra -Wpedantic -Wno-missing-field-initializers -Ilib $(XML_CFLAGS) $(PQ_CFLAGS) -MMD -MP
# libpq, libcurl, libxml2, libpsl and libidn2 are opened on first use
# (lib/core/ondemand.hpp), so a tool start does not load them and their
# dependencies (TLS, Kerberos, LDAP, SSH; ICU; libunistring); only fetch (and
# the unit tests of its transfer code) link libcurl's transfer API.
LDLIBS   := -lsqlite3 -lsimdjson -lxxhash -lre2 -lz -lpthread
CURL_LIBS := -lcurl

TOOLS    := frontier-add frontier-lease frontier-done frontier-config frontier-budget frontier-report frontier-export frontier-import fetch frontier-crawl
LIB_SRC  := $(wildcard lib/*/*.cpp lib/*/*/*.cpp)
LIB_OBJ  := $(LIB_SRC:%.cpp=$(BUILD)/%.o)
LIB_A    := $(BUILD)/libfrontier.a
TOOL_BIN := $(foreach t,$(TOOLS),$(if $(wildcard tools/$(t).cpp),$(BIN)/$(t)))
UNIT_SRC := $(wildcard tests/unit/*.cpp)
UNIT_OBJ := $(UNIT_SRC:%.cpp=$(BUILD)/%.o)

.PHONY: all deps check check-pg unit cli e2e demo bench bench-pg install uninstall clean asan golden fuzz stress
all: $(TOOL_BIN)

deps:
	@scripts/deps.sh

$(BUILD)/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/%: $(BUILD)/tools/%.o $(LIB_A)
	@mkdir -p $(BIN)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

$(BIN)/fetch: $(BUILD)/tools/fetch.o $(LIB_A)
	@mkdir -p $(BIN)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS) $(CURL_LIBS)

# The Catch2 runner is Catch2's own code, not code under test: built without
# optimisation or sanitizers it compiles in seconds instead of minutes.
$(BUILD)/tests/unit/main.o: tests/unit/main.cpp
	@mkdir -p $(dir $@)
	$(CXX) -O0 -std=c++20 -MMD -MP -c $< -o $@

$(BIN)/unit-tests: $(UNIT_OBJ) $(LIB_A)
	@mkdir -p $(BIN)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(LIB_A) $(LDLIBS) $(CURL_LIBS)

# Test drivers (not installed): the differential tests of the HTML tokenizer
# and of the robots.txt matcher use them.
$(BIN)/html-scan: $(BUILD)/tests/tools/html_scan.o $(LIB_A)
	@mkdir -p $(BIN)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

$(BIN)/robots-check: $(BUILD)/tests/tools/robots_check.o $(LIB_A)
	@mkdir -p $(BIN)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

# The delaying TCP proxy of the PostgreSQL tests and bench (a server "a
# network hop away"); it needs nothing of the library.
$(BIN)/latency-proxy: $(BUILD)/tests/tools/latency_proxy.o
	@mkdir -p $(BIN)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $< -lpthread

# Every suite, then one total line "N passed, N failed".
check: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all $(BIN)/unit-tests $(BIN)/html-scan $(BIN)/robots-check $(BIN)/latency-proxy
	@FRONTIER_BIN=$(BIN) tests/run.sh

# The PostgreSQL suite alone (part of `make check` too): the CLI golden cases,
# a move file -> database -> file and four e2e tests against a private server
# on 127.0.0.1 (tests/pg/run.sh).
check-pg: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all $(BIN)/latency-proxy
	@res=$$(tests/pg/run.sh 2>&1); echo "$$res" | grep -v '^PASS'; \
	    p=$$(echo "$$res" | grep -c '^PASS '); f=$$(echo "$$res" | grep -c '^FAIL '); \
	    echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

# Regenerate the CLI golden files (review the diff before committing).
golden: all
	@tests/cli/run.sh --regen

demo: deps
	@$(MAKE) --no-print-directory all
	@examples/demo.sh

# SCALE=full adds the 10M-URL rows (long), SCALE=huge 100M too (hours); see
# tests/bench/run.sh. Then the SQLite vs PostgreSQL comparison of bench-pg
# (SKIP_PG=1 leaves it out).
bench: deps
	@$(MAKE) --no-print-directory all $(BIN)/latency-proxy
	@FRONTIER_BIN=$(BIN) tests/bench/run.sh
	@if [ "$${SKIP_PG:-0}" != 1 ]; then echo; echo "== SQLite vs PostgreSQL (make bench-pg)"; \
	    FRONTIER_BIN=$(BIN) tests/pg/bench.sh $${BENCH_PG_N:-100000}; fi

# SQLite vs PostgreSQL throughput (tests/pg/bench.sh; BENCH_PG_N URLs).
bench-pg: deps
	@$(MAKE) --no-print-directory all $(BIN)/latency-proxy
	@FRONTIER_BIN=$(BIN) tests/pg/bench.sh $${BENCH_PG_N:-100000}

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer,
# built apart (build-asan/, bin-asan/) so it never replaces the normal tools.
# Its end-to-end tests run one at a time (E2E_JOBS=1): the sanitizers make
# every tool several times slower, and the timing of the crawl tests is
# tuned for one test at a time on two cores.
asan: deps
	@$(MAKE) --no-print-directory -j$$(nproc) BUILD=build-asan BIN=bin-asan \
	    CXXFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -DFRONTIER_CHECK_COLUMN_TYPES" \
	    LDFLAGS="-fsanitize=address,undefined" all bin-asan/unit-tests bin-asan/html-scan bin-asan/robots-check bin-asan/latency-proxy
	@FRONTIER_BIN=bin-asan UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 tests/run.sh

# libFuzzer targets (clang; tests/fuzz/): FUZZ_SECONDS each (default 300).
fuzz:
	@tests/fuzz/run.sh

# The crash and concurrency tests, longer and harder than in `make check`.
stress: deps
	@$(MAKE) --no-print-directory -j$$(nproc) all
	@export E2E_TIMEOUT=7200 CRASH_ROUNDS=$${CRASH_ROUNDS:-60} CRASH_SECONDS=$${CRASH_SECONDS:-40} \
	    CONC_WORKERS=$${CONC_WORKERS:-8} CONC_HOSTS=$${CONC_HOSTS:-400} CONC_SEEDS=$${CONC_SEEDS:-20}; \
	    tests/e2e/run.sh test_crash && tests/e2e/run.sh test_concurrency && \
	    SLOW_SECONDS=$${SLOW_SECONDS:-120} tests/e2e/run.sh test_add_slow_writer

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 755 -s $(TOOL_BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(wildcard man/*.1) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(wildcard man/*.7) $(DESTDIR)$(PREFIX)/share/man/man7/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 examples/completion/frontier.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/frontier
	for t in $(notdir $(TOOL_BIN)); do ln -sf frontier $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$t; done

# Removes exactly what `make install` put in place (same PREFIX and DESTDIR).
uninstall:
	for t in $(TOOLS); do rm -f $(DESTDIR)$(PREFIX)/bin/$$t $(DESTDIR)$(PREFIX)/share/man/man1/$$t.1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$t; done
	rm -f $(DESTDIR)$(PREFIX)/share/man/man7/frontier.7 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/frontier

clean:
	rm -rf build build-asan build-fuzz bin bin-asan

.SECONDARY: $(LIB_OBJ) $(TOOLS:%=$(BUILD)/tools/%.o)
-include $(LIB_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(wildcard $(BUILD)/tools/*.d) $(wildcard $(BUILD)/tests/tools/*.d)
