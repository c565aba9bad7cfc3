#include <map>

#include "clock.hpp"
#include "commands.hpp"
#include "enqueue.hpp"
#include "json.hpp"
#include "output.hpp"
#include "signals.hpp"
#include "store.hpp"

namespace frontier {

int run_add(const AddOptions& o) {
    Store store(frontier_path(o.common), Store::Mode::create);
    Enqueuer enq(store);
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs);
    std::map<std::string, int64_t> summary;
    int64_t rejected = 0, in_batch = 0;
    InputLine line;
    JsonWriter w;
    HeldOutput held;  // a record is printed only once it is committed
    store.begin();
    double now = frontier::now();
    while (!stop_requested() && reader.next(line)) {
        EnqueueResult r;
        if (!line.error.empty()) r.reason = line.error;
        else r = enq.add(line.record, now);
        const char* status = add_status_name(r.status);
        ++summary[status];
        if (r.status == AddStatus::rejected) {
            // Bad input exits 1; scope decisions are data.
            if (r.reason != "out-of-scope" && r.reason != "max-depth" && r.reason != "queue-full") ++rejected;
        }
        if (!o.common.quiet) {
            w.begin();
            w.field("line", static_cast<int64_t>(line.line_no));
            if (!r.url.empty()) w.field("url", r.url);
            w.field("status", status);
            if (r.status == AddStatus::rejected) {
                w.field("reason", r.reason);
                if (!r.field.empty()) w.field("field", r.field);
            }
            if (r.status == AddStatus::added) {
                w.field("queue", r.queue);
                w.field("priority", r.priority);
                w.field("cost", r.cost);
            }
            w.end();
            out().write_line(w.str());
        }
        if (++in_batch >= o.batch || reader.idle() || out().size() >= HeldOutput::kMaxHeldOutput) {
            store.commit();
            out().flush();
            in_batch = 0;
            store.begin();
            now = frontier::now();
        }
    }
    store.commit();
    out().flush();
    if (!o.common.quiet) {
        std::string line_s = "";
        for (const char* k : {"added", "duplicate", "updated", "rejected"})
            line_s += (line_s.empty() ? "" : ", ") + std::to_string(summary[k]) + " " + k;
        diag(line_s);
    }
    return rejected > 0 ? 1 : 0;
}

}  // namespace frontier
