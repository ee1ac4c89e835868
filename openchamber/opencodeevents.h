#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QString>

#include <optional>

class QNetworkReply;

namespace OpenChamber {

class OpenCodeClient;

// Server-sent events as OpenCode writes them on /event: "data: <json>" lines, an event ending at
// a blank line (multi-line data joined with '\n'), ":" comments and other fields ignored. Bytes
// arrive in any split. An event larger than maxEventBytes is dropped whole (its lines are
// skipped up to the blank line) and counted, so one huge message part cannot grow memory.
class SseParser
{
public:
    static constexpr qsizetype DefaultMaxEventBytes = 1024 * 1024;

    explicit SseParser(qsizetype maxEventBytes = DefaultMaxEventBytes) : m_max(maxEventBytes) { }

    // The data of every event completed by these bytes, in order.
    QList<QByteArray> feed(const QByteArray &bytes);
    int droppedEvents() const { return m_dropped; }

private:
    void takeLine(const QByteArray &line, QList<QByteArray> &events);

    qsizetype m_max;
    QByteArray m_line;
    QByteArray m_data;
    bool m_hasData = false;
    bool m_skipping = false;
    qsizetype m_skippedLineBytes = 0;
    char m_skippedLineLast = '\0';
    int m_dropped = 0;
};

// One GET /event?directory=<dir> stream of an OpenCode instance: emits each event as its JSON
// object ({"type", "properties"}); events that are not JSON objects are dropped. With path
// GlobalPath (and no directory) it is OpenCode's stream of every instance, whose events are
// {"directory", "project", "payload": {"type", "properties"}}. Used by the
// service to hear sooner than its polling would that a session turned busy or idle or that a
// message landed; polling stays the authority, so a stream that never connects, drops or lags
// only costs time. Streams use their own network manager: a stream holds its connection for as
// long as it runs and must not take one from the short requests.
class OpenCodeEventStream : public QObject
{
    Q_OBJECT
public:
    static inline const QString InstancePath = QStringLiteral("/event");
    static inline const QString GlobalPath = QStringLiteral("/global/event");

    OpenCodeEventStream(OpenCodeClient &client, QNetworkAccessManager &network, const QString &directory,
                        QObject *parent = nullptr, const QString &path = InstancePath);
    ~OpenCodeEventStream() override;

    bool isConnected() const { return m_connected; }

Q_SIGNALS:
    // The first event arrived (OpenCode's server.connected): the server has subscribed us, so
    // nothing that happens from now on is missed.
    void connected();
    void received(const QJsonObject &event); // one event object ({"type", "properties"})
    void ended(const QString &reason); // refused, closed, not 200: no more events

private:
    void readAvailable();

    QPointer<QNetworkReply> m_reply;
    SseParser m_parser;
    bool m_connected = false;
};

// The sessionID an event is about, wherever its type keeps it (properties.sessionID,
// properties.info.sessionID, properties.part.sessionID); empty when none.
QString eventSessionId(const QJsonObject &event);

// What the global stream says about a worktree's bootstrap (OpenCode publishes worktree.ready or
// worktree.failed there, with the worktree's directory, once it has populated and booted it).
struct WorktreeNews
{
    QString directory;
    bool ready = false; // else failed
    QString message; // failed: OpenCode's reason
};
std::optional<WorktreeNews> worktreeNews(const QJsonObject &globalEvent);

} // namespace OpenChamber
