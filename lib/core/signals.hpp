// SIGINT / SIGTERM handling shared by all tools: the first signal sets a flag
// that loops check between transactions, so nothing is left half-written.
#pragma once

namespace frontier {

// Installs the handlers (SIGPIPE ignored; SIGINT/SIGTERM set the flag).
void install_signal_handlers();

// SIGHUP (the terminal hung up) as SIGINT/SIGTERM from now on: for a tool
// whose children do not get the terminal's signals (frontier-crawl).
void stop_on_hangup();

// True once SIGINT or SIGTERM arrived.
bool stop_requested();

// How many SIGINT/SIGTERM arrived (a second one may mean "stop now").
int stop_signals();

}  // namespace frontier
