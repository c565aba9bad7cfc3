// Store: the settings and budget overrides as stored, and the budget rule
// the lease decisions use (frontier(7), SETTINGS, BUDGETS).
#include <algorithm>

#include "core/error.hpp"
#include "store/sql_codes.hpp"
#include "store/sql_columns.hpp"
#include "store/store.hpp"
#include "store/store_impl.hpp"

namespace frontier {

namespace {
// A budget override row (frontier-budget(1)).
#define BUDGET_COLUMNS(X) X(scope, "scope") X(name, "name") X(replenish, "replenish") X(total, "total")
enum class BudgetCol { BUDGET_COLUMNS(SQL_COLUMN_NAME) };
const std::string kBudgetRows = "SELECT " + sql_column_list({BUDGET_COLUMNS(SQL_COLUMN_EXPR)}) + " FROM queue_budgets";
const std::string kBudgetRowsInOrder = kBudgetRows + " ORDER BY scope, name";
#undef BUDGET_COLUMNS

// Every stored setting, domain setting and budget override in one read (one
// round trip on PostgreSQL): kind 0 a setting (key, value), 1 a domain's
// setting (scope = domain, key, value), 2 a budget override (scope, key =
// name, replenish, total), 3 the settings version (replenish = the version),
// so a first read needs no version read of its own.
#define STORED_COLUMNS(X) \
    X(kind, "kind") X(scope, "scope") X(key, "key") X(value, "value") X(replenish, "replenish") X(total, "total")
enum class StoredCol { STORED_COLUMNS(SQL_COLUMN_NAME) };
#undef STORED_COLUMNS
const char* const kStoredSettings =
    "SELECT 0 AS kind, '' AS scope, key, value, CAST(NULL AS bigint) AS replenish, CAST(NULL AS bigint) AS total "
    "FROM settings UNION ALL SELECT 1, domain, key, value, NULL, NULL FROM domain_settings "
    "UNION ALL SELECT 2, scope, name, NULL, replenish, total FROM queue_budgets "
    "UNION ALL SELECT 3, '', key, NULL, value, NULL FROM meta WHERE key = 'settings_version'";
}  // namespace

// ---------------------------------------------------------------- settings

bool Store::refresh_settings() { return refresh_settings(std::nullopt); }

namespace {
const char* const kSettingsVersion = "SELECT value FROM meta WHERE key = 'settings_version'";
}  // namespace

void Store::Impl::send_settings_version() {
    if (!settings.loaded) return;  // none loaded yet: Store::refresh_settings reads them all
    settings.version_sent = &q(kSettingsVersion);
    settings.version_sent->send();
}

std::optional<int64_t> Store::Impl::sent_settings_version() {
    Stmt* st = std::exchange(settings.version_sent, nullptr);
    if (!st) return std::nullopt;
    int64_t version = st->step() ? st->i64(0) : 0;
    st->reset();
    return version;
}

bool Store::refresh_settings(std::optional<int64_t> version) {
    if (impl_->settings.loaded && !version) {  // known: read again only when their version moved
        Stmt& st = impl_->q(kSettingsVersion);
        version = st.step() ? st.i64(0) : 0;
        st.reset();  // never leave a read transaction open: it would pin the WAL
    }
    if (impl_->settings.loaded && version == impl_->settings.version) return false;
    std::map<std::string, std::string> values;
    std::map<std::string, std::map<std::string, std::string>> domains;
    std::vector<StoredBudget> budgets;
    int64_t stored = 0;
    using C = StoredCol;
    Stmt& all = impl_->q(kStoredSettings);
    while (all.step()) {
        SqlRow<C> row(all);
        int64_t kind = row.i64(C::kind);
        if (kind == 0) values[row.str(C::key)] = row.str(C::value);
        else if (kind == 1) domains[row.str(C::scope)][row.str(C::key)] = row.str(C::value);
        else if (kind == 2) budgets.push_back({row.str(C::scope), row.str(C::key), row.opt_i64(C::replenish), row.opt_i64(C::total)});
        else stored = row.i64(C::replenish);
    }
    all.reset();
    impl_->settings.loaded = build_settings(values, domains);
    impl_->settings.version = stored;
    impl_->settings.load_budgets(budgets, domains);
    ++settings_generation_;
    return true;
}

const Settings& Store::settings() {
    if (!impl_->settings.loaded) refresh_settings();
    return *impl_->settings.loaded;
}

std::map<std::string, std::string> Store::setting_values() {
    std::map<std::string, std::string> m;
    Stmt& st = impl_->q("SELECT key, value FROM settings");
    while (st.step()) m[st.str(0)] = st.str(1);
    return m;
}

std::map<std::string, std::map<std::string, std::string>> Store::domain_setting_values() {
    std::map<std::string, std::map<std::string, std::string>> m;
    Stmt& st = impl_->q("SELECT domain, key, value FROM domain_settings");
    while (st.step()) m[st.str(0)][st.str(1)] = st.str(2);
    return m;
}

void Store::set_setting(const std::string& key, const std::string& json) {
    begin();
    const SettingDef* d = find_setting(key);
    if (d && json == d->default_json)
        impl_->q("DELETE FROM settings WHERE key = ?").bind(1, key).exec();
    else
        impl_->q("INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .bind(1, key).bind(2, json).exec();
    impl_->q("UPDATE meta SET value = value + 1 WHERE key = 'settings_version'").exec();
    impl_->queues.retire_all_to_inactive();
    if (key.rfind("politeness.", 0) == 0) impl_->queues.requeue_capped();
    commit();
    impl_->settings.loaded.reset();
}

void Store::set_domain_setting(const std::string& domain, const std::string& key, const std::string& json) {
    begin();
    if (json.empty())
        impl_->q("DELETE FROM domain_settings WHERE domain = ? AND key = ?").bind(1, domain).bind(2, key).exec();
    else
        impl_->q("INSERT INTO domain_settings(domain, key, value) VALUES (?, ?, ?) "
                 "ON CONFLICT(domain, key) DO UPDATE SET value = excluded.value")
            .bind(1, domain).bind(2, key).bind(3, json).exec();
    impl_->q("UPDATE meta SET value = value + 1 WHERE key = 'settings_version'").exec();
    impl_->queues.retire_all_to_inactive();
    if (key.rfind("politeness.", 0) == 0) impl_->queues.requeue_capped();
    commit();
    impl_->settings.loaded.reset();
}

// ---------------------------------------------------------------- budgets

std::vector<Store::BudgetOverride> Store::budget_overrides() {
    std::vector<BudgetOverride> v;
    Stmt& st = impl_->q(kBudgetRowsInOrder.c_str());
    while (st.step()) {
        SqlRow<BudgetCol> row(st);
        v.push_back({row.str(BudgetCol::scope), row.str(BudgetCol::name), row.opt_i64(BudgetCol::replenish),
                     row.opt_i64(BudgetCol::total)});
    }
    return v;
}

void Store::set_budget_override(const BudgetOverride& o) {
    begin();
    impl_->q("INSERT INTO queue_budgets(scope, name, replenish, total) VALUES (?, ?, ?, ?) "
             "ON CONFLICT(scope, name) DO UPDATE SET replenish = coalesce(excluded.replenish, queue_budgets.replenish), "
             "total = coalesce(excluded.total, queue_budgets.total)")
        .bind(1, o.scope).bind(2, o.name).bind(3, o.replenish).bind(4, o.total).exec();
    impl_->q("UPDATE meta SET value = value + 1 WHERE key = 'settings_version'").exec();
    impl_->queues.retire_all_to_inactive();
    commit();
    impl_->settings.loaded.reset();
}

Store::BudgetValues Store::effective_budget(const std::string& queue_key) {
    settings();  // loads the overrides
    BudgetLimits b = impl_->settings.budget_for(queue_key);
    return {b.replenish, b.total};
}

int64_t Store::queues_in_flight() {
    Stmt& st = impl_->q("SELECT count(*) FROM queues WHERE in_flight > 0");
    int64_t n = st.step() ? st.i64(0) : 0;
    st.reset();
    return n;
}

bool Store::queue_exists(const std::string& key) {
    return impl_->statements.find_id("SELECT id FROM queues WHERE key = ?", key).has_value();
}

bool Store::domain_has_queues(const std::string& domain) {
    // Queue keys are lower-case host names (with a port after ':'), so
    // matching the text is exact; '_' in LIKE is a one-character wildcard,
    // hence the second test.
    Stmt& st = impl_->q("SELECT key FROM queues WHERE key = ?1 OR key LIKE ?1 || ':%' OR key LIKE '%.' || ?1 "
                        "OR key LIKE '%.' || ?1 || ':%'");
    st.bind(1, domain);
    bool found = false;
    while (!found && st.step()) {
        std::string k = st.str(0);
        if (auto colon = k.rfind(':'); colon != std::string::npos && k.find(']') == std::string::npos) k.resize(colon);
        found = k == domain || (k.size() > domain.size() && k.compare(k.size() - domain.size(), domain.size(), domain) == 0 &&
                                k[k.size() - domain.size() - 1] == '.');
    }
    st.reset();
    return found;
}

bool Store::retire_queue(const std::string& key) {
    begin();
    std::optional<int64_t> id = impl_->statements.find_id("SELECT id FROM queues WHERE key = ?", key);
    if (id) {
        int64_t seq = impl_->statements.meta_next("fifo_seq");
        impl_->q("UPDATE queues SET state = " SQL_QUEUE_RETIRED_BY_HAND ", retired_seq = ?, inactive_seq = NULL, sched = " SQL_SCHED_IDLE " WHERE id = ?")
            .bind(1, seq).bind(2, *id).exec();
    }
    commit();
    return id.has_value();
}

int64_t Store::unretire(const std::string& key) {
    begin();
    std::vector<int64_t> ids;
    Stmt& st = key.empty() ? impl_->q("SELECT id FROM queues WHERE state >= " SQL_QUEUE_RETIRED " ORDER BY retired_seq")
                           : impl_->q("SELECT id FROM queues WHERE state >= " SQL_QUEUE_RETIRED " AND key = ?");
    if (!key.empty()) st.bind(1, key);
    while (st.step()) ids.push_back(st.i64(0));
    st.reset();
    for (int64_t id : ids) {
        int64_t seq = impl_->statements.meta_next("fifo_seq");
        impl_->q("UPDATE queues SET state = " SQL_QUEUE_INACTIVE ", inactive_seq = ?, retired_seq = NULL, sched = " SQL_SCHED_IDLE " WHERE id = ?")
            .bind(1, seq).bind(2, id).exec();
    }
    commit();
    return static_cast<int64_t>(ids.size());
}

}  // namespace frontier
