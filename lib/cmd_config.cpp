#include "commands.hpp"
#include "error.hpp"
#include "json.hpp"
#include "output.hpp"
#include "settings.hpp"
#include "store.hpp"

namespace frontier {

namespace {

bool domain_key(const std::string& key) {
    const SettingDef* d = find_setting(key);
    return d && d->per_domain;
}

}  // namespace

int run_config(const ConfigOptions& o) {
    if (o.args.size() > 2) throw UsageError("too many arguments: expected [KEY [VALUE]]");
    bool writing = o.args.size() == 2 || o.unset;
    if (!o.args.empty() && !find_setting(o.args[0]))
        throw UsageError("unknown setting: " + o.args[0] + " (frontier-config with no arguments lists them)");
    if (!o.domain.empty() && !o.args.empty() && !domain_key(o.args[0]))
        throw UsageError("--domain overrides only politeness.*, robots.* and budget.replenish/total, not " + o.args[0]);
    if (o.unset && o.args.size() != 1) throw UsageError("--unset takes exactly one KEY");
    std::string domain = o.domain;  // domains are case-insensitive
    for (auto& c : domain) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value;
    if (o.args.size() == 2) value = normalise_setting(o.args[0], o.args[1]);  // validate before touching the file

    Store store(frontier_path(o.common), writing ? Store::Mode::create : Store::Mode::read);
    if (writing) {
        const SettingDef* d = find_setting(o.args[0]);
        if (o.unset) value = o.domain.empty() ? d->default_json : "";
        if (!o.domain.empty()) {
            store.set_domain_setting(domain, o.args[0], value);
        } else {
            store.set_setting(o.args[0], value);
        }
        return 0;
    }
    auto stored = store.setting_values();
    auto domains = store.domain_setting_values();
    auto value_of = [&](const std::string& key) -> std::string {
        if (!domain.empty()) {
            if (auto it = domains.find(domain); it != domains.end())
                if (auto kv = it->second.find(key); kv != it->second.end()) return kv->second;
        }
        if (auto it = stored.find(key); it != stored.end()) return it->second;
        return find_setting(key)->default_json;
    };
    if (o.args.size() == 1) {
        out().write_line(value_of(o.args[0]));
        return 0;
    }
    JsonWriter w;
    w.begin();
    for (auto& d : setting_defs()) {
        if (!o.domain.empty() && !d.per_domain) continue;
        w.field_raw(d.key, value_of(d.key));
    }
    if (o.domain.empty() && !domains.empty()) {
        w.key("domains");
        w.begin_object();
        for (auto& [dom, kv] : domains) {
            w.key(dom);
            w.begin_object();
            for (auto& [k, v] : kv) w.field_raw(k, v);
            w.end_object();
        }
        w.end_object();
    }
    w.end();
    out().write_line(w.str());
    return 0;
}

}  // namespace frontier
