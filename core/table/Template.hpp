// Round blast templates over model bases (Bolt Action HE: 1″, 2″, 3″ or 4″ diameter).
//
// A model is "under" a template if any part of its base is (HE: "count the number of models whose
// bases are under the template (even partially)"), i.e. the circles intersect.
//
// Exact tangency counts as under (within kTolerance). Reason: the HE text says "a 1″ template
// placed between two models of the same unit that are just spaced out as much as possible can
// always hit two models". Models spaced as far as unit coherency allows are 1″ apart base edge to
// base edge (Bolt Action's coherency distance, not in our text), so a 1″ template between them only
// touches both; the text counts that as two hits. The same test decides whether a template "clips"
// a friendly model, so touching a friend is clipping it.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "core/table/Circle.hpp"
#include "core/table/Model.hpp"
#include "core/table/Vec2.hpp"

namespace umpire::table {

inline constexpr double kMinTemplateDiameter = 1.0;
inline constexpr double kMaxTemplateDiameter = 4.0;

struct Template {
    Point centre;
    double diameter = 1.0;  // inches, in [1, 4]

    double radius() const { return diameter / 2.0; }
    Circle area() const { return {centre, radius()}; }
};

// Throws RuleError unless 1″ <= diameter <= 4″. Any size in the range is accepted (the HE chart
// only uses whole inches, but other rulesets may not).
void validate_template_diameter(double diameter);

// A template, its diameter checked.
Template make_template(Point centre, double diameter);

// Is any part of the model's base under the template?
bool is_under(const Template& t, const Model& m);

// Indices (ascending) into `models` of the models under the template.
std::vector<std::size_t> models_under(const Template& t, std::span<const Model> models);

// How many models are under a template of `diameter` centred at `centre`.
std::size_t count_under(Point centre, double diameter, std::span<const Model> models);

// Several templates at once (Bolt Action, Multiple HE Hits: "a model suffers a single hit even if
// covered by more than one template" — the templates act as one odd-shaped template): indices
// (ascending) of the models under at least one template, each listed once.
std::vector<std::size_t> models_under(std::span<const Template> ts, std::span<const Model> models);
std::size_t count_under(std::span<const Template> ts, std::span<const Model> models);

}  // namespace umpire::table
