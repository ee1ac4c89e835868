#include "app/cli/formatting.h"

#include "common/config.h"

#include <QJsonDocument>
#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace Cli::Format {

namespace {

QString nameTag(const Broker::Peer &peer)
{
    return peer.sessionName.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(peer.sessionName);
}

QString peerHeadline(const Broker::Peer &peer)
{
    return QStringLiteral("%1%2  PID:%3  %4")
        .arg(peer.id, nameTag(peer), QString::number(peer.pid), peer.cwd);
}

} // namespace

QString scalar(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15)
            return QString::number(qint64(d));
        return QString::number(d, 'g', QLocale::FloatingPointShortest);
    }
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Undefined:
        return QStringLiteral("undefined");
    case QJsonValue::Array:
    case QJsonValue::Object:
        break;
    }
    return QString::fromUtf8(
        QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact).chopped(1).mid(1));
}

QStringList statusHeader(const Broker::HealthAnswer &health, const QString &url)
{
    QStringList lines {
        QStringLiteral("Broker: %1 (%2 peer(s) registered)").arg(health.status).arg(health.peers),
        QStringLiteral("URL: ") + url};
    // Our broker adds pid and version to /health; a reference broker has neither.
    if (health.pid || !health.version.isEmpty()) {
        QStringList parts;
        if (!health.version.isEmpty())
            parts << QStringLiteral("Version: ") + health.version;
        if (health.pid)
            parts << QStringLiteral("PID: ") + QString::number(*health.pid);
        lines << parts.join(QStringLiteral("  "));
    }
    return lines;
}

QStringList statusSecrets(const Broker::Result<Broker::SecretsAnswer> &secrets, const QString &tokenPath)
{
    if (!secrets && secrets.error().httpStatus == 404) // a broker without POST /secrets
        return {QStringLiteral(
                    "Secrets: not reported by this broker (a 0.7 broker keeps the token in the file %1)")
                    .arg(tokenPath)};
    if (!secrets)
        return {QStringLiteral("Secrets: unknown (%1)").arg(secrets.error().message)};
    const Broker::SecretsAnswer::LocalToken &local = secrets->localToken;
    QStringList lines {secrets->inKeychain()
                           ? QStringLiteral("Secrets: local token in the OS keychain (%1); token file %2")
                                 .arg(local.where, local.tokenFile)
                           : QStringLiteral("Secrets: local token in the file %1").arg(local.where)};
    if (!local.note.isEmpty())
        lines << QStringLiteral("         ") + local.note;
    return lines;
}

QStringList statusPeers(const QList<Broker::Peer> &peers)
{
    QStringList lines {QString(), QStringLiteral("Peers:")};
    const QString indent(9, QLatin1Char(' '));
    for (const Broker::Peer &p : peers) {
        lines << QStringLiteral("  ") + peerHeadline(p);
        if (!p.summary.isEmpty())
            lines << indent + p.summary;
        if (!p.tty.isEmpty())
            lines << indent + QStringLiteral("TTY: ") + p.tty;
        const QString client = Broker::clientLabel(p.client);
        if (!client.isEmpty())
            lines << indent + QStringLiteral("Client: ") + client;
        lines << indent + QStringLiteral("Last seen: ") + p.lastSeen;
    }
    return lines;
}

QStringList peerList(const QList<Broker::Peer> &peers)
{
    if (peers.isEmpty())
        return {QStringLiteral("No peers registered.")};
    QStringList lines;
    for (const Broker::Peer &p : peers) {
        lines << peerHeadline(p);
        if (!p.summary.isEmpty())
            lines << QStringLiteral("  Summary: ") + p.summary;
        const QString client = Broker::clientLabel(p.client);
        if (!client.isEmpty())
            lines << QStringLiteral("  Client: ") + client;
        if (const QString path = deliveryPathLabel(p.delivery); !path.isEmpty())
            lines << QStringLiteral("  Delivery: ") + path;
    }
    return lines;
}

QString deliveryPathLabel(const QString &delivery)
{
    if (delivery == QLatin1String("channel"))
        return QStringLiteral("channel (pushed into the session as it arrives)");
    if (delivery == QLatin1String("inbox"))
        return QStringLiteral(
            "inbox (Claude Code's session inbox: a new turn when idle, after the running tool when busy)");
    if (delivery == QLatin1String("banner"))
        return QStringLiteral("banner (shown at the session's next claude-peers tool call)");
    return delivery;
}

