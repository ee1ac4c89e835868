// Two real claude-peers-broker processes (their own HOMEs, databases and hostnames, ports on
// 127.0.0.1 picked by the OS) federated through the composition the hosts use: connect, both
// lan lists, relays both ways, and refused relays (wrong PSK, bad HMAC, replay) storing nothing.
#include "federation/pinnedtlsclient.h"
#include "tests/federation/federationmachine.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QProcess>
#include <QTest>

#include <algorithm>
#include <memory>

using TestSupport::HttpResult;

namespace {

const QByteArray kPsk = QByteArrayLiteral("feedfacefeedfacefeedfacefeedfacefeedfacefeedfacefeedfacefeedface");

struct Machine : FederationTest::FederationMachine
{
    QStringList lanIds()
    {
        QStringList ids;
        const QJsonArray peers = post(QStringLiteral("/list-peers"),
                                      {{QStringLiteral("scope"), QStringLiteral("lan")},
                                       {QStringLiteral("cwd"), QStringLiteral("/")}})
                                     .json()
                                     .toArray();
        for (const QJsonValue &peer : peers)
            ids.append(peer.toObject().value(u"id").toString());
        return ids;
    }
};

bool startMachine(Machine &machine, const QString &hostname)
{
    return machine.prepare(hostname, kPsk) && machine.start(machine.federationEnvironment()) &&
        machine.waitForFederation();
}

QString registerPeer(Machine &machine, QProcess &session, const QString &cwd)
{
    session.start(QStringLiteral("sleep"), {QStringLiteral("600")});
    if (!session.waitForStarted(TestSupport::scaled(5000)))
        return {};
    return machine
        .post(QStringLiteral("/register"),
              {{QStringLiteral("pid"), session.processId()}, {QStringLiteral("cwd"), cwd}})
        .object()
        .value(u"id")
        .toString();
}

QJsonArray poll(Machine &machine, const QString &id)
{
    return machine.post(QStringLiteral("/poll-messages"), {{QStringLiteral("id"), id}})
        .object()
        .value(u"messages")
        .toArray();
}

HttpResult postToFederation(quint16 port, const QByteArray &body, const QByteArray &psk)
{
    // Over TLS, as the brokers serve it; any key is accepted (this side plays the attacker).
    Federation::PinnedTlsClient client;
    Federation::TlsRequest request;
    request.host = QStringLiteral("127.0.0.1");
    request.port = port;
    request.path = "/federation/relay";
    request.body = body;
    request.headers = {{QByteArrayLiteral("X-Claude-Peers-PSK"), psk}};
    request.acceptPin = [](const QString &, const QSslCertificate &) { return true; };
    request.timeoutMs = TestSupport::scaled(5000);
    std::optional<HttpResult> answer;
    client.send(request, [&](const Federation::TlsRequestResult &result) {
        if (result)
            answer = HttpResult {result->status, result->body};
        else
            answer = HttpResult {result.error().httpStatus, result.error().body};
    });
    if (!QTest::qWaitFor([&] { return answer.has_value(); }, TestSupport::scaled(10000)))
        return {};
    return *answer;
}

QByteArray signedRelay(const QString &toId, const QByteArray &key, qint64 ts, const QString &nonce)
{
    // docs/spec/peers-api.md §6.5 for a flat body: Qt's sorted compact form is JavaScript's
    // canonical one here.
    QJsonObject body {{QStringLiteral("from_id"), QStringLiteral("gamma:g1")},
                      {QStringLiteral("from_machine"), QStringLiteral("gamma")},
                      {QStringLiteral("to_id"), toId},
                      {QStringLiteral("text"), QStringLiteral("forged?")},
                      {QStringLiteral("type"), QStringLiteral("text")},
                      {QStringLiteral("metadata"), QJsonValue()},
                      {QStringLiteral("reply_to"), QJsonValue()},
                      {QStringLiteral("ts"), ts},
                      {QStringLiteral("nonce"), nonce},
                      {QStringLiteral("to_machine"), QStringLiteral("beta")}};
    body.insert(QStringLiteral("signature"),
                QString::fromLatin1(
                    QMessageAuthenticationCode::hash(QJsonDocument(body).toJson(QJsonDocument::Compact), key,
                                                     QCryptographicHash::Sha256)
                        .toHex()));
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

} // namespace

class tst_FederationProcesses : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void twoBrokerProcessesFederate()
    {
        Machine alpha;
        Machine beta;
        QVERIFY(startMachine(alpha, QStringLiteral("alpha")));
        QVERIFY(startMachine(beta, QStringLiteral("beta")));
        QProcess sessionA;
        QProcess sessionB;
        const QString peerA = registerPeer(alpha, sessionA, QStringLiteral("/work/a"));
        const QString peerB = registerPeer(beta, sessionB, QStringLiteral("/work/b"));
        QVERIFY(!peerA.isEmpty() && !peerB.isEmpty());

