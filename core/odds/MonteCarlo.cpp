#include "core/odds/MonteCarlo.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "core/Error.hpp"
#include "core/dice/Generator.hpp"
#include "core/dice/GeneratorSource.hpp"

namespace umpire::odds {

namespace {

using Counts = std::unordered_map<std::string, std::pair<Outcome, std::uint64_t>>;

// One entry of the merged counts: the map node with its key text (the outcome is shared).
std::size_t merged_entry_bytes(const std::string& key) {
    return 32 + sizeof(std::string) + sizeof(std::pair<Outcome, std::uint64_t>) + key.capacity() + 1;
}

std::string merge_what(std::size_t outcomes) {
    return "the Monte Carlo workers' counts merged into one total (" + std::to_string(outcomes) + " distinct outcomes)";
}

// Draws samples round after round, keeping the totals. Chunk c of the whole run is rolled from
// stream c; deriving stream c from scratch costs c jumps, so the sampler walks the streams once,
// in order, on the calling thread and hands each chunk its starting state.
class Sampler {
public:
    Sampler(const ScriptFactory& factory, const MonteCarloOptions& options)
        : options_(options), streams_(options.seed) {
        const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
        threads_ = options.threads ? options.threads : hw;
        for (unsigned i = 0; i < threads_; ++i) scripts_.push_back(factory());
        counts_.resize(threads_);
        seen_.resize(threads_);
        held_.resize(threads_);
    }

    unsigned threads() const { return threads_; }
    std::uint64_t done() const { return done_; }

    // Draws `samples` more samples. `planned` is the total the progress fraction refers to.
    void run(std::uint64_t samples, std::uint64_t planned) {
        const std::uint64_t chunk = MonteCarloOptions::chunk_size;
        const std::uint64_t chunks = (samples + chunk - 1) / chunk;
        std::vector<dice::Generator::State> states;
        states.reserve(chunks);
        for (std::uint64_t c = 0; c < chunks; ++c) {
            states.push_back(streams_.state());
            streams_.jump();
        }

        std::atomic<std::uint64_t> next{0}, finished{0};
        std::atomic<bool> stop{false};
        std::exception_ptr error;
        std::mutex mutex;
        std::condition_variable wake;

        auto work = [&](unsigned w) {
            try {
                for (std::uint64_t c; (c = next.fetch_add(1)) < chunks && !stop;) {
                    dice::GeneratorSource source(dice::Generator::from_state(states[c]));
                    const std::uint64_t n = std::min(chunk, samples - c * chunk);
                    for (std::uint64_t i = 0; i < n; ++i) {
                        if ((i & 63) == 0) options_.bounds.check(std::to_string(finished.load()) + " Monte Carlo samples");
                        Outcome outcome = scripts_[w](source);
                        Seen& seen = seen_[w][Seen::slot(outcome.identity())];
                        if (seen.identity == outcome.identity() && seen.identity) {
                            ++*seen.count;
                            continue;
                        }
                        auto it = counts_[w].find(outcome.key());
                        if (it == counts_[w].end()) {
                            if (scripts_[w].on_memory)
                                scripts_[w].on_memory(held_[w] += tally_entry_bytes(outcome.key(), outcome));
                            it = counts_[w].emplace(outcome.key(), std::make_pair(outcome, 0)).first;
                        }
                        ++it->second.second;
                        // The tally's own copy holds its identity's address, so no other outcome
                        // can take it while the entry lives.
                        if (it->second.first.identity() == outcome.identity())
                            seen = {outcome.identity(), &it->second.second};
                    }
                    finished += n;
                    wake.notify_one();
                }
            } catch (...) {
                std::lock_guard lock(mutex);
                if (!error) error = std::current_exception();
                stop = true;
            }
            wake.notify_one();
        };

        const unsigned used = static_cast<unsigned>(std::min<std::uint64_t>(threads_, chunks));
        std::vector<std::thread> workers;
        for (unsigned w = 1; w < used; ++w) workers.emplace_back(work, w);
        if (options_.progress) {
            // The calling thread draws progress and worker 0 runs on its own thread too, so the
            // callback (a terminal progress bar) never runs concurrently with itself.
            workers.emplace_back(work, 0);
            std::unique_lock lock(mutex);
            while (finished < samples && !stop) {
                wake.wait_for(lock, std::chrono::milliseconds(100));
                report(static_cast<double>(done_ + finished) / static_cast<double>(planned));
            }
        } else {
            work(0);
        }
        for (auto& t : workers) t.join();
        if (error) std::rethrow_exception(error);

        done_ += samples;
    }

