#include "url_updates.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace frontier {

namespace {

constexpr double kNullDouble = std::numeric_limits<double>::quiet_NaN();

double pack(const std::optional<double>& v) { return v ? *v : kNullDouble; }
std::optional<double> unpack_double(double v) { return std::isnan(v) ? std::nullopt : std::optional<double>(v); }

}  // namespace

void PendingUrlUpdates::add(const UrlUpdate& u) {
    if (auto it = index_.find(u.id); it != index_.end()) index_.erase(it);  // the later update wins
    Packed p{};
    p.id = u.id;
    p.fetched_at = u.fetched_at;
    p.last_visit = u.last_visit;
    p.tier_key = u.tier_key;
    p.due = pack(u.due);
    p.last_success = pack(u.last_success);
    p.interval = pack(u.interval);
    p.next_visit = pack(u.next_visit);
    p.first_success = pack(u.first_success);
    p.retries = u.retries;
    p.failures = u.failures;
    p.visits = u.visits;
    p.successes = u.successes;
    p.changes = u.changes;
    p.tier = u.tier;
    p.has_status = u.status.has_value();
    p.status = u.status.value_or(0);
    p.state = static_cast<int8_t>(u.state);
    p.str_off = static_cast<uint32_t>(strings_.size());
    const std::optional<std::string>* strs[5] = {&u.reason, &u.error_class, &u.etag, &u.http_last_modified,
                                                 &u.content_hash};
    for (int i = 0; i < 5; ++i) {
        if (!*strs[i]) {
            p.str_len[i] = kNull;
            continue;
        }
        p.str_len[i] = static_cast<uint32_t>((*strs[i])->size());
        strings_ += **strs[i];
    }
    index_.emplace(u.id, static_cast<uint32_t>(packed_.size()));
    packed_.push_back(p);
}

std::optional<UrlUpdate> PendingUrlUpdates::take(int64_t id) {
    auto it = index_.find(id);
    if (it == index_.end()) return std::nullopt;
    UrlUpdate u = unpack(packed_[it->second]);
    index_.erase(it);
    if (index_.empty()) clear();
    return u;
}

void PendingUrlUpdates::clear() {
    packed_.clear();
    strings_.clear();
    index_.clear();
}

std::vector<uint32_t> PendingUrlUpdates::sorted() const {
    std::vector<uint32_t> order;
    order.reserve(index_.size());
    for (const auto& [id, i] : index_) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return packed_[a].id < packed_[b].id; });
    return order;
}

UrlUpdate PendingUrlUpdates::unpack(const Packed& p) const {
    UrlUpdate u;
    u.id = p.id;
    u.state = p.state;
    u.fetched_at = p.fetched_at;
    u.last_visit = p.last_visit;
    u.tier_key = p.tier_key;
    u.due = unpack_double(p.due);
    u.last_success = unpack_double(p.last_success);
    u.interval = unpack_double(p.interval);
    u.next_visit = unpack_double(p.next_visit);
    u.first_success = unpack_double(p.first_success);
    u.retries = p.retries;
    u.failures = p.failures;
    u.visits = p.visits;
    u.successes = p.successes;
    u.changes = p.changes;
    u.tier = p.tier;
    if (p.has_status) u.status = p.status;
    std::optional<std::string>* strs[5] = {&u.reason, &u.error_class, &u.etag, &u.http_last_modified,
                                           &u.content_hash};
    size_t off = p.str_off;
    for (int i = 0; i < 5; ++i) {
        if (p.str_len[i] == kNull) continue;
        *strs[i] = strings_.substr(off, p.str_len[i]);
        off += p.str_len[i];
    }
    return u;
}

}  // namespace frontier
