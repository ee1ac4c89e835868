// The federation's audit trail and revocation: /federation/attempts lists what the federation
// port refused, the user's pairing decisions (attemptlog.h) and the machines whose requests were
// ignored (ignoredmachines.h); /federation/unignore takes one off that list; /federation/revoke
// forgets a paired broker — its link, its saved remote, its pin — and refuses it from then on
// (revokedremotes.h) until the user pairs or connects it again.
#include "federation/federationmodule.h"

#include "broker/clock.h"
#include "common/config.h"
#include "federation/challengeserver.h"
#include "federation/federationlogging.h"
#include "federation/ignoredmachines.h"
#include "federation/pendingrequests.h"
#include "federation/revokedremotes.h"
#include "federation/sessiontransport.h"

#include <QDateTime>
#include <QJsonArray>

namespace Federation {

namespace {

void refuse(const Broker::Http::ResponderPtr &responder, const QString &message)
{
    Broker::RouteAnswer::json(responder, {{QStringLiteral("ok"), false}, {QStringLiteral("error"), message}});
}

} // namespace

void FederationModule::recordDecision(const QString &kind, const QString &address, const QString &hostname,
                                      const QString &fingerprint)
{
    Attempt decision;
    decision.kind = kind;
    decision.address = address;
    decision.hostname = hostname;
    decision.fingerprint = fingerprint;
    if (m_attempts)
        m_attempts->record(std::move(decision));
}

void FederationModule::pairingDecided(const PendingRequest &request)
{
    const QString address = RemoteAddress {request.host, request.port}.key();
    recordDecision(PendingRequests::stateName(request.state), address, request.hostname, request.fingerprint);
    if (!m_ignored)
        return;
    if (request.state == PendingState::Rejected)
        m_ignored->add(request.fingerprint, request.hostname, address);
    else if (request.state == PendingState::Accepted)
        m_ignored->remove(request.fingerprint);
}

void FederationModule::liftRevocation(const QString &pin, const QString &addressKey)
{
    if (m_revoked)
        m_revoked->lift(pin, addressKey);
}

void FederationModule::attempts(Broker::RouteCall &call)
{
    Broker::RouteAnswer::json(call.responder,
                              {{QStringLiteral("ok"), true},
                               {QStringLiteral("attempts"), m_attempts ? m_attempts->toJson() : QJsonArray()},
                               {QStringLiteral("refusals"), m_attempts ? m_attempts->refusals() : 0},
                               {QStringLiteral("revoked"), m_revoked ? m_revoked->toJson() : QJsonArray()},
                               {QStringLiteral("ignored"), m_ignored ? m_ignored->toJson() : QJsonArray()}});
}

void FederationModule::unignore(Broker::RouteCall &call)
{
    const QJsonValue given = call.body.value(u"fingerprint");
    const QString pin = given.toString();
    if (!given.isString() || pin.isEmpty() || pin.size() > 256) {
        refuse(call.responder,
               QStringLiteral(
                   "Unignore needs {\"fingerprint\": \"sha256-…\"}: the pin of an ignored machine, as "
                   "claude-peers federation attempts lists it"));
        return;
    }
    if (!m_ignored) {
        refuse(call.responder, QStringLiteral("The broker is stopping"));
        return;
    }
    if (!m_ignored->remove(pin)) {
        refuse(call.responder,
               QStringLiteral("No machine with the fingerprint %1 is ignored; see claude-peers "
                              "federation attempts")
                   .arg(pin));
        return;
    }
    recordDecision(QStringLiteral("unignored"), {}, {}, pin);
    qCInfo(lcFederation).noquote() << "un-ignored" << pin;
    Broker::RouteAnswer::json(call.responder,
                              {{QStringLiteral("ok"), true}, {QStringLiteral("fingerprint"), pin}});
}

void FederationModule::revoke(Broker::RouteCall &call)
{
    auto request = Broker::FederationRemoteRequest::fromJson(call.body);
    if (!request) {
        refuse(call.responder, request.error().message);
        return;
    }
    if (!m_settings.enabled || !m_links || !m_revoked) {
        refuse(call.responder, Broker::DisabledFederationLink::disabledMessage());
        return;
    }
    const QString host = request->host;
    const int port = int(request->port);
    const RemoteAddress address {host, port};
    const QString pin = pinFor(address);
    QString hostname;
    if (const Remote *remote = m_links->find(address))
        hostname = remote->hostname;
    bool hadPin = false;
    bool hadRemote = false;
    // The pin and the remote go in one locked edit; the label names the machine when unlinked.
    const auto saved = Broker::ConfigFile::update(m_settings.configPath, [&](Broker::ConfigFile &config) {
        for (const auto &listed : config.remotes()) {
            if (hostname.isEmpty() && listed.host == host && listed.port == port)
                hostname = listed.label;
        }
        hadPin = config.removePin(host, port);
        hadRemote = config.removeRemote(host, port);
        return hadPin || hadRemote;
    });
    if (!saved) {
        refuse(call.responder, saved.error().message);
        return;
    }
    const bool wasLinked = m_links->disconnect(address);
    if (m_sessions)
        m_sessions->forget(address);
    const bool hadProvenPin = m_provenPins.remove(address.key()) > 0;
    if (!wasLinked && !hadPin && !hadRemote && !hadProvenPin) {
        refuse(
            call.responder,
            QStringLiteral("Nothing is paired at %1; see claude-peers federation status").arg(address.key()));
        return;
    }
    m_settings.remotes.removeIf(
        [&](const Broker::ConfigFile::Remote &remote) { return remote.host == host && remote.port == port; });
    m_revoked->add(host, port, hostname, pin);
    if (m_challenges)
        m_challenges->clear(); // its session goes; the other remotes run the exchange again
    recordDecision(QStringLiteral("revoked"), address.key(), hostname, pin);
    qCInfo(lcFederation).noquote() << "revoked" << address.key() << hostname << pin;
    Broker::RouteAnswer::json(
        call.responder,
        {{QStringLiteral("ok"), true},
         {QStringLiteral("host"), host},
         {QStringLiteral("port"), port},
         {QStringLiteral("hostname"), hostname},
         {QStringLiteral("fingerprint"), pin},
         {QStringLiteral("was_connected"), wasLinked},
         {QStringLiteral("note"),
          QStringLiteral("It still knows the federation key: if it may misuse it, run `claude-peers "
                         "federation rotate-psk` and give the new key to your other machines.")}});
}

} // namespace Federation
