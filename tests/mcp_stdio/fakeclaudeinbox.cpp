#include "tests/mcp_stdio/fakeclaudeinbox.h"

#include "mcp_stdio/claudeinboxwire.h"

#include <QJsonDocument>
#include <QTest>

FakeClaudeInbox::FakeClaudeInbox(const QString &path, QObject *parent)
    : QObject(parent), m_listener(Mcp::ClaudeInboxWire::MaxLineBytes, 30000, this)
{
    connect(&m_listener, &Mcp::UnixSocket::LineListener::lineReceived, this,
            [this](const QByteArray &line) { lines << QJsonDocument::fromJson(line).object(); });
    ok = bool(m_listener.listen(path));
}

QList<QJsonObject> FakeClaudeInbox::userLines() const
{
    QList<QJsonObject> out;
    for (const QJsonObject &o : lines) {
        if (o.value(QLatin1String("type")) == QLatin1String("user"))
            out << o;
    }
    return out;
}

QString FakeClaudeInbox::content(const QJsonObject &line)
{
    return line.value(QLatin1String("message")).toObject().value(QLatin1String("content")).toString();
}

bool FakeClaudeInbox::sendReceipt(const QJsonObject &line, const QJsonObject &fields)
{
    const QString from = line.value(QLatin1String("from")).toString();
    if (!from.startsWith(QLatin1String("uds:")))
        return false;
    QJsonObject receipt {{QStringLiteral("type"), QStringLiteral("control")},
                         {QStringLiteral("action"), QStringLiteral("peer_message_status")},
                         {QStringLiteral("orig_msg_id"), line.value(QLatin1String("msg_id"))},
                         {QStringLiteral("reason"), QStringLiteral("because")}};
    for (auto it = fields.begin(); it != fields.end(); ++it)
        receipt.insert(it.key(), it.value());
    bool done = false;
    bool sent = false;
    Mcp::UnixSocket::sendAndClose(from.mid(4), QJsonDocument(receipt).toJson(QJsonDocument::Compact) + '\n',
                                  2000, this, [&](Broker::Result<void> r) {
                                      sent = bool(r);
                                      done = true;
                                  });
    return QTest::qWaitFor([&] { return done; }, 3000) && sent;
}
