#pragma once

#include "clientkind.h"
#include "toolhost.h"

#include <QJsonObject>
#include <QObject>

namespace Broker {
class BrokerClient;
}

namespace Mcp {

class Delivery;
class Session;

// The nine tools: the eight of reference §7.2 (same names, input schemas and texts) plus
// whoami. One handler per tool in a static table. Every result goes through the banner
// (layer 2); failures the model can act on are isError results in plain words.
class ToolRegistry : public QObject, public ToolHost
{
    Q_OBJECT
public:
    ToolRegistry(Broker::BrokerClient *client, Session *session, Delivery *delivery,
                 QObject *parent = nullptr);

    // How long a tool call waits for the registration before it reports (default 10 s, env
    // CLAUDE_PEERS_TOOL_WAIT_MS).
    void setRegistrationWaitMs(int ms) { m_registrationWaitMs = ms; }
    // The client from initialize: tool texts are worded for it (clientkind.h).
    void setClientName(const QString &name);
    ClientKind clientKind() const { return m_clientKind; }

    QJsonArray toolList() const override;
    bool hasTool(const QString &name) const override;
    void callTool(const QString &name, const QJsonObject &arguments, Done done) override;

    static QJsonObject textResult(const QString &text, bool isError = false);

private:
    using Handler = void (ToolRegistry::*)(const QJsonObject &arguments, const Done &done);
    struct Tool
    {
        const char *name;
        QJsonObject (*definition)(ClientKind); // name, description, inputSchema
        Handler handler;
        bool needsRegistration;
    };
    static const Tool s_tools[];
    static const Tool *find(const QString &name);

    void listPeers(const QJsonObject &args, const Done &done);
    void sendMessage(const QJsonObject &args, const Done &done);
    void setSummary(const QJsonObject &args, const Done &done);
    void setName(const QJsonObject &args, const Done &done);
    void checkMessages(const QJsonObject &args, const Done &done);
    void broadcastMessage(const QJsonObject &args, const Done &done);
    void messageStatus(const QJsonObject &args, const Done &done);
    void channelHealth(const QJsonObject &args, const Done &done);
    void whoami(const QJsonObject &args, const Done &done);

    // Prepends the due banner to the first text item and, while the broker is in trouble,
    // appends the reason (OpenCode shows no stderr and says "connected" regardless).
    QJsonObject withBanner(QJsonObject result);
    // "Channel push: …" as whoami and channel_health say it; explain: say so when the client
    // does not show pushes (channel_health gives its own "Why:" line instead).
    QString channelPushLine(bool explain) const;

    Broker::BrokerClient *m_client;
    Session *m_session;
    Delivery *m_delivery;
    int m_registrationWaitMs;
    QString m_clientName;
    ClientKind m_clientKind = ClientKind::ClaudeCode; // until initialize says otherwise
};

} // namespace Mcp