QString uptime(qint64 seconds)
{
    const qint64 s = qMax<qint64>(0, seconds);
    if (s < 60)
        return QStringLiteral("%1s").arg(s);
    const qint64 minutes = s / 60;
    if (minutes < 60)
        return QStringLiteral("%1m").arg(minutes);
    const qint64 hours = minutes / 60;
    const qint64 remMinutes = minutes % 60;
    if (hours < 24)
        return remMinutes > 0 ? QStringLiteral("%1h %2m").arg(hours).arg(remMinutes)
                              : QStringLiteral("%1h").arg(hours);
    const qint64 days = hours / 24;
    const qint64 remHours = hours % 24;
    return remHours > 0 ? QStringLiteral("%1d %2h").arg(days).arg(remHours) : QStringLiteral("%1d").arg(days);
}

QStringList metrics(const Broker::MetricsAnswer &m, bool detailed)
{
    auto row = [](const char *label, const QString &value) {
        return QStringLiteral("    %1%2").arg(QLatin1String(label), -21).arg(value);
    };
    const auto number = [](qint64 n) { return QString::number(n); };
    QStringList lines {QString(), QStringLiteral("  Broker Metrics:"), QString()};
    lines << row("Uptime:", uptime(m.uptimeSeconds)) << row("Peers:", number(m.peerCount))
          << row("Requests/min:", number(m.requestsPerMinute));
    lines << QString() << QStringLiteral("  Messages:") << row("Total:", number(m.messages.total))
          << row("Delivered:", number(m.messages.delivered)) << row("Pending:", number(m.messages.pending))
          << row("Delivery rate:", scalar(m.messages.deliveryRatePct) + QLatin1Char('%'));
    lines << QString() << QStringLiteral("  Federation:") << row("Enabled:", scalar(m.federation.enabled))
          << row("Remote machines:", number(m.federation.remoteCount))
          << row("Remote peers:", number(m.federation.remotePeerCount));
    if (detailed && m.peers) {
        lines << QString() << QStringLiteral("  Peers (detailed):");
        for (const Broker::MetricsAnswer::PeerRow &p : *m.peers) {
            lines << QStringLiteral("    %1 (%2)").arg(p.name, p.id) << QStringLiteral("      cwd: ") + p.cwd
                  << QStringLiteral("      push: %1  last_seen: %2").arg(p.channelPush, p.lastSeen);
        }
    }
    lines << QString();
    return lines;
}

QString messageTime(const QString &sentAt)
{
    static const QRegularExpression fraction(QStringLiteral("\\.\\d+Z$"));
    QString t = sentAt;
    t.replace(QLatin1Char('T'), QLatin1Char(' '));
    t.remove(fraction);
    return t;
}

QStringList messageList(const QList<Broker::Message> &messages)
{
    if (messages.isEmpty())
        return {QStringLiteral("No messages found.")};
    QStringList lines {QString(),
                       QStringLiteral("  Messages (%1 result%2):")
                           .arg(messages.size())
                           .arg(messages.size() == 1 ? QString() : QStringLiteral("s")),
                       QString()};
    for (const Broker::Message &m : messages) {
        const QString preview = m.text.size() > 120 ? m.text.left(120) + QStringLiteral("...") : m.text;
        lines << QStringLiteral("  #%1  %2  [%3] %4")
                     .arg(QString::number(m.id), messageTime(m.sentAt), m.type,
                          m.delivered ? QStringLiteral("delivered") : QStringLiteral("pending"))
              << QStringLiteral("    From: %1  \u2192  To: %2").arg(m.fromId, m.toId)
              << QStringLiteral("    ") + preview << QString();
    }
    return lines;
}

QByteArray prettyJson(const QJsonValue &value)
{
    if (value.isArray())
        return Broker::toTwoSpaceJson(QJsonDocument(value.toArray()));
    if (value.isObject())
        return Broker::toTwoSpaceJson(QJsonDocument(value.toObject()));
    return scalar(value).toUtf8() + '\n';
}

} // namespace Cli::Format
