// The document a sitemap's XML parser reads (sitemap_input.hpp): gzip
// inflation, the bare-'&' repair, and the two pieced together with the
// attribute-flood repair of lib/web/links.hpp.
#include "web/sitemap_input.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>

namespace frontier {

namespace sitemap_detail {

GunzipReader::GunzipReader(std::string_view gz) : in_(gz) {
    std::memset(&zs_, 0, sizeof zs_);
    done_ = inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK;
    ready_ = !done_;
}

GunzipReader::~GunzipReader() {
    if (ready_) inflateEnd(&zs_);
}

size_t GunzipReader::read(char* out, size_t cap) {
    size_t produced = 0;
    while (!done_ && produced < cap) {
        if (zs_.avail_in == 0) refill();
        size_t room = std::min<size_t>(cap - produced, UINT_MAX);
        zs_.next_out = reinterpret_cast<Bytef*>(out + produced);
        zs_.avail_out = static_cast<uInt>(room);
        int rc = inflate(&zs_, Z_NO_FLUSH);
        produced += room - zs_.avail_out;
        if (rc == Z_STREAM_END) {
            // Another member may follow: gzip allows concatenation.
            if (zs_.avail_in == 0) refill();
            if (zs_.avail_in < 2 || zs_.next_in[0] != 0x1f || zs_.next_in[1] != 0x8b)
                done_ = true;
            else
                inflateReset(&zs_);
        } else if (rc != Z_OK) {
            done_ = true;  // corrupt data, or input ended mid-stream (Z_BUF_ERROR)
        }
    }
    return produced;
}

void GunzipReader::refill() {
    zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in_.data()));
    zs_.avail_in = static_cast<uInt>(std::min<size_t>(in_.size(), UINT_MAX));
    in_.remove_prefix(zs_.avail_in);
}

namespace {

// Whether `xml` at `amp` (an '&') starts an entity or character reference
// (a name or digits, then ';'): 1 yes, 0 no, -1 not known yet: `xml` ends
// first and more may follow (at the end of the document: 0). At most
// kMaxReferenceName name characters or digits are read.
int reference_at(std::string_view xml, size_t amp, bool at_end) {
    auto name_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
               c == ':' || c == '.' || c == '-' || static_cast<unsigned char>(c) >= 0x80;
    };
    const int unknown = at_end ? 0 : -1;
    size_t n = xml.size(), i = amp + 1;
    if (i >= n) return unknown;
    size_t start = i;
    if (xml[i] == '#') {
        if (++i >= n) return unknown;
        bool hex = xml[i] == 'x';
        start = i += hex;
        while (i < n && i - start < kMaxReferenceName &&
               (hex ? std::isxdigit(static_cast<unsigned char>(xml[i]))
                    : std::isdigit(static_cast<unsigned char>(xml[i]))))
            ++i;
    } else {
        while (i < n && i - start < kMaxReferenceName && name_char(xml[i])) ++i;
        if (i > start && (xml[start] == '.' || xml[start] == '-' || (xml[start] >= '0' && xml[start] <= '9')))
            return 0;
    }
    if (i >= n) return unknown;
    return i > start && xml[i] == ';' ? 1 : 0;
}

}  // namespace

void AmpersandEscaper::feed(std::string_view in, bool at_end, std::string& out) {
    std::string_view s = in;
    if (!carry_.empty()) {
        buf_.assign(carry_).append(in);
        s = buf_;
    }
    constexpr std::string_view kOpen = "<![CDATA[", kClose = "]]>";
    size_t n = s.size(), i = 0, copied = 0;
    size_t open = 0;
    bool open_known = false;  // `open`: the next opener at or after i (npos: none)
    while (i < n) {
        if (in_cdata_) {
            size_t close = s.find(kClose, i);
            if (close == std::string_view::npos) {
                i = at_end ? n : held_back(s, i, kClose);
                break;
            }
            in_cdata_ = false;
            i = close + kClose.size();
            continue;
        }
        size_t amp = s.find('&', i);
        if (!open_known || (open != std::string_view::npos && open < i)) {
            open = s.find(kOpen, i);
            open_known = true;
        }
        if (open < amp) {
            in_cdata_ = true;
            i = open + kOpen.size();
            continue;
        }
        if (amp == std::string_view::npos) {
            i = at_end ? n : held_back(s, i, kOpen);
            break;
        }
        int ref = reference_at(s, amp, at_end);
        if (ref < 0) {
            i = amp;
            break;
        }
        if (ref == 0) {
            out.append(s.substr(copied, amp + 1 - copied)).append("amp;");
            copied = amp + 1;
        }
        i = amp + 1;
    }
    out.append(s.substr(copied, i - copied));
    std::string rest(s.substr(i));
    carry_.swap(rest);
}