        HttpResult connected = alpha.post(QStringLiteral("/federation/connect"),
                                          {{QStringLiteral("host"), QStringLiteral("127.0.0.1")},
                                           {QStringLiteral("port"), beta.federationPort}});
        QVERIFY2(connected.object().value(u"ok").toBool(), connected.body.constData());
        QCOMPARE(connected.object().value(u"hostname").toString(), QStringLiteral("beta"));
        QVERIFY(alpha.lanIds().contains(QStringLiteral("beta:") + peerB));
        QTRY_VERIFY_WITH_TIMEOUT(beta.lanIds().contains(QStringLiteral("alpha:") + peerA),
                                 TestSupport::scaled(10000));

        // A session that appears once the link is up reaches the other side's lan list through the
        // announcement (POST /federation/peers-changed), not the 30 s sync.
        QProcess lateSession;
        QElapsedTimer appeared;
        appeared.start();
        const QString late = registerPeer(alpha, lateSession, QStringLiteral("/work/late"));
        QVERIFY(!late.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(beta.lanIds().contains(QStringLiteral("alpha:") + late),
                                 TestSupport::scaled(10000));
        qInfo("a new peer on alpha in beta's lan list after %lld ms", qint64(appeared.elapsed()));
        lateSession.kill();
        lateSession.waitForFinished();

        // Relays both ways; the relay's round trip through both processes is measured.
        QList<double> roundTripsMs;
        for (int i = 0; i < 30; ++i) {
            QElapsedTimer timer;
            timer.start();
            HttpResult sent = alpha.post(QStringLiteral("/federation/send-to-remote"),
                                         {{QStringLiteral("from_id"), peerA},
                                          {QStringLiteral("to_id"), QString(QStringLiteral("beta:") + peerB)},
                                          {QStringLiteral("text"), QStringLiteral("to beta %1").arg(i)}});
            roundTripsMs.append(timer.nsecsElapsed() / 1e6);
            QVERIFY2(sent.object().value(u"ok").toBool(), sent.body.constData());
        }
        std::sort(roundTripsMs.begin(), roundTripsMs.end());
        qInfo("relay round trip alpha→beta over loopback (local API + federation port over TLS), 30 "
              "relays: p50 %.2f ms, max %.2f ms",
              roundTripsMs.at(roundTripsMs.size() / 2), roundTripsMs.last());
        const QJsonArray atBeta = poll(beta, peerB);
        QCOMPARE(atBeta.size(), 30);
        QCOMPARE(atBeta.first().toObject().value(u"from_id").toString(), QStringLiteral("alpha:") + peerA);
        HttpResult back = beta.post(QStringLiteral("/federation/send-to-remote"),
                                    {{QStringLiteral("from_id"), peerB},
                                     {QStringLiteral("to_id"), QString(QStringLiteral("alpha:") + peerA)},
                                     {QStringLiteral("text"), QStringLiteral("to alpha")}});
        QVERIFY2(back.object().value(u"ok").toBool(), back.body.constData());
        const QJsonArray atAlpha = poll(alpha, peerA);
        QCOMPARE(atAlpha.size(), 1);
        QCOMPARE(atAlpha.first().toObject().value(u"from_id").toString(), QStringLiteral("beta:") + peerB);

        // Refused relays store nothing on beta.
        const auto pending = [&] {
            return TestSupport::httpGet(beta.home.port(), QStringLiteral("/health"))
                .object()
                .value(u"pending_messages")
                .toInt();
        };
        const int before = pending();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const QByteArray good = signedRelay(peerB, kPsk, now, QStringLiteral("n0n0n0n0n0n0n0n0n0n0n0"));
        HttpResult wrongPsk = postToFederation(beta.federationPort, good, QByteArray("0").repeated(64));
        QCOMPARE(wrongPsk.status, 403);
        HttpResult badHmac = postToFederation(
            beta.federationPort,
            signedRelay(peerB, QByteArray("1").repeated(64), now, QStringLiteral("x1x1x1x1x1x1x1x1x1x1x1")),
            kPsk);
        QCOMPARE(badHmac.status, 403);
        QCOMPARE(QJsonDocument::fromJson(badHmac.body).object().value(u"error").toString(),
                 QStringLiteral("Invalid HMAC signature"));
        QCOMPARE(pending(), before);
        QCOMPARE(postToFederation(beta.federationPort, good, kPsk).status, 200);
        HttpResult replayed = postToFederation(beta.federationPort, good, kPsk);
        QCOMPARE(replayed.status, 403);
        QCOMPARE(QJsonDocument::fromJson(replayed.body).object().value(u"error").toString(),
                 QStringLiteral("Replayed message"));
        QCOMPARE(pending(), before + 1);

        sessionA.kill();
        sessionB.kill();
        sessionA.waitForFinished();
        sessionB.waitForFinished();
    }
};

QTEST_GUILESS_MAIN(tst_FederationProcesses)
#include "tst_federationprocesses.moc"
