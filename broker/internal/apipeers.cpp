// Api handlers for peers: /register, /heartbeat, /set-*, /list-peers, /unregister.
#include "broker/internal/api.h"
#include "broker/internal/service.h"
#include "broker/internal/store.h"
#include "common/wire.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Broker {

void Api::registerPeer(Call &call)
{
    auto request = parsed<RegisterRequest>(call);
    if (!request)
        return;
    auto registered = m_service.registerPeer(*request);
    if (!registered) {
        replyError(call.responder, registered.error());
        return;
    }
    const RegisterAnswer answer {registered->peer.id, registered->peer.sessionName,
                                 QString::fromLatin1(registered->sessionSecret),
                                 m_service.store().databaseId()};
    replyObject(call.responder, answer.toJson());
}

void Api::heartbeat(Call &call)
{
    auto request = parsed<HeartbeatRequest>(call);
    if (!request)
        return;
    // Unknown ids are fine (docs/spec/peers-api.md §3.7).
    if (auto touched = m_service.touch(request->id); !touched) {
        replyError(call.responder, touched.error());
        return;
    }
    replyOk(call.responder);
}

void Api::setSummary(Call &call)
{
    auto request = parsed<SetSummaryRequest>(call);
    if (!request)
        return;
    touchActor(request->id);
    if (auto done = m_service.setSummary(request->id, request->summary); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

void Api::setName(Call &call)
{
    auto request = parsed<SetNameRequest>(call);
    if (!request)
        return;
    touchActor(request->id);
    if (auto done = m_service.setSessionName(request->id, request->sessionName); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

void Api::setChannelPush(Call &call)
{
    auto request = parsed<SetChannelPushRequest>(call);
    if (!request)
        return;
    touchActor(request->id);
    if (auto done = m_service.setChannelPush(request->id, request->status, request->delivery); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

void Api::setAttention(Call &call)
{
    auto request = parsed<SetAttentionRequest>(call);
    if (!request)
        return;
    touchActor(request->id);
    if (auto done = m_service.setAttention(request->id, request->state, request->message); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

void Api::listPeers(Call &call)
{
    auto request = parsed<ListPeersRequest>(call);
    if (!request)
        return;
    auto peers = m_service.listPeers(request->scope, request->cwd, request->gitRoot, request->excludeId);
    if (!peers) {
        replyError(call.responder, peers.error());
        return;
    }
    const ListPeersAnswer answer {std::move(*peers)};
    reply(call.responder, 200, QJsonDocument(answer.toJson()).toJson(QJsonDocument::Compact));
}

void Api::unregisterPeer(Call &call)
{
    auto request = parsed<UnregisterRequest>(call);
    if (!request)
        return;
    if (auto done = m_service.unregisterPeer(request->id); !done) {
        replyError(call.responder, done.error());
        return;
    }
    replyOk(call.responder);
}

} // namespace Broker
