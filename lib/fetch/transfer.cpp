#include "fetch/transfer.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/ascii.hpp"
#include "core/clock.hpp"
#include "core/http_date.hpp"
#include "net/address_guard.hpp"
#include "core/output.hpp"
#include "web/robots.hpp"

namespace frontier {

std::string classify_curl_error(CURLcode rc, bool too_large) {
    if (too_large) return "too-large";
    switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return "dns";
    case CURLE_COULDNT_CONNECT: return "connect";
    case CURLE_OPERATION_TIMEDOUT: return "timeout";
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return "reset";
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_USE_SSL_FAILED: return "tls";
    case CURLE_FILESIZE_EXCEEDED: return "too-large";
    case CURLE_URL_MALFORMAT: return "bad-url";
    // The input is always http(s) (lib/fetch/fetch_input.cpp), so these are the
    // server's doing: an HTTP/0.9 or otherwise broken reply, a redirect to
    // another scheme (robots.txt), a body that lies about its encoding.
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_BAD_CONTENT_ENCODING: return "protocol";
    case CURLE_TOO_MANY_REDIRECTS: return "too-many-redirects";
    default: return "other";
    }
}

std::string user_agent_for(std::string_view crawler) {
    return std::string(crawler) + "/0.1.0 (+crawl-frontier; libcurl/" + curl_version_info(CURLVERSION_NOW)->version + ")";
}

std::string default_user_agent() { return user_agent_for("frontier"); }

Transfer::Transfer(const FetchOptions& opt, BodyBudget* budget, CURLSH* share)
    : opt_(opt), budget_(budget), xxh_(XXH3_createState()) {
    if (!xxh_) throw std::bad_alloc();
    CURL* e = easy_.get();
    curl_easy_setopt(e, CURLOPT_PRIVATE, this);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Transfer::on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Transfer::on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, opt.http2 ? long(CURL_HTTP_VERSION_2TLS) : long(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(opt.timeout * 1000));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(opt.connect_timeout * 1000));
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(opt.max_size));
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf_);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, &Transfer::on_open_socket);
    curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, this);
    // Options users expect of a fetcher (fetch(1)): a proxy (only when given:
    // the proxy environment variables are not read), CA certificates
    // (--cacert/--capath, else $SSL_CERT_FILE/$SSL_CERT_DIR as OpenSSL reads
    // them), a cookie jar shared by all transfers.
    curl_easy_setopt(e, CURLOPT_PROXY, opt.proxy.c_str());
    const char* env_file = std::getenv("SSL_CERT_FILE");
    const char* env_dir = std::getenv("SSL_CERT_DIR");
    if (!opt.cacert.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, opt.cacert.c_str());
    else if (env_file && *env_file) curl_easy_setopt(e, CURLOPT_CAINFO, env_file);
    if (!opt.capath.empty()) curl_easy_setopt(e, CURLOPT_CAPATH, opt.capath.c_str());
    else if (env_dir && *env_dir) curl_easy_setopt(e, CURLOPT_CAPATH, env_dir);
    if (!opt.cookie_jar.empty()) {
        curl_easy_setopt(e, CURLOPT_COOKIEFILE, opt.cookie_jar.c_str());
        curl_easy_setopt(e, CURLOPT_COOKIEJAR, opt.cookie_jar.c_str());
        if (share) curl_easy_setopt(e, CURLOPT_SHARE, share);
    }
    if (!opt.warc_prefix.empty()) {
        curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, &Transfer::on_debug);
        curl_easy_setopt(e, CURLOPT_DEBUGDATA, this);
        curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
    }
}

Transfer::~Transfer() { XXH3_freeState(xxh_); }

uint64_t Transfer::keep_limit(const FetchOptions& opt, const FetchJob& job) {
    uint64_t limit = 0;
    if (opt.links || !opt.warc_prefix.empty()) limit = opt.max_size;
    if (opt.body) limit = std::max<uint64_t>(limit, opt.body_max);
    if (job.robots) limit = std::max<uint64_t>(limit, kRobotsMaxBytes);
    return limit;
}

uint64_t Transfer::guaranteed(const FetchOptions& opt, const FetchJob& job, uint64_t share) {
    uint64_t always = job.robots ? kRobotsMaxBytes : opt.body ? opt.body_max : 0;
    return std::min(keep_limit(opt, job), std::max(share, always));
}

