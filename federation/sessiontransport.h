#pragma once

#include "federation/challengeproof.h"
#include "federation/linktransport.h"

#include <QString>

#include <deque>
#include <functional>
#include <map>
#include <memory>

namespace Broker {
class Clock;
}

namespace Federation {

// The outbound side of the challenge exchange: a LinkTransport in front of the real one. A
// request given the PSK (LinkCredential from a QByteArray) is sent with a session instead: the
// first one to a remote runs /federation/challenge, checks the server's proof against the pin
// its TLS handshake showed before revealing anything, then /federation/verify; later ones carry
// X-Federation-Session, and a 401 (the remote restarted, the session expired) runs the exchange
// again and resends once. A remote that does not know the exchange (404, or 0.7's "PSK
// mismatch" 403) gets 0.7's PSK header only when its address was pinned before we spoke to it
// and it never spoke the exchange; otherwise the request fails and nothing secret is sent.
// Requests that carry no PSK (or a session already) pass through unchanged.
class SessionTransport final : public LinkTransport
{
public:
    static constexpr int kMaxWaiting = 256; // requests per remote waiting for its exchange
    static constexpr qint64 kRenewBeforeMs = 60'000; // a session this close to expiry is renewed

    struct Hooks
    {
        QString hostname; // ours, in the proofs
        std::function<quint16()> federationPort; // ours, so the remote can reach us back
        std::function<QString()> ownPin; // our certificate's pin ("" on plain HTTP)
        std::function<QString(const RemoteAddress &)> pinFor; // the pin kept for an address, or ""
        // The remote proved the PSK over this pin, and the address had none: keep it.
        std::function<void(const RemoteAddress &, const QString &pin)> keepPin;
        std::function<bool(const QString &identity)> speaksChallenge; // ChallengeSpeakers
        std::function<void(const QString &identity, const RemoteAddress &, const QString &hostname)>
            recordSpeaker;
        std::function<void(const RemoteAddress &)> legacyChosen; // logged and shown in status
    };

    enum class Mode { None, Session, Legacy };

    SessionTransport(LinkTransport &inner, const Broker::Clock &clock, Hooks hooks);

    void post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
              const LinkCredential &credential, Done done) override;

    Mode mode(const RemoteAddress &to) const;
    static QString modeName(Mode mode); // "none", "session", "legacy"
    void forget(const RemoteAddress &to);

private:
    struct Request
    {
        QByteArray path;
        QByteArray body;
        Done done;
        bool resent = false;
    };
    struct Link
    {
        Mode mode = Mode::None;
        QByteArray key; // the PSK the session proved (another PSK starts afresh)
        QByteArray session;
        qint64 renewAtMs = 0; // monotonic
        QString legacyPin; // the pin that allowed the legacy header
        bool exchanging = false;
        quint64 generation = 0;
        std::deque<Request> waiting;
    };

    void dispatch(const RemoteAddress &to, Request request);
    void sendWithSession(const RemoteAddress &to, Link &link, Request request);
    void sendLegacy(const RemoteAddress &to, Link &link, Request request);
    void startExchange(const RemoteAddress &to, Link &link);
    void challengeAnswered(const RemoteAddress &to, quint64 generation, const QString &pinBefore,
                           const Challenge::Transcript &sent, const LinkReply &reply);
    void verified(const RemoteAddress &to, quint64 generation, const LinkReply &reply);
    void legacyAnswered(const RemoteAddress &to, Link &link, const QString &pinBefore,
                        const LinkReply &reply);
    void failWaiting(const RemoteAddress &to, quint64 generation, LinkReply reply);
    void flush(const RemoteAddress &to, quint64 generation);
    Link *lookup(const RemoteAddress &to, quint64 generation);

    LinkTransport &m_inner;
    const Broker::Clock &m_clock;
    Hooks m_hooks;
    std::map<QString, Link> m_links; // by address key; references stay valid while others are added
    quint64 m_nextGeneration = 1;
    // Answers of the inner transport that arrive after this is destroyed are dropped.
    std::shared_ptr<int> m_alive = std::make_shared<int>(0);
};

} // namespace Federation
