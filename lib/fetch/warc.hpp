// WARC/1.1 writer: warcinfo first in each file, then request/response record
// pairs, each record its own gzip member (so a record can be read from its
// offset alone), files PREFIX-00000.warc.gz, PREFIX-00001.warc.gz, ...
// rotated when a file reaches a size. Not thread-safe: one writer thread.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <zlib.h>

namespace frontier {

// Where a record landed: the file, the offset of its gzip member and the
// member's length in bytes.
struct WarcLocation {
    std::string file;
    uint64_t offset = 0;
    uint64_t length = 0;
};

// One HTTP exchange to archive.
struct WarcExchange {
    std::string target_uri;     // WARC-Target-URI (the URL fetched, last one after redirects)
    std::string ip;             // WARC-IP-Address; empty when unknown
    double date = 0;            // WARC-Date, epoch seconds
    std::string request;        // request line + headers as sent, ending in an empty line
    std::string response_head;  // status line + headers as stored, ending in an empty line
    std::string_view payload;   // the entity body as stored (or its first part, see below)
    int payload_rest_fd = -1;   // when >= 0: the rest of the body, bytes 0 to payload_rest_size of
    uint64_t payload_rest_size = 0;  // this file (a body too large to keep in memory; fetch(1))
    std::string truncated;      // WARC-Truncated reason ("length", "time", "disconnect") or empty
};

// A v4 UUID as "urn:uuid:xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx". Thread-safe.
std::string make_warc_record_id();

// Writes one gzip member (deflate with a gzip header) holding `data` to `out`.
// Throws IoError on a zlib failure.
void gzip_member(std::string_view data, std::string& out, int level = 6);

// The stored form of a received header block (status line + headers +
// empty line) when the body is stored decoded: Content-Encoding,
// Transfer-Encoding and Content-Length lines are kept renamed to
// X-Crawler-Content-Encoding etc., and "Content-Length: payload_len" is
// added. Lines are normalised to CRLF. Thread-safe.
std::string decoded_response_head(std::string_view head, uint64_t payload_len);

class WarcWriter {
public:
    // Files are PREFIX-NNNNN.warc.gz, starting at the first number not already
    // used (a rerun never overwrites). A new file is started before a pair
    // when the current one has reached `max_size` bytes. Nothing is opened
    // until the first write; missing parent directories are created then. `software` goes into warcinfo.
    WarcWriter(std::string prefix, uint64_t max_size, std::string software);
    ~WarcWriter();
    WarcWriter(const WarcWriter&) = delete;
    WarcWriter& operator=(const WarcWriter&) = delete;

    // Writes the request and response records of `ex` (request first; each
    // names the other in WARC-Concurrent-To) and returns where the response
    // record is. The record is compressed and written a piece at a time, so
    // memory stays a few pieces whatever the body's size. Throws IoError
    // when a file cannot be created, written, or the rest of the payload
    // read.
    WarcLocation write(const WarcExchange& ex);

    // Pushes buffered bytes to the file (call when idle). Throws IoError.
    void flush();
    // Flushes and closes the current file. Throws IoError.
    void close();

private:
    void open_next();
    uint64_t append_record(std::string_view header, std::string_view block1, std::string_view block2,
                           int rest_fd = -1, uint64_t rest_size = 0);
    void write_out();

    std::string prefix_;
    uint64_t max_size_;
    std::string software_;
    int next_index_ = 0;
    std::FILE* file_ = nullptr;
    std::string path_;
    uint64_t offset_ = 0;
    std::string gz_;
    z_stream z_{};
    bool z_ready_ = false;
};

}  // namespace frontier
