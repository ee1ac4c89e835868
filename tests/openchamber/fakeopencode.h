#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTcpServer>
#include <QUrl>
#include <QUrlQuery>

#include <functional>
#include <optional>

class QTcpSocket;

namespace OpenChamberTest {

struct FakeRequest
{
    QByteArray method;
    QString path; // decoded, without the query
    QUrlQuery query;
    QHash<QByteArray, QByteArray> headers; // names lower-case
    QByteArray body;

    QString directory() const; // ?directory=, decoded
    QJsonObject json() const;
};

struct FakeResponse
{
    int status = 200;
    QByteArray body;
    bool hang = false; // never answer (timeouts)

    static FakeResponse json(const QJsonValue &value, int status = 200);
    static FakeResponse empty(int status = 204) { return {status, {}, false}; }
};

// An OpenCode server on an ephemeral loopback port speaking the subset of
// docs/spec/control-service.md §11 the control service uses, with an in-memory model of sessions,
// messages and statuses per directory. Each landed prompt starts a "run": the session is busy for
// busyPolls GET /session/status answers (after idlePollsFirst idle ones), then the assistant's
// reply is stored and it turns idle — or, with runDelayMs >= 0, after that many real milliseconds
// (events on /event say so). Tests script anything else with `handler`, consulted first.
class FakeOpenCode : public QObject
{
    Q_OBJECT
public:
    FakeOpenCode();
    ~FakeOpenCode() override;

    quint16 port() const { return m_server.serverPort(); }
    QUrl url() const;

    // What the instance offers (same for every directory).
    QJsonArray agents;
    QJsonArray providers; // GET /config/providers → {providers, default:{}}
    QJsonObject config;
    QJsonArray commands;
    QByteArray password; // non-empty: Basic auth "opencode:<password>" required

    bool landPrompts = true; // prompt_async stores the user message
    int idlePollsFirst = 0;
    int busyPolls = 1;
    int runDelayMs = -1;
    QString replyText = QStringLiteral("done");
    std::function<qint64()> now; // timestamps of stored messages (default: the system clock)

    std::function<std::optional<FakeResponse>(const FakeRequest &)> handler;

    // State
    QJsonObject addSession(const QString &directory, const QString &id = {}, const QString &title = {},
                           bool archived = false);
    void addMessage(const QString &sessionId, const QString &role, const QString &text, qint64 created,
                    std::optional<qint64> completed = std::nullopt, const QJsonObject &extraInfo = {},
                    const QJsonArray &extraParts = {});
    void setStatus(const QString &sessionId, const QString &type); // "idle" removes it
    QJsonArray messages(const QString &sessionId) const { return m_messages.value(sessionId); }
    QJsonArray sessions() const;
    QList<FakeRequest> requests;
    int count(const QByteArray &method, const QString &path) const; // exact path
    int countPrefix(const QByteArray &method, const QString &pathPrefix) const;
    QList<FakeRequest> find(const QByteArray &method, const QString &path) const;

    // Worktrees (POST /experimental/worktree {name}): created as <worktreeRoot>/<name> with branch
    // opencode/<name>, answered at once; their bootstrap ends with worktreeBootstrap (true:
    // worktree.ready, false: worktree.failed with worktreeFailure, nullopt: no word) on
    // /global/event, right after the answer. Tests script other timings with emitGlobalEvent.
    QString worktreeRoot;
    std::optional<bool> worktreeBootstrap = true;
    QString worktreeFailure = QStringLiteral("branch already exists");
    QStringList worktrees; // created directories, in order
    void emitWorktreeNews(const QString &directory, bool ready, const QString &message = {});
    void emitGlobalEvent(const QString &directory, const QJsonObject &payload);
    int globalEventStreams() const;

    void emitEvent(const QString &directory, const QJsonObject &event);
    int eventStreams() const;
    void dropEventStreams(); // closes every open /event stream (OpenCode restarted)

Q_SIGNALS:
    void requestReceived(const QString &path);

private:
    struct Run
    {
        QString directory;
        int idleLeft = 0;
        int busyLeft = 0;
    };
    struct Connection
    {
        QByteArray buffer;
        bool eventStream = false;
        bool global = false; // /global/event
        QString directory;
    };

    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void serve(QTcpSocket *socket, const FakeRequest &request);
    FakeResponse route(const FakeRequest &request);
    FakeResponse sessionStatuses(const QString &directory);
    void finishRun(const QString &sessionId);
    qint64 stamp() const;
    QString sessionDirectory(const QString &sessionId) const;

    QTcpServer m_server;
    QHash<QTcpSocket *, Connection> m_connections;
    QList<QJsonObject> m_sessions; // newest first
    QHash<QString, QJsonArray> m_messages;
    QHash<QString, QString> m_status; // sessionId → non-idle type
    QHash<QString, Run> m_runs;
    int m_nextId = 1;
};

} // namespace OpenChamberTest
