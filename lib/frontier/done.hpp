// frontier-done's work (frontier-done(1)): matching results to leases, the retry
// policy, politeness wake times, robots.txt storage, revisits, and the
// enqueueing of discovered links through the frontier-add path.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontier/enqueue.hpp"
#include "json/json.hpp"
#include "store/store.hpp"

namespace frontier {

struct DoneCounts {
    int64_t links_added = 0;
    int64_t links_rejected = 0;
};

// Running totals over every processed line, for progress lines and the summary.
struct DoneTally {
    int64_t results = 0;
    int64_t done = 0, cached = 0, retry = 0, failed = 0, blocked = 0, stale = 0, rejected = 0;
    int64_t links_added = 0, links_rejected = 0;
    // "12 done, 1 retry, 0 failed, 0 blocked, 0 stale, 0 rejected; links: 40 added, 3 rejected";
    // cached results count as done, "12 done (2 from cache), ..." when any.
    std::string text() const;
};

class DoneProcessor {
public:
    explicit DoneProcessor(Store& store) : store_(store), enqueuer_(store) {}

    // Applies one input line (inside a Store transaction) and returns the
    // output record's JSON text. Sets `rejected` for bad input.
    std::string process(const InputLine& line, double now, bool& rejected);

    // Before process() of these lines (in the same transaction): reads the
    // rows of their URL leases at once where a read is a round trip
    // (Store::prefetch_leases).
    void prefetch(const InputLine* lines, size_t n);

    // Does each of these lines only end the URL lease it names: a result
    // with a URL lease id, no links, no redirect target, not a robots.txt
    // (or a line to reject)? Such a batch writes only its leases' URL and
    // queue rows and the totals (Store::begin_result_batch, in partitions).
    static bool only_ends_leases(const InputLine* lines, size_t n);
    // only_ends_leases, but a result may carry links where each is
    // nofollow or an absolute plain link: one this process found in the
    // frontier under the current settings (Enqueuer::known), whose adding
    // writes nothing; or, where `locks` is given and the settings let a
    // link write only its own queue's rows (no scope.max-queued), any
    // other, whose queue's key (Enqueuer::target_of) is added to
    // locks->link_queues (each once; at most kMaxLinkQueues of them, else
    // false). Where `locks` is given, a robots.txt result whose body names
    // no sitemap may be among them too: its host is added to
    // locks->robots_hosts.
    bool runs_in_partitions(const InputLine* lines, size_t n, double now, BatchLocks* locks = nullptr);
    // The most queues the links of a batch in partitions may go to: the
    // locks of a batch are taken in one statement, and its queue rows are
    // written once, at its commit.
    static constexpr size_t kMaxLinkQueues = 2048;

    // Totals of everything process() returned so far.
    const DoneTally& tally() const { return tally_; }

private:
    void tally_result(std::string_view result, const DoneCounts& links);
    void prefetch_links(const InputLine* lines, size_t n);

    Store& store_;
    Enqueuer enqueuer_;
    DoneTally tally_;
};

}  // namespace frontier
