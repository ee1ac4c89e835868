// Api handlers that need the main token: /shutdown, /reload, /secrets, /rotate-token and the
// federation POSTs
// (send-to-remote is open to session credentials for their own messages).
#include "api.h"
#include "federationlink.h"
#include "jsonbody.h"
#include "logging.h"
#include "service.h"
#include "store.h"
#include "tokenkeeper.h"

#include <QCoreApplication>
#include <QTimer>

namespace Broker {

void Api::shutdown(Call &call)
{
    replyObject(call.responder,
                {{QStringLiteral("ok"), true}, {QStringLiteral("pid"), QCoreApplication::applicationPid()}});
    qCInfo(lcApi) << "Shutdown requested over HTTP";
    // Let the event loop write the answer before the host tears the server down.
    QTimer::singleShot(0, this, &Api::shutdownRequested);
}

void Api::reload(Call &call)
{
    Q_EMIT reloadRequested();
    auto counts = m_service.store().counts();
    if (!counts) {
        replyError(call.responder, counts.error());
        return;
    }
    replyObject(call.responder, {{QStringLiteral("ok"), true}, {QStringLiteral("peers"), counts->peers}});
}

QJsonObject Api::secretsJson(const SecretsStatus &status)
{
    QJsonObject localToken {
        {QStringLiteral("store"),
         status.localToken.isKeychain() ? QStringLiteral("keychain") : QStringLiteral("file")},
        {QStringLiteral("where"), status.localToken.name},
        {QStringLiteral("token_file"), status.tokenFile},
    };
    if (!status.note.isEmpty())
        localToken.insert(QStringLiteral("note"), status.note);
    return {{QStringLiteral("local_token"), localToken}};
}

void Api::secrets(Call &call)
{
    replyObject(call.responder, secretsJson(m_tokens.status()));
}

void Api::rotateToken(Call &call)
{
    m_tokens.rotate([responder = call.responder](Result<SecretsStatus> rotated) {
        if (!rotated) {
            replyError(responder, Error {rotated.error().code, rotated.error().message, 503});
            return;
        }
        QJsonObject answer = secretsJson(*rotated);
        answer.insert(QStringLiteral("ok"), true);
        replyObject(responder, answer);
    });
}

void Api::federationConnect(Call &call)
{
    const Http::ResponderPtr responder = call.responder;
    if (!m_federation.isEnabled()) {
        m_federation.connectRemote(
            {}, 0, [responder](Result<QJsonObject> r) { replyFederationResult(responder, r); });
        return;
    }
    JsonFields fields(call.body);
    const QString host = fields.string("host");
    const qint64 port = fields.integer("port", 1);
    if (!fields.error() && port > 65535)
        return replyError(responder,
                          Error {QStringLiteral("bad_request"),
                                 QStringLiteral("Field \"port\" must be an integer between 1 and 65535"),
                                 400});
    if (fields.error())
        return replyError(responder, *fields.error());
    m_federation.connectRemote(host, int(port),
                               [responder](Result<QJsonObject> r) { replyFederationResult(responder, r); });
}

void Api::federationDisconnect(Call &call)
{
    const Http::ResponderPtr responder = call.responder;
    if (!m_federation.isEnabled()) {
        m_federation.disconnectRemote(
            {}, 0, [responder](Result<QJsonObject> r) { replyFederationResult(responder, r); });
        return;
    }
    JsonFields fields(call.body);
    const QString host = fields.string("host");
    const qint64 port = fields.integer("port", 1);
    if (fields.error())
        return replyError(responder, *fields.error());
    m_federation.disconnectRemote(
        host, int(port), [responder](Result<QJsonObject> r) { replyFederationResult(responder, r); });
}

void Api::federationSendToRemote(Call &call)
{
    const Http::ResponderPtr responder = call.responder;
    if (!m_federation.isEnabled()) {
        m_federation.sendToRemote(
            {}, [responder](Result<QJsonObject> r) { replyFederationResult(responder, r); });
        return;
    }
    JsonFields fields(call.body);
    RemoteMessage message;
    message.toId = fields.string("to_id");
    message.fromId = fields.string("from_id");
    message.text = fields.string("text");
    message.type = fields.optionalString("type", QStringLiteral("text"));
    message.replyTo = fields.optionalInteger("reply_to");
    if (fields.error())
        return replyError(responder, *fields.error());
    const QJsonValue metadata = fields.value("metadata");
    if (metadata.isObject())
        message.metadata = metadata.toObject();
    else if (!metadata.isUndefined() && !metadata.isNull())
        return replyError(
            responder, Error {QStringLiteral("rejected"), QStringLiteral("metadata must be a JSON object")});
    touchActor(message.fromId);
    m_federation.sendToRemote(message,
                              [responder](Result<QJsonObject> r) { replyFederationResult(responder, r); });
}

} // namespace Broker
