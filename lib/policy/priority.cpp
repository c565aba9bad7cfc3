#include "policy/priority.hpp"

#include <cmath>

#include <algorithm>
#include <cctype>

namespace frontier {

std::string_view canonical_discovery(std::string_view d) {
    if (d == "intelligent-seed" || d == "hub-seed") return "adaptive-seed";
    if (d == "validated-hub") return "hub-validated";
    if (d == "link-discovery") return "link";
    return d;
}

std::string_view url_class(std::string_view type) {
    return (type == "article" || type == "refresh" || type == "history") ? "acquisition" : "discovery";
}

namespace {

void add_tokens(std::vector<std::string>& out, std::string_view text) {
    std::string tok;
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) || (c & 0x80)) {
            tok.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        } else if (!tok.empty()) {
            out.push_back(std::move(tok));
            tok.clear();
        }
    }
    if (!tok.empty()) out.push_back(std::move(tok));
}

}  // namespace

PriorityResult compute_priority_detail(const Settings& s, const Url& url, const UrlRecord& rec) {
    PriorityResult r;
    double weight;
    if (auto it = s.type_weights.find(std::string(rec.type)); !rec.type.empty() && it != s.type_weights.end())
        weight = it->second;
    else if (auto def = s.type_weights.find("default"); def != s.type_weights.end())
        weight = def->second;
    else
        weight = 12;
    double depth = rec.depth_given ? static_cast<double>(rec.depth) : s.unknown_depth;
    double p = (weight + depth + rec.bias) * s.base_weight;
    auto lower = [&](double by, const char* source) {
        if (!(by > 0)) return;
        p -= by;
        r.bonus_applied += by;
        if (source) r.source = source;
    };
    if (!rec.discovery.empty())
        if (auto it = s.discovery_bonus.find(std::string(canonical_discovery(rec.discovery)));
            it != s.discovery_bonus.end())
            lower(it->second, "discovery-bonus");
    if (rec.gap_prediction) {
        double score = rec.gap_prediction->first * 10 + rec.gap_prediction->second * 5;
        auto it = s.bonus_weights.find("gap-score");
        lower(score * (it != s.bonus_weights.end() ? it->second : 1.0), "gap-prediction");
    }
    if (rec.cluster_count && *rec.cluster_count >= 1)
        lower(std::min(std::log2(*rec.cluster_count) * s.cluster_boost_factor, 20.0), "cluster-boost");
    for (auto& [name, score] : rec.bonuses) {
        auto it = s.bonus_weights.find(name);
        double by = score * (it != s.bonus_weights.end() ? it->second : 1.0);
        p -= by;  // a named bonus may be negative (a penalty)
        r.bonus_applied += by;
    }
    if (s.cost_aware && rec.estimated_cost_ms) {
        if (*rec.estimated_cost_ms < 100) p -= p * 0.1;
        else if (*rec.estimated_cost_ms > 500) p += p * 0.1;
    }
    r.priority = p;
    if (!s.focus.empty() || s.focus_other) {
        std::vector<std::string> tokens;
        add_tokens(tokens, url.host);
        add_tokens(tokens, url.path);
        add_tokens(tokens, rec.type);
        for (auto& m : rec.meta_strings) add_tokens(tokens, m);
        for (auto& rule : s.focus)
            for (auto& t : rule.tokens)
                if (std::find(tokens.begin(), tokens.end(), t) != tokens.end()) {
                    r.priority = rule.floor;
                    r.source = "focus";
                    return r;
                }
        if (s.focus_other) {
            r.priority = *s.focus_other;
            r.source = "focus";
        }
    }
    return r;
}

namespace {

const UrlRegex& calendar_re() {
    static const UrlRegex re(
        "budget.cost-policy anticalendar",
        R"((calendar)|(year)|(month)|(day)|(date)|(viewcal)|(\D19\d\d\D)|(\D20\d\d\D)|(event)|(yr=)|(calendrier)|(jour))",
        true);
    return re;
}

std::string_view without_query(std::string_view u) {
    auto q = u.find('?');
    return q == std::string_view::npos ? u : u.substr(0, q);
}

}  // namespace

int64_t compute_cost(const Settings& s, const Url& url, std::string_view via) {
    const std::string& p = s.cost_policy;
    if (p == "zero") return 0;
    if (p == "unit") return 1;
    if (p == "wag") {
        int64_t c = 1;
        if (url.has_query) {
            ++c;
            if (!via.empty() && without_query(via) == without_query(url.url)) ++c;
        }
        return c;
    }
    if (p == "anticalendar") return calendar_re().search(url.url) ? 2 : 1;
    if (p == "rules") {
        int64_t c = 1;
        for (auto& r : s.cost_rules)
            if (r.re.search(url.url)) c += r.cost;
        return c;
    }
    return 1;
}

}  // namespace frontier
