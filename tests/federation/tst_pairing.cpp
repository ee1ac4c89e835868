// Pairing by a one-time code (issue #9) between two real claude-peers-broker processes over TLS
// on loopback, driven through the real CLI where the user would be: the six-digit code both
// sides show, accept/reject, wrong and reused codes, the rate limit, a machine in the middle
// with another certificate, the non-interactive refusal, and /federation/doctor's clock skew.
#include "broker/http/httptypes.h"
#include "federation/certificate.h"
#include "federation/pinnedtlsclient.h"
#include "federation/tlsserver.h"
#include "tests/federation/federationmachine.h"
#include "tests/federation/tlstestsupport.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <memory>

using TestSupport::HttpResult;
using namespace Qt::StringLiterals;

namespace {

struct Machine : FederationTest::FederationMachine
{
    Machine() { postTimeoutMs = 20000; }
    QByteArray psk() const
    {
        QFile file(home.path() + QStringLiteral("/.claude-peers-federation-psk"));
        return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
    }
    QJsonObject pins() const
    {
        QFile file(home.configPath());
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(file.readAll())
            .object()
            .value(u"federation")
            .toObject()
            .value(u"pins")
            .toObject();
    }
    QJsonArray pending()
    {
        return post(QStringLiteral("/federation/pending")).object().value(u"requests").toArray();
    }
    QProcessEnvironment cliEnvironment() const { return home.environment(); }
};

bool startMachine(Machine &machine, const QString &hostname, const QByteArray &psk)
{
    return machine.prepare(hostname, psk) && machine.start(machine.federationEnvironment()) &&
        machine.waitForFederation([](const QJsonObject &status) { return status.contains(u"fingerprint"); });
}

const QByteArray kPskAlpha =
    QByteArrayLiteral("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1");
const QByteArray kPskBeta =
    QByteArrayLiteral("b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2");

QString newCode(Machine &machine)
{
    return machine.post(QStringLiteral("/federation/pair-code")).object().value(u"code").toString();
}

QJsonObject pairTo(Machine &joiner, quint16 port, const QString &code)
{
    return joiner
        .post(QStringLiteral("/federation/pair"),
              {{QStringLiteral("host"), QStringLiteral("127.0.0.1")},
               {QStringLiteral("port"), port},
               {QStringLiteral("code"), code}})
        .object();
}

QString wrongCode(const QString &code)
{
    QString wrong = code;
    wrong[0] = wrong[0] == u'Z' ? u'Y' : u'Z';
    return wrong;
}

// A TLS server with its own certificate that forwards every request to the real broker (as an
// attacker between the machines would), accepting whatever key the broker shows.
class MiddleMachine final : public Broker::Http::RequestHandler
{
public:
    MiddleMachine(const QTemporaryDir &dir, quint16 target)
        : m_target(target),
          m_server(
              std::make_unique<Federation::TlsHttpServer>(this, TlsTestSupport::makeIdentity(dir, u"mitm"_s)))
    {
    }
    bool listen() { return bool(m_server->listen(QHostAddress::LocalHost, 0)); }
    quint16 port() const { return m_server->serverPort(); }
    int forwarded = 0;

    void handle(const Broker::Http::Request &request, const Broker::Http::ResponderPtr &responder) override
    {
        ++forwarded;
        Federation::TlsRequest out;
        out.host = QStringLiteral("127.0.0.1");
        out.port = m_target;
        out.method = request.method;
        out.path = request.path;
        out.body = request.body;
        out.acceptPin = [](const QString &, const QSslCertificate &) { return true; };
        m_client.send(out, [responder](const Federation::TlsRequestResult &result) {
            if (result)
                responder->respond(Broker::Http::Response::json(result->status, result->body));
            else
                responder->respond(Broker::Http::Response::json(
                    result.error().httpStatus ? result.error().httpStatus : 502, result.error().body));
        });
    }

private:
    quint16 m_target;
    Federation::PinnedTlsClient m_client;
    std::unique_ptr<Federation::TlsHttpServer> m_server;
};

} // namespace

