// Typed exceptions for environment failures, caught once by the tool runner
// (lib/core/tool.hpp) and mapped to exit codes. Per-record problems are never
// exceptions: they are result records with a reason.
#pragma once

#include <stdexcept>
#include <string>

namespace frontier {

// Bad command line or setting value: exit 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A file could not be opened, read or written: exit 1.
struct IoError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The frontier database failed (corrupt, locked past the timeout, disk
// full, newer schema): exit 1.
struct DbError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The connection to a PostgreSQL frontier was lost inside a transaction,
// or could not be made again within the reconnect window: the open
// transaction is rolled back and nothing it did was acknowledged; exit 75
// (EX_TEMPFAIL), which a wrapper may answer by running the tool again
// (frontier(7), POSTGRESQL).
struct ConnectionLost : DbError {
    using DbError::DbError;
};
constexpr int kExitConnectionLost = 75;

// stdout was closed by the reader (EPIPE): a quiet, clean stop, exit 0.
struct BrokenPipe : std::exception {
    const char* what() const noexcept override { return "broken pipe"; }
};

}  // namespace frontier
