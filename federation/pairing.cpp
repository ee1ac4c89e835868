#include "federation/pairing.h"

#include "broker/clock.h"
#include "federation/certificatepin.h"
#include "federation/federationlogging.h"
#include "federation/internal/localroute.h"
#include "federation/pairingcode.h"
#include "federation/pinnedtlsclient.h"
#include "federation/subnetfilter.h"

#include <QJsonDocument>
#include <QTimer>

using Broker::Http::Request;
using Broker::Http::ResponderPtr;
using Broker::Http::Response;

namespace Federation {

namespace {

constexpr qsizetype kMaxHostnameChars = 253;

void answer(const ResponderPtr &responder, int status, const QJsonObject &object)
{
    responder->respond(Response::json(status, QJsonDocument(object).toJson(QJsonDocument::Compact)));
}

void failure(const ResponderPtr &responder, const QString &message)
{
    Broker::RouteAnswer::json(responder, {{QStringLiteral("ok"), false}, {QStringLiteral("error"), message}});
}

bool isPlainHostname(const QString &hostname)
{
    if (hostname.isEmpty() || hostname.size() > kMaxHostnameChars)
        return false;
    for (QChar c : hostname) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return false;
    }
    return true;
}

std::optional<int> portField(const QJsonObject &body, QLatin1String name)
{
    const QJsonValue value = body.value(name);
    if (!value.isDouble())
        return std::nullopt;
    const double number = value.toDouble();
    if (number < 1 || number > 65535 || number != double(int(number)))
        return std::nullopt;
    return int(number);
}

QByteArray utf8(const QString &text)
{
    return text.toUtf8();
}

} // namespace

QByteArray pairingSealAad(const QString &id, const QString &issuerPin, const QString &joinerPin)
{
    return "cpt-pair-v1|psk|" + id.toUtf8() + '|' + issuerPin.toUtf8() + '|' + joinerPin.toUtf8();
}

Pairing::Pairing(Hooks hooks, QObject *parent)
    : QObject(parent), m_hooks(std::move(hooks)), m_client(std::make_unique<PinnedTlsClient>())
{
}

Pairing::~Pairing() = default;

qint64 Pairing::nowMs() const
{
    return m_hooks.clock->msecsSinceEpoch();
}

void Pairing::addToStatus(QJsonObject &status)
{
    status.insert(QStringLiteral("pending"), m_pending.pendingCount(nowMs()));
    status.insert(QStringLiteral("pairing_requests"), m_pending.toJson(nowMs()));
    status.insert(QStringLiteral("pairing_codes_open"), m_codes.liveCount(nowMs()));
}

// ---- the federation port (machine A) ------------------------------------------------------

bool Pairing::handleInbound(const Request &request, const ResponderPtr &responder)
{
    const bool isRequest = request.path == "/federation/pair/request";
    if (!isRequest && request.path != "/federation/pair/collect")
        return false;
    if (request.method != "POST") {
        answer(responder, 405, {{QStringLiteral("error"), QStringLiteral("Pairing takes POST")}});
        return true;
    }
    if (request.body.size() > kMaxInboundBodyBytes) {
        answer(responder, 413,
               {{QStringLiteral("error"),
                 QStringLiteral("Request body too large (limit %1 bytes)").arg(kMaxInboundBodyBytes)}});
        return true;
    }
    const QJsonDocument document = QJsonDocument::fromJson(request.body);
    if (!document.isObject()) {
        answer(responder, 400,
               {{QStringLiteral("error"), QStringLiteral("Invalid JSON body: expected an object")}});
        return true;
    }
    if (m_hooks.ownPin().isEmpty()) {
        answer(
            responder, 503,
            {{QStringLiteral("error"), QStringLiteral("This broker has no certificate, so it cannot pair")}});
        return true;
    }
    if (isRequest)
        inboundRequest(request, document.object(), responder);
    else
        inboundCollect(request, document.object(), responder);
    return true;
}

