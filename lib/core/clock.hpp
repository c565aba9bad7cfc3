// The one clock every tool reads. FRONTIER_NOW (epoch seconds, fractional
// allowed) overrides the system clock so tests never sleep.
#pragma once

namespace frontier {

// Seconds since the epoch: FRONTIER_NOW when set (read on every call, so a
// test can change it between tool runs), else the real-time clock.
// Throws UsageError when FRONTIER_NOW is set but not a number.
double now();

// Is `t` (epoch seconds) a time a record may carry: from 1990-01-01T00:00:00Z
// to one day after `now_s` (a day of clock skew between machines)? No year
// 9999, no negative epochs (frontier-done fetched_at and links'
// last_modified, frontier-add last_modified).
bool sane_time(double t, double now_s);

// True when FRONTIER_NOW is set: sleeping tools must not wait for real time
// that will never pass on the injected clock.
bool clock_is_fixed();

// Sleeps `seconds` of real time (no-op for <= 0). Returns early on SIGINT/SIGTERM.
void sleep_for(double seconds);

}  // namespace frontier
