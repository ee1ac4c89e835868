#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QTcpServer>

class QTcpSocket;

// A stand-in for a claude-peers 0.7 broker (docs/spec/peers-api.md §3), in the test
// process on an ephemeral loopback port: its request pipeline (health without auth, 401
// without the bearer token, 200 text for other methods, 404 {"error":"not found"} for unknown
// paths), its /register answer without session_secret, /poll-messages + /ack-messages and no
// /wait-messages, /health without capabilities or database id. Keep-alive HTTP/1.1.
//
// BrokenStream mode instead claims our capabilities and then never answers /wait-messages:
// a push stream that hangs, for the safety net.
class ReferenceBroker : public QObject
{
    Q_OBJECT
public:
    enum class Mode { Reference07, BrokenStream };

    ReferenceBroker(QByteArray token, Mode mode = Mode::Reference07, QObject *parent = nullptr);
    ~ReferenceBroker() override;
    bool listen();
    quint16 port() const { return m_server.serverPort(); }

    // Stores a message as /send-message would; returns its id.
    qint64 addMessage(const QString &toId, const QString &text,
                      const QString &fromId = QStringLiteral("cli"));
    bool isDelivered(qint64 messageId) const;
    int requests(const QString &path) const { return m_requests.value(path); }
    QString channelPush(const QString &peerId) const;
    QStringList peerIds() const;
    // From now on, every request for path gets this answer (200) instead of the reference's: a
    // broker that answers {"ok":false}, an older field type, or no JSON at all.
    void answerWith(const QString &path, QByteArray body, QByteArray contentType = "application/json");

private:
    struct Peer
    {
        QJsonObject row;
    };
    struct Message
    {
        qint64 id;
        QString fromId, toId, text, type;
        QJsonValue metadata;
        QJsonValue replyTo;
        QString sentAt;
        bool delivered = false;
        QJsonObject toJson() const;
    };
    struct Answer
    {
        int status = 200;
        QByteArray contentType = "application/json";
        QByteArray body;
        bool hold = false; // never answered
    };

    void onReadyRead(QTcpSocket *socket);
    Answer handle(const QByteArray &method, const QString &path, const QByteArray &authorization,
                  const QByteArray &body);
    Answer route(const QString &path, const QJsonObject &body);
    static Answer json(const QJsonValue &value, int status = 200);

    QByteArray m_token;
    Mode m_mode;
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QHash<QString, QJsonObject> m_peers;
    QList<Message> m_messages;
    QHash<QString, int> m_requests;
    QHash<QString, Answer> m_overrides;
    qint64 m_nextId = 1;
};
