// Api handlers for peers: /register, /heartbeat, /set-*, /list-peers, /unregister.
#include "api.h"
#include "jsonbody.h"
#include "service.h"
#include "store.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Broker {

void Api::registerPeer(Call &call)
{
    JsonFields fields(call.body);
    Service::Registration request;
    request.pid = fields.integer("pid", 1);
    request.cwd = fields.string("cwd");
    request.gitRoot = fields.optionalString("git_root");
    request.tty = fields.optionalString("tty");
    request.sessionName = fields.optionalString("session_name");
    request.summary = fields.optionalString("summary");
    request.version = fields.optionalString("version");
    request.requestedId = fields.optionalString("requested_id");
    request.client = fields.optionalString("client").left(64);
    fields.checkLength("session_name", request.sessionName, maxLabelBytes);
    fields.checkLength("summary", request.summary, maxLabelBytes);
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    auto registered = m_service.registerPeer(request);
    if (!registered) {
        replyError(call.responder, registered.error());
        return;
    }
    QJsonObject answer {{QStringLiteral("id"), registered->peer.id}};
    if (!registered->peer.sessionName.isEmpty())
        answer.insert(QStringLiteral("session_name"), registered->peer.sessionName);
    answer.insert(QStringLiteral("session_secret"), QString::fromLatin1(registered->sessionSecret));
    answer.insert(QStringLiteral("database_id"), m_service.store().databaseId());
    replyObject(call.responder, answer);
}

void Api::heartbeat(Call &call)
{
    JsonFields fields(call.body);
    const QString id = fields.string("id");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    // Unknown ids are fine (reference §3.7).
    if (auto touched = m_service.touch(id); !touched) {
        replyError(call.responder, touched.error());
        return;
    }
    replyOk(call.responder);
}

void Api::setSummary(Call &call)
{
    JsonFields fields(call.body);
    const QString id = fields.string("id");
    const QString summary = fields.string("summary");
    fields.checkLength("summary", summary, maxLabelBytes);
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    touchActor(id);
    if (auto done = m_service.setSummary(id, summary); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

void Api::setName(Call &call)
{
    JsonFields fields(call.body);
    const QString id = fields.string("id");
    const QString name = fields.string("session_name");
    fields.checkLength("session_name", name, maxLabelBytes);
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    touchActor(id);
    if (auto done = m_service.setSessionName(id, name); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

void Api::setChannelPush(Call &call)
{
    JsonFields fields(call.body);
    const QString id = fields.string("id");
    const QString status = fields.string("status");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    touchActor(id);
    if (auto done = m_service.setChannelPush(id, status); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

void Api::listPeers(Call &call)
{
    JsonFields fields(call.body);
    const QString scope = fields.optionalString("scope");
    const QString cwd = fields.optionalString("cwd");
    const QString gitRoot = fields.optionalString("git_root");
    const QString excludeId = fields.optionalString("exclude_id");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    auto peers = m_service.listPeers(scope, cwd, gitRoot, excludeId);
    if (!peers) {
        replyError(call.responder, peers.error());
        return;
    }
    QJsonArray array;
    for (const Peer &peer : std::as_const(*peers))
        array.append(peer.toJson());
    reply(call.responder, 200, QJsonDocument(array).toJson(QJsonDocument::Compact));
}

void Api::unregisterPeer(Call &call)
{
    JsonFields fields(call.body);
    const QString id = fields.string("id");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    if (auto done = m_service.unregisterPeer(id); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

} // namespace Broker
