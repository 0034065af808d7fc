#include "app/ServeServer.hpp"

#include <httplib.h>

#include "app/ServeAssets.hpp"
#include "app/ServePage.hpp"
#include "core/Error.hpp"
#include "core/draw/Svg.hpp"
#include "host/LuaHost.hpp"

namespace umpire::serve {
namespace fs = std::filesystem;

Refusal refusal(const std::string& method, const std::string& host, const std::string* origin, int port) {
    if (method != "GET" && method != "HEAD")
        return {405, "umpire serve is read-only: " + method + " is not allowed (GET and HEAD only)"};
    const std::string p = std::to_string(port);
    if (host != "127.0.0.1:" + p && host != "localhost:" + p)
        return {403, "Host '" + host + "' is not this server (127.0.0.1:" + p + " or localhost:" + p + ")"};
    if (origin && *origin != "http://127.0.0.1:" + p && *origin != "http://localhost:" + p)
        return {403, "a page from '" + *origin + "' may not read this server"};
    return {};
}

namespace {

// HTML text and attribute values are escaped as the SVG writer escapes XML (the same five
// characters; &apos; is HTML5).
std::string html_escape(const std::string& text) { return draw::Svg::escape(text); }

// The log entries of one of a page's games ("game", or "compare_game" under --compare) that cite
// `section` (themselves or a modifier step).
std::vector<std::string> log_lines_citing(const nlohmann::json& page, const char* game, const std::string& section) {
    std::vector<std::string> lines;
    if (page.is_null() || !page.contains(game) || page[game].is_null()) return lines;
    for (const auto& e : page[game]["journal"]["entries"]) {
        bool cites = e["citation"] == section;
        if (e["data"].contains("steps"))
            for (const auto& s : e["data"]["steps"]) cites = cites || (s.contains("citation") && s["citation"] == section);
        if (cites) lines.push_back(e["text"].get<std::string>());
    }
    return lines;
}

}  // namespace

struct Server::Impl {
    Session& session;
    ServerOptions options;
    httplib::Server http;
    int port = 0;

    Impl(Session& s, ServerOptions o) : session(s), options(std::move(o)) {}

    // The section's page: its text where a --rules-text file has it, the rules lines that cite it,
    // and the log entries of the shown game that cite it.
    std::string rules_page(const std::string& section) {
        std::string text, from;
        for (const auto& file : options.rules_texts) {
            text = section_text(LuaHost::read_file(file), section);
            if (!text.empty()) {
                from = LuaHost::display_path(file);
                break;
            }
        }
        std::string body = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                           "<title>" + html_escape(section) + " - umpire serve</title>"
                           "<link rel=\"stylesheet\" href=\"/serve.css\"></head><body class=\"rules-page\">"
                           "<p><a href=\"/\">&larr; back to the page</a></p><h1 id=\"section\">" +
                           html_escape(section) + "</h1>";
        if (!text.empty())
            body += "<section><h2>The rules text</h2><pre class=\"rules-text\">" + html_escape(text) +
                    "</pre><p class=\"muted\">from " + html_escape(from) + "</p></section>";
        else
            body += "<p class=\"muted\">No rules text for " + html_escape(section) +
                    (options.rules_texts.empty() ? " (give the rules text with --rules-text FILE)." : " in the --rules-text files.") +
                    "</p>";
        body += "<section><h2>Where the rules cite it</h2><ul class=\"citing\">";
        const auto citing = citing_lines(section, options.ruleset_dirs);
        for (const auto& c : citing)
            body += "<li><code>" + html_escape(c["file"].get<std::string>()) + ":" + std::to_string(c["line"].get<int>()) +
                    "</code> <code class=\"lua\">" + html_escape(c["text"].get<std::string>()) + "</code></li>";
        if (citing.empty()) body += "<li class=\"muted\">no rules module names it in quotes</li>";
        body += "</ul></section>";
        const auto page = session.page();
        const bool compare = !page.is_null() && page.contains("compare_game") && !page["compare_game"].is_null();
        for (const char* game : {"game", "compare_game"}) {
            if (std::string(game) == "compare_game" && !compare) continue;
            const std::string title = !compare ? "In the game shown"
                                    : std::string(game) == "game" ? "In the original's game"
                                                                  : "In the game under " + page["compare"].get<std::string>();
            body += "<section><h2>" + html_escape(title) + "</h2><ul class=\"log-citing\" data-game=\"" + game + "\">";
            const auto lines = log_lines_citing(page, game, section);
            for (const auto& l : lines) body += "<li>" + html_escape(l) + "</li>";
            if (lines.empty()) body += "<li class=\"muted\">this game does not cite it</li>";
            body += "</ul></section>";
        }
        return body + "</body></html>\n";
    }

