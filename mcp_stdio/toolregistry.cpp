#include "toolregistry.h"

#include "brokerclient.h"
#include "clientprofile.h"
#include "delivery.h"
#include "format.h"
#include "logging.h"
#include "serverinfo.h"
#include "session.h"
#include "tooldefinitions.h"

#include <QDateTime>
#include <QJsonArray>
#include <QPointer>
#include <QStringList>

#include <cmath>
#include <unistd.h>

namespace Mcp {

const ToolRegistry::Tool ToolRegistry::s_tools[] = {
    {"list_peers", &ToolDefinitions::listPeers, &ToolRegistry::listPeers, true},
    {"send_message", &ToolDefinitions::sendMessage, &ToolRegistry::sendMessage, true},
    {"set_summary", &ToolDefinitions::setSummary, &ToolRegistry::setSummary, true},
    {"set_name", &ToolDefinitions::setName, &ToolRegistry::setName, true},
    {"check_messages", &ToolDefinitions::checkMessages, &ToolRegistry::checkMessages, true},
    {"broadcast_message", &ToolDefinitions::broadcastMessage, &ToolRegistry::broadcastMessage, true},
    {"message_status", &ToolDefinitions::messageStatus, &ToolRegistry::messageStatus, true},
    {"channel_health", &ToolDefinitions::channelHealth, &ToolRegistry::channelHealth, false},
    {"whoami", &ToolDefinitions::whoami, &ToolRegistry::whoami, false},
};

namespace {

constexpr int DefaultRegistrationWaitMs = 10000;

QJsonValue nullable(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

// A message id from the model: an integral number, or a string of digits (some clients, such
// as the MCP Inspector CLI, send every argument as a string).
std::optional<qint64> messageId(const QJsonValue &v)
{
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) < 9007199254740992.0)
            return qint64(d);
        return std::nullopt;
    }
    if (v.isString()) {
        bool ok = false;
        const qint64 n = v.toString().trimmed().toLongLong(&ok);
        if (ok)
            return n;
    }
    return std::nullopt;
}

bool isScope(const QString &s)
{
    return s == QLatin1String("machine") || s == QLatin1String("directory") || s == QLatin1String("repo") ||
        s == QLatin1String("lan");
}

QString scopeError(const QString &scope)
{
    return QStringLiteral("Invalid scope \"%1\": use machine, directory, repo or lan").arg(scope);
}

} // namespace

ToolRegistry::ToolRegistry(Broker::BrokerClient *client, Session *session, Delivery *delivery,
                           QObject *parent)
    : QObject(parent), m_client(client), m_session(session), m_delivery(delivery)
{
    bool ok = false;
    const int wait = qEnvironmentVariableIntValue("CLAUDE_PEERS_TOOL_WAIT_MS", &ok);
    m_registrationWaitMs = ok && wait >= 0 ? wait : DefaultRegistrationWaitMs;
}

void ToolRegistry::setClientName(const QString &name)
{
    m_clientName = name;
    m_clientKind = clientKindFromName(name);
}

QJsonObject ToolRegistry::textResult(const QString &text, bool isError)
{
    QJsonObject r {{QStringLiteral("content"),
                    QJsonArray {QJsonObject {{QStringLiteral("type"), QStringLiteral("text")},
                                             {QStringLiteral("text"), text}}}}};
    if (isError)
        r.insert(QStringLiteral("isError"), true);
    return r;
}

const ToolRegistry::Tool *ToolRegistry::find(const QString &name)
{
    for (const Tool &t : s_tools) {
        if (name == QLatin1String(t.name))
            return &t;
    }
    return nullptr;
}

QJsonArray ToolRegistry::toolList() const
{
    QJsonArray list;
    for (const Tool &t : s_tools)
        list.append(t.definition(m_clientKind));
    return list;
}

bool ToolRegistry::hasTool(const QString &name) const
{
    return find(name) != nullptr;
}

