#pragma once

#include "common/wire.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

// Pure text rendering of broker answers, in the reference's formats (docs/spec/peers-api.md §8), so the texts
// unit-test without a broker.
namespace Cli::Format {

// "Broker: ok (3 peer(s) registered)", "URL: <url>"
QStringList statusHeader(const Broker::HealthAnswer &health, const QString &url);
// Where the broker keeps its secrets (answer of POST /secrets; a 404 from a broker that does not
// say): "Secrets: local token in the OS keychain (Secret Service); token file <path>", or
// "Secrets: local token in the file <path>" + an indented note.
QStringList statusSecrets(const Broker::Result<Broker::SecretsAnswer> &secrets, const QString &tokenPath);
// "\nPeers:" and per peer "  <id>[ [<name>]]  PID:<pid>  <cwd>" + indented details.
QStringList statusPeers(const QList<Broker::Peer> &peers);
// "No peers registered." or per peer "<id>[ [<name>]]  PID:<pid>  <cwd>" + "  Summary: <s>".
QStringList peerList(const QList<Broker::Peer> &peers);
// "inbox (Claude Code's session inbox: …)" for Peer::delivery; empty when the helper did not say.
QString deliveryPathLabel(const QString &delivery);
// "<s>s", "<m>m", "<h>h[ <m>m]", "<d>d[ <h>h]".
QString uptime(qint64 seconds);
// The "Broker Metrics" block of `metrics`.
QStringList metrics(const Broker::MetricsAnswer &metrics, bool detailed);
// "YYYY-MM-DD HH:MM:SS" from an ISO timestamp with milliseconds.
QString messageTime(const QString &sentAt);
// "No messages found." or the "Messages (<n> results):" block.
QStringList messageList(const QList<Broker::Message> &messages);
// A JavaScript-like rendering of a JSON scalar (numbers shortest, true/false, strings as is).
QString scalar(const QJsonValue &value);
// 2-space indented JSON with a final newline.
QByteArray prettyJson(const QJsonValue &value);

} // namespace Cli::Format
