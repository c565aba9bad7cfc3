#include "core/clock.hpp"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <ctime>

#include "core/error.hpp"
#include "core/signals.hpp"

namespace frontier {

double now() {
    if (const char* env = std::getenv("FRONTIER_NOW"); env && *env) {
        char* end = nullptr;
        double v = std::strtod(env, &end);
        if (end == env || *end != '\0') throw UsageError("FRONTIER_NOW is not a number: " + std::string(env));
        return v;
    }
    auto t = std::chrono::system_clock::now().time_since_epoch();
    return std::chrono::duration<double>(t).count();
}

bool clock_is_fixed() {
    const char* env = std::getenv("FRONTIER_NOW");
    return env && *env;
}

void sleep_for(double seconds) {
    if (seconds <= 0) return;
    timespec ts;
    ts.tv_sec = static_cast<time_t>(seconds);
    ts.tv_nsec = static_cast<long>((seconds - static_cast<double>(ts.tv_sec)) * 1e9);
    while (!stop_requested() && nanosleep(&ts, &ts) == -1 && errno == EINTR) {
    }
}

bool sane_time(double t, double now_s) {
    constexpr double kEarliestTime = 631152000;  // 1990-01-01T00:00:00Z
    constexpr double kFutureSlack = 86400;
    return t >= kEarliestTime && t <= now_s + kFutureSlack;
}

}  // namespace frontier