QJsonObject ToolRegistry::withBanner(QJsonObject result)
{
    const QString banner = m_delivery->takeBanner();
    const QString trouble = m_session->lastError();
    if (banner.isEmpty() && trouble.isEmpty())
        return result;
    QJsonArray content = result.value(QLatin1String("content")).toArray();
    if (content.isEmpty() || content.at(0).toObject().value(QLatin1String("type")) != QLatin1String("text"))
        return result;
    QJsonObject first = content.at(0).toObject();
    QString text = banner + first.value(QLatin1String("text")).toString();
    if (!trouble.isEmpty() && !text.contains(trouble))
        text += QStringLiteral("\n\n[claude-peers trouble: %1]").arg(trouble);
    first.insert(QStringLiteral("text"), text);
    content.replace(0, first);
    result.insert(QStringLiteral("content"), content);
    return result;
}

void ToolRegistry::callTool(const QString &name, const QJsonObject &arguments, Done done)
{
    const Tool *tool = find(name);
    if (!tool) { // the dispatcher checks first; never reached in practice
        done(textResult(QStringLiteral("Unknown tool: ") + name, true));
        return;
    }
    qCDebug(lcTools) << "call" << name;
    QPointer<ToolRegistry> self(this);
    Done wrapped = [self, done](QJsonObject result) {
        done(self ? self->withBanner(std::move(result)) : result);
    };
    if (!tool->needsRegistration) {
        (this->*tool->handler)(arguments, wrapped);
        return;
    }
    m_session->whenRegistered(m_registrationWaitMs, this, [self, tool, arguments, wrapped](bool ok) {
        if (!self)
            return;
        if (!ok) {
            QString text =
                QStringLiteral("Not registered with broker yet. Try /mcp reconnect, or check if broker "
                               "is running: claude-peers status");
            if (!self->m_session->lastError().isEmpty())
                text += QStringLiteral("\nLast error: ") + self->m_session->lastError();
            wrapped(textResult(text, true));
            return;
        }
        (self->*tool->handler)(arguments, wrapped);
    });
}

void ToolRegistry::listPeers(const QJsonObject &args, const Done &done)
{
    const QString scope = args.value(QLatin1String("scope")).toString();
    if (!args.value(QLatin1String("scope")).isString() || scope.isEmpty()) {
        done(textResult(QStringLiteral("Missing required parameter: scope (machine, directory, repo or lan)"),
                        true));
        return;
    }
    if (!isScope(scope)) {
        done(textResult(QStringLiteral("Error listing peers: ") + scopeError(scope), true));
        return;
    }
    const QJsonObject body {{QStringLiteral("scope"), scope},
                            {QStringLiteral("cwd"), m_session->cwd()},
                            {QStringLiteral("git_root"), nullable(m_session->gitRoot())},
                            {QStringLiteral("exclude_id"), m_session->peerId()}};
    m_client->post(QStringLiteral("/list-peers"), body, [this, scope, done](Broker::Result<QJsonValue> r) {
        if (!r) {
            done(textResult(QStringLiteral("Error listing peers: ") + r.error().message, true));
            return;
        }
        auto peers = Broker::peersFromJson(r->toArray());
        if (!peers) {
            done(textResult(QStringLiteral("Error listing peers: ") + peers.error().message, true));
            return;
        }
        done(textResult(Format::peerList(scope, *peers, QDateTime::currentDateTimeUtc(), m_clientKind)));
    });
}

