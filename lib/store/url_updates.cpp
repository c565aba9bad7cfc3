#include "store/url_updates.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace frontier {

namespace {

// The columns of a UrlUpdate by kind, in Packed's order.
constexpr double UrlUpdate::*kDoubles[] = {&UrlUpdate::fetched_at, &UrlUpdate::last_visit, &UrlUpdate::tier_key};
constexpr std::optional<double> UrlUpdate::*kOptDoubles[] = {&UrlUpdate::due, &UrlUpdate::last_success,
                                                             &UrlUpdate::interval, &UrlUpdate::next_visit,
                                                             &UrlUpdate::first_success};
constexpr int64_t UrlUpdate::*kInts[] = {&UrlUpdate::retries,   &UrlUpdate::failures, &UrlUpdate::visits,
                                         &UrlUpdate::successes, &UrlUpdate::changes,  &UrlUpdate::tier};
constexpr std::optional<std::string> UrlUpdate::*kStrings[] = {&UrlUpdate::reason, &UrlUpdate::error_class,
                                                               &UrlUpdate::etag, &UrlUpdate::http_last_modified,
                                                               &UrlUpdate::content_hash};
static_assert(std::size(kDoubles) == std::size(PendingUrlUpdates::Packed{}.doubles));
static_assert(std::size(kOptDoubles) == std::size(PendingUrlUpdates::Packed{}.opt_doubles));
static_assert(std::size(kInts) == std::size(PendingUrlUpdates::Packed{}.ints));
static_assert(std::size(kStrings) == std::size(PendingUrlUpdates::Packed{}.str_len));

constexpr double kNullDouble = std::numeric_limits<double>::quiet_NaN();

}  // namespace

void PendingUrlUpdates::add(const UrlUpdate& u) {
    if (auto it = index_.find(u.id); it != index_.end()) index_.erase(it);  // the later update wins
    Packed p{};
    p.id = u.id;
    p.state = static_cast<int8_t>(u.state);
    p.has_status = u.status.has_value();
    p.status = u.status.value_or(0);
    for (size_t i = 0; i < std::size(kDoubles); ++i) p.doubles[i] = u.*kDoubles[i];
    for (size_t i = 0; i < std::size(kOptDoubles); ++i) p.opt_doubles[i] = (u.*kOptDoubles[i]).value_or(kNullDouble);
    for (size_t i = 0; i < std::size(kInts); ++i) p.ints[i] = u.*kInts[i];
    p.str_off = strings_.size();
    for (size_t i = 0; i < std::size(kStrings); ++i) {
        const std::optional<std::string>& v = u.*kStrings[i];
        p.str_len[i] = v ? static_cast<uint32_t>(v->size()) : kNull;
        if (v) strings_ += *v;
    }
    index_.emplace(u.id, static_cast<uint32_t>(packed_.size()));
    packed_.push_back(p);
}

UrlUpdate PendingUrlUpdates::unpack(const Packed& p) const {
    UrlUpdate u;
    u.id = p.id;
    u.state = p.state;
    if (p.has_status) u.status = p.status;
    for (size_t i = 0; i < std::size(kDoubles); ++i) u.*kDoubles[i] = p.doubles[i];
    for (size_t i = 0; i < std::size(kOptDoubles); ++i)
        if (!std::isnan(p.opt_doubles[i])) u.*kOptDoubles[i] = p.opt_doubles[i];
    for (size_t i = 0; i < std::size(kInts); ++i) u.*kInts[i] = p.ints[i];
    size_t off = p.str_off;
    for (size_t i = 0; i < std::size(kStrings); ++i) {
        if (p.str_len[i] == kNull) continue;
        u.*kStrings[i] = strings_.substr(off, p.str_len[i]);
        off += p.str_len[i];
    }
    return u;
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

}  // namespace frontier
