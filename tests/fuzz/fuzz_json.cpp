// libFuzzer target: the JSON-lines reader (lib/json/json_reader.cpp) and record
// decoding. The input is fed to parse_record() whole, and to a LineReader
// as a stream of lines (with a small line limit, so "line-too-long" paths
// run too). Invariants: no crash; every accepted record re-encodes to JSON
// that parse_record() accepts again; typed getters throw only FieldTypeError.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "json/json.hpp"

using namespace frontier;

namespace {

void exercise(const Record& r) {
    for (auto& f : r.fields) {
        try { (void)r.get_string(f.key); } catch (const FieldTypeError&) {}
        try { (void)r.get_int(f.key); } catch (const FieldTypeError&) {}
        try { (void)r.get_number(f.key); } catch (const FieldTypeError&) {}
        try { (void)r.get_bool(f.key); } catch (const FieldTypeError&) {}
        try { (void)r.get_time(f.key); } catch (const FieldTypeError&) {}
    }
    // Passing a record through must give valid JSON (tools do it for keys they do not own).
    JsonWriter w;
    w.begin();
    w.pass_through(r, {});
    w.end();
    Record again;
    if (!parse_record(w.str(), again)) abort();
    if (again.fields.size() > r.fields.size()) abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    Record r;
    if (parse_record(text, r)) exercise(r);
    (void)valid_utf8(text);
    (void)parse_rfc3339(text.substr(0, 64));

    // The same bytes as a JSON-lines stream read through a file descriptor.
    int fd = memfd_create("fuzz", 0);
    if (fd < 0) return 0;
    if (size && write(fd, data, size) != static_cast<ssize_t>(size)) {
        close(fd);
        return 0;
    }
    lseek(fd, 0, SEEK_SET);
    {
        LineReader reader({"/proc/self/fd/" + std::to_string(fd)}, 4096);
        InputLine line;
        uint64_t last = 0;
        while (reader.next(line)) {
            if (line.line_no <= last) abort();  // line numbers only grow
            last = line.line_no;
            if (line.error.empty()) exercise(line.record);
        }
    }
    close(fd);
    return 0;
}