void ToolRegistry::sendMessage(const QJsonObject &args, const Done &done)
{
    const QJsonValue to = args.value(QLatin1String("to_id"));
    const QJsonValue message = args.value(QLatin1String("message"));
    if (to.isUndefined() || to.isNull() || message.isUndefined() || message.isNull() ||
        (to.isString() && to.toString().isEmpty()) || (message.isString() && message.toString().isEmpty())) {
        done(textResult(QStringLiteral("Missing required parameter: to_id and message are required"), true));
        return;
    }
    if (!to.isString() || !message.isString()) {
        done(textResult(QStringLiteral("Invalid parameter: to_id and message must be strings"), true));
        return;
    }
    const QString toId = to.toString().trimmed();
    const QString text = message.toString();
    QJsonObject body {{QStringLiteral("from_id"), m_session->peerId()},
                      {QStringLiteral("to_id"), toId},
                      {QStringLiteral("text"), text}};
    const QJsonValue type = args.value(QLatin1String("type"));
    if (!type.isUndefined() && !type.isNull()) {
        if (!type.isString()) {
            done(textResult(
                QStringLiteral("Invalid parameter: type must be one of text, query, response, handoff, "
                               "broadcast"),
                true));
            return;
        }
        body.insert(QStringLiteral("type"), type.toString()); // the broker checks the value
    }
    const QJsonValue metadata = args.value(QLatin1String("metadata"));
    if (!metadata.isUndefined() && !metadata.isNull()) {
        if (!metadata.isObject()) {
            done(textResult(QStringLiteral("Failed to send: metadata must be a JSON object"), true));
            return;
        }
        body.insert(QStringLiteral("metadata"), metadata);
    }
    const QJsonValue replyTo = args.value(QLatin1String("reply_to"));
    if (!replyTo.isUndefined() && !replyTo.isNull()) {
        const auto id = messageId(replyTo);
        if (!id) {
            done(textResult(QStringLiteral("Invalid parameter: reply_to must be a message id (an integer)"),
                            true));
            return;
        }
        body.insert(QStringLiteral("reply_to"), *id);
    }
    const bool remote = toId.contains(QLatin1Char(':'));
    const QString path =
        remote ? QStringLiteral("/federation/send-to-remote") : QStringLiteral("/send-message");
    m_client->post(path, body, [this, done, toId, text, remote](Broker::Result<QJsonValue> r) {
        if (!r) {
            if (r.error().code == QLatin1String("unreachable"))
                m_session->reportTrouble(Session::Trouble::Unreachable, r.error().message);
            done(textResult(QStringLiteral("Error sending message: ") + r.error().message, true));
            return;
        }
        const QJsonObject answer = r->toObject();
        if (!answer.value(QLatin1String("ok")).toBool()) {
            done(textResult(
                QStringLiteral("Failed to send: ") + answer.value(QLatin1String("error")).toString(), true));
            return;
        }
        const qint64 id = remote ? -1 : answer.value(QLatin1String("message_id")).toInteger();
        qCInfo(lcTools) << "sent message" << id << "to" << toId;
        done(textResult(Format::messageSent(toId, id, text)));
    });
}

void ToolRegistry::setSummary(const QJsonObject &args, const Done &done)
{
    const QJsonValue summary = args.value(QLatin1String("summary"));
    if (!summary.isString()) {
        done(textResult(summary.isUndefined() || summary.isNull()
                            ? QStringLiteral("Missing required parameter: summary")
                            : QStringLiteral("Invalid parameter: summary must be a string"),
                        true));
        return;
    }
    const QString text = summary.toString();
    m_client->post(
        QStringLiteral("/set-summary"),
        QJsonObject {{QStringLiteral("id"), m_session->peerId()}, {QStringLiteral("summary"), text}},
        [this, done, text](Broker::Result<QJsonValue> r) {
            if (!r) {
                done(textResult(QStringLiteral("Error setting summary: ") + r.error().message, true));
                return;
            }
            m_session->rememberSummary(text, false);
            done(textResult(QStringLiteral("Summary updated: \"%1\"").arg(text)));
        });
}

void ToolRegistry::setName(const QJsonObject &args, const Done &done)
{
    const QJsonValue name = args.value(QLatin1String("name"));
    if (!name.isString() || name.toString().trimmed().isEmpty()) {
        done(textResult(name.isUndefined() || name.isNull() || name.isString()
                            ? QStringLiteral("Missing required parameter: name")
                            : QStringLiteral("Invalid parameter: name must be a string"),
                        true));
        return;
    }
    const QString text = name.toString().trimmed();
    m_client->post(
        QStringLiteral("/set-name"),
        QJsonObject {{QStringLiteral("id"), m_session->peerId()}, {QStringLiteral("session_name"), text}},
        [this, done, text](Broker::Result<QJsonValue> r) {
            if (!r) {
                done(textResult(QStringLiteral("Error setting name: ") + r.error().message, true));
                return;
            }
            m_session->rememberName(text);
            // The automatic summary carries the name; a summary the model set itself is kept.
            const QString summary = m_session->regenerateAutoSummary();
            if (!summary.isEmpty()) {
                m_client->post(QStringLiteral("/set-summary"),
                               QJsonObject {{QStringLiteral("id"), m_session->peerId()},
                                            {QStringLiteral("summary"), summary}},
                               [](Broker::Result<QJsonValue>) {});
            }
            done(textResult(QStringLiteral("Session name set: \"%1\"").arg(text)));
        });
}

