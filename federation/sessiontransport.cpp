#include "federation/sessiontransport.h"

#include "broker/clock.h"
#include "federation/challengespeakers.h"
#include "federation/federationlogging.h"

#include <QJsonDocument>

namespace Federation {

using namespace Challenge;

namespace {

// 0.7 answers a request without its header with this, whatever the path (docs/spec/peers-api.md §4.1 step 4).
const QString kPskMismatch =
    QStringLiteral("PSK mismatch — ensure both machines share the same ~/.claude-peers-token file");

LinkReply notSent(const QString &message)
{
    return LinkReply {0, {}, message};
}

// 0.7's handshake wants the PSK in its body as well as in the header (docs/spec/peers-api.md §4.2).
QByteArray withBodyPsk(const QByteArray &body, const QByteArray &psk)
{
    QJsonObject object = QJsonDocument::fromJson(body).object();
    object.insert(QStringLiteral("psk"), QString::fromUtf8(psk));
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

SessionTransport::SessionTransport(LinkTransport &inner, const Broker::Clock &clock, Hooks hooks)
    : m_inner(inner), m_clock(clock), m_hooks(std::move(hooks))
{
}

QString SessionTransport::modeName(Mode mode)
{
    switch (mode) {
    case Mode::None:
        return QStringLiteral("none");
    case Mode::Session:
        return QStringLiteral("session");
    case Mode::Legacy:
        return QStringLiteral("legacy");
    }
    return {};
}

SessionTransport::Mode SessionTransport::mode(const RemoteAddress &to) const
{
    auto it = m_links.find(to.key());
    return it == m_links.end() ? Mode::None : it->second.mode;
}

void SessionTransport::forget(const RemoteAddress &to)
{
    auto it = m_links.find(to.key());
    if (it == m_links.end())
        return;
    auto waiting = std::move(it->second.waiting);
    m_links.erase(it);
    for (Request &request : waiting)
        request.done(notSent(QStringLiteral("The link to %1 was dropped").arg(to.key())));
}

SessionTransport::Link *SessionTransport::lookup(const RemoteAddress &to, quint64 generation)
{
    auto it = m_links.find(to.key());
    return it == m_links.end() || it->second.generation != generation ? nullptr : &it->second;
}

void SessionTransport::post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
                            const LinkCredential &credential, Done done)
{
    if (credential.kind != LinkCredential::Kind::Psk) {
        m_inner.post(to, path, jsonBody, credential, std::move(done));
        return;
    }
    Link &link = m_links[to.key()];
    if (link.key != credential.value) {
        // A new PSK (rotated, joined another mesh): what the old one proved is void.
        link.key = credential.value;
        link.session.clear();
        if (link.mode == Mode::Session)
            link.mode = Mode::None;
    }
    dispatch(to, Request {path, jsonBody, std::move(done)});
}

void SessionTransport::dispatch(const RemoteAddress &to, Request request)
{
    Link &link = m_links[to.key()];
    const bool fresh = link.renewAtMs > m_clock.monotonicMs();
    if (link.mode == Mode::Session && fresh && !link.exchanging) {
        sendWithSession(to, link, std::move(request));
        return;
    }
    // A reconnect asks again whether a legacy remote learned the exchange meanwhile.
    if (link.mode == Mode::Legacy && request.path != "/federation/handshake" && !link.exchanging) {
        sendLegacy(to, link, std::move(request));
        return;
    }
    if (link.waiting.size() >= std::size_t(kMaxWaiting)) {
        request.done(notSent(QStringLiteral("Too many requests to %1 are waiting for its authentication; "
                                            "try again shortly")
                                 .arg(to.key())));
        return;
    }
    link.waiting.push_back(std::move(request));
    if (!link.exchanging)
        startExchange(to, link);
}

void SessionTransport::sendWithSession(const RemoteAddress &to, Link &link, Request request)
{
    const QByteArray session = link.session;
    const quint64 generation = link.generation;
    const QByteArray path = request.path;
    const QByteArray body = request.body;
    auto pending = std::make_shared<Request>(std::move(request));
    m_inner.post(
        to, path, body, LinkCredential::session(session),
        [this, alive = std::weak_ptr<int>(m_alive), to, session, generation, pending](LinkReply reply) {
            if (alive.expired())
                return;
            if (reply.status != 401 || pending->resent) {
                pending->done(reply);
                return;
            }
            // The remote forgot the session (a restart) or let it expire: prove the PSK
            // again and resend once.
            qCInfo(lcFederation).noquote()
                << to.key() << "no longer knows our session; running the challenge exchange again";
            if (Link *link = lookup(to, generation); link && link->session == session) {
                link->session.clear();
                link->mode = Mode::None;
            }
            pending->resent = true;
            dispatch(to, std::move(*pending));
        });
}

void SessionTransport::sendLegacy(const RemoteAddress &to, Link &link, Request request)
{
    const QString pin = m_hooks.pinFor ? m_hooks.pinFor(to) : QString();
    if (pin.isEmpty() || pin != link.legacyPin) {
        // Unpinned or re-pinned since: decide again.
        link.mode = Mode::None;
        dispatch(to, std::move(request));
        return;
    }
    const QByteArray body =
        request.path == "/federation/handshake" ? withBodyPsk(request.body, link.key) : request.body;
    m_inner.post(to, request.path, body, LinkCredential(link.key), std::move(request.done));
}

void SessionTransport::startExchange(const RemoteAddress &to, Link &link)
{
    link.exchanging = true;
    link.generation = m_nextGeneration++;
    const quint64 generation = link.generation;
    // Whether the address was pinned before this exchange: a pin first seen now proves nothing.
    const QString pinBefore = m_hooks.pinFor ? m_hooks.pinFor(to) : QString();
    ChallengeRequest request;
    request.clientNonce = randomToken(16);
    request.clientPin = m_hooks.ownPin ? m_hooks.ownPin() : QString();
    request.hostname = m_hooks.hostname;
    if (m_hooks.federationPort && m_hooks.federationPort() > 0)
        request.port = int(m_hooks.federationPort());
    Transcript sent;
    sent.clientNonce = request.clientNonce;
    sent.clientPin = request.clientPin;
    sent.clientHostname = request.hostname;
    qCDebug(lcFederation).noquote() << "challenge exchange with" << to.key();
    m_inner.post(
        to, "/federation/challenge", request.toJson(), LinkCredential(),
        [this, alive = std::weak_ptr<int>(m_alive), to, generation, pinBefore, sent](LinkReply reply) {
            if (!alive.expired())
                challengeAnswered(to, generation, pinBefore, sent, reply);
        });
}

void SessionTransport::challengeAnswered(const RemoteAddress &to, quint64 generation,
                                         const QString &pinBefore, const Transcript &sent,
                                         const LinkReply &reply)
{
    Link *link = lookup(to, generation);
    if (!link)
        return;
    if (reply.status == 404 || (reply.status == 403 && reply.error == kPskMismatch)) {
        legacyAnswered(to, *link, pinBefore, reply);
        return;
    }
    if (!reply.ok()) {
        failWaiting(to, generation, reply);
        return;
    }
    auto answer = parseChallengeAnswer(reply.body);
    if (!answer) {
        failWaiting(to, generation,
                    notSent(QStringLiteral("%1 answered the challenge wrongly: %2")
                                .arg(to.key(), answer.error().message)));
        return;
    }
    Transcript transcript = sent;
    transcript.serverNonce = answer->serverNonce;
    transcript.serverPin = reply.peerPin;
    transcript.serverHostname = answer->hostname;
    if (!proofMatches(link->key, Role::Server, transcript, answer->serverProof)) {
        qCWarning(lcFederation).noquote()
            << to.key() << "failed the challenge: its proof does not match our PSK";
        failWaiting(
            to, generation,
            notSent(QStringLiteral("%1 did not prove that it holds our federation PSK: the two machines "
                                   "have different PSKs (join again with its `claude-peers federation "
                                   "token` URL), or something else answers there. Nothing secret was "
                                   "sent.")
                        .arg(to.key())));
        return;
    }
    // The remote holds the PSK and the key we saw: it is who we meant, and it speaks the exchange.
    if (m_hooks.recordSpeaker)
        m_hooks.recordSpeaker(ChallengeSpeakers::identity(reply.peerPin, to.key()), to, answer->hostname);
    if (pinBefore.isEmpty() && !reply.peerPin.isEmpty() && m_hooks.keepPin)
        m_hooks.keepPin(to, reply.peerPin);
    const VerifyRequest verify {answer->challengeId, proof(link->key, Role::Client, transcript)};
    m_inner.post(to, "/federation/verify", verify.toJson(), LinkCredential(),
                 [this, alive = std::weak_ptr<int>(m_alive), to, generation](LinkReply verifyReply) {
                     if (!alive.expired())
                         verified(to, generation, verifyReply);
                 });
}

void SessionTransport::verified(const RemoteAddress &to, quint64 generation, const LinkReply &reply)
{
    Link *link = lookup(to, generation);
    if (!link)
        return;
    if (!reply.ok()) {
        failWaiting(to, generation, reply);
        return;
    }
    auto answer = parseVerifyAnswer(reply.body);
    if (!answer) {
        failWaiting(to, generation,
                    notSent(QStringLiteral("%1 answered the verification wrongly: %2")
                                .arg(to.key(), answer.error().message)));
        return;
    }
    link->mode = Mode::Session;
    link->session = answer->session.toLatin1();
    link->renewAtMs = m_clock.monotonicMs() +
        qMax<qint64>(answer->expiresInSeconds * 1000 - kRenewBeforeMs, answer->expiresInSeconds * 500);
    qCInfo(lcFederation).noquote() << "session with" << to.key() << "for" << answer->expiresInSeconds << "s";
    flush(to, generation);
}

void SessionTransport::legacyAnswered(const RemoteAddress &to, Link &link, const QString &pinBefore,
                                      const LinkReply &reply)
{
    const quint64 generation = link.generation;
    const QString seen = reply.peerPin;
    if (m_hooks.speaksChallenge && m_hooks.speaksChallenge(ChallengeSpeakers::identity(seen, to.key()))) {
        qCWarning(lcFederation).noquote() << to.key()
                                          << "answers like claude-peers 0.7 after it spoke the challenge "
                                             "exchange: refused as a possible downgrade attack";
        failWaiting(
            to, generation,
            notSent(QStringLiteral("%1 (certificate %2) completed the challenge exchange before but now "
                                   "answers like claude-peers 0.7: refused as a possible downgrade "
                                   "attack, and the PSK was not sent. If that machine really runs 0.7 "
                                   "now, it has a new certificate: pin that with `claude-peers "
                                   "federation connect %1 --fingerprint <its fingerprint>`.")
                        .arg(to.key(), seen.isEmpty() ? QStringLiteral("none") : seen)));
        return;
    }
    if (pinBefore.isEmpty() || seen != pinBefore) {
        failWaiting(
            to, generation,
            notSent(QStringLiteral("%1 does not speak the challenge exchange (claude-peers 0.7?) and its "
                                   "certificate was not pinned, so the PSK was not sent. Its fingerprint is "
                                   "%2: compare it with `claude-peers federation status` on that machine, "
                                   "then run `claude-peers federation connect %1 --fingerprint %2`.")
                        .arg(to.key(), seen.isEmpty() ? QStringLiteral("unknown (no TLS)") : seen)));
        return;
    }
    link.mode = Mode::Legacy;
    link.legacyPin = pinBefore;
    if (m_hooks.legacyChosen)
        m_hooks.legacyChosen(to);
    flush(to, generation);
}

void SessionTransport::flush(const RemoteAddress &to, quint64 generation)
{
    Link *link = lookup(to, generation);
    if (!link)
        return;
    link->exchanging = false;
    auto waiting = std::move(link->waiting);
    link->waiting.clear();
    for (Request &request : waiting) {
        Link *current = lookup(to, generation);
        if (!current) {
            request.done(notSent(QStringLiteral("The link to %1 was dropped").arg(to.key())));
            continue;
        }
        if (current->mode == Mode::Session && !current->exchanging)
            sendWithSession(to, *current, std::move(request));
        else if (current->mode == Mode::Legacy && !current->exchanging)
            sendLegacy(to, *current, std::move(request));
        else
            dispatch(to, std::move(request));
    }
}

void SessionTransport::failWaiting(const RemoteAddress &to, quint64 generation, LinkReply reply)
{
    Link *link = lookup(to, generation);
    if (!link)
        return;
    link->exchanging = false;
    link->mode = Mode::None;
    link->session.clear();
    auto waiting = std::move(link->waiting);
    link->waiting.clear();
    for (Request &request : waiting)
        request.done(reply);
}

} // namespace Federation