size_t AmpersandEscaper::held_back(std::string_view s, size_t i, std::string_view token) {
    for (size_t k = std::min(token.size() - 1, s.size() - i); k > 0; --k)
        if (s.substr(s.size() - k) == token.substr(0, k)) return s.size() - k;
    return s.size();
}

RepairedXml::RepairedXml(std::string_view body, size_t chunk)
    : chunk_(std::clamp<size_t>(chunk, 1, kMaxSitemapBytes)) {
    if (is_gzip(body)) {
        gz_.emplace(body);
        buf_.reset(new char[chunk_]);
    } else {
        cut_ = body.size() > kMaxSitemapBytes;
        plain_ = body.substr(0, kMaxSitemapBytes);
    }
}

size_t RepairedXml::read(char* out, size_t len) {
    size_t done = 0;
    while (done < len) {
        if (pos_ == text_.size()) {
            if (ended_) break;
            next();
            continue;
        }
        size_t n = std::min(len - done, text_.size() - pos_);
        std::memcpy(out + done, text_.data() + pos_, n);
        pos_ += n;
        done += n;
    }
    return done;
}

int RepairedXml::read_callback(void* self, char* out, int len) {
    return static_cast<int>(
        static_cast<RepairedXml*>(self)->read(out, static_cast<size_t>(std::max(len, 0))));
}

void RepairedXml::next() {
    text_.clear();
    pos_ = 0;
    std::string_view piece;
    if (gz_) {
        size_t want = std::min(chunk_, kMaxSitemapBytes - total_);
        size_t n = want ? gz_->read(buf_.get(), want) : 0;
        if (want == 0) {
            char probe;
            cut_ = gz_->read(&probe, 1) == 1;
        }
        total_ += n;
        piece = std::string_view(buf_.get(), n);
    } else {
        piece = plain_.substr(0, chunk_);
        plain_.remove_prefix(piece.size());
    }
    if (piece.empty()) {
        escaper_.feed({}, true, text_);
        ended_ = true;
        return;
    }
    splits_.clear();
    scanner_.scan(piece, splits_);
    if (!splits_.empty()) {
        defused_.assign(piece);
        for (size_t i : splits_) defused_[i] = '>';
        piece = defused_;
    }
    escaper_.feed(piece, false, text_);
}

}  // namespace sitemap_detail

using sitemap_detail::GunzipReader;
using sitemap_detail::RepairedXml;

std::string gunzip_capped(std::string_view gz, size_t max_out, bool* truncated) {
    std::string out;
    GunzipReader reader(gz);
    char buf[1 << 16];
    while (out.size() < max_out) {
        size_t n = reader.read(buf, std::min(sizeof buf, max_out - out.size()));
        if (n == 0) break;
        out.append(buf, n);
    }
    char probe;
    if (truncated) *truncated = out.size() == max_out && reader.read(&probe, 1) == 1;
    return out;
}

namespace links_detail {

std::string sitemap_prepass(std::string_view xml, size_t chunk) {
    RepairedXml input(xml, chunk);
    std::string out;
    char buf[4096];
    while (size_t n = input.read(buf, sizeof buf)) out.append(buf, n);
    return out;
}

}  // namespace links_detail

}  // namespace frontier
