// fetch: fetch URLs with the libcurl multi interface and report each result
// as a JSON line (fetch(1)). Options here; the work is in lib/fetch/fetcher.cpp.
#include "fetch/fetcher.hpp"
#include "net/address_guard.hpp"
#include "core/tool.hpp"

namespace {

// fetch's command line: the options of lib/fetch/fetcher.hpp, and a few
// that map onto them.
struct FetchCommand {
    frontier::FetchOptions o;
    frontier::CommonOptions common;
    std::vector<std::string> inputs;
    bool no_http2 = false;
    std::string addresses;

    void setup(CLI::App& app) {
        frontier::add_common_options(app, common, false);
        app.add_option("inputs", inputs, "input files of JSON lines or bare URLs ('-' = stdin, the default)");
        app.add_option("-c,--concurrency", o.concurrency, "transfers at once (default 32)");
        app.add_option("--per-host", o.per_host, "transfers at once per host:port (default 2)");
        app.add_option("--timeout", o.timeout, "seconds for a whole transfer (default 30)");
        app.add_option("--connect-timeout", o.connect_timeout, "seconds to connect (default 10)");
        app.add_option("--max-size", o.max_size, "largest body in bytes; larger is too-large (default 33554432)");
        app.add_option("--max-memory", o.max_memory,
                       "bytes of bodies kept in memory at once, in flight and waiting to be written "
                       "(default 33554432)");
        app.add_option("--user-agent", o.user_agent,
                       "User-Agent header (default: NAME/0.1.0 (+crawl-frontier; libcurl/VERSION), NAME the "
                       "record's user_agent, else frontier)");
        app.add_option("--conn-retry", o.conn_retry,
                       "seconds a host stays down after a connection failure, or after timeouts in a row "
                       "(default 600)");
        app.add_option("--down-after-timeouts", o.down_after_timeouts,
                       "transfers in a row that time out without a response before their host is down "
                       "(default 2; 0: never)");
        app.add_option("--autothrottle", o.autothrottle,
                       "target concurrency per host for Scrapy-style autothrottle (default 0: off)");
        app.add_option("--autothrottle-start", o.autothrottle_start,
                       "autothrottle delay per host before its first response, seconds (default 5)");
        app.add_option("--autothrottle-max", o.autothrottle_max, "autothrottle delay cap, seconds (default 60)");
        app.add_flag("--links", o.links, "extract links from HTML pages and sitemaps");
        app.add_flag("--body", o.body, "include the body inline as \"body\"");
        app.add_option("--body-max", o.body_max, "inline body cap in bytes for --body (default 512000)");
        app.add_option("--warc", o.warc_prefix, "write WARC/1.1 files PREFIX-00000.warc.gz, ...");
        app.add_option("--warc-max-size", o.warc_max_size, "start a new WARC file past this size (default 1 GiB)");
        app.add_option("--read-ahead", o.read_ahead,
                       "input records held back waiting for their host (default 4 x concurrency + 10000)");
        app.add_flag("--no-http2", no_http2, "never offer HTTP/2 (HTTP/1.1 only)");
        app.add_option("--header", o.headers, "a request header 'Name: value' for every request (repeatable)")
            ->allow_extra_args(false)
            ->check([](const std::string& h) {
                auto colon = h.find(':');
                bool ok = colon != std::string::npos && colon > 0 &&
                          h.find_first_of("\r\n") == std::string::npos &&
                          h.find_first_of(" \t") > colon - 1;
                return ok ? std::string() : "expected 'Name: value' on one line";
            });
        app.add_option("--proxy", o.proxy, "send every request through this proxy (http://, https://, socks5h://)");
        app.add_option("--cacert", o.cacert, "CA certificates to verify servers with (default: $SSL_CERT_FILE, else the system's)");
        app.add_option("--capath", o.capath, "a directory of CA certificates (default: $SSL_CERT_DIR, else the system's)");
        app.add_option("--cookie-jar", o.cookie_jar,
                       "cookies: read from FILE at the start, shared by all transfers, written back at the end");
        app.add_option("--addresses", addresses,
                       "address kinds a record without \"addresses\" may connect to: public, loopback, private, "
                       "special, link-local, all (default: all but link-local)")
            ->check([](const std::string& v) {
                return frontier::parse_address_kinds(v) ? std::string()
                                                        : "expected a comma-separated list of public, loopback, "
                                                          "private, special, link-local or all";
            });
    }

    int run() {
        if (!inputs.empty()) o.inputs = inputs;
        o.http2 = !no_http2;
        if (!addresses.empty()) o.addresses = *frontier::parse_address_kinds(addresses);
        o.quiet = common.quiet;
        o.verbose = common.verbose;
        o.progress = common.progress;
        o.no_progress = common.no_progress;
        return frontier::run_fetch(o);
    }
};

}  // namespace

int main(int argc, char** argv) {
    FetchCommand c;
    return frontier::run_tool(
        "fetch", argc, argv, [&](CLI::App& app) { c.setup(app); }, [&] { return c.run(); },
        "Fetch URLs (JSON lines or bare URLs on stdin) and report one JSON result per line.",
        "  # fetch a list of URLs, 8 at a time, with links and WARC files\n"
        "  fetch -c 8 --links --warc out/site urls.txt > results.jsonl\n"
        "  # as the crawl loop's fetcher\n"
        "  frontier-lease -f crawl.db --follow | fetch --links --warc out/crawl | frontier-done -f crawl.db");
}
