#include "mcp_stdio/claudeinbox.h"

#include "mcp_stdio/mcplogging.h"

#include "mcp_stdio/unixsocket.h"

#include <QFileInfo>
#include <QTimer>
#include <QUuid>

#include <unistd.h>

namespace Mcp {

namespace {

// What one line may carry: well under Claude Code's limit, which counts characters of the
// JSON-escaped line.
constexpr qsizetype MaxContentBytes = ClaudeInboxWire::MaxLineBytes / 4;
constexpr int ReceiptConnectionTimeoutMs = 5000;

} // namespace

std::optional<ClaudeInbox::Endpoint> ClaudeInbox::fromEnvironment(const QProcessEnvironment &environment)
{
    const QString socket = environment.value(QStringLiteral("CLAUDE_CODE_MESSAGING_SOCKET"));
    if (socket.isEmpty() || !QFileInfo(socket).isAbsolute())
        return std::nullopt;
    return Endpoint {socket, environment.value(QStringLiteral("CLAUDE_CODE_MESSAGING_TOKEN"))};
}

ClaudeInbox::ClaudeInbox(Endpoint endpoint, Options options, QObject *parent)
    : QObject(parent),
      m_endpoint(std::move(endpoint)),
      m_options(options),
      m_receipts(
          new UnixSocket::LineListener(ClaudeInboxWire::MaxReceiptBytes, ReceiptConnectionTimeoutMs, this)),
      m_flushTimer(new QTimer(this)),
      m_refillTimer(new QTimer(this)),
      m_tokens(options.burst)
{
    m_sinceRefill.start();
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(0);
    connect(m_flushTimer, &QTimer::timeout, this, &ClaudeInbox::flush);
    m_refillTimer->setSingleShot(true);
    connect(m_refillTimer, &QTimer::timeout, this, &ClaudeInbox::flush);
    connect(m_receipts, &UnixSocket::LineListener::lineReceived, this, &ClaudeInbox::onReceiptLine);
}

ClaudeInbox::~ClaudeInbox() = default;

QString ClaudeInbox::receiptPath() const
{
    // Claude Code sends receipts only to a .sock beside its own socket, listened on by the
    // process that sent the message.
    return QFileInfo(m_endpoint.socketPath).absolutePath() +
        QStringLiteral("/%1.sock").arg(qint64(::getpid()));
}

Broker::Result<void> ClaudeInbox::start()
{
    if (auto listening = m_receipts->listen(receiptPath()); !listening)
        return Broker::fail(
            listening.error().kind,
            QStringLiteral("cannot listen for Claude Code's receipts: %1").arg(listening.error().message));
    return {};
}

void ClaudeInbox::deliver(qint64 key, const QString &content)
{
    m_queue.append(Queued {key, content});
    if (!m_refillTimer->isActive())
        m_flushTimer->start(); // after this pass: what it queues goes out as one line
}

void ClaudeInbox::refill()
{
    m_tokens = qMin<double>(m_options.burst, m_tokens + double(m_sinceRefill.restart()) / m_options.refillMs);
}

void ClaudeInbox::flush()
{
    if (m_queue.isEmpty())
        return;
    refill();
    if (m_tokens < 1.0) {
        // Claude Code would drop it: wait for the bucket, and send everything then as one line.
        m_refillTimer->start(int((1.0 - m_tokens) * m_options.refillMs) + 1);
        return;
    }
    QList<Queued> batch;
    qsizetype bytes = 0;
    while (!m_queue.isEmpty() &&
           (batch.isEmpty() || bytes + m_queue.constFirst().content.size() <= MaxContentBytes)) {
        bytes += m_queue.constFirst().content.size();
        batch.append(m_queue.takeFirst());
    }
    m_tokens -= 1.0;
    send(batch);
    if (!m_queue.isEmpty())
        m_flushTimer->start();
}

void ClaudeInbox::send(const QList<Queued> &items)
{
    QStringList contents;
    Line line;
    for (const Queued &q : items) {
        contents << q.content;
        line.keys << q.key;
    }
    const QString msgId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_lines.insert(msgId, line);
    const QString from = QStringLiteral("uds:") + receiptPath();
    QByteArray bytes;
    if (!m_endpoint.token.isEmpty())
        bytes += ClaudeInboxWire::authLine(m_endpoint.token);
    bytes += ClaudeInboxWire::userLine(contents.join(QStringLiteral("\n\n")), from, msgId);
    UnixSocket::sendAndClose(m_endpoint.socketPath, bytes, m_options.writeTimeoutMs, this,
                             [this, msgId](Broker::Result<void> written) { onWritten(msgId, written); });
}

void ClaudeInbox::onWritten(const QString &msgId, const Broker::Result<void> &written)
{
    auto it = m_lines.find(msgId);
    if (it == m_lines.end() || it->held)
        return; // a receipt came first (refused, or held: its next receipt says how it ends)
    if (!written) {
        settle(msgId, QStringLiteral("unreachable"), written.error().message);
        return;
    }
    it->confirm = new QTimer(this);
    it->confirm->setSingleShot(true);
    connect(it->confirm, &QTimer::timeout, this, [this, msgId] { settle(msgId, QString(), QString()); });
    it->confirm->start(m_options.confirmMs);
}

void ClaudeInbox::settle(const QString &msgId, const QString &status, const QString &reason)
{
    auto it = m_lines.find(msgId);
    if (it == m_lines.end())
        return;
    if (it->confirm) {
        it->confirm->deleteLater();
        it->confirm = nullptr;
    }
    const QList<qint64> keys = it->keys;
    const bool wasHeld = it->held;
    if (status == QLatin1String("held")) {
        it->held = true; // kept: a later receipt says how it ended
    } else {
        m_lines.erase(it);
    }
    const bool delivered = status.isEmpty() || status == QLatin1String("delivered");
    for (qint64 key : keys) {
        if (delivered && wasHeld)
            Q_EMIT released(key);
        else if (delivered)
            Q_EMIT accepted(key);
        else if (!wasHeld)
            Q_EMIT notDelivered(key, status, reason);
        // held, then denied or expired: it was reported as not delivered already
    }
}

void ClaudeInbox::onReceiptLine(const QByteArray &line)
{
    const auto receipt = ClaudeInboxWire::parseReceipt(line);
    if (!receipt) {
        qCDebug(lcDelivery).noquote()
            << "inbox: ignored a line on the receipt socket:" << receipt.error().message;
        return;
    }
    QStringList ids = receipt->droppedMsgIds;
    if (!receipt->origMsgId.isEmpty() && !ids.contains(receipt->origMsgId))
        ids << receipt->origMsgId;
    const QString status = ClaudeInboxWire::statusName(receipt->status);
    for (const QString &id : std::as_const(ids)) {
        if (!m_lines.contains(id))
            continue; // not ours, or settled long ago
        qCInfo(lcDelivery).noquote() << "inbox: line" << id << status << "-" << receipt->reason;
        settle(id, status, receipt->reason);
    }
}

} // namespace Mcp