    // The workers' counts summed into one sorted map, and the Result made from it. Both are
    // copies of every distinct outcome (the workers' tallies, charged to their hosts, stay alive
    // meanwhile), so each is charged against the run's memory cap before it grows: a merged
    // entry as it is added (outcomes that never repeat differ between workers too, so the merge
    // can hold the sum of the tallies), then the Result's entries before it is built. The charge
    // ends with this call; the caller that keeps the Result charges it (app/OddsRunner.cpp).
    Result result() const {
        MemoryHold hold(options_.bounds.memory);
        std::map<std::string, std::pair<Outcome, std::uint64_t>> sorted;
        std::size_t result_entries = 0;
        for (const auto& worker_counts : counts_)
            for (const auto& [key, entry] : worker_counts) {
                auto it = sorted.find(key);
                if (it == sorted.end()) {
                    hold.grow(merged_entry_bytes(key), [&] { return merge_what(sorted.size() + 1); }, kOutcomesNeverRepeat);
                    sorted.emplace(key, entry);
                    result_entries += result_entry_bytes(key);
                } else
                    it->second.second += entry.second;
            }
        hold.grow(result_entries, [&] { return merge_what(sorted.size()) + " and the result made from them"; },
                  kOutcomesNeverRepeat);
        Result r = Result::from_counts(sorted, done_);
        r.seed = options_.seed;
        r.threads = threads_;
        return r;
    }

    void report(double fraction) {
        if (!options_.progress) return;
        fraction = std::clamp(fraction, 0.0, 1.0);
        if (fraction < reported_) return;  // a re-estimated total must not move the bar back
        reported_ = fraction;
        options_.progress(fraction);
    }

private:
    const MonteCarloOptions& options_;
    dice::Generator streams_;  // positioned at the stream of the next chunk
    unsigned threads_ = 1;
    std::vector<Script> scripts_;
    // Each worker's tally, kept over every round and summed by result(): sums do not depend on
    // which worker drew which chunk. A worker's tally is told to its script (Script::on_memory),
    // on that worker's thread, so a host charges its own worker's outcomes.
    std::vector<Counts> counts_;
    // A worker's script gives the same Outcome object for a result it has kept (app/ScriptOutcome.hpp),
    // so a tally entry is found again by the object's address before its key text is hashed and
    // compared (the sampler's own part of an MG attack sample 160 -> 101 machine instructions,
    // docs/performance.md, "Issue 18, session 34, h1"): a few addresses a worker,
    // each the identity of the tally's own copy (so no other outcome can have it) with its count.
    // Element addresses of an unordered_map outlive its rehashes.
    struct Seen {
        static constexpr std::size_t kSlots = 16;
        static std::size_t slot(const void* identity) {
            return (reinterpret_cast<std::uintptr_t>(identity) >> 4) % kSlots;
        }
        const void* identity = nullptr;
        std::uint64_t* count = nullptr;
    };
    std::vector<std::array<Seen, Seen::kSlots>> seen_;
    std::vector<std::size_t> held_;
    std::uint64_t done_ = 0;
    double reported_ = 0;
};

}  // namespace

Result monte_carlo(const ScriptFactory& factory, const MonteCarloOptions& options) {
    const std::uint64_t chunk = MonteCarloOptions::chunk_size;
    Sampler sampler(factory, options);
    std::string note;
    if (options.target_half_width <= 0) {
        if (options.samples == 0) throw RuleError("Monte Carlo needs at least one sample");
        sampler.run(options.samples, options.samples);
    } else {
        if (options.max_samples == 0) throw RuleError("Monte Carlo needs at least one sample");
        // Rounds: a first look of 4 chunks, then as many samples as the widest interval so far
        // says are needed (half-width shrinks as 1/sqrt(n)), with 5% to spare, in whole chunks.
        // Round sizes depend only on the counts so far, so the stopping point is deterministic too.
        const double target = options.target_half_width;
        std::uint64_t round = std::min(options.max_samples, 4 * chunk);
        std::uint64_t planned = round;
        for (;;) {
            sampler.run(round, planned);
            const double widest = sampler.result().widest_half_width();
            const std::uint64_t n = sampler.done();
            if (widest < target) break;
            if (n >= options.max_samples) {
                note = "stopped at the cap of " + std::to_string(options.max_samples) +
                       " samples before the widest 95% half-width fell below the target";
                break;
            }
            const double ratio = widest / target;
            const double needed = std::min(std::ceil(static_cast<double>(n) * ratio * ratio * 1.05),
                                           static_cast<double>(options.max_samples));
            std::uint64_t more = needed > static_cast<double>(n)
                                     ? static_cast<std::uint64_t>(needed) - n : 0;
            more = std::max(more, 4 * chunk);
            more = (more + chunk - 1) / chunk * chunk;
            more = std::min(more, options.max_samples - n);
            round = more;
            planned = n + more;
        }
    }
    sampler.report(1.0);
    Result r = sampler.result();
    r.note = note;
    return r;
}

}  // namespace umpire::odds
