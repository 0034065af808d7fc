// `umpire serve`'s web server: read-only, on the loopback interface only, for one local page.
//
// Routes (GET and HEAD; every other method is 405):
//   /                       the page (app/serve/index.html), /serve.css, /serve.js
//   /api/page               Session::document(): the data the page shows, as JSON
//   /api/events             server-sent events: "version" each time the document changes
//   /journal.json           the last good game's journal (for `umpire replay`); ?game=compare:
//                           the --compare ruleset's game
//   /rules/<section>        a rule section: its text (from --rules-text files) and where the
//                           rulesets' rules cite it, with the log entries that cite it
// A browser tab on any other site can reach 127.0.0.1 too (and a DNS name can be re-bound to it),
// so a request is refused (403) unless its Host is 127.0.0.1:PORT or localhost:PORT and its
// Origin, when sent, is the page's own.
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/ServeSession.hpp"

namespace umpire::serve {

struct ServerOptions {
    std::vector<std::filesystem::path> rules_texts;   // --rules-text: where /rules/<section> reads text
    std::vector<std::filesystem::path> ruleset_dirs;  // where /rules/<section> finds citing lines
};

class Server {
public:
    Server(Session& session, ServerOptions options);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds 127.0.0.1:port (0: a free port the system picks); returns the port bound. Error if
    // the port is taken.
    int bind(int port);
    // Serves until stop() (from another thread).
    void run();
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Whether a request may be served: 0 and "" if so, else the status (405 for a method other than
// GET/HEAD, 403 for a foreign Host or Origin) and the reason, as one sentence.
struct Refusal {
    int status = 0;
    std::string reason;
};
Refusal refusal(const std::string& method, const std::string& host, const std::string* origin, int port);

}  // namespace umpire::serve
