// `fetch`'s engine: the libcurl multi loop on one network thread, fed by a
// reader thread (lib/fetch/fetch_input.hpp) and draining into a writer thread
// (lib/fetch/fetch_output.hpp). Per-host scheduling with the HostScoreboard: a
// per-host cap, host-down fail-fast, autothrottle spacing, and read-ahead so
// one busy host never blocks the others.
#pragma once

#include "fetch/fetch_types.hpp"

namespace frontier {

// Reads jobs from opt.inputs, fetches them, writes one result line per input
// line to stdout in completion order, and a summary on stderr (unless
// opt.quiet). Returns 0, or 1 when some input lines were bad. Stops reading
// on SIGINT/SIGTERM and lets in-flight fetches finish (lines read but not
// started are dropped unreported). Throws BrokenPipe when stdout is closed,
// IoError when an input or WARC file fails, UsageError for bad options.
int run_fetch(const FetchOptions& opt);

// Checks option values (positive concurrency, per-host, timeouts, sizes).
// Throws UsageError. Does no I/O.
void validate_fetch_options(const FetchOptions& opt);

}  // namespace frontier
