// Store::start_holder: who holds leases (frontier(7), LEASES). Every lease
// records its holder, a process group on a host (lease_holders, urls.holder,
// hosts.robots_holder); at a leasing tool's start the leases of holders of
// this host that are provably gone end as if they had expired.
#include <map>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {

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

// `me`'s row: an equal one (same host, boot, group and leader) is reused.
int64_t record_holder(Db& db, const GroupRecord& me, double now) {
    Stmt find = db.prepare("SELECT id FROM lease_holders WHERE host = ? AND boot_id = ? AND pgid = ? AND leader_start = ?");
    find.bind(1, me.host).bind(2, me.boot_id).bind(3, me.pgid).bind(4, static_cast<int64_t>(me.leader_start));
    if (find.step()) return find.i64(0);
    Stmt ins = db.prepare("INSERT INTO lease_holders(host, boot_id, pgid, leader_start, created_at) "
                          "VALUES (?, ?, ?, ?, ?) RETURNING id");
    ins.bind(1, me.host).bind(2, me.boot_id).bind(3, me.pgid).bind(4, static_cast<int64_t>(me.leader_start)).bind(5, now);
    if (!ins.step()) db.fail("lease_holders: no id for a new row");
    int64_t id = ins.i64(0);
    ins.reset();
    return id;
}

}  // namespace

Store::HolderStart Store::start_holder(const GroupRecord& me, bool record,
                                       const std::function<bool(const GroupRecord&)>& gone, double now) {
    Impl& m = *impl_;
    HolderStart out;
    begin();
    try {
        std::string ids;
        std::vector<HolderRow> dead;
        for (HolderRow& r : holders_of(*db_, me.host)) {
            if (!gone(r.group)) continue;
            ids += (ids.empty() ? "" : ", ") + std::to_string(r.id);
            dead.push_back(std::move(r));
        }
        if (!dead.empty()) {
            std::map<int64_t, int64_t> n = leases_of(*db_, ids);
            for (const HolderRow& r : dead)
                if (auto it = n.find(r.id); it != n.end()) out.reclaimed.push_back({r.group.pgid, it->second});
            if (!n.empty()) {
                refresh_settings();  // housekeeping reschedules queues by their politeness
                m.expire_now(now, ids);
                housekeeping(now);
            }
            db_->exec("DELETE FROM lease_holders WHERE id IN (" + ids + ")");
        }
        if (record) out.holder = record_holder(*db_, me, now);
        commit();
    } catch (...) {
        rollback();
        throw;
    }
    return out;
}

}  // namespace frontier
