// The challenge/verify exchange that replaces 0.7's PSK header between our brokers (issue #9):
// the proofs and body parsers, two TLS brokers that pair and relay on sessions only, a server
// whose proof is wrong (the client withholds its own), sessions that expire or are unknown (the
// client runs the exchange again by itself), failed verifications rate-limited, the downgrade
// refusal, and 0.7's stand-in reached through the legacy header only once it is pinned.
#include "broker/clock.h"
#include "federation/certificate.h"
#include "federation/challengeproof.h"
#include "federation/challengeserver.h"
#include "federation/tlsserver.h"
#include "tests/federation/federationnode.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Federation;
using namespace FederationTest;
using TestSupport::HttpResult;

namespace {

const QString kPskMismatch =
    QStringLiteral("PSK mismatch — ensure both machines share the same ~/.claude-peers-token file");

QJsonObject remoteEntry(Node &node, quint16 port)
{
    const QJsonArray remotes =
        node.broker->get(QStringLiteral("/federation/status")).object().value(u"remotes").toArray();
    for (const QJsonValue &remote : remotes)
        if (remote.toObject().value(u"port").toInt() == port)
            return remote.toObject();
    return {};
}

HttpResult sendToRemote(Node &node, const QString &fromId, const QString &toId, const QString &text)
{
    return node.broker->post(QStringLiteral("/federation/send-to-remote"),
                             {{QStringLiteral("from_id"), fromId},
                              {QStringLiteral("to_id"), toId},
                              {QStringLiteral("text"), text}});
}

QStringList legacyKinds(Node &node)
{
    QStringList kinds;
    const QJsonArray uses =
        node.broker->get(QStringLiteral("/federation/status")).object().value(u"legacy_uses").toArray();
    for (const QJsonValue &use : uses)
        kinds.append(use.toObject().value(u"kind").toString());
    return kinds;
}

// A TLS server that is not our broker: answers as the test says and keeps every request.
class FakeFederationPort final : public Broker::Http::RequestHandler
{
public:
    using Answer = std::function<std::pair<int, QJsonObject>(const Broker::Http::Request &)>;

    FakeFederationPort(const TlsIdentity &identity, Answer answer)
        : m_answer(std::move(answer)), m_server(this, identity)
    {
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            qFatal("the fake federation port cannot listen");
    }
    quint16 port() const { return m_server.serverPort(); }

    void handle(const Broker::Http::Request &request, const Broker::Http::ResponderPtr &responder) override
    {
        requests.append(request);
        const auto [status, body] = m_answer(request);
        responder->respond(
            Broker::Http::Response::json(status, QJsonDocument(body).toJson(QJsonDocument::Compact)));
    }

    bool sawSecret(const QByteArray &psk) const
    {
        for (const Broker::Http::Request &request : requests)
            if (!request.header("x-claude-peers-psk").isEmpty() || request.body.contains(psk))
                return true;
        return false;
    }
    QByteArrayList paths() const
    {
        QByteArrayList list;
        for (const Broker::Http::Request &request : requests)
            list.append(request.path);
        return list;
    }