void Pairing::inboundRequest(const Request &request, const QJsonObject &body, const ResponderPtr &responder)
{
    const QString source = SubnetFilter::unmapped(request.peerAddress).toString();
    const qint64 now = nowMs();
    if (!m_pending.allowAttempt(source, now)) {
        qCWarning(lcFederation).noquote()
            << "pairing attempts from" << source << "are being refused (rate limit)";
        answer(responder, 429,
               {{QStringLiteral("error"),
                 QStringLiteral("Too many pairing attempts from %1; wait a minute").arg(source)}});
        return;
    }
    const QString hostname = body.value(QLatin1String("hostname")).toString();
    const QString pin = body.value(QLatin1String("fingerprint")).toString();
    const QString nonce = body.value(QLatin1String("nonce")).toString();
    const QString given = body.value(QLatin1String("proof")).toString();
    const auto port = portField(body, QLatin1String("port"));
    if (body.value(QLatin1String("v")).toInt() != 1 || !isPlainHostname(hostname) || !isWellFormedPin(pin) ||
        !PairingCode::isWellFormedNonce(nonce) || !PairingCode::isWellFormedProof(given) || !port) {
        answer(
            responder, 400,
            {{QStringLiteral("error"),
              QStringLiteral("A pairing request needs v 1, hostname, port, fingerprint, nonce and proof")}});
        return;
    }
    if (m_pending.pendingCount(now) >= PendingRequests::kMaxPending) {
        answer(responder, 429,
               {{QStringLiteral("error"), QStringLiteral("Too many pairing requests are waiting here")}});
        return;
    }
    const QString ownPin = m_hooks.ownPin();
    const auto key = m_codes.redeem(
        [&](const QByteArray &candidate) {
            return PairingCode::proofMatches(
                PairingCode::proof(candidate, "request", {utf8(nonce), utf8(ownPin), utf8(pin)}),
                given.toLatin1());
        },
        now);
    if (!key) {
        qCWarning(lcFederation).noquote() << "a pairing attempt from" << source << "(" << hostname
                                          << ") did not prove an open pairing code";
        answer(responder, 403,
               {{QStringLiteral("error"),
                 QStringLiteral("The pairing code is wrong, expired or already used (or a different "
                                "certificate sits between us). Ask for a new code: claude-peers federation "
                                "pair-code")}});
        return;
    }
    const QString serverNonce = PairingCode::newNonce();
    const QString sas = shortAuthenticationString(ownPin, pin, utf8(nonce) + '|' + utf8(serverNonce));
    PendingRequests::Candidate candidate {source, *port, hostname, pin,        PendingOrigin::Code,
                                          sas,    *key,  nonce,    serverNonce};
    const auto id = m_pending.add(std::move(candidate), now);
    if (!id) {
        answer(responder, 409, {{QStringLiteral("error"), id.error()}});
        return;
    }
    qCInfo(lcFederation).noquote() << "pairing request" << *id << "from" << hostname << "at" << source
                                   << "waits for `claude-peers federation accept`";
    answer(responder, 200,
           {{QStringLiteral("ok"), true},
            {QStringLiteral("id"), *id},
            {QStringLiteral("hostname"), m_hooks.hostname()},
            {QStringLiteral("nonce"), serverNonce},
            {QStringLiteral("proof"),
             QString::fromLatin1(PairingCode::proof(
                 *key, "issuer", {utf8(nonce), utf8(serverNonce), utf8(ownPin), utf8(pin)}))}});
}

void Pairing::inboundCollect(const Request &, const QJsonObject &body, const ResponderPtr &responder)
{
    const QString id = body.value(QLatin1String("id")).toString();
    const QString given = body.value(QLatin1String("proof")).toString();
    PendingRequest *request = id.size() <= 64 ? m_pending.find(id, nowMs()) : nullptr;
    if (!request || request->codeKey.isEmpty()) {
        answer(responder, 404,
               {{QStringLiteral("error"),
                 QStringLiteral("No such pairing request (expired or already collected)")}});
        return;
    }
    const QByteArray expected = PairingCode::proof(
        request->codeKey, "collect", {utf8(id), utf8(request->clientNonce), utf8(request->serverNonce)});
    if (!PairingCode::proofMatches(expected, given.toLatin1())) {
        if (++request->badProofs >= PairingCode::CodeBook::kMaxFailures)
            m_pending.remove(id);
        answer(responder, 403,
               {{QStringLiteral("error"), QStringLiteral("Wrong proof for this pairing request")}});
        return;
    }
    switch (request->state) {
    case PendingState::Pending:
        answer(responder, 200,
               {{QStringLiteral("ok"), true}, {QStringLiteral("state"), QStringLiteral("pending")}});
        return;
    case PendingState::Rejected:
        answer(responder, 200,
               {{QStringLiteral("ok"), true}, {QStringLiteral("state"), QStringLiteral("rejected")}});
        return;
    case PendingState::Accepted:
        break;
    }
    const QByteArray psk = m_hooks.psk();
    if (psk.isEmpty()) {
        answer(responder, 503,
               {{QStringLiteral("error"), QStringLiteral("The federation key is being read; retry")}});
        return;
    }
    const QString sealed = PairingCode::sealSecret(
        request->codeKey, psk, pairingSealAad(id, m_hooks.ownPin(), request->fingerprint));
    // Delivered once: the code's key is forgotten with the request.
    const QString hostname = request->hostname;
    request->codeKey.clear();
    qCInfo(lcFederation).noquote() << "pairing" << id << "with" << hostname << "delivered the federation key";
    answer(responder, 200,
           {{QStringLiteral("ok"), true},
            {QStringLiteral("state"), QStringLiteral("accepted")},
            {QStringLiteral("hostname"), m_hooks.hostname()},
            {QStringLiteral("psk"), sealed}});
}