void ToolRegistry::checkMessages(const QJsonObject &, const Done &done)
{
    m_delivery->checkMessages([done](Broker::Result<QString> r) {
        if (!r)
            done(textResult(QStringLiteral("Error checking messages: ") + r.error().message, true));
        else
            done(textResult(*r));
    });
}

void ToolRegistry::broadcastMessage(const QJsonObject &args, const Done &done)
{
    const QJsonValue message = args.value(QLatin1String("message"));
    const QJsonValue scope = args.value(QLatin1String("scope"));
    if (!message.isString() || message.toString().isEmpty() || !scope.isString() ||
        scope.toString().isEmpty()) {
        done(textResult(QStringLiteral("Missing required parameter: message and scope are required"), true));
        return;
    }
    const QString scopeName = scope.toString();
    if (!isScope(scopeName)) {
        done(textResult(QStringLiteral("Broadcast failed: ") + scopeError(scopeName), true));
        return;
    }
    const QJsonObject body {{QStringLiteral("from_id"), m_session->peerId()},
                            {QStringLiteral("text"), message.toString()},
                            {QStringLiteral("type"), QStringLiteral("broadcast")},
                            {QStringLiteral("scope"), scopeName},
                            {QStringLiteral("cwd"), m_session->cwd()},
                            {QStringLiteral("git_root"), nullable(m_session->gitRoot())}};
    m_client->post(QStringLiteral("/broadcast"), body, [done, scopeName](Broker::Result<QJsonValue> r) {
        if (!r) {
            done(textResult(QStringLiteral("Error broadcasting: ") + r.error().message, true));
            return;
        }
        const QJsonObject answer = r->toObject();
        if (!answer.value(QLatin1String("ok")).toBool()) {
            done(textResult(QStringLiteral("Broadcast failed: ") +
                                answer.value(QLatin1String("error")).toString(),
                            true));
            return;
        }
        const qint64 n = answer.value(QLatin1String("recipients")).toInteger();
        if (n == 0)
            done(textResult(
                QStringLiteral("No peers found in scope '%1'. Broadcast not sent.").arg(scopeName)));
        else
            done(textResult(
                QStringLiteral("Broadcast sent to %1 peer(s) in scope '%2'").arg(n).arg(scopeName)));
    });
}

void ToolRegistry::messageStatus(const QJsonObject &args, const Done &done)
{
    const QJsonValue raw = args.value(QLatin1String("message_id"));
    if (raw.isUndefined() || raw.isNull()) {
        done(textResult(QStringLiteral("Missing required parameter: message_id"), true));
        return;
    }
    const auto id = messageId(raw);
    if (!id) {
        done(textResult(QStringLiteral("Invalid parameter: message_id must be a message id (an integer)"),
                        true));
        return;
    }
    m_client->post(
        QStringLiteral("/message-status"), QJsonObject {{QStringLiteral("message_id"), *id}},
        [done](Broker::Result<QJsonValue> r) {
            if (!r)
                done(textResult(QStringLiteral("Error checking status: ") + r.error().message, true));
            else
                done(textResult(Format::messageStatus(r->toObject())));
        });
}

