#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace Mcp {

class ToolRegistry;

// MCP's JSON-RPC layer: validates one input line, routes it through a static method table
// and emits the answer (an object, or an array for a 2025-03-26 batch). It does no I/O and
// no broker work itself, so every error path is tested in-process.
class JsonRpcDispatcher : public QObject
{
    Q_OBJECT
public:
    explicit JsonRpcDispatcher(ToolRegistry *tools, QObject *parent = nullptr);
    ~JsonRpcDispatcher() override;

    void handleLine(const QByteArray &line);
    // An input line over the limit was dropped by the framing.
    void handleLineTooLong(qsizetype limit);

    QString protocolVersion() const { return m_protocolVersion; } // empty before initialize
    bool isInitialized() const { return m_initialized; } // notifications/initialized seen
    QString clientName() const { return m_clientName; }
    QJsonObject initializeParams() const { return m_initializeParams; } // what the client said it is
    int requestsInFlight() const { return int(m_inFlight.size()); }

Q_SIGNALS:
    void response(const QJsonValue &message);
    void initializeAnswered(const QString &protocolVersion, const QString &clientName);
    void initialized();
    void requestReceived(const QString &method); // any valid request (not a notification)
    void clientResponse(const QJsonValue &id); // the client answered a request of ours
    void toolCalled(const QString &name); // before the tool runs
    void logLevelSet(const QString &level); // logging/setLevel with a valid level

private:
    struct Request
    {
        QJsonValue id; // Undefined for a notification
        QString method;
        QJsonObject params;
        quint64 serial = 0; // the key of a request in m_inFlight
        bool isNotification() const { return id.isUndefined(); }
    };
    struct Batch;
    using Reply = std::function<void(QJsonObject)>;
    using Handler = void (JsonRpcDispatcher::*)(const Request &, const Reply &);
    struct MethodEntry
    {
        const char *name;
        Handler handler;
        bool notification; // true: a notification method (never answered)
    };
    static const MethodEntry s_methods[];

    // Handles one parsed message; answer() is called with the reply, or never for a notification.
    void handleMessage(const QJsonValue &message, const Reply &answer);
    void handleBatch(const QJsonArray &array);

    void onInitialize(const Request &request, const Reply &reply);
    void onPing(const Request &request, const Reply &reply);
    void onToolsList(const Request &request, const Reply &reply);
    void onToolsCall(const Request &request, const Reply &reply);
    void onInitialized(const Request &request, const Reply &reply);
    void onCancelled(const Request &request, const Reply &reply);
    void onSetLogLevel(const Request &request, const Reply &reply);

    // A request whose answer is still to come (a tool call): the id it came with, where its
    // answer goes, and the registry's call to cancel when the client gives up on it.
    struct InFlight
    {
        QString idKey;
        Reply answer;
        quint64 toolCall = 0;
    };

    ToolRegistry *m_tools;
    QString m_protocolVersion;
    QString m_clientName;
    QJsonObject m_initializeParams;
    bool m_initialized = false;
    quint64 m_lastRequest = 0;
    QHash<quint64, InFlight> m_inFlight; // by request number: a client may reuse an id
};

} // namespace Mcp
