#include "app/cli/federationformat.h"

#include "app/cli/formatting.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace Cli::FederationFormat {

namespace {

// The link's round-trip time from the broker's answer as received (rtt_ms is ours, not 0.7's).
QString roundTripText(const QJsonObject &raw, const Broker::FederationStatusAnswer::Remote &r)
{
    for (const QJsonValue &value : raw.value(QLatin1String("remotes")).toArray()) {
        const QJsonObject remote = value.toObject();
        if (remote.value(QLatin1String("host")).toString() != r.host ||
            remote.value(QLatin1String("port")).toInteger() != r.port ||
            !remote.contains(QLatin1String("rtt_ms")))
            continue;
        return QStringLiteral("  rtt=%1 ms (avg %2 ms)")
            .arg(remote.value(QLatin1String("rtt_ms")).toDouble(), 0, 'f', 2)
            .arg(remote.value(QLatin1String("rtt_smoothed_ms")).toDouble(), 0, 'f', 2);
    }
    return {};
}

QString remoteLine(const Broker::FederationStatusAnswer::Remote &r, const QJsonObject &raw,
                   const QDateTime &now)
{
    const QDateTime since = QDateTime::fromString(r.connectedAt, Qt::ISODateWithMs);
    const qint64 seconds = since.isValid() ? qMax<qint64>(0, since.secsTo(now)) : 0;
    QString line = QStringLiteral("  %1:%2  hostname=%3  peers=%4  uptime=%5")
                       .arg(r.host)
                       .arg(r.port)
                       .arg(r.hostname)
                       .arg(r.peerCount)
                       .arg(Format::uptime(seconds));
    if (!r.state.isEmpty() && r.state != QLatin1String("connected"))
        line += QStringLiteral("  state=") + r.state;
    line += roundTripText(raw, r);
    if (r.legacy)
        line += QStringLiteral("  (0.7 protocol)");
    return line;
}

} // namespace

QStringList status(const Broker::FederationStatusAnswer &s, const QDateTime &now)
{
    QStringList lines;
    if (!s.enabled) {
        lines << QStringLiteral("Federation is disabled. Set CLAUDE_PEERS_FEDERATION_ENABLED=true to enable.")
              << QStringLiteral("Or set it up: claude-peers federation init");
        return lines;
    }
    if (s.remotes.isEmpty()) {
        lines << QStringLiteral("Federation enabled on port %1. No remote machines connected.").arg(s.port);
    } else {
        lines << QStringLiteral("Federation enabled on port %1 (subnet: %2)")
                     .arg(s.port)
                     .arg(s.subnets.isEmpty() ? s.subnet : s.subnets.join(QStringLiteral(", ")));
        lines << QString() << QStringLiteral("Connected remotes (%1):").arg(s.remotes.size());
        for (const auto &r : s.remotes)
            lines << remoteLine(r, s.raw, now);
        lines << QString() << QStringLiteral("Total remote peers: %1").arg(s.totalRemotePeers);
    }
    if (!s.hostname.isEmpty())
        lines << QStringLiteral("This machine: %1").arg(s.hostname);
    if (!s.fingerprint.isEmpty())
        lines << QStringLiteral("Certificate fingerprint: %1").arg(s.fingerprint);
    if (s.pending > 0)
        lines << QStringLiteral("Pairing requests waiting: %1 (claude-peers federation pending)")
                     .arg(s.pending);
    bool rotateMentioned = false;
    for (const QString &w : s.warnings) {
        lines << QStringLiteral("Warning: ") + w;
        rotateMentioned = rotateMentioned || w.contains(QLatin1String("rotate-psk"));
    }
    if (s.pskIsTokenCopy() && !rotateMentioned) {
        lines << QStringLiteral(
            "Warning: the federation PSK is still a copy of the local token (as in 0.7). Give "
            "federation its own secret: claude-peers federation rotate-psk");
    }
    return lines;
}

QStringList pending(const Broker::FederationPendingAnswer &p)
{
    if (p.requests.isEmpty())
        return {QStringLiteral("No pending pairing requests.")};
    QStringList lines {QStringLiteral("Pending pairing requests (%1):").arg(p.requests.size())};
    for (const auto &r : p.requests) {
        const bool waiting = r.state.isEmpty() || r.state == QLatin1String("pending");
        lines << QStringLiteral("  %1  %2 (%3:%4)  code %5%6")
                     .arg(r.id, r.hostname, r.host)
                     .arg(r.port)
                     .arg(r.sas.isEmpty() ? QStringLiteral("-") : r.sas)
                     .arg(waiting ? QString() : QStringLiteral("  [%1]").arg(r.state));
        lines << QStringLiteral("      fingerprint %1  since %2").arg(r.fingerprint, r.receivedAt);
    }
    lines << QString()
          << QStringLiteral("Check that the other machine shows the same code, then: claude-peers federation "
                            "accept <id>   (or: claude-peers federation reject <id>)");
    return lines;
}

