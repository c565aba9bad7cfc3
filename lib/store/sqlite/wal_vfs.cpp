#include "store/sqlite/wal_vfs.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace frontier {

namespace {

// Bytes of appended WAL held before one write: the most the unix VFS takes
// in one call (its seekAndWrite() keeps the low 17 bits of a length).
constexpr int kBufferCap = 0x1ffff;
constexpr int kFrameHeader = 24;     // a WAL frame header (SQLite file format §4.1)

sqlite3_vfs* g_real = nullptr;  // the default VFS this one wraps

// Our sqlite3_file: the header SQLite sees, then the wrapped VFS's own file.
struct File {
    sqlite3_file base;
    sqlite3_file* real;
    bool wal;                 // a -wal file: its appended writes are coalesced
    std::string db_path;      // the database it belongs to (for the wal-index barrier)
    std::mutex mu;            // a barrier may come from another connection's thread
    char* buf;                // appended bytes not yet written
    int len;                  // bytes in buf
    sqlite3_int64 off;        // file offset of buf[0]
    sqlite3_int64 commit_end; // end of a commit frame's header just written, or -1
};

std::mutex g_wals_mu;
std::vector<File*> g_wals;  // open -wal files, for the barrier of their database

const sqlite3_io_methods* real_methods(File* f) { return f->real->pMethods; }

int flush_locked(File* f) {
    if (f->len == 0) return SQLITE_OK;
    int rc = real_methods(f)->xWrite(f->real, f->buf, f->len, f->off);
    if (rc == SQLITE_OK) f->len = 0;
    return rc;
}

// Writes the buffered frames of every -wal of `db_path` (the database file's
// wal-index is about to show them to other connections).
void flush_wals_of(const std::string& db_path) {
    std::lock_guard<std::mutex> all(g_wals_mu);
    for (File* w : g_wals)
        if (w->db_path == db_path) {
            std::lock_guard<std::mutex> lock(w->mu);
            flush_locked(w);  // a failed write stays buffered; the next call on the -wal reports it
        }
}

int x_close(sqlite3_file* p) {
    File* f = reinterpret_cast<File*>(p);
    int rc = SQLITE_OK;
    if (f->wal) {
        {
            std::lock_guard<std::mutex> all(g_wals_mu);  // no barrier reaches it from now on
            g_wals.erase(std::remove(g_wals.begin(), g_wals.end(), f), g_wals.end());
        }
        rc = flush_locked(f);
        sqlite3_free(f->buf);
    }
    int rc2 = real_methods(f)->xClose(f->real);
    f->~File();
    return rc != SQLITE_OK ? rc : rc2;
}

int x_read(sqlite3_file* p, void* out, int amt, sqlite3_int64 at) {
    File* f = reinterpret_cast<File*>(p);
    if (f->wal) {
        std::lock_guard<std::mutex> lock(f->mu);
        if (f->len > 0 && at < f->off + f->len && at + amt > f->off) {
            if (at >= f->off && at + amt <= f->off + f->len) {  // all of it still buffered
                std::memcpy(out, f->buf + (at - f->off), static_cast<size_t>(amt));
                return SQLITE_OK;
            }
            int rc = flush_locked(f);
            if (rc != SQLITE_OK) return rc;
        }
    }
    return real_methods(f)->xRead(f->real, out, amt, at);
}

bool is_commit_header(const void* data, int amt) {
    if (amt != kFrameHeader) return false;
    const auto* b = static_cast<const unsigned char*>(data);
    return (b[4] | b[5] | b[6] | b[7]) != 0;  // "size of the database in pages after a commit", else 0
}

int x_write(sqlite3_file* p, const void* data, int amt, sqlite3_int64 at) {
    File* f = reinterpret_cast<File*>(p);
    if (!f->wal) return real_methods(f)->xWrite(f->real, data, amt, at);
    std::lock_guard<std::mutex> lock(f->mu);
    int rc = SQLITE_OK;
    // The write that follows a commit frame's header is its page: once it
    // is buffered the transaction's frames all go to the file. Anything
    // else after a commit header also writes out what is buffered first.
    const bool completes_commit = f->commit_end >= 0 && at == f->commit_end;
    if (f->commit_end >= 0 && !completes_commit) {
        f->commit_end = -1;
        if ((rc = flush_locked(f)) != SQLITE_OK) return rc;
    }
    if (f->len > 0 && at >= f->off && at + amt <= f->off + f->len) {
        std::memcpy(f->buf + (at - f->off), data, static_cast<size_t>(amt));  // a frame rewritten in place
    } else if (f->len > 0 && at == f->off + f->len && f->len + amt <= kBufferCap) {
        std::memcpy(f->buf + f->len, data, static_cast<size_t>(amt));
        f->len += amt;
    } else {
        if ((rc = flush_locked(f)) != SQLITE_OK) return rc;
        if (amt >= kBufferCap) {
            if ((rc = real_methods(f)->xWrite(f->real, data, amt, at)) != SQLITE_OK) return rc;
        } else {
            std::memcpy(f->buf, data, static_cast<size_t>(amt));
            f->len = amt;
            f->off = at;
        }
    }
    if (completes_commit) {
        f->commit_end = -1;
        return flush_locked(f);
    }
    if (is_commit_header(data, amt)) f->commit_end = at + amt;
    return SQLITE_OK;
}

// Calls that need the file as SQLite wrote it: the buffer goes out first.
int flush_first(File* f) {
    if (!f->wal) return SQLITE_OK;
    std::lock_guard<std::mutex> lock(f->mu);
    f->commit_end = -1;
    return flush_locked(f);
}

int x_truncate(sqlite3_file* p, sqlite3_int64 size) {
    File* f = reinterpret_cast<File*>(p);
    int rc = flush_first(f);
    return rc != SQLITE_OK ? rc : real_methods(f)->xTruncate(f->real, size);
}

int x_sync(sqlite3_file* p, int flags) {
    File* f = reinterpret_cast<File*>(p);
    int rc = flush_first(f);
    return rc != SQLITE_OK ? rc : real_methods(f)->xSync(f->real, flags);
}

int x_file_size(sqlite3_file* p, sqlite3_int64* size) {
    File* f = reinterpret_cast<File*>(p);
    int rc = flush_first(f);
    return rc != SQLITE_OK ? rc : real_methods(f)->xFileSize(f->real, size);
}

int x_lock(sqlite3_file* p, int level) {
    File* f = reinterpret_cast<File*>(p);
    return real_methods(f)->xLock(f->real, level);
}

int x_unlock(sqlite3_file* p, int level) {
    File* f = reinterpret_cast<File*>(p);
    return real_methods(f)->xUnlock(f->real, level);
}

int x_check_reserved_lock(sqlite3_file* p, int* out) {
    File* f = reinterpret_cast<File*>(p);
    return real_methods(f)->xCheckReservedLock(f->real, out);
}

int x_file_control(sqlite3_file* p, int op, void* arg) {
    File* f = reinterpret_cast<File*>(p);
    int rc = flush_first(f);
    if (rc != SQLITE_OK) return rc;
    if (op == SQLITE_FCNTL_VFSNAME) {  // name the stack, as the shims in SQLite's own tree do
        char* below = nullptr;
        real_methods(f)->xFileControl(f->real, op, &below);
        *static_cast<char**>(arg) = sqlite3_mprintf("frontier-wal/%z", below);
        return SQLITE_OK;
    }
    return real_methods(f)->xFileControl(f->real, op, arg);
}

int x_sector_size(sqlite3_file* p) {
    File* f = reinterpret_cast<File*>(p);
    return real_methods(f)->xSectorSize(f->real);
}

int x_device_characteristics(sqlite3_file* p) {
    File* f = reinterpret_cast<File*>(p);
    return real_methods(f)->xDeviceCharacteristics(f->real);
}

// The wal-index (-shm) belongs to the database file: before other
// connections can see frames through it, its -wal's buffered writes are in
// the file. (A commit frame is written out before that already; this also
// covers checksums SQLite rewrites in place just before publishing.)
int x_shm_map(sqlite3_file* p, int page, int size, int extend, void volatile** out) {
    File* f = reinterpret_cast<File*>(p);
    flush_wals_of(f->db_path);
    return real_methods(f)->xShmMap(f->real, page, size, extend, out);
}

int x_shm_lock(sqlite3_file* p, int offset, int n, int flags) {
    File* f = reinterpret_cast<File*>(p);
    flush_wals_of(f->db_path);
    return real_methods(f)->xShmLock(f->real, offset, n, flags);
}

void x_shm_barrier(sqlite3_file* p) {
    File* f = reinterpret_cast<File*>(p);
    flush_wals_of(f->db_path);
    real_methods(f)->xShmBarrier(f->real);
}

int x_shm_unmap(sqlite3_file* p, int del) {
    File* f = reinterpret_cast<File*>(p);
    flush_wals_of(f->db_path);
    return real_methods(f)->xShmUnmap(f->real, del);
}

int x_fetch(sqlite3_file* p, sqlite3_int64 at, int amt, void** out) {
    File* f = reinterpret_cast<File*>(p);
    int rc = flush_first(f);
    return rc != SQLITE_OK ? rc : real_methods(f)->xFetch(f->real, at, amt, out);
}

int x_unfetch(sqlite3_file* p, sqlite3_int64 at, void* ptr) {
    File* f = reinterpret_cast<File*>(p);
    return real_methods(f)->xUnfetch(f->real, at, ptr);
}

// Version 3 methods (shared memory and memory-mapped reads), as the unix
// VFS has; a file whose own methods are older gets ours of its version.
sqlite3_io_methods make_methods(int version) {
    sqlite3_io_methods m{};
    m.iVersion = version;
    m.xClose = x_close;
    m.xRead = x_read;
    m.xWrite = x_write;
    m.xTruncate = x_truncate;
    m.xSync = x_sync;
    m.xFileSize = x_file_size;
    m.xLock = x_lock;
    m.xUnlock = x_unlock;
    m.xCheckReservedLock = x_check_reserved_lock;
    m.xFileControl = x_file_control;
    m.xSectorSize = x_sector_size;
    m.xDeviceCharacteristics = x_device_characteristics;
    if (version >= 2) {
        m.xShmMap = x_shm_map;
        m.xShmLock = x_shm_lock;
        m.xShmBarrier = x_shm_barrier;
        m.xShmUnmap = x_shm_unmap;
    }
    if (version >= 3) {
        m.xFetch = x_fetch;
        m.xUnfetch = x_unfetch;
    }
    return m;
}

const sqlite3_io_methods g_methods[3] = {make_methods(1), make_methods(2), make_methods(3)};

int x_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* p, int flags, int* out_flags) {
    File* f = new (p) File{};
    f->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(p) + sizeof(File));
    f->commit_end = -1;
    int rc = g_real->xOpen(g_real, name, f->real, flags, out_flags);
    if (rc != SQLITE_OK || !f->real->pMethods) {
        // SQLite calls our xClose only when our pMethods is set: a wrapped
        // file that set its own is closed here.
        if (f->real->pMethods) f->real->pMethods->xClose(f->real);
        f->~File();
        p->pMethods = nullptr;
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    f->wal = (flags & SQLITE_OPEN_WAL) != 0;
    if (name && (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL))) f->db_path = sqlite3_filename_database(name);
    if (f->wal) {
        f->buf = static_cast<char*>(sqlite3_malloc(kBufferCap));
        if (!f->buf) {
            f->real->pMethods->xClose(f->real);
            f->~File();
            p->pMethods = nullptr;
            return SQLITE_NOMEM;
        }
        std::lock_guard<std::mutex> all(g_wals_mu);
        g_wals.push_back(f);
    }
    int version = std::clamp(f->real->pMethods->iVersion, 1, 3);
    p->pMethods = &g_methods[version - 1];
    return SQLITE_OK;
}