// ---- local routes ----------------------------------------------------------------------------

QList<Broker::Route> Pairing::routes()
{
    const auto route = [this](const char *path, void (Pairing::*handler)(Broker::RouteCall &)) {
        return Internal::localRoute(this, path, handler);
    };
    return {route("/federation/pair-code", &Pairing::pairCode),
            route("/federation/pending", &Pairing::listPending),
            route("/federation/accept", &Pairing::accept),
            route("/federation/reject", &Pairing::reject),
            route("/federation/pair", &Pairing::join),
            route("/federation/pair/confirm", &Pairing::confirm),
            route("/federation/pair/cancel", &Pairing::cancel)};
}

void Pairing::pairCode(Broker::RouteCall &call)
{
    const QString ownPin = m_hooks.ownPin();
    if (ownPin.isEmpty()) {
        failure(call.responder,
                QStringLiteral("This broker has no certificate (see claude-peers federation doctor), "
                               "so it cannot pair by code"));
        return;
    }
    if (m_hooks.psk().isEmpty()) {
        failure(call.responder, QStringLiteral("The federation key is still being read; try again shortly"));
        return;
    }
    if (m_hooks.pskIsTokenCopy()) {
        // Pairing would hand the other machine this machine's local API token.
        failure(call.responder,
                QStringLiteral("The federation key is still a copy of the local token (claude-peers "
                               "0.7's arrangement). Run `claude-peers federation rotate-psk` "
                               "first, then make the code"));
        return;
    }
    const auto issued = m_codes.issue(ownPin, nowMs());
    Broker::RouteAnswer::json(
        call.responder,
        {{QStringLiteral("ok"), true},
         {QStringLiteral("code"), issued.code},
         {QStringLiteral("expires_at"),
          Broker::Clock::toIso(QDateTime::fromMSecsSinceEpoch(issued.expiresAtMs, Qt::UTC))},
         {QStringLiteral("expires_in_s"), (issued.expiresAtMs - nowMs()) / 1000},
         {QStringLiteral("host"), m_hooks.dialAddress()},
         {QStringLiteral("port"), m_hooks.federationPort()},
         {QStringLiteral("hostname"), m_hooks.hostname()},
         {QStringLiteral("fingerprint"), ownPin}});
}

void Pairing::listPending(Broker::RouteCall &call)
{
    Broker::RouteAnswer::json(
        call.responder,
        {{QStringLiteral("ok"), true}, {QStringLiteral("requests"), m_pending.toJson(nowMs())}});
}