class tst_Pairing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_alpha = std::make_unique<Machine>();
        m_beta = std::make_unique<Machine>();
        QVERIFY(startMachine(*m_alpha, QStringLiteral("alpha"), kPskAlpha));
        QVERIFY(startMachine(*m_beta, QStringLiteral("beta"), kPskBeta));
    }
    void cleanup()
    {
        m_alpha.reset();
        m_beta.reset();
    }

    // The whole flow as the user runs it: the same six digits on both machines, accept, the key
    // arrives only after both confirmed, both pin each other and the link comes up.
    void pairTwoBrokersByCodeThroughTheCli()
    {
        Machine &alpha = *m_alpha;
        Machine &beta = *m_beta;
        const auto code = TestSupport::run(TestSupport::cliExe(), {u"federation"_s, u"pair-code"_s},
                                           alpha.cliEnvironment(), TestSupport::scaled(20000));
        QVERIFY2(code.exitCode == 0, code.err.constData());
        const QRegularExpressionMatch shown = QRegularExpression(u"Pairing code: ([0-9A-Z]{5}-[0-9A-Z]{5})"_s)
                                                  .match(QString::fromUtf8(code.out));
        QVERIFY2(shown.hasMatch(), code.out.constData());
        QVERIFY(code.out.contains("claude-peers federation join"));

        QProcess join;
        join.setProcessEnvironment(beta.cliEnvironment());
        join.start(
            TestSupport::cliExe(),
            {u"federation"_s, u"join"_s, u"127.0.0.1:%1"_s.arg(alpha.federationPort), shown.captured(1)});
        QVERIFY(join.waitForStarted(TestSupport::scaled(5000)));
        QByteArray joinOut;
        QRegularExpressionMatch sasOnBeta;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         joinOut += join.readAllStandardOutput();
                         sasOnBeta = QRegularExpression(u"Verification code: (\\d{6})"_s)
                                         .match(QString::fromUtf8(joinOut));
                         return sasOnBeta.hasMatch();
                     },
                     TestSupport::scaled(20000)),
                 joinOut.constData());

        const QJsonArray pending = alpha.pending();
        QCOMPARE(pending.size(), 1);
        const QJsonObject request = pending.first().toObject();
        QCOMPARE(request.value(u"sas").toString(), sasOnBeta.captured(1)); // the same code on both sides
        QCOMPARE(request.value(u"hostname").toString(), u"beta"_s);
        QCOMPARE(request.value(u"state").toString(), u"pending"_s);
        QCOMPARE(request.value(u"port").toInt(), int(beta.federationPort));
        QCOMPARE(TestSupport::httpGet(alpha.home.port(), u"/federation/status"_s)
                     .object()
                     .value(u"pending")
                     .toInt(),
                 1);

        join.write("y\n");
        // Nothing is delivered before alpha's user accepts.
        QTest::qWait(TestSupport::scaled(1500));
        QCOMPARE(beta.psk(), kPskBeta);
        QCOMPARE(join.state(), QProcess::Running);

        const QString id = request.value(u"id").toString();
        const auto accepted = TestSupport::run(TestSupport::cliExe(), {u"federation"_s, u"accept"_s, id},
                                               alpha.cliEnvironment(), TestSupport::scaled(20000), "y\n");
        QVERIFY2(accepted.exitCode == 0, QByteArray(accepted.out + accepted.err).constData());
        QVERIFY(accepted.out.contains(sasOnBeta.captured(1).toUtf8())); // shown before the question
        QVERIFY(join.waitForFinished(TestSupport::scaled(30000)));
        joinOut += join.readAllStandardOutput();
        QVERIFY2(join.exitCode() == 0, QByteArray(joinOut + join.readAllStandardError()).constData());
        QVERIFY(joinOut.contains("accepted"));

        QCOMPARE(beta.psk(), kPskAlpha);
        const QString alphaPin = TestSupport::httpGet(alpha.home.port(), u"/federation/status"_s)
                                     .object()
                                     .value(u"fingerprint")
                                     .toString();
        const QString betaPin = TestSupport::httpGet(beta.home.port(), u"/federation/status"_s)
                                    .object()
                                    .value(u"fingerprint")
                                    .toString();
        QCOMPARE(beta.pins().value(u"127.0.0.1:%1"_s.arg(alpha.federationPort)).toString(), alphaPin);
        QCOMPARE(alpha.pins().value(u"127.0.0.1:%1"_s.arg(beta.federationPort)).toString(), betaPin);
        const auto remotesOf = [](Machine &m) {
            return TestSupport::httpGet(m.home.port(), u"/federation/status"_s)
                .object()
                .value(u"remotes")
                .toArray();
        };
        QCOMPARE(remotesOf(beta).size(), 1);
        QCOMPARE(remotesOf(beta).first().toObject().value(u"hostname").toString(), u"alpha"_s);
        QTRY_VERIFY_WITH_TIMEOUT(remotesOf(alpha).size() == 1, TestSupport::scaled(10000)); // reached back
        QCOMPARE(alpha.pending().first().toObject().value(u"state").toString(), u"accepted"_s);

        // The code was used: a second machine cannot pair with it.
        const QJsonObject again = pairTo(beta, alpha.federationPort, shown.captured(1));
        QCOMPARE(again.value(u"ok").toBool(), false);
        QVERIFY2(again.value(u"error").toString().contains(u"wrong, expired or already used"_s),
                 qPrintable(again.value(u"error").toString()));

        // Doctor: each check with a fix line when not ok, and the clock skew against alpha.
        const QJsonObject doctor = beta.post(u"/federation/doctor"_s).object();
        QVERIFY(doctor.value(u"ok").toBool());
        QStringList names;
        for (const QJsonValue &c : doctor.value(u"checks").toArray()) {
            const QJsonObject check = c.toObject();
            names << check.value(u"name").toString();
            if (check.value(u"status").toString() != u"ok"_s)
                QVERIFY2(!check.value(u"fix").toString().isEmpty(),
                         qPrintable(check.value(u"name").toString()));
        }
        for (const QString &expected :
             {u"Federation port"_s, u"Certificate"_s, u"Federation key"_s, u"Subnet"_s, u"mDNS daemon"_s})
            QVERIFY2(names.contains(expected), qPrintable(names.join(u", "_s)));
        const QJsonArray skews = doctor.value(u"clock_skew").toArray();
        QCOMPARE(skews.size(), 1);
        QVERIFY(skews.first().toObject().value(u"remote").toString().contains(u"alpha"_s));
        QVERIFY(std::abs(skews.first().toObject().value(u"skew_ms").toInteger()) < 5000); // same machine
    }

    void wrongCodeIsRefusedAndLeavesNothing()
    {
        const QString code = newCode(*m_alpha);
        QVERIFY(!code.isEmpty());
        const QJsonObject refused = pairTo(*m_beta, m_alpha->federationPort, wrongCode(code));
        QCOMPARE(refused.value(u"ok").toBool(), false);
        QVERIFY2(refused.value(u"error").toString().contains(u"wrong, expired or already used"_s),
                 qPrintable(refused.value(u"error").toString()));
        QCOMPARE(m_alpha->pending().size(), 0);
        const QJsonObject notACode = pairTo(*m_beta, m_alpha->federationPort, u"12"_s);
        QVERIFY(notACode.value(u"error").toString().startsWith(u"Not a pairing code"_s));
        // The right code still works after one wrong try (5 are allowed per code).
        QCOMPARE(pairTo(*m_beta, m_alpha->federationPort, code).value(u"ok").toBool(), true);
        QCOMPARE(m_alpha->pending().size(), 1);
    }

    // Guessing: a source gets 5 attempts a minute, then 429; the code itself is dropped after 5
    // wrong proofs (tst_pairingcode checks that part with a fake clock).
    void bruteForceIsRateLimited()
    {
        const QString code = newCode(*m_alpha);
        for (int i = 0; i < 5; ++i) {
            const QJsonObject refused = pairTo(*m_beta, m_alpha->federationPort, wrongCode(code));
            QVERIFY2(refused.value(u"error").toString().contains(u"wrong, expired"_s),
                     qPrintable(refused.value(u"error").toString()));
        }
        const QJsonObject limited = pairTo(*m_beta, m_alpha->federationPort, code);
        QCOMPARE(limited.value(u"ok").toBool(), false);
        QVERIFY2(limited.value(u"error").toString().contains(u"Too many pairing attempts"_s),
                 qPrintable(limited.value(u"error").toString()));
        QCOMPARE(m_alpha->pending().size(), 0);
    }

    void rejectedRequestEndsTheJoin()
    {
        const QJsonObject started = pairTo(*m_beta, m_alpha->federationPort, newCode(*m_alpha));
        QVERIFY2(started.value(u"ok").toBool(), QJsonDocument(started).toJson().constData());
        const QString id = started.value(u"id").toString();
        QVERIFY(m_alpha->post(u"/federation/reject"_s, {{u"id"_s, id}}).object().value(u"ok").toBool());
        const QJsonObject confirmed =
            m_beta->post(u"/federation/pair/confirm"_s, {{u"id"_s, id}, {u"wait_ms"_s, 5000}}).object();
        QCOMPARE(confirmed.value(u"ok").toBool(), false);
        QVERIFY2(confirmed.value(u"error").toString().contains(u"rejected"_s),
                 qPrintable(confirmed.value(u"error").toString()));
        QCOMPARE(m_beta->psk(), kPskBeta);
        QCOMPARE(m_alpha->pending().first().toObject().value(u"state").toString(),
                 u"rejected"_s); // kept for the tray
        QVERIFY(m_alpha->pins().isEmpty());
        // A decided request cannot be accepted afterwards.
        QCOMPARE(m_alpha->post(u"/federation/accept"_s, {{u"id"_s, id}}).object().value(u"ok").toBool(),
                 false);
    }

    // A machine in the middle with its own certificate: beta's proof is bound to the key beta
    // saw (the middle's), so alpha refuses it; nothing is pending, nothing is shared.
    void machineInTheMiddleIsRefused()
    {
        QTemporaryDir dir;
        MiddleMachine middle(dir, m_alpha->federationPort);
        QVERIFY(middle.listen());
        const QJsonObject refused = pairTo(*m_beta, middle.port(), newCode(*m_alpha));
        QCOMPARE(refused.value(u"ok").toBool(), false);
        QVERIFY2(refused.value(u"error").toString().contains(u"wrong, expired or already used"_s),
                 qPrintable(refused.value(u"error").toString()));
        QVERIFY(middle.forwarded >= 1);
        QCOMPARE(m_alpha->pending().size(), 0);
        QCOMPARE(m_beta->psk(), kPskBeta);
    }

    void nonInteractiveJoinWithoutYesFails()
    {
        const QString code = newCode(*m_alpha);
        const auto joined = TestSupport::run(
            TestSupport::cliExe(),
            {u"federation"_s, u"join"_s, u"127.0.0.1:%1"_s.arg(m_alpha->federationPort), code},
            m_beta->cliEnvironment(), TestSupport::scaled(30000));
        QCOMPARE(joined.exitCode, 2);
        QVERIFY2(joined.err.contains("no answer on standard input") && joined.err.contains("--yes"),
                 joined.err.constData());
        QVERIFY(joined.out.contains("Verification code:"));
        QCOMPARE(m_beta->psk(), kPskBeta);
        // accept without an answer fails the same way and accepts nothing
        const QString id = m_alpha->pending().first().toObject().value(u"id").toString();
        const auto accepted = TestSupport::run(TestSupport::cliExe(), {u"federation"_s, u"accept"_s, id},
                                               m_alpha->cliEnvironment(), TestSupport::scaled(20000));
        QCOMPARE(accepted.exitCode, 2);
        QVERIFY(accepted.err.contains("no answer on standard input"));
        QCOMPARE(m_alpha->pending().first().toObject().value(u"state").toString(), u"pending"_s);
    }

    void pendingListsAsJson()
    {
        QVERIFY(pairTo(*m_beta, m_alpha->federationPort, newCode(*m_alpha)).value(u"ok").toBool());
        const auto listed =
            TestSupport::run(TestSupport::cliExe(), {u"federation"_s, u"pending"_s, u"--json"_s},
                             m_alpha->cliEnvironment(), TestSupport::scaled(20000));
        QCOMPARE(listed.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(listed.out).array();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().toObject().value(u"origin").toString(), u"code"_s);
        QVERIFY(!list.first().toObject().value(u"sas").toString().isEmpty());
    }

private:
    std::unique_ptr<Machine> m_alpha;
    std::unique_ptr<Machine> m_beta;
};

QTEST_GUILESS_MAIN(tst_Pairing)
#include "tst_pairing.moc"
