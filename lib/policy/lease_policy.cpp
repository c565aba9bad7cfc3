#include "policy/lease_policy.hpp"

namespace frontier {

Activation activation(int64_t total_spend, int64_t replenish, int64_t total) {
    if ((total >= 0 && total_spend >= total) || replenish <= 0) return Activation::retire;
    return Activation::activate;
}

AfterSpend after_spend(int64_t total_spend, int64_t session_balance, int64_t replenish, int64_t total,
                       bool others_inactive) {
    if (over_total(total_spend, total)) return AfterSpend::retire;
    if (session_balance > 0) return AfterSpend::keep;
    if (others_inactive) return AfterSpend::rotate_out;
    return replenish <= 0 ? AfterSpend::retire : AfterSpend::refill;
}

int64_t encode_class_run(const ClassRun& r) {
    return r.cls < 0 ? -1 : r.run * 2 + (r.cls == kClassAcquisition ? 1 : 0);
}

ClassRun decode_class_run(int64_t v) {
    if (v < 0) return {};
    return {static_cast<int>(v & 1), v >> 1};
}

int forced_class(const ClassRun& r, int64_t burst) {
    if (burst <= 0 || r.cls < 0 || r.run < burst) return -1;
    return r.cls == kClassAcquisition ? kClassDiscovery : kClassAcquisition;
}

ClassRun after_class_lease(ClassRun r, int cls) {
    if (r.cls == cls) return {cls, r.run + 1};
    return {cls, 1};
}

RobotsStep robots_step(RobotsState state, double robots_at, double retry_at, bool outstanding, double now) {
    bool need = state == RobotsState::unknown || (state == RobotsState::known && robots_at + kRobotsMaxAge <= now) ||
                (state == RobotsState::unreachable && retry_at <= now);
    if (need) return outstanding ? RobotsStep::wait_lease : RobotsStep::fetch_robots;
    if (state == RobotsState::unreachable) return RobotsStep::hold;
    if (state == RobotsState::given_up) return RobotsStep::fail_url;
    return RobotsStep::check_rules;
}

}  // namespace frontier
