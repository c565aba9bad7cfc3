// A thin SQLite VFS over the default one that coalesces the writes of the
// write-ahead log. SQLite writes every WAL frame as two pwrite(2) calls (a
// 24-byte header, then the page), so a transaction that changes thousands
// of pages pays for twice as many system calls: overhead, not bytes, where
// a system call is costly (a virtual machine).
//
// The shim keeps the appended frames in a 128 KiB buffer and writes them with
// one pwrite when the buffer fills, and always before the data could be
// needed by anyone else:
//   - as soon as the frame that ends a transaction (a commit frame: its
//     header carries the database size) has been written, so a commit
//     returns only once all its frames are in the file, with its error;
//   - before any read, sync, truncate, size query, file control or close of
//     the -wal file;
//   - before the wal-index header is published (xShmBarrier and xShmLock on
//     the database file), which is when other connections can see frames.
// A process killed with frames still in the buffer loses only frames of a
// transaction that had not committed: the same as a kill mid-transaction.
// Everything else (the database file, -shm, locks) goes straight through.
#pragma once

namespace frontier {

// Registers the VFS (once) and returns its name, for sqlite3_open_v2.
const char* wal_vfs_name();

}  // namespace frontier