void Pairing::accept(Broker::RouteCall &call)
{
    const QString id = call.body.value(QLatin1String("id")).toString();
    PendingRequest *request = m_pending.find(id, nowMs());
    if (!request || request->state != PendingState::Pending) {
        failure(call.responder,
                request
                    ? QStringLiteral("Pairing request %1 was already %2")
                          .arg(id, PendingRequests::stateName(request->state))
                    : QStringLiteral("No pairing request %1 (expired?); see claude-peers federation pending")
                          .arg(id));
        return;
    }
    const RemoteAddress address {request->host, request->port};
    if (auto pinned = m_hooks.setPin(address, request->fingerprint); !pinned) {
        failure(call.responder, pinned.error().message);
        return;
    }
    PendingRequest accepted = *request;
    m_pending.decide(id, PendingState::Accepted, nowMs());
    accepted.state = PendingState::Accepted;
    if (m_hooks.decided)
        m_hooks.decided(accepted);
    qCInfo(lcFederation).noquote() << "pairing request" << id << "from" << accepted.hostname
                                   << "accepted; pinned" << address.key() << "to" << accepted.fingerprint;
    QJsonObject answer {{QStringLiteral("ok"), true},
                        {QStringLiteral("id"), id},
                        {QStringLiteral("hostname"), accepted.hostname},
                        {QStringLiteral("host"), accepted.host},
                        {QStringLiteral("port"), accepted.port},
                        {QStringLiteral("fingerprint"), accepted.fingerprint},
                        {QStringLiteral("sas"), accepted.sas}};
    if (accepted.origin == PendingOrigin::Discovery) {
        // A discovered host already shares our key (or will say it does not): connect now.
        auto responder = call.responder;
        m_hooks.connect(address, [responder, answer](Broker::Result<QJsonObject> connected) mutable {
            answer.insert(QStringLiteral("connected"), bool(connected));
            if (!connected)
                answer.insert(QStringLiteral("connect_error"), connected.error().message);
            Broker::RouteAnswer::json(responder, answer);
        });
        return;
    }
    Broker::RouteAnswer::json(call.responder, answer);
}

void Pairing::reject(Broker::RouteCall &call)
{
    const QString id = call.body.value(QLatin1String("id")).toString();
    PendingRequest *found = m_pending.find(id, nowMs());
    const std::optional<PendingRequest> request = found ? std::optional(*found) : std::nullopt;
    if (!request || !m_pending.decide(id, PendingState::Rejected, nowMs())) {
        failure(call.responder,
                QStringLiteral("No pending pairing request %1; see claude-peers federation pending").arg(id));
        return;
    }
    qCInfo(lcFederation).noquote() << "pairing request" << id << "from" << request->hostname << "rejected";
    if (m_hooks.decided) {
        PendingRequest decided = *request;
        decided.state = PendingState::Rejected;
        m_hooks.decided(decided);
    }
    Broker::RouteAnswer::json(call.responder,
                              {{QStringLiteral("ok"), true},
                               {QStringLiteral("id"), id},
                               {QStringLiteral("hostname"), request->hostname}});
}

// ---- machine B ----------------------------------------------------------------------------------

void Pairing::join(Broker::RouteCall &call)
{
    auto responder = call.responder;
    const QString host = call.body.value(QLatin1String("host")).toString();
    const auto port = portField(call.body, QLatin1String("port"));
    const auto code = PairingCode::normalizeCode(call.body.value(QLatin1String("code")).toString());
    if (host.isEmpty() || host.size() > kMaxHostnameChars || !port) {
        failure(responder, QStringLiteral("Pairing needs the other machine's host and federation port"));
        return;
    }
    if (!code) {
        failure(responder,
                QStringLiteral("Not a pairing code: expected %1 letters and digits such as ABCDE-FGHJK, "
                               "as `claude-peers federation pair-code` printed it")
                    .arg(PairingCode::kCodeSymbols));
        return;
    }
    if (m_hooks.ownPin().isEmpty()) {
        failure(responder,
                QStringLiteral("This broker has no certificate (see claude-peers federation doctor)"));
        return;
    }
    const RemoteAddress address {host, *port};
    // Nothing secret goes out here: only the server's key is read.
    QPointer<Pairing> self(this);
    m_client->probe(
        host, quint16(*port),
        [self, responder, address, code = *code](const TlsRequestResult &probed) {
            if (!self)
                return;
            if (!probed) {
                failure(responder,
                        QStringLiteral("Cannot reach %1: %2").arg(address.key(), probed.error().message));
                return;
            }
            const QString pinned = self->m_hooks.pinFor(address);
            if (!pinned.isEmpty() && !pinsEqual(pinned, probed->peerPin)) {
                failure(
                    responder,
                    QStringLiteral("%1 shows a different certificate (%2) than the one pinned for it (%3). "
                                   "If that machine was reinstalled, remove its pin from the config first")
                        .arg(address.key(), probed->peerPin, pinned));
                return;
            }
            self->joinWithPin(responder, address, code, probed->peerPin);
        },
        LinkTransport::kTimeoutMs);
}