    QList<Broker::Http::Request> requests;

private:
    Answer m_answer;
    TlsHttpServer m_server;
};

#ifdef PEERS_NODE_PATH
// 0.7's stand-in (tests/federation/standin/standin07.mjs) on loopback.
class StandIn
{
public:
    bool start(const QByteArray &token, const CertificateFiles &files, QString *error)
    {
        if (!m_dir.isValid())
            return false;
        QFile tokenFile(m_dir.filePath(QStringLiteral("token")));
        if (!tokenFile.open(QIODevice::WriteOnly) || tokenFile.write(token + '\n') < 0)
            return false;
        tokenFile.close();
        m_process.setProgram(QStringLiteral(PEERS_NODE_PATH));
        m_process.setArguments(
            {QStringLiteral(STANDIN07_SCRIPT), QStringLiteral("--token-file"), tokenFile.fileName(),
             QStringLiteral("--cert"), files.certificatePath, QStringLiteral("--key"), files.keyPath,
             QStringLiteral("--hostname"), QStringLiteral("zeroseven"), QStringLiteral("--bind"),
             QStringLiteral("127.0.0.1"), QStringLiteral("--subnet"), QStringLiteral("127.0.0.0/8")});
        m_process.start();
        if (!m_process.waitForStarted(TestSupport::scaled(10000))) {
            *error = m_process.errorString();
            return false;
        }
        if (!QTest::qWaitFor([&] { return m_process.canReadLine(); }, TestSupport::scaled(20000))) {
            *error = QStringLiteral("the stand-in did not say it listens: ") +
                QString::fromUtf8(m_process.readAllStandardError());
            return false;
        }
        const QJsonObject ready = QJsonDocument::fromJson(m_process.readLine()).object();
        port = quint16(ready.value(u"port").toInt());
        m_controlPort = quint16(ready.value(u"control_port").toInt());
        return port != 0;
    }
    ~StandIn()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(5000))
                m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    // Every federation request it got: [{path, status, error}].
    QJsonArray received() { return get(QStringLiteral("/control/received")); }
    QJsonArray messages() { return get(QStringLiteral("/control/messages")); }
    QJsonObject control(const QString &path, const QJsonObject &body)
    {
        return TestSupport::httpPostJson(m_controlPort, path, body, {}, TestSupport::scaled(15000)).object();
    }
    int registerPeer(const QString &id)
    {
        return TestSupport::httpPostJson(m_controlPort, QStringLiteral("/control/register"),
                                         {{QStringLiteral("id"), id}})
            .status;
    }

    quint16 port = 0;

private:
    QJsonArray get(const QString &path)
    {
        return QJsonDocument::fromJson(TestSupport::httpGet(m_controlPort, path).body).array();
    }

    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_controlPort = 0;
};
#endif

Challenge::Transcript sampleTranscript()
{
    return {QStringLiteral("AAAAAAAAAAAAAAAAAAAAAA"),
            QStringLiteral("BBBBBBBBBBBBBBBBBBBBBB"),
            QStringLiteral("sha256-CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCA"),
            QStringLiteral("sha256-DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDA"),
            QStringLiteral("alpha"),
            QStringLiteral("beta")};
}

} // namespace

