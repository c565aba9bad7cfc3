// Store::start_holder: who holds leases (frontier(7), LEASES). Every lease
// records its holder, a process group on a host (lease_holders, urls.holder,
// hosts.robots_holder); at a leasing tool's start the leases of holders of
// this host that are provably gone end as if they had expired.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

// `me` as a new holder row, unless an equal one is stored (then no row).
const char* const kInsertNewHolder =
    "INSERT INTO lease_holders(host, boot_id, pgid, leader_start, created_at) "
    "SELECT ?1, ?2, ?3, ?4, CAST(?5 AS REAL) WHERE NOT EXISTS (SELECT 1 FROM lease_holders WHERE host = ?1 "
    "AND boot_id = ?2 AND pgid = ?3 AND leader_start = ?4) RETURNING id";

struct HolderRow {
    int64_t id = 0;
    GroupRecord group;
};

std::vector<HolderRow> holders_of(Db& db, const std::string& host) {
#define HOLDER_COLUMNS(X) X(id, "id") X(boot_id, "boot_id") X(pgid, "pgid") X(leader_start, "leader_start")
    enum class C { HOLDER_COLUMNS(SQL_COLUMN_NAME) };
    Stmt st = db.prepare("SELECT " + sql_column_list({HOLDER_COLUMNS(SQL_COLUMN_EXPR)}) +
                         " FROM lease_holders WHERE host = ? ORDER BY id");
#undef HOLDER_COLUMNS
    std::vector<HolderRow> rows;
    st.bind(1, host);
    while (st.step()) {
        SqlRow<C> row(st);
        HolderRow r;
        r.id = row.i64(C::id);
        r.group.host = host;
        r.group.boot_id = row.str(C::boot_id);
        r.group.pgid = row.i64(C::pgid);
        r.group.leader_start = static_cast<uint64_t>(row.i64(C::leader_start));
        rows.push_back(std::move(r));
    }
    return rows;
}

// Leases out per holder id, of the holders listed in `ids` ("3, 7").
std::map<int64_t, int64_t> leases_of(Db& db, const std::string& ids) {
    std::map<int64_t, int64_t> n;
    Stmt st = db.prepare("SELECT holder, count(*) FROM urls WHERE state = " SQL_URL_LEASED " AND holder IN (" + ids +
                         ") GROUP BY holder UNION ALL SELECT robots_holder, count(*) FROM hosts WHERE "
                         "robots_lease_expires IS NOT NULL AND robots_holder IN (" + ids + ") GROUP BY robots_holder");
    while (st.step()) n[st.i64(0)] += st.i64(1);
    return n;
}

// Binds `me` as ?1-?4 (host, boot, group, leader), the way kInsertNewHolder
// and the search for an equal row read it.
Stmt& bind_group(Stmt& st, const GroupRecord& me) {
    return st.bind(1, me.host).bind(2, me.boot_id).bind(3, me.pgid).bind(4, static_cast<int64_t>(me.leader_start));
}

// The id kInsertNewHolder returned: none when an equal row was stored. The
// statement is reset.
std::optional<int64_t> inserted_id(Stmt& ins) {
    std::optional<int64_t> id;
    if (ins.step()) id = ins.i64(0);
    ins.reset();
    return id;
}

// `me`'s row: an equal one (same host, boot, group and leader) is reused.
// One statement when there is none (it inserts only when none is stored).
int64_t record_holder(Db& db, const GroupRecord& me, double now) {
    Stmt ins = db.prepare(kInsertNewHolder);
    if (std::optional<int64_t> id = inserted_id(bind_group(ins, me).bind(5, now))) return *id;
    Stmt find = db.prepare("SELECT id FROM lease_holders WHERE host = ? AND boot_id = ? AND pgid = ? AND leader_start = ?");
    if (!bind_group(find, me).step()) db.fail("lease_holders: no row for this holder");
    return find.i64(0);
}

bool same_group(const GroupRecord& a, const GroupRecord& b) {
    return a.host == b.host && a.boot_id == b.boot_id && a.pgid == b.pgid && a.leader_start == b.leader_start;
}

}  // namespace

void Leases::send_pending_holder() {
    holder_insert_ = &statements_.q(kInsertNewHolder);
    bind_group(*holder_insert_, pending_holder->first).bind(5, pending_holder->second).send();
}

int64_t Leases::pending_holder_id() {
    if (std::optional<int64_t> id = inserted_id(*holder_insert_)) return *id;
    return record_holder(statements_.db, pending_holder->first, pending_holder->second);  // recorded meanwhile: found
}

Store::HolderStart Store::start_holder(const GroupRecord& me, bool record,
                                       const std::function<bool(const GroupRecord&)>& gone, double now) {
    Impl& m = *impl_;
    HolderStart out;
    // Read outside a transaction: a holder recorded after this read is alive
    // (it just started), and ending a gone holder's leases twice is harmless.
    std::string ids;
    std::vector<HolderRow> dead;
    for (HolderRow& r : holders_of(*db_, me.host)) {
        if (record && same_group(r.group, me)) out.holder = r.id;
        if (!gone(r.group)) continue;
        ids += (ids.empty() ? "" : ", ") + std::to_string(r.id);
        dead.push_back(std::move(r));
    }
    m.leases.pending_holder.reset();
    if (dead.empty()) {  // nothing to write now: a new holder row goes with the first lease
        if (record && !out.holder) {
            m.leases.pending_holder.emplace(me, now);
            out.pending = true;
        }
        return out;
    }
    begin();
    try {
        std::map<int64_t, int64_t> n = leases_of(*db_, ids);
        for (const HolderRow& r : dead)
            if (auto it = n.find(r.id); it != n.end()) out.reclaimed.push_back({r.group.pgid, it->second});
        if (!n.empty()) {
            refresh_settings();  // housekeeping reschedules queues by their politeness
            m.expire_now(now, ids);
            housekeeping(now);
        }
        db_->prepare("DELETE FROM lease_holders WHERE id IN (" + ids + ")").exec();  // no round trip of its own
        if (record && !out.holder) out.holder = record_holder(*db_, me, now);
        commit();
    } catch (...) {
        rollback();
        throw;
    }
    return out;
}

}  // namespace frontier