void Pairing::joinWithPin(const ResponderPtr &responder, const RemoteAddress &address, const QString &code,
                          const QString &remotePin)
{
    Joining joining;
    joining.address = address;
    joining.remotePin = remotePin;
    joining.codeKey = PairingCode::codeKey(code, remotePin);
    joining.clientNonce = PairingCode::newNonce();
    const QString ownPin = m_hooks.ownPin();
    const QJsonObject body {
        {QStringLiteral("v"), 1},
        {QStringLiteral("hostname"), m_hooks.hostname()},
        {QStringLiteral("port"), m_hooks.federationPort()},
        {QStringLiteral("fingerprint"), ownPin},
        {QStringLiteral("nonce"), joining.clientNonce},
        {QStringLiteral("proof"),
         QString::fromLatin1(PairingCode::proof(
             joining.codeKey, "request", {utf8(joining.clientNonce), utf8(remotePin), utf8(ownPin)}))}};
    TlsRequest request;
    request.host = address.host;
    request.port = quint16(address.port);
    request.path = "/federation/pair/request";
    request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    request.expectedPin = remotePin;
    request.timeoutMs = LinkTransport::kTimeoutMs;
    request.maxResponseBytes = kMaxInboundBodyBytes;
    QPointer<Pairing> self(this);
    m_client->send(request, [self, responder, joining, ownPin](const TlsRequestResult &sent) mutable {
        if (!self)
            return;
        if (!sent) {
            const QString remoteError =
                QJsonDocument::fromJson(sent.error().body).object().value(QLatin1String("error")).toString();
            failure(
                responder,
                QStringLiteral("%1 refused the pairing: %2")
                    .arg(joining.address.key(), remoteError.isEmpty() ? sent.error().message : remoteError));
            return;
        }
        const QJsonObject reply = QJsonDocument::fromJson(sent->body).object();
        const QString id = reply.value(QLatin1String("id")).toString();
        joining.serverNonce = reply.value(QLatin1String("nonce")).toString();
        joining.remoteHostname = reply.value(QLatin1String("hostname")).toString();
        const QByteArray expected = PairingCode::proof(
            joining.codeKey, "issuer",
            {utf8(joining.clientNonce), utf8(joining.serverNonce), utf8(joining.remotePin), utf8(ownPin)});
        if (id.isEmpty() || id.size() > 64 || !PairingCode::isWellFormedNonce(joining.serverNonce) ||
            !PairingCode::proofMatches(expected, reply.value(QLatin1String("proof")).toString().toLatin1())) {
            failure(responder,
                    QStringLiteral("%1 did not prove it holds the pairing code: it is not the machine "
                                   "that made it. Nothing was shared")
                        .arg(joining.address.key()));
            return;
        }
        joining.sas = shortAuthenticationString(joining.remotePin, ownPin,
                                                utf8(joining.clientNonce) + '|' + utf8(joining.serverNonce));
        self->m_joining.insert(id, joining);
        Broker::RouteAnswer::json(responder,
                                  {{QStringLiteral("ok"), true},
                                   {QStringLiteral("id"), id},
                                   {QStringLiteral("hostname"), joining.remoteHostname},
                                   {QStringLiteral("host"), joining.address.host},
                                   {QStringLiteral("port"), joining.address.port},
                                   {QStringLiteral("fingerprint"), joining.remotePin},
                                   {QStringLiteral("own_fingerprint"), ownPin},
                                   {QStringLiteral("sas"), joining.sas}});
    });
}

