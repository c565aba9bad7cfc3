// Names of the model's enums (lib/policy/model.hpp): the words the tools print.
#include "policy/model.hpp"

namespace frontier {

const char* url_state_name(UrlState s) {
    switch (s) {
        case UrlState::queued: return "queued";
        case UrlState::leased: return "leased";
        case UrlState::done: return "done";
        case UrlState::failed: return "failed";
        case UrlState::blocked: return "blocked";
        case UrlState::disabled: return "disabled";
    }
    return "unknown";
}

const char* add_status_name(AddStatus s) {
    switch (s) {
        case AddStatus::added: return "added";
        case AddStatus::duplicate: return "duplicate";
        case AddStatus::updated: return "updated";
        case AddStatus::rejected: return "rejected";
    }
    return "unknown";
}

namespace {

// The one table of AddReason's words, in the enum's order.
constexpr const char* kAddReasonNames[] = {
    "",
    "bad-json", "bad-utf8", "nul-byte", "line-too-long", "not-object",
    "missing-url", "bad-url", "bad-scheme", "bad-field",
    "url-too-long", "out-of-scope", "max-depth", "bad-priority",
    "queue-full",
};
constexpr size_t kAddReasons = sizeof kAddReasonNames / sizeof kAddReasonNames[0];
static_assert(kAddReasons == static_cast<size_t>(AddReason::queue_full) + 1, "one name per AddReason");

}  // namespace

const char* add_reason_name(AddReason r) {
    auto i = static_cast<size_t>(r);
    return i < kAddReasons ? kAddReasonNames[i] : "unknown";
}

std::optional<AddReason> add_reason_from_name(std::string_view name) {
    for (size_t i = 0; i < kAddReasons; ++i)
        if (name == kAddReasonNames[i]) return static_cast<AddReason>(i);
    return std::nullopt;
}

}  // namespace frontier
