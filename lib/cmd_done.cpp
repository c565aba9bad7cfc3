#include "clock.hpp"
#include "commands.hpp"
#include "done.hpp"
#include "output.hpp"
#include "signals.hpp"

namespace frontier {

int run_done(const DoneOptions& o) {
    Store store(frontier_path(o.common), Store::Mode::write);
    DoneProcessor proc(store);
    LineReader reader(o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs);
    InputLine line;
    int64_t rejected = 0, in_batch = 0, total = 0;
    bool open = false;
    while (!stop_requested()) {
        // Commit and flush before waiting for input, so the pipeline never stalls.
        if (open && (in_batch >= o.batch || reader.idle())) {
            store.commit();
            open = false;
            in_batch = 0;
        }
        if (!open) out().flush();
        if (!reader.next(line)) break;
        if (!open) {
            store.refresh_settings();
            store.begin();
            store.housekeeping(frontier::now());
            open = true;
        }
        bool bad = false;
        std::string res = proc.process(line, frontier::now(), bad);
        if (bad) ++rejected;
        ++total;
        ++in_batch;
        if (!o.common.quiet) out().write_line(res);
    }
    if (open) store.commit();
    out().flush();
    if (o.common.verbose) diag(std::to_string(total) + " results, " + std::to_string(rejected) + " rejected");
    return rejected > 0 ? 1 : 0;
}

}  // namespace frontier
