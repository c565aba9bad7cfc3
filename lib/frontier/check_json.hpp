// The JSON form of a frontier check (lib/store/store_check.hpp), shared by
// `frontier-report --check --json` and frontier-import's summary.
#pragma once

#include "json/json.hpp"
#include "store/store_check.hpp"

namespace frontier {

// Writes the fields "ok", "checks" {NAME: violations} and "violations"
// [{check, detail}] into the object `w` has open.
void write_check_fields(JsonWriter& w, const CheckResult& r);

}  // namespace frontier
