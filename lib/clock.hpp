// The one clock every tool reads. FRONTIER_NOW (epoch seconds, fractional
// allowed) overrides the system clock so tests never sleep.
#pragma once

namespace frontier {

// Seconds since the epoch: FRONTIER_NOW when set (read on every call, so a
// test can change it between tool runs), else the real-time clock.
// Throws UsageError when FRONTIER_NOW is set but not a number.
double now();

// True when FRONTIER_NOW is set: sleeping tools must not wait for real time
// that will never pass on the injected clock.
bool clock_is_fixed();

// Sleeps `seconds` of real time (no-op for <= 0). Returns early on SIGINT/SIGTERM.
void sleep_for(double seconds);

}  // namespace frontier