QStringList attempts(const QJsonObject &answer)
{
    const QJsonArray rows = answer.value(QLatin1String("attempts")).toArray();
    QStringList lines;
    if (rows.isEmpty())
        lines << QStringLiteral("No refused connection attempts or pairing decisions in the last 30 days.");
    else
        lines << QStringLiteral("Federation audit trail (newest first):");
    for (const QJsonValue &value : rows) {
        const QJsonObject a = value.toObject();
        const int count = a.value(QLatin1String("count")).toInt(1);
        const QString who = a.value(QLatin1String("hostname")).toString();
        lines << QStringLiteral("  %1  %2  %3%4%5")
                     .arg(a.value(QLatin1String("last_at")).toString(),
                          a.value(QLatin1String("kind")).toString(),
                          a.value(QLatin1String("address")).toString(),
                          who.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(who),
                          count > 1 ? QStringLiteral("  x%1").arg(count) : QString());
        if (const QString reason = a.value(QLatin1String("reason")).toString(); !reason.isEmpty())
            lines << QStringLiteral("      %1 %2: %3")
                         .arg(a.value(QLatin1String("status")).toInt())
                         .arg(a.value(QLatin1String("path")).toString(), reason);
        if (const QString fp = a.value(QLatin1String("fingerprint")).toString(); !fp.isEmpty())
            lines << QStringLiteral("      fingerprint %1").arg(fp);
    }
    const QJsonArray revoked = answer.value(QLatin1String("revoked")).toArray();
    if (!revoked.isEmpty()) {
        lines << QString() << QStringLiteral("Revoked (refused until paired again):");
        for (const QJsonValue &value : revoked) {
            const QJsonObject r = value.toObject();
            lines << QStringLiteral("  %1  %2  %3  since %4")
                         .arg(r.value(QLatin1String("address")).toString(),
                              r.value(QLatin1String("hostname")).toString(),
                              r.value(QLatin1String("fingerprint")).toString(),
                              r.value(QLatin1String("revoked_at")).toString());
        }
    }
    const QJsonArray ignored = answer.value(QLatin1String("ignored")).toArray();
    if (!ignored.isEmpty()) {
        lines << QString() << QStringLiteral("Ignored (not offered for pairing when found again):");
        for (const QJsonValue &value : ignored) {
            const QJsonObject r = value.toObject();
            lines << QStringLiteral("  %1  %2  %3  since %4")
                         .arg(r.value(QLatin1String("fingerprint")).toString(),
                              r.value(QLatin1String("hostname")).toString(),
                              r.value(QLatin1String("address")).toString(),
                              r.value(QLatin1String("ignored_at")).toString());
        }
        lines << QStringLiteral("  (claude-peers federation unignore <fingerprint> lets one ask again)");
    }
    return lines;
}

std::optional<HostPort> hostPort(const QString &text)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const int port = text.mid(colon + 1).toInt(&ok);
    if (!ok || port < 1 || port > 65535 || host.isEmpty())
        return std::nullopt;
    return HostPort {host, port};
}

std::optional<HostPort> joinTarget(const QString &url)
{
    static const QLatin1String scheme("cpt://");
    if (!url.startsWith(scheme))
        return std::nullopt;
    const QString rest = url.mid(scheme.size());
    const qsizetype firstColon = rest.indexOf(QLatin1Char(':'));
    const qsizetype slash = firstColon < 0 ? -1 : rest.indexOf(QLatin1Char('/'), firstColon);
    if (slash < 0 || slash + 1 >= rest.size())
        return std::nullopt;
    QString authority = rest.left(slash);
    if (const qsizetype fp = authority.indexOf(QLatin1Char(';')); fp >= 0)
        authority.truncate(fp);
    return hostPort(authority);
}

bool isCidr(const QString &text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash <= 0)
        return false;
    // A syntax check only (the CLI links no Qt Network); the broker's subnet filter decides.
    static const QRegularExpression ipv4(QStringLiteral(R"(^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$)"));
    static const QRegularExpression ipv6(QStringLiteral(R"(^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$)"));
    const QString address = text.left(slash);
    bool ok = false;
    const int bits = text.mid(slash + 1).toInt(&ok);
    if (!ok || bits < 0)
        return false;
    if (const QRegularExpressionMatch m = ipv4.match(address); m.hasMatch()) {
        for (int i = 1; i <= 4; ++i) {
            if (m.captured(i).toInt() > 255)
                return false;
        }
        return bits <= 32;
    }
    return ipv6.match(address).hasMatch() && address.count(QStringLiteral("::")) <= 1 && bits <= 128;
}

QStringList checkLines(const Check &check)
{
    static const char *const labels[] = {"OK  ", "WARN", "FAIL"};
    QStringList lines {QStringLiteral("  %1 %2").arg(QLatin1String(labels[int(check.level)]), check.text)};
    if (!check.fix.isEmpty())
        lines << QStringLiteral("       Fix: ") + check.fix;
    return lines;
}

QString doctorSummary(const QList<Check> &checks)
{
    int passed = 0, failed = 0, warnings = 0;
    for (const Check &c : checks) {
        passed += c.level == Check::Level::Ok;
        warnings += c.level == Check::Level::Warn;
        failed += c.level == Check::Level::Fail;
    }
    return QStringLiteral("%1 passed, %2 failed, %3 warning(s)").arg(passed).arg(failed).arg(warnings);
}

} // namespace Cli::FederationFormat
