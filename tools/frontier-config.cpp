// frontier-config: show and change frontier settings.

#include "core/error.hpp"
#include "json/json.hpp"
#include "core/output.hpp"
#include "policy/settings.hpp"
#include "store/store.hpp"
#include "core/tool.hpp"

namespace frontier {

struct ConfigOptions {
    CommonOptions common;
    std::string domain;
    std::vector<std::string> args;  // [KEY [VALUE]] (filled from key/value below)
    std::string key, value;
    bool unset = false;
    bool keys = false;  // --keys: list the known settings (no frontier file needed)
};
int run_config(const ConfigOptions& o);

namespace {

bool domain_key(const std::string& key) {
    const SettingDef* d = find_setting(key);
    return d && d->per_domain;
}

const char* kind_name(SettingKind k) {
    switch (k) {
        case SettingKind::number: return "number";
        case SettingKind::integer: return "integer";
        case SettingKind::boolean: return "boolean";
        case SettingKind::choice: return "choice";
        case SettingKind::string: return "string";
        case SettingKind::string_list: return "list";
        case SettingKind::number_map: return "map";
        case SettingKind::focus: return "focus";
    }
    return "value";
}

// --keys: one JSON line per known setting, in display order (shell completion
// and scripts use it; it needs no frontier file).
void print_keys() {
    for (auto& d : setting_defs()) {
        JsonWriter w;
        w.begin();
        w.field("key", d.key);
        w.field_raw("default", d.default_json);
        w.field("type", kind_name(d.kind));
        if (d.kind == SettingKind::choice) {
            w.key("choices");
            w.begin_array();
            std::string_view c = d.choices;
            for (size_t pos = 0; pos <= c.size();) {
                size_t bar = c.find('|', pos);
                if (bar == std::string_view::npos) bar = c.size();
                w.value(c.substr(pos, bar - pos));
                pos = bar + 1;
            }
            w.end_array();
        }
        w.field("per_domain", d.per_domain);
        w.field("meaning", d.doc);
        w.end();
        out().write_line(w.str());
    }
}

// Prints one setting, or all of them (with the domain overrides), as
// stored or by default.
int show_settings(const ConfigOptions& o, Store& store, const std::string& domain) {
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

}  // namespace

int run_config(const ConfigOptions& o) {
    if (o.keys) {
        if (!o.args.empty() || o.unset || !o.domain.empty())
            throw UsageError("--keys takes no KEY, VALUE, --domain or --unset");
        print_keys();
        return 0;
    }
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
    return show_settings(o, store, domain);
}

}  // namespace frontier

int main(int argc, char** argv) {
    frontier::ConfigOptions o;
    return frontier::run_tool(
        "frontier-config", argc, argv,
        [&](CLI::App& app) {
            frontier::add_common_options(app, o.common);
            app.add_option("--domain", o.domain, "show or set the override for this domain and its subdomains");
            app.add_flag("--unset", o.unset, "restore KEY to its default (or drop the --domain override)");
            app.add_flag("--keys", o.keys,
                         "list every setting (key, default, type, meaning) as JSON lines; no file needed");
            auto* k = app.add_option("key", o.key, "KEY to print one setting");
            app.add_option("value", o.value, "VALUE to set KEY to (JSON, or a bare word)")->needs(k);
        },
        [&] {
            if (!o.key.empty()) o.args.push_back(o.key);
            if (!o.value.empty()) o.args.push_back(o.value);
            return frontier::run_config(o);
        },
        "Show and change frontier settings (politeness, scope, priority, retries, recrawl, budgets).",
        "  # every setting, then one, then change one\n"
        "  frontier-config -f crawl.db\n"
        "  frontier-config -f crawl.db politeness.min-delay\n"
        "  frontier-config -f crawl.db politeness.min-delay 0.5\n"
        "  # a friendlier pace for one site and its subdomains\n"
        "  frontier-config -f crawl.db --domain example.org politeness.max-in-flight 2");
}
