#include "core/bus/ModifierPipeline.hpp"

#include <algorithm>

#include "core/Error.hpp"

namespace umpire::bus {

namespace {

using Op = ModifierPipeline::Op;
using Rounding = ModifierPipeline::Rounding;

std::int64_t checked_add(std::int64_t a, std::int64_t b, const std::string& where) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) throw RuleError(where + ": total overflows int64");
    return r;
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& where) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) throw RuleError(where + ": total overflows int64");
    return r;
}

// Floor and ceiling division by two. C++ '/' truncates toward zero, which would round -3/2
// to -1 for both "down" and "up"; rules mean floor and ceiling.
std::int64_t halve_value(std::int64_t v, Rounding r) {
    std::int64_t q = v / 2;
    if (v % 2 != 0) {
        if (r == Rounding::down && v < 0) q -= 1;
        if (r == Rounding::up && v > 0) q += 1;
    }
    return q;
}

std::int64_t apply(Op op, std::int64_t total, std::int64_t operand, Rounding r,
                   const std::string& where) {
    switch (op) {
        case Op::base:
        case Op::set: return operand;
        case Op::add: return checked_add(total, operand, where);
        case Op::at_most: return std::min(total, operand);
        case Op::at_least: return std::max(total, operand);
        case Op::halve: return halve_value(total, r);
        case Op::multiply: return checked_mul(total, operand, where);
    }
    return total;
}

std::string with_source(std::string text, const std::string& source) {
    if (!source.empty()) text += " [" + source + "]";
    return text;
}

std::string render_step(const ModifierPipeline::Step& s) {
    switch (s.op) {
        case Op::base: return with_source(std::to_string(s.operand), s.source);
        case Op::add: return with_source(signed_string(s.operand), s.source);
        case Op::set: return with_source("=" + std::to_string(s.operand), s.source);
        case Op::at_most: return with_source("max " + std::to_string(s.operand), s.source);
        case Op::at_least: return with_source("min " + std::to_string(s.operand), s.source);
        case Op::halve:
            return with_source(s.rounding == Rounding::up ? "×½↑" : "×½↓", s.source);
        case Op::multiply: return with_source("×" + std::to_string(s.operand), s.source);
    }
    return "";
}

}  // namespace

ModifierPipeline::ModifierPipeline(std::string name, std::string kind)
    : name_(std::move(name)), kind_(std::move(kind)) {}

ModifierPipeline& ModifierPipeline::push(Op op, std::int64_t operand, Rounding rounding,
                                         std::string source, std::string citation,
                                         std::string note) {
    Step s{op, operand, rounding, std::move(source), std::move(citation), std::move(note),
           total_, 0};
    s.after = apply(op, total_, operand, rounding, name_);
    total_ = s.after;
    steps_.push_back(std::move(s));
    return *this;
}

ModifierPipeline& ModifierPipeline::start_from(std::int64_t base, std::string source,
                                               std::string citation, std::string note) {
    if (!steps_.empty())
        throw RuleError(name_ + ": start_from must be the first step of the pipeline");
    return push(Op::base, base, Rounding::none, std::move(source), std::move(citation),
                std::move(note));
}

ModifierPipeline& ModifierPipeline::add(const Modifier& m) {
    if (!m.kind.empty() && !kind_.empty() && m.kind != kind_)
        throw RuleError(name_ + ": cannot add a " + m.kind + " modifier [" + m.source +
                        "] to a " + kind_ + " pipeline");
    return push(Op::add, m.value, Rounding::none, m.source, m.citation, m.note);
}

ModifierPipeline& ModifierPipeline::add(std::int64_t value, std::string source,
                                        std::string citation, std::string note) {
    return push(Op::add, value, Rounding::none, std::move(source), std::move(citation),
                std::move(note));
}

ModifierPipeline& ModifierPipeline::set_to(std::int64_t value, std::string source,
                                           std::string citation, std::string note) {
    return push(Op::set, value, Rounding::none, std::move(source), std::move(citation),
                std::move(note));
}

ModifierPipeline& ModifierPipeline::at_most(std::int64_t limit, std::string source,
                                            std::string citation, std::string note) {
    return push(Op::at_most, limit, Rounding::none, std::move(source), std::move(citation),
                std::move(note));
}

ModifierPipeline& ModifierPipeline::at_least(std::int64_t limit, std::string source,
                                             std::string citation, std::string note) {
    return push(Op::at_least, limit, Rounding::none, std::move(source), std::move(citation),
                std::move(note));
}

ModifierPipeline& ModifierPipeline::halve(Rounding rounding, std::string source,
                                          std::string citation, std::string note) {
    if (rounding == Rounding::none)
        throw RuleError(name_ + ": halving [" + source + "] must state its rounding (down or up)");
    return push(Op::halve, 0, rounding, std::move(source), std::move(citation), std::move(note));
}

ModifierPipeline& ModifierPipeline::multiply(std::int64_t factor, std::string source,
                                             std::string citation, std::string note) {
    return push(Op::multiply, factor, Rounding::none, std::move(source), std::move(citation),
                std::move(note));
}

