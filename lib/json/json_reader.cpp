// LineReader: JSON-lines input with simdjson On Demand; each line is decoded
// into a Record by parse_object (json_decode.cpp).
//
// Without -march flags the header-only On Demand code uses simdjson's
// portable "fallback" kernel; it is fast enough for short lines, so we do
// not dispatch.
//
// Design: one buffer of max_line + kReadSize bytes plus SIMDJSON_PADDING of
// slack, filled with read(2). Lines are found with memchr and parsed in place
// (the slack satisfies simdjson's padding rule, so nothing is copied). A line
// that outgrows max_line switches the reader to "skipping": bytes are read and
// dropped until its newline, so memory stays bounded. The InputLine's field
// vector and strings are reused between lines (spare fields are parked in a
// pool), so a steady stream of similar records allocates nothing.
#include "json/json.hpp"
#include "json/json_decode.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <simdjson.h>
#include <stdexcept>
#include <unistd.h>

#include "core/error.hpp"
#include "core/signals.hpp"

namespace frontier {

namespace od = simdjson::ondemand;

namespace {

// Minimum free space we want in front of each read(2).
constexpr size_t kReadSize = 1 << 20;

}  // namespace

using namespace json_detail;

struct LineReader::Impl {
    std::vector<std::string> paths;
    size_t next_path = 0;
    std::string path;  // current input, for messages
    int fd = -1;       // current input, -1 between inputs
    bool own_fd = false;
    size_t max_line;
    size_t cap;                   // usable bytes of buf (padding follows)
    std::unique_ptr<char[]> buf;  // cap + SIMDJSON_PADDING bytes
    size_t begin = 0;             // start of the first unconsumed line
    size_t scan = 0;              // [begin, scan) holds no '\n'
    size_t end = 0;               // end of buffered data
    bool skipping = false;        // inside an over-long line, dropping bytes
    uint64_t line_no = 0;
    od::parser parser;
    std::vector<JsonField> spare;

    Impl(std::vector<std::string> p, size_t ml)
        : paths(std::move(p)),
          max_line(ml),
          cap(ml + 2 + kReadSize),
          // Not zeroed: a tool that reads a few lines would otherwise touch
          // every page of it at its start. What simdjson reads past a line
          // is data, or the padding zeroed after each read (fill).
          buf(new char[cap + simdjson::SIMDJSON_PADDING]) {
        if (paths.empty()) paths.push_back("-");
        pad();
    }
    ~Impl() { close_input(); }

    void close_input() {
        if (own_fd) ::close(fd);
        fd = -1;
        own_fd = false;
    }

    // Opens the next input; false when there is none.
    bool open_next() {
        if (next_path == paths.size()) return false;
        path = paths[next_path++];
        if (path == "-") {
            fd = 0;
            return true;
        }
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw IoError("cannot open " + path + ": " + std::strerror(errno));
        own_fd = true;
        return true;
    }

    void set_error(InputLine& out, const char* reason) {
        out.error = reason;
        truncate_fields(out.record, 0, spare);
    }

    // Decodes the line [p, p+n) (without '\n'). False for a blank line.
    bool decode_line(const char* p, size_t n, InputLine& out) {
        out.line_no = line_no;
        out.error.clear();
        if (n > 0 && p[n - 1] == '\r') --n;
        if (n > max_line) return set_error(out, "line-too-long"), true;
        if (std::memchr(p, 0, n)) return set_error(out, "nul-byte"), true;
        size_t i = 0;
        while (i < n && is_blank(p[i])) ++i;
        if (i == n) return false;
        if (p[i] == '{') {
            size_t capacity = size_t(buf.get() + cap + simdjson::SIMDJSON_PADDING - p);
            const char* err = parse_object(parser, p, n, capacity, out.record, spare);
            if (*err) set_error(out, err);
            return true;
        }
        if (!simdjson::validate_utf8(p, n)) return set_error(out, "bad-utf8"), true;
        std::string_view url = trim_right(std::string_view(p + i, n - i));
        JsonField& f = field_slot(out.record, 0, spare);
        truncate_fields(out.record, 1, spare);
        f.key.assign("url");
        f.value.kind = JsonValue::Kind::string;
        f.value.b = false;
        f.value.i = 0;
        f.value.d = 0;
        f.value.s.assign(url);
        f.value.raw.clear();
        append_json_string(f.value.raw, url);
        return true;
    }

    // Zeroes the SIMDJSON_PADDING bytes after the data, which simdjson may
    // read past a line's end (their values do not change what it parses).
    void pad() { std::memset(buf.get() + end, 0, simdjson::SIMDJSON_PADDING); }

    // Makes room for at least kReadSize bytes at `end`.
    void make_room() {
        if (cap - end >= kReadSize) return;
        size_t keep = end - begin;
        std::memmove(buf.get(), buf.get() + begin, keep);
        scan -= begin;
        begin = 0;
        end = keep;
    }
};

LineReader::LineReader(std::vector<std::string> paths, size_t max_line)
    : impl_(std::make_unique<Impl>(std::move(paths), max_line)) {}

LineReader::~LineReader() = default;

bool LineReader::next(InputLine& out) {
    Impl& m = *impl_;
    for (;;) {
        // A complete line in the buffer?
        if (m.scan < m.end) {
            char* base = m.buf.get();
            auto* nl = static_cast<char*>(std::memchr(base + m.scan, '\n', m.end - m.scan));
            if (nl) {
                size_t start = m.begin;
                m.begin = m.scan = size_t(nl - base) + 1;
                ++m.line_no;
                if (m.skipping) {
                    m.skipping = false;
                    out.line_no = m.line_no;
                    m.set_error(out, "line-too-long");
                    return true;
                }
                if (m.decode_line(base + start, size_t(nl - base) - start, out)) return true;
                continue;
            }
            m.scan = m.end;
            // "+ 1": a '\r' before the '\n' does not count.
            if (m.skipping || m.end - m.begin > m.max_line + 1) {
                m.skipping = true;
                m.begin = m.scan = m.end = 0;
            }
        }
        if (m.fd < 0) {
            if (!m.open_next()) return false;
            continue;
        }
        m.make_room();
        ssize_t got = ::read(m.fd, m.buf.get() + m.end, m.cap - m.end);
        if (got > 0) {
            m.end += size_t(got);
            m.pad();
            continue;
        }
        if (got < 0) {
            if (errno != EINTR) throw IoError("cannot read " + (m.path == "-" ? std::string("stdin") : m.path) + ": " + std::strerror(errno));
            if (stop_requested()) return false;
            continue;
        }
        // End of this input: a last line without '\n' is still a line.
        m.close_input();
        if (m.skipping || m.end > m.begin) {
            size_t start = m.begin, stop = m.end;
            bool too_long = m.skipping;
            m.skipping = false;
            m.begin = m.scan = m.end = 0;
            ++m.line_no;
            if (too_long) {
                out.line_no = m.line_no;
                m.set_error(out, "line-too-long");
                return true;
            }
            // The data stays in place until the next read, after we return.
            if (m.decode_line(m.buf.get() + start, stop - start, out)) return true;
        }
    }
}

bool LineReader::idle() {
    Impl& m = *impl_;
    if (m.scan < m.end && std::memchr(m.buf.get() + m.scan, '\n', m.end - m.scan)) return false;
    if (m.fd < 0) return false;  // between inputs or finished: next() returns promptly
    pollfd p{m.fd, POLLIN, 0};
    int r = ::poll(&p, 1, 0);
    return r == 0;
}

}  // namespace frontier
