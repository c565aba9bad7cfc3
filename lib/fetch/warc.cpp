#include "fetch/warc.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>

#include "core/error.hpp"
#include "core/http_date.hpp"
#include "core/sha1.hpp"

namespace frontier {

std::string make_warc_record_id() {
    static std::mutex mu;
    static std::mt19937_64 rng{std::random_device{}() ^ (uint64_t(std::random_device{}()) << 32)};
    uint64_t a, b;
    {
        std::lock_guard<std::mutex> lock(mu);
        a = rng();
        b = rng();
    }
    a = (a & ~0xF000ull) | 0x4000ull;                            // version 4
    b = (b & ~(0xC000000000000000ull)) | 0x8000000000000000ull;  // variant 10
    char buf[64];
    std::snprintf(buf, sizeof buf, "urn:uuid:%08x-%04x-%04x-%04x-%012llx", unsigned(a >> 32),
                  unsigned((a >> 16) & 0xFFFF), unsigned(a & 0xFFFF), unsigned(b >> 48),
                  static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFull));
    return buf;
}

namespace {

void deflate_piece(z_stream& z, std::string_view in, std::string& out, int flush) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    unsigned char buf[16384];
    for (;;) {
        z.next_out = buf;
        z.avail_out = sizeof buf;
        int rc = deflate(&z, flush);
        if (rc == Z_STREAM_ERROR) throw IoError("zlib deflate failed");
        out.append(reinterpret_cast<const char*>(buf), sizeof buf - z.avail_out);
        if (flush == Z_FINISH ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out != 0)) break;
    }
}

// Feeds pieces of one gzip member; the last call finishes it.
struct MemberBuilder {
    z_stream& z;
    std::string& out;
    void add(std::string_view s) {
        size_t chunk = 1u << 30;
        while (s.size() > chunk) {
            deflate_piece(z, s.substr(0, chunk), out, Z_NO_FLUSH);
            s.remove_prefix(chunk);
        }
        deflate_piece(z, s, out, Z_NO_FLUSH);
    }
    void finish() { deflate_piece(z, std::string_view(), out, Z_FINISH); }
};

// Compressed output is written to the file whenever this much is pending,
// and bodies are compressed in slices of this size.
constexpr size_t kPieceBytes = size_t{1} << 20;

// Reads bytes [0, size) of `fd` a piece at a time, calling `piece` with each.
template <class F>
void read_pieces(int fd, uint64_t size, F&& piece) {
    std::string buf(static_cast<size_t>(std::min<uint64_t>(size, kPieceBytes)), '\0');
    uint64_t off = 0;
    while (off < size) {
        size_t want = static_cast<size_t>(std::min<uint64_t>(size - off, buf.size()));
        ssize_t n = ::pread(fd, buf.data(), want, static_cast<off_t>(off));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw IoError(std::string("cannot read a body kept in a temporary file: ") +
                          (n < 0 ? std::strerror(errno) : "it is shorter than written"));
        piece(std::string_view(buf.data(), static_cast<size_t>(n)));
        off += static_cast<uint64_t>(n);
    }
}

bool file_exists(const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0;
}

}  // namespace

void gzip_member(std::string_view data, std::string& out, int level) {
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw IoError("zlib deflateInit2 failed");
    MemberBuilder mb{z, out};
    mb.add(data);
    mb.finish();
    deflateEnd(&z);
}

std::string decoded_response_head(std::string_view head, uint64_t payload_len) {
    std::string out;
    out.reserve(head.size() + 64);
    bool first = true;
    while (!head.empty()) {
        size_t nl = head.find('\n');
        std::string_view line = head.substr(0, nl);
        head = nl == std::string_view::npos ? std::string_view() : head.substr(nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        if (!first) {
            auto starts = [&](std::string_view name) {
                if (line.size() <= name.size() || line[name.size()] != ':') return false;
                for (size_t i = 0; i < name.size(); ++i)
                    if (std::tolower(static_cast<unsigned char>(line[i])) != name[i]) return false;
                return true;
            };
            if (starts("content-encoding") || starts("transfer-encoding") || starts("content-length"))
                out += "X-Crawler-";
        }
        first = false;
        out.append(line);
        out += "\r\n";
    }
    out += "Content-Length: " + std::to_string(payload_len) + "\r\n\r\n";
    return out;
}

WarcWriter::WarcWriter(std::string prefix, uint64_t max_size, std::string software)
    : prefix_(std::move(prefix)), max_size_(max_size), software_(std::move(software)) {}

WarcWriter::~WarcWriter() {
    if (file_) std::fclose(file_);
    if (z_ready_) deflateEnd(&z_);
}

void WarcWriter::open_next() {
    close();
    for (;;) {
        char num[16];
        std::snprintf(num, sizeof num, "-%05d", next_index_++);
        path_ = prefix_ + num + ".warc.gz";
        if (!file_exists(path_)) break;
    }
    std::filesystem::path parent = std::filesystem::path(path_).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_) throw IoError("cannot create " + path_ + ": " + std::strerror(errno));
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
    offset_ = 0;
    std::string fields = "software: " + software_ +
                         "\r\nformat: WARC File Format 1.1\r\n"
                         "conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n";
    std::string slash = path_;
    if (auto p = slash.rfind('/'); p != std::string::npos) slash = slash.substr(p + 1);
    std::string header = "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <" + make_warc_record_id() +
                         ">\r\nWARC-Date: " + format_iso8601(0 + static_cast<double>(std::time(nullptr))) +
                         "\r\nWARC-Filename: " + slash +
                         "\r\nContent-Type: application/warc-fields\r\nContent-Length: " +
                         std::to_string(fields.size()) + "\r\n\r\n";
    append_record(header, fields, {});
}

