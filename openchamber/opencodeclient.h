#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QNetworkAccessManager>
#include <QObject>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

#include <expected>
#include <functional>

class QProcessEnvironment;
class QJsonObject;

namespace Broker {
class SecretStore;
}

namespace OpenChamber {

// A failed request to OpenCode. The service decides on the kind, never on the text; the message
// is plain words that say what to do next (start OpenCode, store its password).
struct OpenCodeError
{
    enum class Kind {
        Unreachable, // refused, reset, host not found: nothing answers at the URL
        CannotRun, // nothing answers, and the server cannot start (the managed OpenCode's binary is missing)
        Timeout, // no complete answer before the request's deadline
        Unauthorized, // 401: the server password is missing or wrong
        Http, // any other non-2xx answer; httpStatus and body say which
        BadJson, // an answer that is not JSON
        TooLarge, // an answer larger than the client's cap
    };
    Kind kind = Kind::Http;
    QString message;
    int httpStatus = 0;
    QByteArray body; // the start of a non-2xx answer's body, for error texts
};

template<typename T> using OpenCodeResult = std::expected<T, OpenCodeError>;

// The HTTP client of an OpenCode server (docs/spec/control-service.md §11). Every request is
// directory-scoped the way OpenChamber does it: ?directory=<dir> and x-opencode-directory (the
// server runs the request in that directory's instance: its agents, providers, sessions). Basic
// auth ("opencode":<password>) when a password is set. Each request has a deadline and a cap on
// the answer's size; callbacks run from the event loop, never inside get()/post(), and not at
// all once their context object is destroyed.
class OpenCodeClient : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultTimeoutMs = 15000;
    static constexpr qint64 DefaultMaxAnswerBytes = 16 * 1024 * 1024;
    static inline const QString DefaultUrl = QStringLiteral("http://127.0.0.1:4096");
    static inline const QString UrlEnvironmentVariable = QStringLiteral("CLAUDE_PEERS_OPENCODE_URL");

    struct Options
    {
        QUrl baseUrl = QUrl(DefaultUrl);
        QString username = QStringLiteral("opencode");
        int timeoutMs = DefaultTimeoutMs;
        qint64 maxAnswerBytes = DefaultMaxAnswerBytes;
    };

    // The parsed JSON of a 2xx answer; Undefined for an empty body (204).
    using Callback = std::function<void(OpenCodeResult<QJsonValue>)>;

    explicit OpenCodeClient(Options options, QObject *parent = nullptr);
    ~OpenCodeClient() override;

    // Env CLAUDE_PEERS_OPENCODE_URL, else the config's openchamber.opencode_url, else the default.
    // An unusable value (not http(s)://host…) falls back to the next source.
    static QUrl configuredUrl(const QJsonObject &configRoot, const QProcessEnvironment &environment);

    const Options &options() const { return m_options; }
    QUrl baseUrl() const { return m_options.baseUrl; }
    // The broker's managed OpenCode moves to a new port when it is restarted.
    void setBaseUrl(const QUrl &url) { m_options.baseUrl = url; }
    // Who answers for the server when it is not reachable (the managed OpenCode's state, in
    // words): replaces the "start it with opencode serve" advice of unreachableMessage().
    void setUnreachableExplanation(std::function<QString()> explain)
    {
        m_explainUnreachable = std::move(explain);
    }
    // Set while the server cannot start: an unreachable answer is then CannotRun (no point in
    // waiting for it). False again once it may start.
    void setCannotRun(bool cannotRun) { m_cannotRun = cannotRun; }
    void setPassword(const QByteArray &password) { m_password = password; }
    bool hasPassword() const { return !m_password.isEmpty(); }
    // Reads the server password from the broker's secret store (key "opencode-password") and
    // keeps it; no such secret = no password. done (optional) reports whether one was found.
    void loadPassword(Broker::SecretStore &store, std::function<void(bool found)> done = {});

    // path is absolute ("/session/ses_1/message"); an empty directory leaves the request unscoped
    // (OpenCode's own working directory, or a /global route). timeoutMs <= 0 = the default.
    void get(const QString &path, const QString &directory, const QUrlQuery &query, QObject *context,
             Callback done, int timeoutMs = 0);
    void post(const QString &path, const QString &directory, const QJsonValue &body, QObject *context,
              Callback done, int timeoutMs = 0);

    // The URL of path scoped to directory (used for the event stream too).
    QUrl urlFor(const QString &path, const QString &directory, QUrlQuery query = {}) const;
    // The request headers every call carries (auth, directory, accept).
    QNetworkRequest requestFor(const QString &path, const QString &directory,
                               const QUrlQuery &query = {}) const;
    // "OpenCode is not reachable at <url> (<detail>). Start it with `opencode serve --port …`"
    QString unreachableMessage(const QString &detail) const;

    // "/session/<id>/suffix" with the id percent-encoded.
    static QString sessionPath(const QString &sessionId, const QString &suffix = {});

    int pendingCount() const { return m_pending; }

private:
    void send(const QByteArray &verb, const QString &path, const QString &directory, const QUrlQuery &query,
              const QByteArray &body, QObject *context, Callback done, int timeoutMs);

    Options m_options;
    std::function<QString()> m_explainUnreachable;
    bool m_cannotRun = false;
    QByteArray m_password;
    QNetworkAccessManager m_network;
    int m_pending = 0;
};

} // namespace OpenChamber
