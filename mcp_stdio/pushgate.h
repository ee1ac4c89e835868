#pragma once

#include <QJsonValue>
#include <QObject>

class QTimer;

namespace Mcp {

// When the client is ready for channel pushes: the one rule (issue 7 §2.1).
//
// Claude Code installs its channel handler only after it has processed our tools/list answer,
// 9–272 ms later on a loaded machine, and silently drops pushes read before that; a fixed delay
// is not reliable (measured with 2.1.197 for issue 7 §2.1). What was reliable
// (14 of 14 runs): a ping sent right after the tools/list answer; its reply comes after the
// handler exists. So: after answering tools/list the helper pings the client, and pushes start
// when any reply to that ping arrives, or at the client's first tools/call, or `maxDelayMs`
// after notifications/initialized, whichever comes first. Nothing is pushed before initialized.
class PushGate : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int maxDelayMs = 3000;
    };
    // CLAUDE_PEERS_PUSH_READY_MS overrides maxDelayMs.
    static Options defaultOptions();

    static constexpr char PingId[] = "claude-peers-push-ready";

    explicit PushGate(Options options, QObject *parent = nullptr);

    void onInitialized();
    void onRequest(const QString &method); // a request of the client, before it is answered
    void onResponse(const QJsonValue &id); // a response of the client to our request
    // No pushes for this client at all: no ping needed, and delivery (through Claude Code's
    // inbox or the banner) starts at notifications/initialized.
    void setPingWanted(bool wanted) { m_pingWanted = wanted; }

    bool isOpen() const { return m_open; }

Q_SIGNALS:
    void sendPing(const QJsonValue &id); // write this ping request now
    void opened();

private:
    void open(const char *why);

    Options m_options;
    QTimer *m_timer;
    bool m_pingWanted = true;
    bool m_initialized = false;
    bool m_pingSent = false;
    bool m_open = false;
};

} // namespace Mcp
