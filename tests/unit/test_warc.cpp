// Unit tests for lib/fetch/warc.hpp: record ids, gzip members, the stored header
// block, and the writer (warcinfo, pairs, offsets, rotation).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <zlib.h>

#include "core/sha1.hpp"
#include "temp_dir.hpp"
#include "fetch/warc.hpp"

using namespace frontier;

namespace {

std::string read_file(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Inflates one gzip member starting at `data`; sets `used` to its length.
std::string gunzip_member(std::string_view data, size_t& used) {
    z_stream z{};
    REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    std::string out;
    int rc;
    do {
        char buf[65536];
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        REQUIRE((rc == Z_OK || rc == Z_STREAM_END));
        out.append(buf, sizeof buf - z.avail_out);
    } while (rc != Z_STREAM_END);
    used = data.size() - z.avail_in;
    inflateEnd(&z);
    return out;
}

}  // namespace

TEST_CASE("warc: record ids are distinct v4 UUID URNs", "[warc]") {
    std::set<std::string> ids;
    for (int i = 0; i < 1000; ++i) {
        std::string id = make_warc_record_id();
        REQUIRE(id.size() == 45);
        CHECK(id.compare(0, 9, "urn:uuid:") == 0);
        CHECK(id[23] == '4');
        CHECK(std::string("89ab").find(id[28]) != std::string::npos);
        ids.insert(id);
    }
    CHECK(ids.size() == 1000);
}

TEST_CASE("warc: gzip_member round-trips", "[warc]") {
    std::string gz;
    gzip_member("hello, warc", gz);
    size_t used = 0;
    CHECK(gunzip_member(gz, used) == "hello, warc");
    CHECK(used == gz.size());
}

TEST_CASE("warc: decoded_response_head renames encoding headers", "[warc]") {
    std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
        "Transfer-Encoding: chunked\r\ncontent-length: 99\r\n\r\n";
    std::string got = decoded_response_head(head, 1234);
    CHECK(got ==
          "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Crawler-Content-Encoding: gzip\r\n"
          "X-Crawler-Transfer-Encoding: chunked\r\nX-Crawler-content-length: 99\r\nContent-Length: 1234\r\n\r\n");
    // Bare LF lines are normalised; the status line is never renamed.
    CHECK(decoded_response_head("HTTP/2 204\nserver: x\n\n", 0) == "HTTP/2 204\r\nserver: x\r\nContent-Length: 0\r\n\r\n");
}

TEST_CASE("warc: writer files, pairs, offsets and rotation", "[warc]") {
    TempDir dir;
    std::string prefix = dir.path + "/sub/crawl";
    std::vector<WarcLocation> locs;
    {
        WarcWriter w(prefix, 1500, "fetch-test/1");
        for (int i = 0; i < 6; ++i) {
            WarcExchange ex;
            ex.target_uri = "http://example.com/" + std::to_string(i);
            ex.ip = "127.0.0.1";
            ex.date = 1700000000 + i;
            ex.request = "GET /" + std::to_string(i) + " HTTP/1.1\r\nHost: example.com\r\n\r\n";
            ex.response_head = "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n";
            std::string body(500, static_cast<char>('a' + i));
            ex.payload = body;
            locs.push_back(w.write(ex));
        }
        w.close();
    }
    CHECK(locs.front().file == prefix + "-00000.warc.gz");
    CHECK(locs.back().file != locs.front().file);  // rotated past 1500 bytes
    std::set<std::string> files;
    for (const auto& l : locs) files.insert(l.file);
    for (const auto& f : files) {
        std::string data = read_file(f);
        size_t pos = 0, used = 0;
        std::string first = gunzip_member(std::string_view(data).substr(pos), used);
        CHECK(first.find("WARC-Type: warcinfo") != std::string::npos);
        CHECK(first.find("software: fetch-test/1") != std::string::npos);
        pos += used;
        int records = 0;
        while (pos < data.size()) {
            std::string rec = gunzip_member(std::string_view(data).substr(pos), used);
            CHECK(rec.compare(0, 10, "WARC/1.1\r\n") == 0);
            CHECK(rec.substr(rec.size() - 4) == "\r\n\r\n");
            pos += used;
            ++records;
        }
        CHECK(records % 2 == 0);
    }
    for (int i = 0; i < 6; ++i) {
        std::string data = read_file(locs[i].file);
        REQUIRE(locs[i].offset + locs[i].length <= data.size());
        size_t used = 0;
        std::string rec = gunzip_member(std::string_view(data).substr(locs[i].offset, locs[i].length), used);
        CHECK(used == locs[i].length);
        CHECK(rec.find("WARC-Type: response") != std::string::npos);
        CHECK(rec.find("WARC-Target-URI: http://example.com/" + std::to_string(i) + "\r\n") != std::string::npos);
        CHECK(rec.find("WARC-IP-Address: 127.0.0.1") != std::string::npos);
        CHECK(rec.find("WARC-Payload-Digest: " + warc_sha1(std::string(500, static_cast<char>('a' + i)))) !=
              std::string::npos);
        CHECK(rec.find("Content-Length: 540\r\n") != std::string::npos);  // 40 header bytes + 500
    }
    // A second writer with the same prefix never overwrites.
    WarcWriter again(prefix, 1 << 20, "x");
    WarcExchange ex;
    ex.target_uri = "http://example.com/";
    ex.response_head = "HTTP/1.1 200 OK\r\n\r\n";
    WarcLocation l = again.write(ex);
    CHECK(files.count(l.file) == 0);
}

TEST_CASE("warc: a payload partly in a file gives the record of the whole payload", "[warc]") {
    TempDir dir;
    std::string body;
    for (int i = 0; body.size() < (5u << 20); ++i)
        body += "<a href=/" + std::to_string(i * 7919 % 100003) + ">x</a>\n";
    auto record = [&](const std::string& prefix, size_t in_memory) {
        WarcWriter w(dir.path + "/" + prefix, 1 << 30, "fetch-test/1");
        WarcExchange ex;
        ex.target_uri = "http://example.com/big";
        ex.date = 1700000000;
        ex.request = "GET /big HTTP/1.1\r\n\r\n";
        ex.response_head = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
        ex.payload = std::string_view(body).substr(0, in_memory);
        std::string rest = body.substr(in_memory);
        char path[] = "/tmp/frontier-rest-XXXXXX";
        int fd = mkstemp(path);
        REQUIRE(fd >= 0);
        unlink(path);
        REQUIRE(write(fd, rest.data(), rest.size()) == static_cast<ssize_t>(rest.size()));
        if (!rest.empty()) {
            ex.payload_rest_fd = fd;
            ex.payload_rest_size = rest.size();
        }
        WarcLocation loc = w.write(ex);
        w.close();
        close(fd);
        std::string data = read_file(loc.file);
        size_t used = 0;
        std::string rec = gunzip_member(std::string_view(data).substr(loc.offset, loc.length), used);
        CHECK(used == loc.length);
        // Record ids are random: compare without them.
        for (size_t p = rec.find("urn:uuid:"); p != std::string::npos; p = rec.find("urn:uuid:", p + 1))
            rec.replace(p, 45, std::string(45, 'x'));
        return rec;
    };
    std::string whole = record("whole", body.size());
    CHECK(whole.find("WARC-Payload-Digest: " + warc_sha1(body) + "\r\n") != std::string::npos);
    CHECK(whole.find("\r\n\r\n" + body.substr(0, 100)) != std::string::npos);
    for (size_t in_memory : {size_t{0}, size_t{1}, size_t{1} << 20, body.size() - 1}) {
        INFO(in_memory);
        CHECK(record("part" + std::to_string(in_memory), in_memory) == whole);
    }
}
