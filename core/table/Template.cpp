#include "core/table/Template.hpp"

#include <cmath>
#include <string>

#include "core/Error.hpp"

namespace umpire::table {

void validate_template_diameter(double diameter) {
    if (!(diameter >= kMinTemplateDiameter && diameter <= kMaxTemplateDiameter))
        throw RuleError("template diameter must be between 1\" and 4\", got " +
                        std::to_string(diameter) + "\"");
}

Template make_template(Point centre, double diameter) {
    validate_template_diameter(diameter);
    if (!(std::isfinite(centre.x) && std::isfinite(centre.y)))
        throw RuleError("template centre is not a finite position");
    return {centre, diameter};
}

bool is_under(const Template& t, const Model& m) {
    validate_template_diameter(t.diameter);
    validate(m);
    return intersects(t.area(), m.base());
}

std::vector<std::size_t> models_under(const Template& t, std::span<const Model> models) {
    return models_under(std::span<const Template>(&t, 1), models);
}

std::size_t count_under(Point centre, double diameter, std::span<const Model> models) {
    return models_under(make_template(centre, diameter), models).size();
}

std::vector<std::size_t> models_under(std::span<const Template> ts, std::span<const Model> models) {
    for (const Template& t : ts) validate_template_diameter(t.diameter);
    validate(models);
    std::vector<std::size_t> hit;
    for (std::size_t i = 0; i < models.size(); ++i) {
        // A model is listed at the first template that covers it, so never twice.
        for (const Template& t : ts) {
            if (intersects(t.area(), models[i].base())) {
                hit.push_back(i);
                break;
            }
        }
    }
    return hit;
}

std::size_t count_under(std::span<const Template> ts, std::span<const Model> models) {
    return models_under(ts, models).size();
}

}  // namespace umpire::table
