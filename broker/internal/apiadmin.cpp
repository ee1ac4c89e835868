// Api handlers that need the main token: /shutdown, /reload, /secrets, /rotate-token and the
// federation POSTs
// (send-to-remote is open to session credentials for their own messages).
#include "broker/brokerlogging.h"
#include "broker/federationlink.h"
#include "broker/internal/api.h"
#include "broker/internal/service.h"
#include "broker/internal/store.h"
#include "broker/internal/tokenkeeper.h"
#include "common/wire.h"

#include <QCoreApplication>
#include <QTimer>

namespace Broker {

void Api::shutdown(Call &call)
{
    replyObject(call.responder, ShutdownAnswer {true, QCoreApplication::applicationPid()}.toJson());
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
    replyObject(call.responder, ReloadAnswer {true, counts->peers}.toJson());
}

SecretsAnswer Api::secretsAnswer(const SecretsStatus &status)
{
    SecretsAnswer answer;
    answer.localToken.store =
        status.localToken.isKeychain() ? QStringLiteral("keychain") : QStringLiteral("file");
    answer.localToken.where = status.localToken.name;
    answer.localToken.tokenFile = status.tokenFile;
    answer.localToken.note = status.note;
    return answer;
}

void Api::secrets(Call &call)
{
    replyObject(call.responder, secretsAnswer(m_tokens.status()).toJson());
}

void Api::rotateToken(Call &call)
{
    m_tokens.rotate([responder = call.responder](Result<SecretsStatus> rotated) {
        if (!rotated) {
            replyError(responder, Error {rotated.error().kind, rotated.error().message, 503});
            return;
        }
        SecretsAnswer answer = secretsAnswer(*rotated);
        answer.ok = true;
        replyObject(responder, answer.toJson());
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
    auto request = parsed<FederationRemoteRequest>(call);
    if (!request)
        return;
    if (request->port > 65535)
        return replyError(responder,
                          Error {ErrorKind::BadRequest,
                                 QStringLiteral("Field \"port\" must be an integer between 1 and 65535"),
                                 400});
    m_federation.connectRemote(request->host, int(request->port),
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
    auto request = parsed<FederationRemoteRequest>(call);
    if (!request)
        return;
    m_federation.disconnectRemote(request->host, int(request->port), [responder](Result<QJsonObject> r) {
        replyFederationResult(responder, r);
    });
}

void Api::federationSendToRemote(Call &call)
{
    const Http::ResponderPtr responder = call.responder;
    if (!m_federation.isEnabled()) {
        m_federation.sendToRemote(
            {}, [responder](Result<QJsonObject> r) { replyFederationResult(responder, r); });
        return;
    }
    auto message = parsed<SendToRemoteRequest>(call);
    if (!message)
        return;
    touchActor(message->fromId);
    m_federation.sendToRemote(*message,
                              [responder](Result<QJsonObject> r) { replyFederationResult(responder, r); });
}

} // namespace Broker