void WarcWriter::write_out() {
    if (std::fwrite(gz_.data(), 1, gz_.size(), file_) != gz_.size())
        throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
    offset_ += gz_.size();
    gz_.clear();
}

uint64_t WarcWriter::append_record(std::string_view header, std::string_view block1, std::string_view block2,
                                   int rest_fd, uint64_t rest_size) {
    if (!z_ready_) {
        if (deflateInit2(&z_, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw IoError("zlib deflateInit2 failed");
        z_ready_ = true;
    } else {
        deflateReset(&z_);
    }
    uint64_t start = offset_;
    gz_.clear();
    MemberBuilder mb{z_, gz_};
    // The same deflate stream as one call per block would give, written out
    // as it grows.
    auto add = [&](std::string_view s) {
        while (!s.empty()) {
            std::string_view slice = s.substr(0, kPieceBytes);
            mb.add(slice);
            s.remove_prefix(slice.size());
            if (gz_.size() >= kPieceBytes) write_out();
        }
    };
    add(header);
    add(block1);
    add(block2);
    if (rest_fd >= 0) read_pieces(rest_fd, rest_size, add);
    mb.add("\r\n\r\n");
    mb.finish();
    write_out();
    if (gz_.capacity() > 2 * kPieceBytes) std::string().swap(gz_);
    return start;
}

WarcLocation WarcWriter::write(const WarcExchange& ex) {
    if (!file_ || offset_ >= max_size_) open_next();
    std::string date = format_iso8601(ex.date);
    std::string req_id = make_warc_record_id();
    std::string resp_id = make_warc_record_id();
    std::string common = "\r\nWARC-Date: " + date + "\r\nWARC-Target-URI: " + ex.target_uri;
    if (!ex.ip.empty()) common += "\r\nWARC-IP-Address: " + ex.ip;

    std::string req_header = "WARC/1.1\r\nWARC-Type: request\r\nWARC-Record-ID: <" + req_id + ">" + common +
                             "\r\nWARC-Concurrent-To: <" + resp_id +
                             ">\r\nContent-Type: application/http;msgtype=request\r\nWARC-Block-Digest: " +
                             warc_sha1(ex.request) + "\r\nContent-Length: " + std::to_string(ex.request.size()) +
                             "\r\n\r\n";
    append_record(req_header, ex.request, {});

    Sha1 block, payload;
    block.update(ex.response_head);
    block.update(ex.payload);
    payload.update(ex.payload);
    uint64_t rest = ex.payload_rest_fd >= 0 ? ex.payload_rest_size : 0;
    if (rest > 0)
        read_pieces(ex.payload_rest_fd, rest, [&](std::string_view piece) {
            block.update(piece);
            payload.update(piece);
        });
    auto bd = block.digest();
    auto pd = payload.digest();
    std::string resp_header =
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <" + resp_id + ">" + common +
        "\r\nWARC-Concurrent-To: <" + req_id +
        ">\r\nContent-Type: application/http;msgtype=response\r\nWARC-Payload-Digest: sha1:" +
        base32(pd.data(), pd.size()) + "\r\nWARC-Block-Digest: sha1:" + base32(bd.data(), bd.size());
    if (!ex.truncated.empty()) resp_header += "\r\nWARC-Truncated: " + ex.truncated;
    resp_header +=
        "\r\nContent-Length: " + std::to_string(ex.response_head.size() + ex.payload.size() + rest) +
        "\r\n\r\n";
    uint64_t off =
        append_record(resp_header, ex.response_head, ex.payload, rest > 0 ? ex.payload_rest_fd : -1, rest);
    return WarcLocation{path_, off, offset_ - off};
}

void WarcWriter::flush() {
    if (file_ && std::fflush(file_) != 0) throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
}

void WarcWriter::close() {
    if (!file_) return;
    std::FILE* f = file_;
    file_ = nullptr;
    if (std::fclose(f) != 0) throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
}

}  // namespace frontier
