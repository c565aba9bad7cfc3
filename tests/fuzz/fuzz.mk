# Builds the libFuzzer targets with clang into build-fuzz/ (make -f tests/fuzz/fuzz.mk,
# from the repository root). Only the parsers' sources are compiled, with
# AddressSanitizer, UndefinedBehaviorSanitizer and fuzzer coverage.
# tests/fuzz/run.sh drives it; `make fuzz` and tests/e2e/test_fuzz_short.sh call that.
FUZZ_CXX   ?= clang++
FUZZ_BUILD ?= build-fuzz
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
SAN        := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
PQ_CFLAGS  := -I$(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
FLAGS      := -std=c++20 -O1 -g $(SAN) -Ilib $(XML_CFLAGS) $(PQ_CFLAGS) -MMD -MP
LIBS       := -lsqlite3 -lcurl -lsimdjson -lxxhash -lpsl -lidn2 -lxml2 -lre2 -lz -lpthread

SRC        := json/json json/json_decode json/json_reader json/json_writer core/signals core/clock core/ondemand core/output web/url web/url_resolve web/url_plain web/robots web/html_links web/html/tokenizer web/html/encoding web/sitemap web/sitemap_input web/links store/db store/sqlite/sqlite_db store/sqlite/wal_vfs store/pg/db_pg store/pg/pg_text store/pg/db_pg_sql store/schema_def store/store_export store/export_format policy/model
# The files split from store_export and db_pg (frontier-import's decode_row, the export's
# URL table, the PostgreSQL dialect operations).
SRC        += store/store_import store/store_export_urls store/pg/db_pg_dialect store/pg/db_pg_stmt store/pg/db_pg_backend store/pg/db_pg_connect store/sqlite/sqlite_lease_order store/pg/pg_lease_order
OBJ        := $(SRC:%=$(FUZZ_BUILD)/lib/%.o)
TARGETS    := fuzz_json fuzz_url fuzz_url_plain fuzz_robots fuzz_links fuzz_export

all: $(TARGETS:%=$(FUZZ_BUILD)/%)

$(FUZZ_BUILD)/lib/%.o: lib/%.cpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/%.o: tests/fuzz/%.cpp
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz_%.o $(OBJ)
	$(FUZZ_CXX) $(SAN) -fsanitize=fuzzer -o $@ $^ $(LIBS)

.SECONDARY:
-include $(OBJ:.o=.d) $(TARGETS:%=$(FUZZ_BUILD)/%.d)
