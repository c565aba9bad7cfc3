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

}  // namespace frontier