void Pairing::confirm(Broker::RouteCall &call)
{
    const QString id = call.body.value(QLatin1String("id")).toString();
    if (!m_joining.contains(id)) {
        failure(call.responder,
                QStringLiteral("No pairing %1 in progress here; start again with claude-peers "
                               "federation join <host:port> <code>")
                    .arg(id));
        return;
    }
    const int waitMs = std::clamp(call.body.value(QLatin1String("wait_ms")).toInt(20'000), 0, kMaxWaitMs);
    collect(call.responder, id, nowMs() + waitMs);
}

void Pairing::cancel(Broker::RouteCall &call)
{
    const QString id = call.body.value(QLatin1String("id")).toString();
    const bool known = m_joining.remove(id);
    Broker::RouteAnswer::json(call.responder,
                              {{QStringLiteral("ok"), true}, {QStringLiteral("cancelled"), known}});
}

void Pairing::collect(const ResponderPtr &responder, const QString &id, qint64 deadlineMs)
{
    const auto joining = m_joining.constFind(id);
    if (joining == m_joining.constEnd()) {
        failure(responder, QStringLiteral("The pairing %1 was cancelled").arg(id));
        return;
    }
    TlsRequest request;
    request.host = joining->address.host;
    request.port = quint16(joining->address.port);
    request.path = "/federation/pair/collect";
    request.body =
        QJsonDocument(
            QJsonObject {{QStringLiteral("id"), id},
                         {QStringLiteral("proof"),
                          QString::fromLatin1(PairingCode::proof(
                              joining->codeKey, "collect",
                              {utf8(id), utf8(joining->clientNonce), utf8(joining->serverNonce)}))}})
            .toJson(QJsonDocument::Compact);
    request.expectedPin = joining->remotePin;
    request.timeoutMs = LinkTransport::kTimeoutMs;
    request.maxResponseBytes = kMaxInboundBodyBytes;
    QPointer<Pairing> self(this);
    m_client->send(request, [self, responder, id, deadlineMs](const TlsRequestResult &sent) {
        if (!self || !responder->isOpen())
            return;
        if (!sent) {
            const QString remoteError =
                QJsonDocument::fromJson(sent.error().body).object().value(QLatin1String("error")).toString();
            self->m_joining.remove(id);
            failure(responder,
                    QStringLiteral("The pairing ended: %1")
                        .arg(remoteError.isEmpty() ? sent.error().message : remoteError));
            return;
        }
        const QJsonObject reply = QJsonDocument::fromJson(sent->body).object();
        const QString state = reply.value(QLatin1String("state")).toString();
        if (state == QLatin1String("pending")) {
            if (self->nowMs() + kCollectIntervalMs > deadlineMs) {
                Broker::RouteAnswer::json(responder,
                                          {{QStringLiteral("ok"), true},
                                           {QStringLiteral("id"), id},
                                           {QStringLiteral("state"), QStringLiteral("pending")}});
                return;
            }
            QTimer::singleShot(kCollectIntervalMs, self, [self, responder, id, deadlineMs] {
                if (self)
                    self->collect(responder, id, deadlineMs);
            });
            return;
        }
        self->collected(responder, id, reply);
    });
}

void Pairing::collected(const ResponderPtr &responder, const QString &id, const QJsonObject &reply)
{
    const Joining joining = m_joining.take(id);
    const QString state = reply.value(QLatin1String("state")).toString();
    if (state == QLatin1String("rejected")) {
        failure(responder, QStringLiteral("%1 rejected the pairing request").arg(joining.remoteHostname));
        return;
    }
    const auto psk = PairingCode::openSecret(joining.codeKey, reply.value(QLatin1String("psk")).toString(),
                                             pairingSealAad(id, joining.remotePin, m_hooks.ownPin()));
    if (state != QLatin1String("accepted") || !psk || psk->isEmpty() || psk->size() > 1024) {
        failure(responder,
                QStringLiteral("%1 answered the pairing with no usable key%2")
                    .arg(joining.remoteHostname, psk ? QString() : QStringLiteral(": ") + psk.error()));
        return;
    }
    if (auto pinned = m_hooks.setPin(joining.address, joining.remotePin); !pinned) {
        failure(responder, pinned.error().message);
        return;
    }
    QPointer<Pairing> self(this);
    m_hooks.replacePsk(*psk, [self, responder, joining](Broker::Result<void> kept) {
        if (!self)
            return;
        if (!kept) {
            failure(responder, kept.error().message);
            return;
        }
        self->m_hooks.connect(joining.address, [responder, joining](Broker::Result<QJsonObject> connected) {
            QJsonObject answer {{QStringLiteral("ok"), bool(connected)},
                                {QStringLiteral("state"), QStringLiteral("accepted")},
                                {QStringLiteral("hostname"), joining.remoteHostname},
                                {QStringLiteral("host"), joining.address.host},
                                {QStringLiteral("port"), joining.address.port},
                                {QStringLiteral("fingerprint"), joining.remotePin},
                                {QStringLiteral("sas"), joining.sas}};
            if (!connected)
                answer.insert(QStringLiteral("error"),
                              QStringLiteral("Paired (key and pin kept), but connecting failed: %1")
                                  .arg(connected.error().message));
            Broker::RouteAnswer::json(responder, answer);
        });
    });
}

} // namespace Federation