    void routes() {
        // Every response: never cached (the page is live), never framed by another site, and
        // no script or style from anywhere but this server.
        http.set_default_headers({{"Cache-Control", "no-store"},
                                  {"X-Content-Type-Options", "nosniff"},
                                  {"X-Frame-Options", "DENY"},
                                  {"Content-Security-Policy",
                                   "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                                   "frame-ancestors 'none'"}});
        http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            const std::string origin = req.get_header_value("Origin");
            const Refusal r = refusal(req.method, req.get_header_value("Host"),
                                      req.has_header("Origin") ? &origin : nullptr, port);
            if (r.status == 0) return httplib::Server::HandlerResponse::Unhandled;
            res.status = r.status;
            if (r.status == 405) res.set_header("Allow", "GET, HEAD");
            res.set_content(r.reason + "\n", "text/plain; charset=utf-8");
            return httplib::Server::HandlerResponse::Handled;
        });
        auto asset = [this](const char* path, const char* name, const char* type) {
            http.Get(path, [name, type](const httplib::Request&, httplib::Response& res) {
                const auto text = embedded_serve_asset(name);
                res.set_content(text.data(), text.size(), type);
            });
        };
        asset("/", "index.html", "text/html; charset=utf-8");
        asset("/serve.css", "serve.css", "text/css; charset=utf-8");
        asset("/serve.js", "serve.js", "text/javascript; charset=utf-8");
        http.Get("/api/page", [this](const httplib::Request&, httplib::Response& res) {
            res.set_content(session.document().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
        });
        // ?game=compare: the --compare ruleset's game.
        http.Get("/journal.json", [this](const httplib::Request& req, httplib::Response& res) {
            const auto page = session.page();
            const bool compare = req.get_param_value("game") == "compare";
            if (page.is_null()) {
                // The address is printed before the first game is played (it runs in the
                // session's thread): "not yet" and "failed" are different answers.
                if (session.document()["status"] == "computing") {
                    res.status = 503;
                    res.set_header("Retry-After", "1");
                    res.set_content("the first game is still being played; try again in a moment\n", "text/plain");
                } else {
                    res.status = 404;
                    res.set_content("no game has been played yet (the first computation failed: see the page)\n",
                                    "text/plain");
                }
                return;
            }
            const auto& game = page[compare ? "compare_game" : "game"];
            if (game.is_null()) {
                res.status = 404;
                res.set_content("no --compare game: umpire serve was started without --compare\n", "text/plain");
                return;
            }
            res.set_content(game["journal"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "application/json");
        });
        // A citation is any text a rule gave umpire.cite ("A9.22", "BA core p. 45"); the path
        // arrives decoded, and everything of it shown is escaped.
        http.Get(R"(/rules/(.{1,120}))", [this](const httplib::Request& req, httplib::Response& res) {
            res.set_content(rules_page(req.matches[1].str()), "text/html; charset=utf-8");
        });
        // Server-sent events: the current version at once, then each new one; a comment every
        // 10 s otherwise, so a closed tab is noticed and its thread freed.
        http.Get("/api/events", [this](const httplib::Request&, httplib::Response& res) {
            auto seen = std::make_shared<std::uint64_t>(0);
            auto first = std::make_shared<bool>(true);
            res.set_chunked_content_provider("text/event-stream", [this, seen, first](std::size_t, httplib::DataSink& sink) {
                if (session.stopped()) return false;
                const std::uint64_t v = *first ? session.version()
                                               : session.wait_for_version(*seen, std::chrono::seconds(10));
                std::string message = ": still here\n\n";
                if (*first || v != *seen) message = "event: version\ndata: " + std::to_string(v) + "\n\n";
                *first = false;
                *seen = v;
                return sink.write(message.data(), message.size());
            });
        });
    }
};

Server::Server(Session& session, ServerOptions options) : impl_(std::make_unique<Impl>(session, std::move(options))) {
    // Each open page holds one thread on its event stream; a few tabs and their requests fit.
    impl_->http.new_task_queue = [] { return new httplib::ThreadPool(24); };
    impl_->http.set_keep_alive_timeout(2);
    impl_->routes();
}

Server::~Server() { stop(); }

int Server::bind(int port) {
    // The loopback address only: nothing on the network can connect (no "0.0.0.0", no "::").
    impl_->port = port == 0 ? impl_->http.bind_to_any_port("127.0.0.1") : port;
    if (port != 0 && !impl_->http.bind_to_port("127.0.0.1", port))
        throw Error("cannot listen on 127.0.0.1:" + std::to_string(port) + " (is the port taken?)");
    if (impl_->port <= 0) throw Error("cannot listen on 127.0.0.1 (no free port)");
    return impl_->port;
}

void Server::run() { impl_->http.listen_after_bind(); }

void Server::stop() {
    if (impl_->http.is_running()) impl_->http.stop();
}

}  // namespace umpire::serve
