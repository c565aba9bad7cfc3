// check_frontier (lib/store/store_check.hpp): the frontier's invariants recounted
// from the tables. Part of the storage module: all of its SQL is here, written
// against the schema of lib/store/schema.cpp; a schema change updates this file.
#include "store/store_check.hpp"

#include <cstdio>
#include <map>
#include <unordered_map>

#include "store/db.hpp"
#include "core/error.hpp"
#include "policy/settings.hpp"
#include "store/store.hpp"
#include "web/url.hpp"

namespace frontier {

// The longest lease a tool hands out (lease.ttl is at most 7 days), with a
// second of slack for clocks read at different moments.
constexpr double kMaxLeaseSeconds = 604800 + 1;

namespace {

// Collects the violations of the check that is running.
class Checker {
public:
    Checker(CheckResult& r, int64_t max_details) : r_(r), max_(max_details) {}
    void start(std::string name) {
        r_.checks.emplace_back(std::move(name), 0);
    }
    void fail(const std::string& detail) {
        auto& c = r_.checks.back();
        if (c.second++ < max_) r_.violations.push_back({c.first, detail});
    }

private:
    CheckResult& r_;
    int64_t max_;
};

// Ends the read transaction however the check ends.
struct ReadTransaction {
    Db& db;
    explicit ReadTransaction(Db& d) : db(d) { db.begin_read(); }
    ~ReadTransaction() { db.rollback(); }
};

int64_t scalar(Db& db, const char* sql) {
    Stmt st = db.prepare(sql);
    return st.step() ? st.i64(0) : 0;
}

std::string num(double v) {
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

std::string short_url(std::string_view u) {
    return u.size() > 200 ? std::string(u.substr(0, 200)) + "..." : std::string(u);
}

void check_counter(Checker& c, const std::map<std::string, int64_t>& stored, const std::string& name,
                   int64_t recount) {
    auto it = stored.find(name);
    int64_t v = it == stored.end() ? 0 : it->second;
    if (v != recount)
        c.fail("counter " + name + ": stored " + std::to_string(v) + ", recount " + std::to_string(recount));
}

}  // namespace

CheckResult check_frontier(Store& store, double now, int64_t max_details) {
    CheckResult r;
    Checker c(r, max_details);
    Db& db = store.db();
    // The duplicate and recount queries sort the whole URL table: on disk,
    // and with SQLite's sorter (which takes up to cache_size of memory before
    // spilling) and page cache at 16 MiB, so that memory stays flat on a
    // large frontier.
    if (!db.postgres()) {
        db.exec("PRAGMA temp_store=FILE");
        db.set_page_cache_mib(16);
    }
    ReadTransaction tx(db);

    c.start("integrity");
    {
        std::string problems = db.integrity_problems();
        for (size_t at = 0, nl; at < problems.size(); at = nl + 1) {
            nl = problems.find('\n', at);
            if (nl == std::string::npos) nl = problems.size();
            c.fail(problems.substr(at, nl - at));
        }
        // PostgreSQL checks its own pages; what it cannot know is that the
        // ids a frontier gives out next (identity sequences) are past every
        // stored id, which an import with explicit ids must ensure.
        if (db.postgres()) {
            for (const char* t : {"queues", "hosts", "urls"}) {
                Stmt st = db.prepare(std::string("SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('") +
                                     t + "', 'id')), 0), coalesce(max(id), 0) FROM " + t);
                if (st.step() && st.i64(0) < st.i64(1))
                    c.fail(std::string(t) + ".id: the identity sequence is at " + std::to_string(st.i64(0)) +
                           ", below the largest id " + std::to_string(st.i64(1)));
            }
        }
    }

    c.start("schema");
    {
        int64_t v = db.schema_version();
        if (v != kSchemaVersion)
            c.fail("user_version is " + std::to_string(v) + ", expected " + std::to_string(kSchemaVersion));
        for (const char* key : {"settings_version", "serve_seq", "fifo_seq"}) {
            Stmt st = db.prepare("SELECT value FROM meta WHERE key = ?");
            st.bind(1, key);
            if (!st.step() || st.is_null(0)) c.fail(std::string("meta key ") + key + " is missing");
        }
    }

    c.start("settings");
    try {
        Stmt st = db.prepare("SELECT key, value FROM settings");
        std::map<std::string, std::string> values;
        while (st.step()) values[st.str(0)] = st.str(1);
        Stmt ds = db.prepare("SELECT domain, key, value FROM domain_settings");
        std::map<std::string, std::map<std::string, std::string>> domains;
        while (ds.step()) domains[ds.str(0)][ds.str(1)] = ds.str(2);
        (void)build_settings(values, domains);
    } catch (const std::exception& e) {
        c.fail(e.what());
    }

    r.urls = scalar(db, "SELECT count(*) FROM urls");
    r.queues = scalar(db, "SELECT count(*) FROM queues");
    r.hosts = scalar(db, "SELECT count(*) FROM hosts");

    c.start("url-state");
    {
        Stmt st = db.prepare("SELECT id, url, state FROM urls WHERE state NOT BETWEEN 0 AND 5");
        while (st.step())
            c.fail("url " + std::to_string(st.i64(0)) + " " + short_url(st.text(1)) + " has state " +
                   std::to_string(st.i64(2)));
    }

    c.start("url-refs");
    {
        Stmt st = db.prepare(
            "SELECT id, url, queue_id, host_id FROM urls "
            "WHERE queue_id NOT IN (SELECT id FROM queues) OR host_id NOT IN (SELECT id FROM hosts)");
        while (st.step())
            c.fail("url " + std::to_string(st.i64(0)) + " " + short_url(st.text(1)) + " refers to queue " +
                   std::to_string(st.i64(2)) + " / host " + std::to_string(st.i64(3)) + ", one of which is missing");
    }

    c.start("duplicate-url");
    {
        Stmt st = db.prepare("SELECT url, count(*) FROM urls GROUP BY url HAVING count(*) > 1");
        while (st.step()) c.fail(short_url(st.text(0)) + " is stored " + std::to_string(st.i64(1)) + " times");
    }

    // One pass over the URLs: fingerprints, leases, and the recounts per
    // state, per queue, per depth and per (discovery, type).
    struct QueueCount {
        int64_t queued = 0, leased = 0, done = 0, failed = 0, blocked = 0, n = 0, ready = 0;
    };
    std::unordered_map<int64_t, QueueCount> per_queue;
    int64_t by_state[6] = {0, 0, 0, 0, 0, 0};
    c.start("fingerprint");
    std::vector<std::string> lease_problems;
    {
        Stmt st = db.prepare("SELECT id, fp, url, state, queue_id, lease_expires, due_at FROM urls");
        while (st.step()) {
            std::string_view url = st.text(2);
            if (static_cast<uint64_t>(st.i64(1)) != url_fingerprint(url))
                c.fail("url " + std::to_string(st.i64(0)) + " " + short_url(url) + ": stored fingerprint " +
                       std::to_string(st.i64(1)) + " is not the URL's");
            int64_t state = st.i64(3);
            if (state >= 0 && state <= 5) ++by_state[state];
            QueueCount& q = per_queue[st.i64(4)];
            ++q.n;
            switch (state) {
                case 0:
                    ++q.queued;
                    if (st.is_null(6)) ++q.ready;
                    break;
                case 1: ++q.leased; break;
                case 2: ++q.done; break;
                case 3: ++q.failed; break;
                case 4: ++q.blocked; break;
                default: break;
            }
            if (state == 1) {
                if (st.is_null(5))
                    lease_problems.push_back("leased url " + short_url(url) + " has no lease expiry");
                else if (st.dbl(5) > now + kMaxLeaseSeconds)
                    lease_problems.push_back("lease of " + short_url(url) + " expires at " + num(st.dbl(5)) +
                                             " (now " + num(now) + "), later than lease.ttl allows");
            }
        }
    }

    c.start("lease");
    for (auto& p : lease_problems) c.fail(p);
    std::unordered_map<int64_t, int64_t> robots_per_queue;
    int64_t robots_leased = 0;
    {
        Stmt st = db.prepare("SELECT name, robots_lease_expires, robots_queue FROM hosts "
                             "WHERE robots_lease_expires IS NOT NULL");
        while (st.step()) {
            ++robots_leased;
            if (st.is_null(2)) c.fail("robots.txt lease of " + st.str(0) + " belongs to no queue");
            else ++robots_per_queue[st.i64(2)];
            if (st.dbl(1) > now + kMaxLeaseSeconds)
                c.fail("robots.txt lease of " + st.str(0) + " expires at " + num(st.dbl(1)) + " (now " +
                       num(now) + "), later than lease.ttl allows");
        }
    }

    c.start("counters");
    {
        std::map<std::string, int64_t> stored;
        Stmt st = db.prepare("SELECT name, n FROM counters");
        while (st.step()) stored[st.str(0)] = st.i64(1);
        const char* names[6] = {"queued", "leased", "done", "failed", "blocked", "disabled"};
        for (int i = 0; i < 6; ++i) check_counter(c, stored, names[i], by_state[i]);
        check_counter(c, stored, "robots_leased", robots_leased);
        check_counter(c, stored, "added", r.urls);
        check_counter(c, stored, "queues", r.queues);
        // depth:* and heat:* are per added URL, recounted with the same
        // buckets as the storage module (depth clamped to 3+, an empty
        // discovery is "seed", an empty type "other").
        Stmt dp = db.prepare("SELECT CASE WHEN depth >= 3 THEN '3+' WHEN depth <= 0 THEN '0' ELSE CAST(depth AS TEXT) "
                             "END, count(*) FROM urls GROUP BY 1");
        std::map<std::string, int64_t> depth;
        while (dp.step()) depth["depth:" + dp.str(0)] = dp.i64(1);
        for (auto& [name, n] : stored)
            if (name.starts_with("depth:") && !depth.count(name)) depth[name] = 0;
        for (auto& [name, n] : depth) check_counter(c, stored, name, n);
        int64_t heat = 0;
        for (auto& [name, n] : stored)
            if (name.starts_with("heat:")) heat += n;
        if (heat != r.urls)
            c.fail("heat:* counters add up to " + std::to_string(heat) + ", but " + std::to_string(r.urls) +
                   " URLs are stored");
        // heatd:* (discovery x depth) add up to the URLs too; the timeline's
        // sums are the crawl:* counters (both written by frontier-done's
        // flush, in one transaction).
        int64_t heatd = 0;
        bool any_heatd = false;
        for (auto& [name, n] : stored)
            if (name.starts_with("heatd:")) {
                heatd += n;
                any_heatd = true;
            }
        if (any_heatd && heatd != r.urls)
            c.fail("heatd:* counters add up to " + std::to_string(heatd) + ", but " + std::to_string(r.urls) +
                   " URLs are stored");
        Stmt tl = db.prepare("SELECT coalesce(sum(pages), 0), coalesce(sum(bytes), 0), coalesce(sum(errors), 0) "
                             "FROM timeline");
        if (tl.step()) {
            const char* tnames[3] = {"crawl:pages", "crawl:bytes", "crawl:errors"};
            for (int i = 0; i < 3; ++i) {
                auto it = stored.find(tnames[i]);
                int64_t n = it == stored.end() ? 0 : it->second;
                if (n != tl.i64(i))
                    c.fail(std::string("counter ") + tnames[i] + " is " + std::to_string(n) + ", but the timeline sums to " +
                           std::to_string(tl.i64(i)));
            }
        }
        tl.reset();
        for (auto& [name, n] : stored)
            if (n < 0) c.fail("counter " + name + " is negative (" + std::to_string(n) + ")");
    }

    c.start("queue-counts");
    c.start("queue-state");
    {
        Stmt st = db.prepare("SELECT id, key, state, queued, in_flight, done, failed, blocked, enqueued, best, "
                             "inactive_seq FROM queues ORDER BY id");
        auto& counts = r.checks[r.checks.size() - 2];
        auto& states = r.checks.back();
        auto fail_in = [&](std::pair<std::string, int64_t>& chk, const std::string& detail) {
            if (chk.second++ < max_details) r.violations.push_back({chk.first, detail});
        };
        while (st.step()) {
            int64_t id = st.i64(0);
            std::string key = st.str(1);
            QueueCount q;
            if (auto it = per_queue.find(id); it != per_queue.end()) q = it->second;
            int64_t robots = robots_per_queue.count(id) ? robots_per_queue[id] : 0;
            struct {
                const char* name;
                int64_t stored, recount;
            } cols[] = {{"queued", st.i64(3), q.queued},      {"in_flight", st.i64(4), q.leased + robots},
                        {"done", st.i64(5), q.done},          {"failed", st.i64(6), q.failed},
                        {"blocked", st.i64(7), q.blocked},    {"enqueued", st.i64(8), q.n}};
            for (auto& col : cols)
                if (col.stored != col.recount)
                    fail_in(counts, "queue " + key + ": " + col.name + " stored " + std::to_string(col.stored) +
                                        ", recount " + std::to_string(col.recount));
            int64_t state = st.i64(2);
            if (state < 0 || state > 3) fail_in(states, "queue " + key + " has state " + std::to_string(state));
            if (state == 1 && st.is_null(10)) fail_in(states, "inactive queue " + key + " has no place in the FIFO");
            if (q.ready > 0 && st.is_null(9))
                fail_in(states, "queue " + key + " holds " + std::to_string(q.ready) +
                                    " due URLs but no best rank: it would never be scheduled");
            per_queue.erase(id);
        }
        for (auto& [id, q] : per_queue)
            if (q.n) fail_in(counts, std::to_string(q.n) + " URLs belong to missing queue " + std::to_string(id));
    }
    return r;
}

}  // namespace frontier