void Transfer::begin(FetchJob&& job, double fetched_at, BodyCharge&& charge) {
    res_ = FetchResult();
    pieces_.clear();
    res_.charge = std::move(charge);
    res_.job = std::move(job);
    res_.fetched_at = fetched_at;
    res_.warc = !opt_.warc_prefix.empty();
    too_large_ = robots_cut_ = conn_failed_ = response_seen_ = false;
    responses_ = 0;
    first_kind_ = 0;
    denied_.clear();
    response_url_.clear();
    latency_ = 0;
    errbuf_[0] = '\0';
    retry_after_raw_.clear();
    last_modified_raw_.clear();
    location_raw_.clear();
    XXH3_64bits_reset(xxh_);
    keep_limit_ = keep_limit(opt_, res_.job);

    CURL* e = easy_.get();
    headers_.reset();
    if (!res_.job.etag.empty()) headers_.append(("If-None-Match: " + res_.job.etag).c_str());
    if (res_.job.if_modified_since)
        headers_.append(("If-Modified-Since: " + format_http_date(*res_.job.if_modified_since)).c_str());
    for (const std::string& h : opt_.headers) headers_.append(h.c_str());
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers_.get());
    // One crawler identity (fetch(1), --user-agent): the name robots.txt was
    // matched with (the record's user_agent, from robots.user-agent) is the
    // name the site sees, unless --user-agent says otherwise.
    if (!opt_.user_agent.empty()) {
        user_agent_ = opt_.user_agent;
        static std::atomic<bool> warned{false};
        if (!res_.job.user_agent.empty() && !iequals(product_token(opt_.user_agent), res_.job.user_agent) &&
            !warned.exchange(true))
            diag("warning: --user-agent '" + opt_.user_agent + "' names another crawler than the records' '" +
                 res_.job.user_agent + "' (robots.user-agent), whose robots.txt rules the frontier applies");
    } else if (user_agent_.empty() || crawler_ != res_.job.user_agent)
        user_agent_ = user_agent_for(res_.job.user_agent.empty() ? "frontier" : res_.job.user_agent);
    crawler_ = res_.job.user_agent;
    curl_easy_setopt(e, CURLOPT_USERAGENT, user_agent_.c_str());
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, res_.job.robots ? 1L : 0L);
    // A robots.txt is read up to kRobotsMaxBytes (RFC 9309 2.5) and cut
    // there, whatever its announced length: --max-size does not apply.
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE,
                     static_cast<curl_off_t>(res_.job.robots ? 0 : opt_.max_size));
    curl_easy_setopt(e, CURLOPT_URL, res_.job.url.c_str());
    // Wait for a connection's multiplexing to be known only where HTTP/2 is
    // likely (https, with HTTP/2 offered): on plain http (HTTP/1.1) it would
    // hold a new host's other requests until the first response came.
    bool https = res_.job.url.size() > 8 && (res_.job.url[4] | 0x20) == 's' && res_.job.url[5] == ':';
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, https && opt_.http2 ? 1L : 0L);
    if (!opt_.proxy.empty()) check_target_through_proxy();
}

// The address kinds this transfer's job may reach: its record's, else
// --addresses, else all but link-local (fetch(1), ADDRESS GUARD).
unsigned Transfer::allowed_kinds() const {
    return res_.job.addresses ? res_.job.addresses : opt_.addresses ? opt_.addresses : kAddrDefault;
}

namespace {
// "address guard: ADDR is a KIND address; this URL may connect to K,K addresses"
std::string refused_kind(std::string_view addr, AddressKind kind, unsigned allowed) {
    return "address guard: " + std::string(addr) + " is a " + address_kind_name(kind) +
           " address; this URL may connect to " + format_address_kinds(allowed) + " addresses";
}
}  // namespace

// With --proxy, the address guard sees only the proxy's address: a target
// written as an IP address, or a localhost name (RFC 6761), is checked here
// against the record's kinds; other names are resolved by the proxy.
void Transfer::check_target_through_proxy() {
    std::string_view host = res_.job.host;
    if (!host.empty() && host.front() == '[') host = host.substr(0, host.find(']') + 1);
    else host = host.substr(0, host.find(':'));
    std::optional<AddressKind> kind = address_kind(host);
    if (!kind && (host == "localhost" || (host.size() > 10 && host.substr(host.size() - 10) == ".localhost")))
        kind = kAddrLoopback;
    unsigned allowed = allowed_kinds();
    if (kind && !(allowed & *kind)) denied_ = refused_kind(host, *kind, allowed);
}

