#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QNetworkAccessManager;

namespace Federation {

// Where a remote broker's federation port is, as the user or the config gave it.
struct RemoteAddress
{
    QString host;
    int port = 7900;

    QString key() const { return host + QLatin1Char(':') + QString::number(port); } // 0.7's map key
    bool operator==(const RemoteAddress &) const = default;
};

// How a request proves the PSK. From a QByteArray (the PSK itself, as every caller had it): 0.7's
// X-Claude-Peers-PSK header — which SessionTransport turns into a session of the challenge
// exchange between our brokers; Session: X-Federation-Session; None: nothing (the exchange).
struct LinkCredential
{
    enum class Kind { None, Psk, Session };
    Kind kind = Kind::None;
    QByteArray value;

    LinkCredential() = default;
    LinkCredential(const QByteArray &psk) // NOLINT(google-explicit-constructor): the PSK is the usual one
        : kind(psk.isEmpty() ? Kind::None : Kind::Psk), value(psk)
    {
    }
    static LinkCredential session(const QByteArray &token)
    {
        LinkCredential credential;
        credential.kind = Kind::Session;
        credential.value = token;
        return credential;
    }
    QByteArray headerName() const; // "" for None
};

// One answer of a remote federation port. status 0: nothing answered (refused, reset, timed
// out, a certificate that does not match its pin) or the request was not sent (see error);
// error then says why in plain words.
struct LinkReply
{
    int status = 0;
    QJsonObject body; // {} when the answer is not a JSON object
    QString error; // transport failure, or the remote's {"error":…}
    QString peerPin {}; // the server's certificate pin seen in TLS ("" on plain HTTP, or none seen)
    // How long the answer took on the wire once the request was written (µs; -1: not measured,
    // e.g. nothing answered): what RemoteLinks keeps as the link's round-trip time.
    qint64 roundTripUs = -1;

    bool ok() const { return status >= 200 && status < 300; }
    // "<remote error or unknown>" as 0.7 words its failures.
    QString remoteError() const { return error.isEmpty() ? QStringLiteral("unknown") : error; }
};

// Outbound requests to remote federation ports (docs/spec/peers-api.md §6.3: POST, JSON, the PSK header,
// 5 s in total). The module talks only to this, so its state machines run against a fake in
// unit tests; the TLS client with pinning is one implementation, plain HTTP another (tests).
class LinkTransport
{
public:
    using Done = std::function<void(LinkReply)>;
    static constexpr int kTimeoutMs = 5000;
    static constexpr qint64 kMaxReplyBytes = 1024 * 1024; // a larger answer is a failure

    virtual ~LinkTransport() = default;
    // Answers through `done` later, on the caller's thread, exactly once (also on timeout).
    virtual void post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
                      const LinkCredential &credential, Done done) = 0;
};

// Plain HTTP (no TLS) through QNetworkAccessManager: the loopback tests' transport, and the
// shape the TLS one follows.
class PlainHttpTransport final : public LinkTransport
{
public:
    explicit PlainHttpTransport(int timeoutMs = kTimeoutMs);
    ~PlainHttpTransport() override;

    void post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
              const LinkCredential &credential, Done done) override;

private:
    std::unique_ptr<QNetworkAccessManager> m_network;
    int m_timeoutMs;
};

class PinnedTlsClient;

// HTTPS through fedtls's PinnedTlsClient, as 0.7 speaks to remotes (docs/spec/peers-api.md §6.3)
// but with the server's key checked before the PSK header is written: a pinned address must show
// its pin (a changed certificate is refused until re-paired); an address without a pin is trusted
// on first use (its pin handed to firstUse) for requests without a credential only — a PSK or a session is
// never sent to an address that has no pin.
class TlsLinkTransport final : public LinkTransport
{
public:
    using PinFor = std::function<QString(const RemoteAddress &)>; // "" when not pinned
    using FirstUse = std::function<void(const RemoteAddress &, const QString &pin)>;

    TlsLinkTransport(PinFor pinFor, FirstUse firstUse, int timeoutMs = kTimeoutMs);
    ~TlsLinkTransport() override;

    void post(const RemoteAddress &to, const QByteArray &path, const QByteArray &jsonBody,
              const LinkCredential &credential, Done done) override;

private:
    std::unique_ptr<PinnedTlsClient> m_client;
    PinFor m_pinFor;
    FirstUse m_firstUse;
    int m_timeoutMs;
};

} // namespace Federation