class tst_ChallengeExchange : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void proofsBindRoleNoncesPinsAndHostnames()
    {
        const QByteArray key = kSharedPsk;
        const Challenge::Transcript base = sampleTranscript();
        const QString server = Challenge::proof(key, Challenge::Role::Server, base);
        const QString client = Challenge::proof(key, Challenge::Role::Client, base);
        QCOMPARE(server.size(), 43);
        QVERIFY(server != client); // a proof cannot be reflected
        QVERIFY(Challenge::proofMatches(key, Challenge::Role::Server, base, server));
        QVERIFY(!Challenge::proofMatches(key, Challenge::Role::Client, base, server));
        QVERIFY(
            !Challenge::proofMatches(QByteArray("x").repeated(64), Challenge::Role::Server, base, server));
        QVERIFY(!Challenge::proofMatches(key, Challenge::Role::Server, base, server.left(42)));
        for (QString Challenge::Transcript::*field :
             {&Challenge::Transcript::clientNonce, &Challenge::Transcript::serverNonce,
              &Challenge::Transcript::serverPin, &Challenge::Transcript::clientPin,
              &Challenge::Transcript::clientHostname, &Challenge::Transcript::serverHostname}) {
            Challenge::Transcript changed = base;
            changed.*field += QLatin1Char('x');
            QVERIFY(!Challenge::proofMatches(key, Challenge::Role::Server, changed, server));
        }
        // Length prefixes: moving a character between neighbouring fields changes the proof.
        Challenge::Transcript shifted = base;
        shifted.clientHostname = QStringLiteral("alph");
        shifted.serverHostname = QStringLiteral("abeta");
        QVERIFY(!Challenge::proofMatches(key, Challenge::Role::Server, shifted, server));
    }

    void parsersRefuseWhatTheyCannotUse()
    {
        const auto request = Challenge::parseChallengeRequest(
            R"({"client_nonce":"AAAAAAAAAAAAAAAAAAAAAA","client_fingerprint":"","hostname":"alpha","port":7900})");
        QVERIFY(request.has_value());
        QCOMPARE(request->port, std::optional<int>(7900));
        QCOMPARE(Challenge::parseChallengeRequest(QByteArray(Challenge::kMaxBodyBytes + 1, ' ')).error().kind,
                 Challenge::ParseErrorKind::TooLarge);
        QCOMPARE(Challenge::parseChallengeRequest("[1]").error().kind, Challenge::ParseErrorKind::Malformed);
        QCOMPARE(Challenge::parseChallengeRequest(R"({"client_fingerprint":"","hostname":"a"})").error().kind,
                 Challenge::ParseErrorKind::MissingField);
        for (
            const char *bad :
            {R"({"client_nonce":"short","client_fingerprint":"","hostname":"a"})",
             R"({"client_nonce":"AAAAAAAAAAAAAAAAAAAAAA","client_fingerprint":"sha1-x","hostname":"a"})",
             R"({"client_nonce":"AAAAAAAAAAAAAAAAAAAAAA","client_fingerprint":"","hostname":"a:b"})",
             R"({"client_nonce":"AAAAAAAAAAAAAAAAAAAAAA","client_fingerprint":"","hostname":"a","port":0})",
             R"({"client_nonce":"AAAAAAAAAAAAAAAAAAAAAA","client_fingerprint":"","hostname":"a","port":1.5})",
             // Outside qint64 (converting it was undefined behaviour; found by fuzz_challenge).
             R"({"client_nonce":"AAAAAAAAAAAAAAAAAAAAAA","client_fingerprint":"","hostname":"a","port":1e300})"})
            QCOMPARE(Challenge::parseChallengeRequest(bad).error().kind, Challenge::ParseErrorKind::BadField);
        QVERIFY(!Challenge::parseVerifyRequest(R"({"challenge_id":"AAAAAAAAAAAAAAAAAAAAAA"})").has_value());
        QVERIFY(!Challenge::parseVerifyAnswer(
                     {{QStringLiteral("session"), QStringLiteral("AAAAAAAAAAAAAAAAAAAAAA")},
                      {QStringLiteral("expires_in"), -1}})
                     .has_value());
        for (const double outside : {1.8e36, -1.8e36, 1e300})
            QCOMPARE(Challenge::parseVerifyAnswer(
                         {{QStringLiteral("session"), QStringLiteral("AAAAAAAAAAAAAAAAAAAAAA")},
                          {QStringLiteral("expires_in"), outside}})
                         .error()
                         .kind,
                     Challenge::ParseErrorKind::BadField);
    }

    // The server alone, on a manual clock: one source cannot push out another's challenges,
    // challenges expire after 30 s, sessions after their lifetime.
    void challengesAndSessionsAreBounded()
    {
        Broker::ManualClock clock;
        ChallengeServer server(
            {QStringLiteral("beta"), [] { return kSharedPsk; }, [] { return QString(); }, &clock});
        const QHostAddress alice(QStringLiteral("10.0.0.1"));
        const QHostAddress flood(QStringLiteral("10.0.0.66"));
        const auto ask = [&](const QHostAddress &source, const QString &hostname) {
            const Challenge::ChallengeRequest request {
                Challenge::randomToken(16), {}, hostname, std::nullopt};
            const auto answer =
                Challenge::parseChallengeAnswer(server.challenge(source, request.toJson()).body);
            const Challenge::Transcript transcript {
                request.clientNonce,   answer ? answer->serverNonce : QString(), {}, {}, hostname,
                QStringLiteral("beta")};
            return Challenge::VerifyRequest {
                answer ? answer->challengeId : QString(),
                Challenge::proof(kSharedPsk, Challenge::Role::Client, transcript)};
        };
        const Challenge::VerifyRequest alices = ask(alice, QStringLiteral("alice"));
        const Challenge::VerifyRequest firstFlood = ask(flood, QStringLiteral("flood"));
        for (int i = 0; i < ChallengeServer::kMaxChallengesPerSource; ++i)
            ask(flood, QStringLiteral("flood"));
        QCOMPARE(server.verify(flood, firstFlood.toJson()).status, 403); // pushed out by its own
        const ChallengeServer::Answer verified = server.verify(alice, alices.toJson());
        QCOMPARE(verified.status, 200);
        const auto session = Challenge::parseVerifyAnswer(verified.body);
        QVERIFY(session.has_value());
        QVERIFY(server.session(session->session.toLatin1(), alice));
        QVERIFY(!server.session(session->session.toLatin1(), flood)); // bound to its source
        QVERIFY(server.session(session->session.toLatin1(), QHostAddress(QStringLiteral("::ffff:10.0.0.1"))));

        const Challenge::VerifyRequest late = ask(alice, QStringLiteral("alice"));
        clock.advance(ChallengeServer::kChallengeLifetimeMs);
        QCOMPARE(server.verify(alice, late.toJson()).status, 403);
        clock.advance(ChallengeServer::kSessionLifetimeMs);
        QVERIFY(!server.session(session->session.toLatin1(), alice));
        QCOMPARE(server.sessionCount(), 0);
    }

    // Two of our brokers over TLS, the callee refusing 0.7's header (accept_legacy off): they
    // pair both ways, list and relay, and neither ever saw the PSK header.
    void twoBrokersPairAndRelayWithoutThePskHeader()
    {
        Node a = makeNode(QStringLiteral("alpha"), {}, kSharedPsk, true);
        Node b = makeNode(
            QStringLiteral("beta"), [](FederationSettings &s) { s.acceptLegacy = false; }, kSharedPsk, true);
        QVERIFY(startNode(a));
        QVERIFY(startNode(b));
        const RegisteredPeer peerA = a.broker->registerPeer(QStringLiteral("/work/a"));
        const RegisteredPeer peerB = b.broker->registerPeer(QStringLiteral("/work/b"));

        // No pin yet: the exchange itself decides, and pins b once b proved the PSK over its key.
        HttpResult connected =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(b.fedPort()));
        QVERIFY2(connected.object().value(u"ok").toBool(), connected.body.constData());
        QCOMPARE(Broker::ConfigFile::load(a.broker->home().configPath())
                     .pins()
                     .value(QStringLiteral("127.0.0.1:%1").arg(b.fedPort())),
                 b.federation().ownPin());
        QCOMPARE(remoteEntry(a, b.fedPort()).value(u"auth").toString(), QStringLiteral("session"));
        // beta reached alpha back, on a session too.
        QTRY_COMPARE_WITH_TIMEOUT(remoteEntry(b, a.fedPort()).value(u"auth").toString(),
                                  QStringLiteral("session"), TestSupport::scaled(15000));

        HttpResult sent =
            sendToRemote(a, peerA.id, QStringLiteral("beta:") + peerB.id, QStringLiteral("on a session"));
        QVERIFY2(sent.object().value(u"ok").toBool(), sent.body.constData());
        QCOMPARE(b.broker->poll(peerB.id).size(), 1);
        HttpResult back = sendToRemote(b, peerB.id, QStringLiteral("alpha:") + peerA.id,
                                       QStringLiteral("back on a session"));
        QVERIFY2(back.object().value(u"ok").toBool(), back.body.constData());
        QCOMPARE(a.broker->poll(peerA.id).size(), 1);

        // Server side: every use of the PSK header is recorded; there is none on either broker.
        QCOMPARE(legacyKinds(a), QStringList());
        QCOMPARE(legacyKinds(b), QStringList());
        QVERIFY(b.broker->get(QStringLiteral("/federation/status")).object().value(u"sessions").toInt() >= 1);
    }

    void unknownOrExpiredSessionRunsTheExchangeAgain()
    {
        Node a = makeNode(QStringLiteral("alpha"), {}, kSharedPsk, true);
        Node b = makeNode(QStringLiteral("beta"), NodeOptions {{}, kSharedPsk, true, true});
        QVERIFY(startNode(a));
        QVERIFY(startNode(b));
        const RegisteredPeer peerA = a.broker->registerPeer(QStringLiteral("/work/a"));
        const RegisteredPeer peerB = b.broker->registerPeer(QStringLiteral("/work/b"));
        HttpResult connected =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(b.fedPort()));
        QVERIFY2(connected.object().value(u"ok").toBool(), connected.body.constData());

        // beta's sessions expire (its monotonic clock moves past their lifetime, its wall clock
        // stays right for the relays' ts); alpha does not know yet.
        const auto issued = [&] {
            return b.broker->get(QStringLiteral("/federation/status"))
                .object()
                .value(u"sessions_issued")
                .toInt();
        };
        const int issuedBefore = issued();
        QVERIFY(issuedBefore >= 1);
        b.broker->clock().advance(ChallengeServer::kSessionLifetimeMs + 1);
        b.broker->clock().set(QDateTime::currentDateTimeUtc());
        HttpResult sent =
            sendToRemote(a, peerA.id, QStringLiteral("beta:") + peerB.id, QStringLiteral("after expiry"));
        QVERIFY2(sent.object().value(u"ok").toBool(), sent.body.constData());
        QCOMPARE(b.broker->poll(peerB.id).size(), 1);
        QCOMPARE(issued(), issuedBefore + 1); // the 401 made alpha prove the PSK again
        QCOMPARE(remoteEntry(a, b.fedPort()).value(u"auth").toString(), QStringLiteral("session"));
        QCOMPARE(legacyKinds(b), QStringList());
    }

    void sessionHeaderIsCheckedBeforeAnythingElse()
    {
        Node b = makeNode(QStringLiteral("beta"));
        QVERIFY(startNode(b));
        const LinkReply unknown = fedPostWith(b.fedPort(), "/federation/peers", "{}",
                                              LinkCredential::session(QByteArray("A").repeated(43)));
        QCOMPARE(unknown.status, 401);
        QVERIFY(unknown.error.contains(QStringLiteral("challenge exchange")));
        // A valid session from the exchange, by hand: then /federation/peers answers.
        Challenge::ChallengeRequest request {
            QStringLiteral("AAAAAAAAAAAAAAAAAAAAAA"), {}, QStringLiteral("tester"), std::nullopt};
        const LinkReply challenge = fedPostWith(b.fedPort(), "/federation/challenge", request.toJson(), {});
        QCOMPARE(challenge.status, 200);
        const auto answer = Challenge::parseChallengeAnswer(challenge.body);
        QVERIFY(answer.has_value());
        Challenge::Transcript transcript {request.clientNonce, answer->serverNonce, {}, {},
                                          request.hostname,    answer->hostname};
        QVERIFY(
            Challenge::proofMatches(kSharedPsk, Challenge::Role::Server, transcript, answer->serverProof));
        const Challenge::VerifyRequest verify {
            answer->challengeId, Challenge::proof(kSharedPsk, Challenge::Role::Client, transcript)};
        const LinkReply verified = fedPostWith(b.fedPort(), "/federation/verify", verify.toJson(), {});
        QCOMPARE(verified.status, 200);
        const auto session = Challenge::parseVerifyAnswer(verified.body);
        QVERIFY(session.has_value());
        QCOMPARE(session->expiresInSeconds, ChallengeServer::kSessionLifetimeMs / 1000);
        QCOMPARE(fedPostWith(b.fedPort(), "/federation/peers", "{}",
                             LinkCredential::session(session->session.toLatin1()))
                     .status,
                 200);
        // Single use: the same challenge cannot be verified twice.
        QCOMPARE(fedPostWith(b.fedPort(), "/federation/verify", verify.toJson(), {}).status, 403);
        // Size limit on the bodies.
        QCOMPARE(fedPostWith(b.fedPort(), "/federation/challenge", QByteArray(8192, '{'), {}).status, 413);
        QCOMPARE(fedPostWith(b.fedPort(), "/federation/verify", "{}", {}).status, 400);
        QCOMPARE(legacyKinds(b), QStringList());
    }

    // The server side of a wrong PSK: the client's proof fails, and a source that keeps failing
    // is held off.
    void failedVerificationsAreRefusedThenRateLimited()
    {
        Node b = makeNode(QStringLiteral("beta"));
        QVERIFY(startNode(b));
        const QByteArray wrongKey = QByteArray("w").repeated(64);
        int refused = 0;
        for (int i = 0; i < ChallengeServer::kMaxFailures; ++i) {
            const Challenge::ChallengeRequest request {
                Challenge::randomToken(16), {}, QStringLiteral("mallory"), std::nullopt};
            const LinkReply challenge =
                fedPostWith(b.fedPort(), "/federation/challenge", request.toJson(), {});
            QCOMPARE(challenge.status, 200);
            const auto answer = Challenge::parseChallengeAnswer(challenge.body);
            QVERIFY(answer.has_value());
            Challenge::Transcript transcript {request.clientNonce, answer->serverNonce, {}, {},
                                              request.hostname,    answer->hostname};
            // Its PSK is not ours: the server's proof does not verify for it either.
            QVERIFY(
                !Challenge::proofMatches(wrongKey, Challenge::Role::Server, transcript, answer->serverProof));
            const Challenge::VerifyRequest verify {
                answer->challengeId, Challenge::proof(wrongKey, Challenge::Role::Client, transcript)};
            const LinkReply verified = fedPostWith(b.fedPort(), "/federation/verify", verify.toJson(), {});
            QCOMPARE(verified.status, 403);
            QVERIFY(verified.error.contains(QStringLiteral("different PSKs")));
            ++refused;
        }
        QCOMPARE(refused, ChallengeServer::kMaxFailures);
        const Challenge::ChallengeRequest again {
            Challenge::randomToken(16), {}, QStringLiteral("mallory"), std::nullopt};
        QCOMPARE(fedPostWith(b.fedPort(), "/federation/challenge", again.toJson(), {}).status, 429);
        QCOMPARE(b.broker->get(QStringLiteral("/federation/status")).object().value(u"sessions").toInt(), 0);
    }

    // The client side of a wrong PSK, against our broker and against an impostor whose proof is
    // wrong: the exchange stops at the server's proof, the client's proof is never sent.
    void clientWithholdsItsProofWhenTheServerProofIsWrong()
    {
        QTemporaryDir dir;
        const auto identity = generateIdentity(
            {dir.filePath(QStringLiteral("fake.crt")), dir.filePath(QStringLiteral("fake.key"))},
            QStringLiteral("impostor"));
        QVERIFY(identity.has_value());
        FakeFederationPort impostor(*identity, [](const Broker::Http::Request &request) {
            if (request.path != "/federation/challenge")
                return std::pair {404, QJsonObject {{QStringLiteral("error"), QStringLiteral("not found")}}};
            const Challenge::ChallengeAnswer answer {Challenge::randomToken(16), Challenge::randomToken(16),
                                                     QStringLiteral("impostor"), Challenge::randomToken(32)};
            return std::pair {200, answer.toJson()};
        });
        Node a = makeNode(QStringLiteral("alpha"), {}, kSharedPsk, true);
        QVERIFY(startNode(a));
        HttpResult refused =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(impostor.port()));
        QCOMPARE(refused.object().value(u"ok").toBool(), false);
        QVERIFY2(refused.object().value(u"error").toString().contains(QStringLiteral("did not prove")),
                 refused.body.constData());
        QCOMPARE(impostor.paths(), QByteArrayList {"/federation/challenge"});
        QVERIFY(!impostor.sawSecret(kSharedPsk));
        // Nothing was pinned for it either.
        QVERIFY(Broker::ConfigFile::load(a.broker->home().configPath()).pins().isEmpty());

        // Our own broker with another PSK: the same, and it never sees a verification.
        Node b = makeNode(QStringLiteral("beta"), {}, QByteArray("b").repeated(64), true);
        QVERIFY(startNode(b));
        HttpResult wrongPsk =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(b.fedPort()));
        QCOMPARE(wrongPsk.object().value(u"ok").toBool(), false);
        QVERIFY2(wrongPsk.object().value(u"error").toString().contains(QStringLiteral("different PSKs")),
                 wrongPsk.body.constData());
        QCOMPARE(b.broker->get(QStringLiteral("/federation/status")).object().value(u"sessions").toInt(), 0);
    }

    // A remote that completed the exchange and later answers like 0.7 (same key) gets nothing.
    void downgradeAfterTheExchangeIsRefused()
    {
        Node a = makeNode(QStringLiteral("alpha"), {}, kSharedPsk, true);
        Node b = makeNode(QStringLiteral("beta"), {}, kSharedPsk, true);
        QVERIFY(startNode(a));
        QVERIFY(startNode(b));
        HttpResult connected =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(b.fedPort()));
        QVERIFY2(connected.object().value(u"ok").toBool(), connected.body.constData());
        QVERIFY(a.broker->post(QStringLiteral("/federation/disconnect"), loopbackTarget(b.fedPort()))
                    .object()
                    .value(u"ok")
                    .toBool());

        // beta's own key, now answering as 0.7 does to a request without its header.
        const auto loaded = loadIdentity(
            CertificateFiles::fromEnvironment(b.broker->home().environment(), b.broker->home().path()));
        QVERIFY(loaded.has_value());
        QCOMPARE(loaded->pin, b.federation().ownPin());
        FakeFederationPort downgraded(*loaded, [](const Broker::Http::Request &) {
            return std::pair {403, QJsonObject {{QStringLiteral("error"), kPskMismatch}}};
        });
        // The user pinned that address to beta's key: even so, no legacy header for it.
        Broker::ConfigFile config = Broker::ConfigFile::load(a.broker->home().configPath());
        config.setPin(QStringLiteral("127.0.0.1"), downgraded.port(), b.federation().ownPin());
        QVERIFY(config.save(a.broker->home().configPath()));
        HttpResult refused =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(downgraded.port()));
        QCOMPARE(refused.object().value(u"ok").toBool(), false);
        QVERIFY2(refused.object().value(u"error").toString().contains(QStringLiteral("downgrade")),
                 refused.body.constData());
        QCOMPARE(downgraded.paths(), QByteArrayList {"/federation/challenge"});
        QVERIFY(!downgraded.sawSecret(kSharedPsk));
        // The record survives a restart (SQLite).
        a.broker->server().stop();
        QVERIFY(startNode(a));
        HttpResult still =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(downgraded.port()));
        QVERIFY2(still.object().value(u"error").toString().contains(QStringLiteral("downgrade")),
                 still.body.constData());
        QVERIFY(!downgraded.sawSecret(kSharedPsk));
    }

    // 0.7's stand-in: unpinned it gets nothing (its fingerprint is shown); pinned it gets the
    // legacy header, relays go both ways, and status says "legacy".
    void zeroSevenStandInPairsThroughTheLegacyHeaderOnlyWhenPinned()
    {
#ifndef PEERS_NODE_PATH
        QSKIP("node is not installed: the 0.7 stand-in cannot run (tools/install-deps.sh test installs it)");
#else
        QTemporaryDir dir;
        const CertificateFiles files {dir.filePath(QStringLiteral("z.crt")),
                                      dir.filePath(QStringLiteral("z.key"))};
        const auto identity = generateIdentity(files, QStringLiteral("zeroseven"));
        QVERIFY(identity.has_value());
        StandIn standIn;
        QString error;
        QVERIFY2(standIn.start(kSharedPsk, files, &error), qPrintable(error));
        QCOMPARE(standIn.registerPeer(QStringLiteral("z0000007")), 200);

        Node a = makeNode(QStringLiteral("alpha"), {}, kSharedPsk, true);
        QVERIFY(startNode(a));
        const RegisteredPeer peerA = a.broker->registerPeer(QStringLiteral("/work/a"));
        HttpResult unpinned =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(standIn.port));
        QCOMPARE(unpinned.object().value(u"ok").toBool(), false);
        const QString why = unpinned.object().value(u"error").toString();
        QVERIFY2(why.contains(QStringLiteral("not pinned")) && why.contains(identity->pin), qPrintable(why));
        // Only the challenge reached it, refused by 0.7's pipeline for lack of the header.
        const QJsonArray first = standIn.received();
        QCOMPARE(first.size(), 1);
        QCOMPARE(first.first().toObject().value(u"path").toString(), QStringLiteral("/federation/challenge"));
        QCOMPARE(first.first().toObject().value(u"status").toInt(), 403);

        Broker::ConfigFile config = Broker::ConfigFile::load(a.broker->home().configPath());
        config.setPin(QStringLiteral("127.0.0.1"), standIn.port, identity->pin);
        QVERIFY(config.save(a.broker->home().configPath()));
        HttpResult connected =
            a.broker->post(QStringLiteral("/federation/connect"), loopbackTarget(standIn.port));
        QVERIFY2(connected.object().value(u"ok").toBool(), connected.body.constData());
        QCOMPARE(connected.object().value(u"hostname").toString(), QStringLiteral("zeroseven"));
        QCOMPARE(remoteEntry(a, standIn.port).value(u"auth").toString(), QStringLiteral("legacy"));
        QCOMPARE(remoteEntry(a, standIn.port).value(u"legacy").toBool(), true);
        QCOMPARE(remoteEntry(a, standIn.port).value(u"fingerprint").toString(), identity->pin);
        QVERIFY(legacyKinds(a).contains(QStringLiteral("outbound-psk-header")));
        HttpResult sent =
            sendToRemote(a, peerA.id, QStringLiteral("zeroseven:z0000007"), QStringLiteral("to 0.7"));
        QVERIFY2(sent.object().value(u"ok").toBool(), sent.body.constData());
        QCOMPARE(standIn.messages().size(), 1); // it verified our relay's HMAC

        // 0.7 → ours: its header and its relays without replay fields, accepted (accept_legacy)
        // and recorded.
        const QJsonObject back =
            standIn.control(QStringLiteral("/control/connect"), loopbackTarget(a.fedPort()));
        QVERIFY2(back.value(u"ok").toBool(), QJsonDocument(back).toJson().constData());
        QCOMPARE(back.value(u"hostname").toString(), QStringLiteral("alpha"));
        const QJsonObject relayed =
            standIn.control(QStringLiteral("/control/relay"),
                            {{QStringLiteral("to_id"), QString(QStringLiteral("alpha:") + peerA.id)},
                             {QStringLiteral("from_id"), QStringLiteral("z0000007")},
                             {QStringLiteral("text"), QStringLiteral("from 0.7")}});
        QCOMPARE(relayed.value(u"status").toInt(), 200);
        QCOMPARE(a.broker->poll(peerA.id).size(), 1);
        QVERIFY(legacyKinds(a).contains(QStringLiteral("psk-header")));
        QVERIFY(legacyKinds(a).contains(QStringLiteral("relay-without-replay-fields")));
#endif
    }
};

QTEST_GUILESS_MAIN(tst_ChallengeExchange)
#include "tst_challengeexchange.moc"