// The address guard (fetch(1), ADDRESS GUARD): every connection is checked
// on the address it is about to connect to, after DNS, so no name can lead
// past it. The job's kinds apply to every connection, and a redirect
// (robots.txt records) from a public address may not lead to another kind:
// a public host cannot send the fetcher into a local network.
curl_socket_t Transfer::on_open_socket(void* self, curlsocktype purpose, struct curl_sockaddr* a) {
    auto* t = static_cast<Transfer*>(self);
    // Through a proxy the socket goes to the proxy, which the user chose;
    // the target's address is the proxy's to resolve (begin() checks
    // literal addresses and localhost names).
    if (purpose == CURLSOCKTYPE_IPCXN && !t->opt_.proxy.empty()) {
        if (!t->denied_.empty()) return CURL_SOCKET_BAD;
        return socket(a->family, a->socktype, a->protocol);
    }
    if (purpose == CURLSOCKTYPE_IPCXN) {
        unsigned allowed = t->allowed_kinds();
        AddressKind kind = address_kind(&a->addr);
        if (!connection_allowed(allowed, kind, t->first_kind_, t->responses_ > 0)) {
            char text[INET6_ADDRSTRLEN] = "?";
            if (a->family == AF_INET)
                inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&a->addr)->sin_addr, text, sizeof text);
            else if (a->family == AF_INET6)
                inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&a->addr)->sin6_addr, text, sizeof text);
            t->denied_ = (allowed & kind) ? std::string("address guard: ") + text + " is a " +
                                                address_kind_name(kind) +
                                                " address, and a redirect from a public address may not lead to one"
                                          : refused_kind(text, kind, allowed);
            return CURL_SOCKET_BAD;
        }
        if (t->first_kind_ == 0) t->first_kind_ = kind;
    }
    return socket(a->family, a->socktype, a->protocol);
}