void ToolRegistry::channelHealth(const QJsonObject &, const Done &done)
{
    m_client->get(
        QStringLiteral("/health"),
        [this, done](Broker::Result<QJsonValue> r) {
            QStringList lines {QStringLiteral("Channel Health Report"), QString(21, QLatin1Char('=')),
                               QString()};
            if (r) {
                const QJsonObject h = r->toObject();
                lines << QStringLiteral("Broker: %1 (%2 peers)")
                             .arg(h.value(QLatin1String("status")).toString(),
                                  QString::number(h.value(QLatin1String("peers")).toInteger()));
                const qint64 uptime = h.value(QLatin1String("uptime_ms")).toInteger() / 1000;
                if (uptime > 0)
                    lines << QStringLiteral("  Uptime: %1s").arg(uptime);
                lines << QStringLiteral("  Requests/min: %1")
                             .arg(h.value(QLatin1String("requests_last_minute")).toInteger());
                lines << QStringLiteral("  Pending in broker: %1")
                             .arg(h.value(QLatin1String("pending_messages")).toInteger());
            } else if (r.error().httpStatus > 0) {
                lines << QStringLiteral("Broker: error (HTTP %1)").arg(r.error().httpStatus);
            } else {
                lines << QStringLiteral("Broker: unreachable");
            }
            lines << QString();
            lines << QStringLiteral("Pushed message IDs tracked (dedup): %1").arg(m_delivery->dedupSize());
            lines << QStringLiteral("Piggyback queue: %1 message(s) awaiting tool call delivery")
                         .arg(m_delivery->bannerSize());
            if (m_delivery->bannerSize() > 0)
                lines
                    << QStringLiteral("  Oldest queued: %1s ago").arg(m_delivery->oldestQueuedAgeMs() / 1000);
            lines << QStringLiteral("Push stream: ") + m_delivery->streamState();
            lines << channelPushLine(false);
            if (const QString why = m_delivery->clientProfile().channelReason; !why.isEmpty())
                lines << QStringLiteral("  Why: ") + why;
            lines << QStringLiteral("Registered as: ") +
                    (m_session->isRegistered() ? m_session->peerId() : QStringLiteral("(not registered)"));
            done(textResult(lines.join(QLatin1Char('\n'))));
        },
        2000);
}

QString ToolRegistry::channelPushLine(bool explain) const
{
    QString line = QStringLiteral("Channel push: ") +
        (m_session->channelPush().isEmpty() ? QStringLiteral("unknown") : m_session->channelPush());
    if (explain && m_delivery->clientProfile().channel == ClientProfile::Channel::Ignored)
        line +=
            QStringLiteral("\n  (not used by this client: messages reach you at the top of tool results and "
                           "through check_messages)");
    return line;
}

void ToolRegistry::whoami(const QJsonObject &, const Done &done)
{
    QStringList lines;
    if (m_session->isRegistered()) {
        lines << QStringLiteral("ID: ") + m_session->peerId() +
                (m_session->idNote().isEmpty() ? QString()
                                               : QStringLiteral(" (%1)").arg(m_session->idNote()));
    } else {
        lines << QStringLiteral("ID: (not registered yet%1)")
                     .arg(m_session->lastError().isEmpty() ? QString()
                                                           : QStringLiteral(": ") + m_session->lastError());
    }
    lines << QStringLiteral("Name: ") +
            (m_session->sessionName().isEmpty() ? QStringLiteral("(unnamed)") : m_session->sessionName());
    lines << QStringLiteral("CWD: ") + m_session->cwd();
    lines << QStringLiteral("Git root: ") +
            (m_session->gitRoot().isEmpty() ? QStringLiteral("(not a git repository)")
                                            : m_session->gitRoot());
    lines << QStringLiteral("TTY: ") +
            (m_session->tty().isEmpty() ? QStringLiteral("(none)") : m_session->tty());
    lines << QStringLiteral("Summary: ") + m_session->summary();
    lines << QStringLiteral("Broker: ") + m_client->location().baseUrl().toString();
    lines << QStringLiteral("Push stream: ") + m_delivery->streamState();
    lines << channelPushLine(true);
    lines << QStringLiteral("Client: ") +
            (m_clientName.isEmpty()
                 ? QStringLiteral("(not said)")
                 : QStringLiteral("%1 (%2)").arg(Broker::clientLabel(m_clientName), m_clientName));
    lines << QStringLiteral("Helper: claude-peers-mcp %1, pid %2")
                 .arg(ServerInfo::version())
                 .arg(qint64(::getpid()));
    done(textResult(lines.join(QLatin1Char('\n'))));
}

} // namespace Mcp