// The rest of the VFS (names, randomness, time, dlopen) is the wrapped one's.
int x_delete(sqlite3_vfs*, const char* name, int sync_dir) { return g_real->xDelete(g_real, name, sync_dir); }
int x_access(sqlite3_vfs*, const char* name, int flags, int* out) { return g_real->xAccess(g_real, name, flags, out); }
int x_full_pathname(sqlite3_vfs*, const char* name, int n, char* out) {
    return g_real->xFullPathname(g_real, name, n, out);
}
void* x_dl_open(sqlite3_vfs*, const char* name) { return g_real->xDlOpen(g_real, name); }
void x_dl_error(sqlite3_vfs*, int n, char* out) { g_real->xDlError(g_real, n, out); }
void (*x_dl_sym(sqlite3_vfs*, void* h, const char* sym))(void) { return g_real->xDlSym(g_real, h, sym); }
void x_dl_close(sqlite3_vfs*, void* h) { g_real->xDlClose(g_real, h); }
int x_randomness(sqlite3_vfs*, int n, char* out) { return g_real->xRandomness(g_real, n, out); }
int x_sleep(sqlite3_vfs*, int us) { return g_real->xSleep(g_real, us); }
int x_current_time(sqlite3_vfs*, double* out) { return g_real->xCurrentTime(g_real, out); }
int x_get_last_error(sqlite3_vfs*, int n, char* out) { return g_real->xGetLastError(g_real, n, out); }
int x_current_time_int64(sqlite3_vfs*, sqlite3_int64* out) { return g_real->xCurrentTimeInt64(g_real, out); }

}  // namespace

const char* wal_vfs_name() {
    static const char* const name = [] {
        static sqlite3_vfs vfs{};
        g_real = sqlite3_vfs_find(nullptr);
        vfs.iVersion = 2;
        vfs.szOsFile = static_cast<int>(sizeof(File)) + g_real->szOsFile;
        vfs.mxPathname = g_real->mxPathname;
        vfs.zName = "frontier-wal";
        vfs.xOpen = x_open;
        vfs.xDelete = x_delete;
        vfs.xAccess = x_access;
        vfs.xFullPathname = x_full_pathname;
        vfs.xDlOpen = x_dl_open;
        vfs.xDlError = x_dl_error;
        vfs.xDlSym = x_dl_sym;
        vfs.xDlClose = x_dl_close;
        vfs.xRandomness = x_randomness;
        vfs.xSleep = x_sleep;
        vfs.xCurrentTime = x_current_time;
        vfs.xGetLastError = x_get_last_error;
        vfs.xCurrentTimeInt64 = x_current_time_int64;
        sqlite3_vfs_register(&vfs, 0);
        return vfs.zName;
    }();
    return name;
}

}  // namespace frontier