namespace {
bool header_is(std::string_view line, std::string_view name, std::string_view& value) {
    if (line.size() <= name.size() || line[name.size()] != ':') return false;
    for (size_t i = 0; i < name.size(); ++i)
        if ((line[i] | 0x20) != name[i]) return false;
    value = line.substr(name.size() + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    return true;
}
}  // namespace

void Transfer::header_line(std::string_view line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    if (line.size() >= 5 && line.compare(0, 5, "HTTP/") == 0) {
        ++responses_;
        res_.etag.clear();
        retry_after_raw_.clear();
        last_modified_raw_.clear();
        location_raw_.clear();
        response_seen_ = true;
        char* url = nullptr;
        if (curl_easy_getinfo(easy(), CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK && url) response_url_ = url;
        return;
    }
    std::string_view v;
    switch (line.empty() ? 0 : (line[0] | 0x20)) {
    case 'e':
        if (header_is(line, "etag", v)) res_.etag.assign(v);
        break;
    case 'l':
        if (header_is(line, "last-modified", v)) last_modified_raw_.assign(v);
        else if (header_is(line, "location", v)) location_raw_.assign(v);
        break;
    case 'r':
        if (header_is(line, "retry-after", v)) retry_after_raw_.assign(v);
        break;
    default: break;
    }
}

size_t Transfer::on_header(char* p, size_t size, size_t n, void* self) {
    auto* t = static_cast<Transfer*>(self);
    size_t len = size * n;
    std::string_view line(p, len);
    if (t->res_.warc) {
        if (line.size() >= 5 && line.compare(0, 5, "HTTP/") == 0) t->res_.response_head.clear();
        t->res_.response_head.append(line);
    }
    t->header_line(line);
    return len;
}

int Transfer::on_debug(CURL*, curl_infotype type, char* p, size_t n, void* self) {
    if (type != CURLINFO_HEADER_OUT) return 0;
    auto* t = static_cast<Transfer*>(self);
    if (t->response_seen_) {  // a new request after a redirect
        t->res_.request_head.clear();
        t->response_seen_ = false;
    }
    t->res_.request_head.append(p, n);
    return 0;
}

// For a robots.txt fetch that ended on a 3xx: did libcurl stop because it
// would not follow the redirect (rather than because following it failed)?
// More than 5 redirects; a Location of another scheme (libcurl moved to it,
// then refused it) or one it could not parse (libcurl stayed on the URL that
// sent the 3xx). A failure of the new URL itself (HTTP/0.9, DNS, ...) is not.
bool Transfer::unfollowed_redirect(CURLcode rc) const {
    if (rc == CURLE_TOO_MANY_REDIRECTS) return true;
    if (rc != CURLE_UNSUPPORTED_PROTOCOL && rc != CURLE_URL_MALFORMAT) return false;
    std::string_view eff = res_.effective_url.empty() ? std::string_view(res_.job.url) : res_.effective_url;
    if (eff == response_url_) return true;
    auto starts = [&](std::string_view prefix) {
        if (eff.size() < prefix.size()) return false;
        for (size_t i = 0; i < prefix.size(); ++i)
            if ((eff[i] | 0x20) != prefix[i]) return false;
        return true;
    };
    return !starts("http://") && !starts("https://");
}

FetchResult Transfer::finish(CURLcode rc) {
    CURL* e = easy_.get();
    long code = 0;
    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
    res_.status = static_cast<int>(code);
    curl_off_t total = 0, start = 0, pretransfer = 0;
    curl_easy_getinfo(e, CURLINFO_TOTAL_TIME_T, &total);
    curl_easy_getinfo(e, CURLINFO_STARTTRANSFER_TIME_T, &start);
    curl_easy_getinfo(e, CURLINFO_PRETRANSFER_TIME_T, &pretransfer);
    // fetched_at + duration_ms is where the host's politeness delay starts
    // (frontier(7), POLITENESS): never before the transfer ended. libcurl's
    // total starts when the multi handle first runs the transfer, which on a
    // busy fetch may be a while after fetched_at, so the time since then
    // counts when it is longer.
    const double since = (now() - res_.fetched_at) * 1000;
    res_.duration_ms = std::max<int64_t>(total / 1000, since > 0 ? static_cast<int64_t>(std::ceil(since)) : 0);
    res_.ttfb_ms = res_.status > 0 ? start / 1000 : -1;
    latency_ = static_cast<double>(start) / 1e6;
    char* s = nullptr;
    if (curl_easy_getinfo(e, CURLINFO_CONTENT_TYPE, &s) == CURLE_OK && s) res_.content_type = s;
    s = nullptr;
    if (res_.status >= 300 && res_.status < 400 && curl_easy_getinfo(e, CURLINFO_REDIRECT_URL, &s) == CURLE_OK && s)
        res_.location = s;
    s = nullptr;
    if (curl_easy_getinfo(e, CURLINFO_EFFECTIVE_URL, &s) == CURLE_OK && s && res_.job.url != s) res_.effective_url = s;
    s = nullptr;
    if (curl_easy_getinfo(e, CURLINFO_PRIMARY_IP, &s) == CURLE_OK && s && *s) res_.ip = s;
    if (!last_modified_raw_.empty()) res_.http_last_modified = parse_http_date(last_modified_raw_);
    if (!retry_after_raw_.empty()) res_.retry_after = parse_retry_after(retry_after_raw_, now());
    if (rc == CURLE_OK) {
        res_.content_hash = XXH3_64bits_digest(xxh_);
    } else if (robots_cut_ && rc == CURLE_WRITE_ERROR) {
        // The first kRobotsMaxBytes of a longer robots.txt: a success with
        // that prefix (no content_hash: the body is not complete).
        res_.truncated = "length";
    } else if (res_.job.robots && res_.status >= 300 && res_.status < 400 && unfollowed_redirect(rc)) {
        // A redirect that is not followed (a 6th one, a loop, another
        // scheme, an unparsable Location) is reported as what it is: the
        // 3xx, with its location. frontier-done reads it as "unavailable".
        if (res_.location.empty())
            res_.location = res_.effective_url.empty() || res_.effective_url == response_url_ ? location_raw_
                                                                                             : res_.effective_url;
        res_.effective_url = response_url_ == res_.job.url ? std::string() : response_url_;
    } else if (!denied_.empty()) {
        // Refused by the address guard: not a host that is down (no
        // host-down back-off), a failure of this URL.
        res_.error_class = "blocked-address";
        res_.error = denied_;
    } else {
        res_.error_class = classify_curl_error(rc, too_large_);
        res_.error = errbuf_[0] ? errbuf_ : curl_easy_strerror(rc);
        bool connect_timeout = rc == CURLE_OPERATION_TIMEDOUT && pretransfer == 0 && res_.status == 0;
        conn_failed_ = res_.error_class == "dns" || res_.error_class == "connect" || connect_timeout;
        if (connect_timeout) res_.error = "connection timed out";
        if (res_.error_class == "too-large")
            res_.error = "body larger than --max-size (" + std::to_string(opt_.max_size) + " bytes)";
        res_.truncated = res_.error_class == "too-large" ? "length" : rc == CURLE_OPERATION_TIMEDOUT ? "time" : "disconnect";
    }
    res_.have_body = res_.status > 0 && keep_limit_ > 0;
    join_pieces();
    if (budget_) budget_->finish(res_.charge);
    if (!res_.have_body) {
        std::string().swap(res_.body);
        res_.spill.reset();
        res_.charge.release();
    }
    return std::move(res_);
}

}  // namespace frontier
