// Where to put an HE template.
//
// Bolt Action, HE: the template is placed "so that the template covers as many models as possible in
// the target unit ... but the template cannot clip any friendly models"; other enemy units may be
// clipped freely (they are neither a goal nor an obstacle here: count them afterwards with
// models_under). Multiple HE Hits: each further template is placed "in contact with" the others
// "without overlapping".
//
// Tie-break (the rules leave it to the player; the engine must be deterministic): among all centres
// that hit the maximum number of target models, the one closest to the target unit's centroid; if
// still tied (within kTolerance), the lowest x, then the lowest y.
//
// "Under" and "clip" both include exact contact (Template.hpp). The search is exact except for a
// margin of 1e-6″ (kPlacementMargin) kept from friendly bases: a placement that only exists within
// that distance of touching a friend is not found. Whether a model is hit is always decided by the
// same test as models_under, so the hits reported are exactly those of the returned centre.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "core/table/Model.hpp"
#include "core/table/Template.hpp"
#include "core/table/Vec2.hpp"

namespace umpire::table {

inline constexpr double kPlacementMargin = 1e-6;

struct Placement {
    // False when no centre covers any target model without clipping a friendly model (or, for a
    // touching template, without overlapping a template already placed); `centre` is then the
    // target centroid and `hits` is empty.
    bool found = false;
    Template placed;                  // centre and diameter of the template
    std::vector<std::size_t> hits;    // indices (ascending) into the target models under it
};

// Best centre for one template of `diameter` (1″–4″) over `targets` (the models of the target
// unit), never clipping any of `friends`. Throws RuleError for a bad diameter or no targets.
Placement place_template(double diameter, std::span<const Model> targets,
                         std::span<const Model> friends);

// Same, picking the targets (models of `target_unit`) and the friends (models of `friendly_side`)
// out of one model list; the indices in `hits` are then indices into `models`.
Placement place_template(double diameter, std::span<const Model> models, UnitId target_unit,
                         SideId friendly_side);

// The next template of a multiple HE hit (Diagram 10): its centre touches at least one template in
// `placed` (centre distance = sum of radii) and overlaps none of them (touching is allowed),
// clips no friend, and it
// covers as many target models NOT already under `placed` as possible (ties as above). Placing
// the templates one after another this way is greedy: it is the rule's procedure as a player
// performs it, not a search over all joint placements. `hits` lists only the newly covered models.
Placement place_touching_template(double diameter, std::span<const Template> placed,
                                  std::span<const Model> targets, std::span<const Model> friends);

// All `count` templates of a multiple HE hit: the first by place_template, each further one by
// place_touching_template. Returns the templates and, in `hits`, the union of models under them.
// `placed` holds fewer than `count` templates when the remaining ones could add no new hit (their
// position would change nothing the rules count); `found` is false when the first finds nothing.
struct MultiPlacement {
    bool found = false;
    std::vector<Template> placed;
    std::vector<std::size_t> hits;  // indices (ascending) into targets, each model once
};
MultiPlacement place_templates(std::size_t count, double diameter, std::span<const Model> targets,
                               std::span<const Model> friends);

}  // namespace umpire::table
