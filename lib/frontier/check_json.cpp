#include "frontier/check_json.hpp"

namespace frontier {

void write_check_fields(JsonWriter& w, const CheckResult& r) {
    w.field("ok", r.ok());
    w.key("checks");
    w.begin_object();
    for (auto& [name, n] : r.checks) w.field(name, n);
    w.end_object();
    w.key("violations");
    w.begin_array();
    for (auto& v : r.violations) {
        w.begin_object();
        w.field("check", v.check);
        w.field("detail", v.detail);
        w.end_object();
    }
    w.end_array();
}

}  // namespace frontier