bool ModifierPipeline::is_sum() const {
    return std::all_of(steps_.begin(), steps_.end(), [](const Step& s) { return s.op == Op::add; });
}

std::string ModifierPipeline::render() const {
    // A pure sum is a modifier and carries a sign; anything with a base is a quantity.
    bool has_base = !steps_.empty() && steps_.front().op == Op::base;
    std::string out = has_base ? std::to_string(total_) : signed_string(total_);
    if (!kind_.empty()) out += " " + kind_;
    if (steps_.empty()) return out;
    out += " (";
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        if (i) out += ' ';
        out += render_step(steps_[i]);
    }
    return out + ")";
}

std::vector<std::string> ModifierPipeline::explain_lines() const {
    std::vector<std::string> lines;
    lines.reserve(steps_.size() + 1);
    for (const Step& s : steps_) {
        std::string line = render_step(s);
        if (!s.citation.empty()) line += " (" + s.citation + ")";
        if (!s.note.empty()) line += " " + s.note;
        line += " → " + std::to_string(s.after);
        lines.push_back(std::move(line));
    }
    bool has_base = !steps_.empty() && steps_.front().op == Op::base;
    std::string total = "= " + (has_base ? std::to_string(total_) : signed_string(total_));
    if (!kind_.empty()) total += " " + kind_;
    lines.push_back(std::move(total));
    return lines;
}

const char* op_name(Op op) {
    switch (op) {
        case Op::base: return "base";
        case Op::add: return "add";
        case Op::set: return "set";
        case Op::at_most: return "at_most";
        case Op::at_least: return "at_least";
        case Op::halve: return "halve";
        case Op::multiply: return "multiply";
    }
    return "?";
}

const char* rounding_name(Rounding r) {
    switch (r) {
        case Rounding::none: return "";
        case Rounding::down: return "down";
        case Rounding::up: return "up";
    }
    return "?";
}

Op op_from_name(const std::string& s) {
    for (Op op : {Op::base, Op::add, Op::set, Op::at_most, Op::at_least, Op::halve, Op::multiply})
        if (s == op_name(op)) return op;
    throw ParseError("pipeline step op", s, 0, "expected base, add, set, at_most, at_least, halve or multiply");
}

Rounding rounding_from_name(const std::string& s) {
    for (Rounding r : {Rounding::none, Rounding::down, Rounding::up})
        if (s == rounding_name(r)) return r;
    throw ParseError("rounding", s, 0, "expected \"down\", \"up\" or \"\"");
}

void to_json(nlohmann::json& j, const ModifierPipeline& p) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : p.steps())
        steps.push_back({{"op", op_name(s.op)},
                         {"operand", s.operand},
                         {"rounding", rounding_name(s.rounding)},
                         {"source", s.source},
                         {"citation", s.citation},
                         {"note", s.note},
                         {"before", s.before},
                         {"after", s.after}});
    j = nlohmann::json{{"name", p.name()}, {"kind", p.kind()}, {"total", p.total()},
                       {"steps", std::move(steps)}};
}

ModifierPipeline pipeline_from_json(const nlohmann::json& j) {
    auto bad = [&](const std::string& problem) {
        return ParseError("modifier pipeline", j.dump(), 0, problem);
    };
    if (!j.is_object() || !j.contains("steps") || !j.at("steps").is_array())
        throw bad("expected an object with a \"steps\" array");
    ModifierPipeline p(j.value("name", ""), j.value("kind", ""));
    for (const auto& s : j.at("steps")) {
        if (!s.is_object() || !s.contains("op") || !s.at("op").is_string())
            throw bad("each step needs an \"op\"");
        Op op = op_from_name(s.at("op").get<std::string>());
        std::int64_t operand = s.value("operand", std::int64_t{0});
        Rounding r = rounding_from_name(s.value("rounding", ""));
        std::string source = s.value("source", ""), citation = s.value("citation", ""),
                    note = s.value("note", "");
        switch (op) {
            case Op::base: p.start_from(operand, source, citation, note); break;
            case Op::add: p.add(operand, source, citation, note); break;
            case Op::set: p.set_to(operand, source, citation, note); break;
            case Op::at_most: p.at_most(operand, source, citation, note); break;
            case Op::at_least: p.at_least(operand, source, citation, note); break;
            case Op::halve: p.halve(r, source, citation, note); break;
            case Op::multiply: p.multiply(operand, source, citation, note); break;
        }
        const auto& last = p.steps().back();
        if (s.contains("after") && s.at("after") != last.after)
            throw bad("step " + std::to_string(p.steps().size()) + " [" + source +
                      "] records " + s.at("after").dump() + " but computes " +
                      std::to_string(last.after));
    }
    if (j.contains("total") && j.at("total") != p.total())
        throw bad("records total " + j.at("total").dump() + " but computes " +
                  std::to_string(p.total()));
    return p;
}

}  // namespace umpire::bus
