// The Federation page offscreen against two real claude-peers-broker processes federated over
// TLS on loopback (no namespaces): a one-time code made on alpha's page, beta paired through the
// real CLI, the pending card on alpha with the same six digits, the confirm-the-code step and
// accept from the page, beta listed as paired and connected, revoke with its confirmation, and
// a refused pairing attempt in the audit list.
#include "app/tray/pages/federationpage.h"
#include "app/tray/pages/federationpresenter.h"
#include "common/brokerclient.h"
#include "common/location.h"
#include "tests/federation/federationmachine.h"
#include "tests/support/testsupport.h"

#include <QCheckBox>
#include <QFile>
#include <QFrame>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using FederationTest::FederationMachine;
using namespace Qt::StringLiterals;

namespace {

const QByteArray kPskAlpha =
    QByteArrayLiteral("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1");
const QByteArray kPskBeta =
    QByteArrayLiteral("b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2");

bool startMachine(FederationMachine &machine, const QString &hostname, const QByteArray &psk)
{
    machine.postTimeoutMs = 20000;
    return machine.prepare(hostname, psk) && machine.start(machine.federationEnvironment()) &&
        machine.waitForFederation([](const QJsonObject &status) { return status.contains(u"fingerprint"); });
}

QJsonObject pins(const FederationMachine &machine)
{
    QFile file(machine.home.configPath());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll())
        .object()
        .value(u"federation")
        .toObject()
        .value(u"pins")
        .toObject();
}

QPushButton *buttonIn(QWidget *parent, const QString &name)
{
    return parent ? parent->findChild<QPushButton *>(name) : nullptr;
}

} // namespace

class tst_FederationPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_alpha = std::make_unique<FederationMachine>();
        m_beta = std::make_unique<FederationMachine>();
        QVERIFY(startMachine(*m_alpha, u"alpha"_s, kPskAlpha));
        QVERIFY(startMachine(*m_beta, u"beta"_s, kPskBeta));
        m_client = std::make_unique<Broker::BrokerClient>(
            Broker::Location::fromEnvironment(m_alpha->home.environment()));
        m_presenter = std::make_unique<App::FederationPresenter>(m_client.get());
        m_page = std::make_unique<App::FederationPage>(m_presenter.get());
        m_page->resize(900, 1400);
        m_page->show(); // the presenter refreshes while the page is shown
    }
    void cleanup()
    {
        if (m_join) {
            m_join->kill();
            m_join->waitForFinished(5000);
            m_join.reset();
        }
        m_page.reset();
        m_presenter.reset();
        m_client.reset();
        m_alpha.reset();
        m_beta.reset();
    }

    void showsThisMachineAndPairsRevokesAndAudits()
    {
        FederationMachine &alpha = *m_alpha;
        FederationMachine &beta = *m_beta;
        const int wait = TestSupport::scaled(20000);
        const QString alphaPin = alpha.status().value(u"fingerprint").toString();

        // This machine: on, its fingerprint, its join URL (hidden: it holds the key).
        QTRY_VERIFY_WITH_TIMEOUT(m_page->enabledBox()->isChecked(), wait);
        QTRY_COMPARE_WITH_TIMEOUT(m_page->fingerprintEdit()->text(), alphaPin, wait);
        QTRY_VERIFY_WITH_TIMEOUT(m_page->joinUrlEdit()->text().startsWith(u"cpt://"_s), wait);
        QVERIFY(m_page->joinUrlEdit()->text().contains(u";fp="_s + alphaPin + u'/'));
        QCOMPARE(m_page->joinUrlEdit()->echoMode(), QLineEdit::Password);
        QVERIFY(m_page->statusLabel()->text().contains(QString::number(alpha.federationPort)));

        // A one-time code with its countdown and QR code.
        QTest::mouseClick(m_page->pairCodeButton(), Qt::LeftButton);
        const QRegularExpression codeForm(u"^[0-9A-Z]{5}-[0-9A-Z]{5}$"_s);
        QTRY_VERIFY_WITH_TIMEOUT(codeForm.match(m_page->codeLabel()->text()).hasMatch(), wait);
        const QString code = m_page->codeLabel()->text();
        QVERIFY(m_page->countdownLabel()->text().contains(u"9:5"_s) ||
                m_page->countdownLabel()->text().contains(u"10:00"_s));
        QVERIFY(!m_page->qrLabel()->pixmap().isNull());
        QVERIFY(m_presenter->pairingCode()->joinCommand().endsWith(code));

        // Beta joins with the real CLI, which shows the verification code and asks.
        m_join = std::make_unique<QProcess>();
        m_join->setProcessEnvironment(beta.home.environment());
        m_join->start(TestSupport::cliExe(),
                      {u"federation"_s, u"join"_s, u"127.0.0.1:%1"_s.arg(alpha.federationPort), code});
        QVERIFY(m_join->waitForStarted(TestSupport::scaled(5000)));
        QByteArray joinOut;
        QRegularExpressionMatch sasOnBeta;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         joinOut += m_join->readAllStandardOutput();
                         sasOnBeta = QRegularExpression(u"Verification code: (\\d{6})"_s)
                                         .match(QString::fromUtf8(joinOut));
                         return sasOnBeta.hasMatch();
                     },
                     wait),
                 joinOut.constData());

        // Alpha's page shows the request as a card with the same code.
        QTRY_COMPARE_WITH_TIMEOUT(m_presenter->pending()->visiblePendingIds().size(), 1, wait);
        const QString id = m_presenter->pending()->visiblePendingIds().first();
        QTRY_VERIFY_WITH_TIMEOUT(m_page->cardOf(id) != nullptr, wait);
        QFrame *card = m_page->cardOf(id);
        QCOMPARE(card->findChild<QLabel *>(u"sasLabel"_s)->text(), sasOnBeta.captured(1));
        m_page->showPendingRequest(id); // what a notification's Open does

        // Accept first asks to compare the codes; nothing is accepted yet.
        QTest::mouseClick(buttonIn(card, u"acceptButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(buttonIn(m_page->cardOf(id), u"codesMatchButton"_s) != nullptr, wait);
        QVERIFY(buttonIn(m_page->cardOf(id), u"codesDifferButton"_s));
        QCOMPARE(alpha.post(u"/federation/pending"_s)
                     .object()
                     .value(u"requests")
                     .toArray()
                     .first()
                     .toObject()
                     .value(u"state"_s),
                 u"pending"_s);

        m_join->write("y\n"); // beta's user compared too
        QSignalSpy finished(m_presenter.get(), &App::FederationPresenter::actionFinished);
        QTest::mouseClick(buttonIn(m_page->cardOf(id), u"codesMatchButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), wait);
        QCOMPARE(finished.first().at(0).toString(), u"accept"_s);
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
        QTRY_COMPARE_WITH_TIMEOUT(m_join->state(), QProcess::NotRunning, TestSupport::scaled(30000));
        joinOut += m_join->readAllStandardOutput();
        QVERIFY2(m_join->exitCode() == 0, QByteArray(joinOut + m_join->readAllStandardError()).constData());
        QTRY_VERIFY_WITH_TIMEOUT(m_page->cardOf(id) == nullptr, wait); // decided: no card any more

        // Beta is listed as paired and connected, with its pin.
        App::PairedBrokersModel *paired = m_presenter->paired();
        const auto betaRow = [&] {
            for (int row = 0; row < paired->rowCount(); ++row) {
                if (paired->rowAt(row).hostname == u"beta"_s)
                    return row;
            }
            return -1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(betaRow() >= 0 && paired->rowAt(betaRow()).state == u"connected"_s, wait);
        const QString betaPin = beta.status().value(u"fingerprint").toString();
        QCOMPARE(paired->rowAt(betaRow()).fingerprint, betaPin);
        QCOMPARE(paired->rowAt(betaRow()).port, int(beta.federationPort));
        QTRY_VERIFY_WITH_TIMEOUT(m_presenter->attempts()->rowCount() > 0 &&
                                     m_presenter->attempts()->rowAt(0).kind == u"accepted"_s,
                                 wait);
        // The link's round-trip time (from its peer sync), in the Round trip column and the CLI.
        QTRY_VERIFY_WITH_TIMEOUT(betaRow() >= 0 && paired->rowAt(betaRow()).rttSamples > 0, wait);
        QVERIFY(paired->rowAt(betaRow()).rttMs > 0 && paired->rowAt(betaRow()).rttMs < 5000);
        const QString roundTrip =
            paired->index(betaRow(), App::PairedBrokersModel::RoundTripColumn).data().toString();
        QVERIFY2(roundTrip.endsWith(u" ms"_s), qPrintable(roundTrip));
        const auto statusText = TestSupport::run(TestSupport::cliExe(), {u"federation"_s, u"status"_s},
                                                 alpha.home.environment(), wait);
        QVERIFY2(statusText.out.contains("rtt="), statusText.out.constData());

        // Revoke asks first, then beta goes: no link, no pin, and the decision is in the trail.
        m_page->pairedView()->selectRow(betaRow());
        QVERIFY(m_page->revokeButton()->isEnabled());
        QTest::mouseClick(m_page->revokeButton(), Qt::LeftButton);
        QVERIFY(m_page->confirmBar()->isVisible());
        QVERIFY(pins(alpha).contains(u"127.0.0.1:%1"_s.arg(beta.federationPort))); // not yet
        finished.clear();
        QTest::mouseClick(m_page->confirmYesButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), wait);
        QCOMPARE(finished.first().at(0).toString(), u"revoke"_s);
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
        QVERIFY(!pins(alpha).contains(u"127.0.0.1:%1"_s.arg(beta.federationPort)));
        QTRY_VERIFY_WITH_TIMEOUT(betaRow() < 0, wait);
        QTRY_VERIFY_WITH_TIMEOUT(m_presenter->attempts()->rowAt(0).kind == u"revoked"_s, wait);

        // A refused attempt: beta proves a code alpha never issued; alpha's trail lists it.
        const QJsonObject refused = beta.post(u"/federation/pair"_s,
                                              {{u"host"_s, u"127.0.0.1"_s},
                                               {u"port"_s, alpha.federationPort},
                                               {u"code"_s, u"ZZZZZ-ZZZZZ"_s}})
                                        .object();
        QCOMPARE(refused.value(u"ok"_s).toBool(), false);
        App::AttemptsModel *attempts = m_presenter->attempts();
        QTRY_VERIFY_WITH_TIMEOUT(attempts->rowCount() > 0 && attempts->rowAt(0).kind == u"refused"_s, wait);
        QCOMPARE(attempts->rowAt(0).address, u"127.0.0.1"_s);
        QCOMPARE(attempts->rowAt(0).hostname, u"beta"_s);
        QCOMPARE(attempts->rowAt(0).fingerprint, betaPin);
        QCOMPARE(attempts->rowAt(0).status, 403);
        QVERIFY(attempts->rowAt(0).reason.contains(u"wrong, expired or already used"_s));
        QVERIFY(m_page->attemptsView()->model()->rowCount() >= 3); // accepted, revoked, refused

        // The CLI twin lists the same trail.
        const auto listed =
            TestSupport::run(TestSupport::cliExe(), {u"federation"_s, u"attempts"_s, u"--json"_s},
                             alpha.home.environment(), wait);
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
        const QJsonObject trail = QJsonDocument::fromJson(listed.out).object();
        QCOMPARE(trail.value(u"attempts"_s).toArray().first().toObject().value(u"kind"_s), u"refused"_s);
        QCOMPARE(trail.value(u"revoked"_s).toArray().first().toObject().value(u"hostname"_s), u"beta"_s);
    }

    // Ignore rejects (the joiner is told no); Dismiss only hides the card.
    void ignoreRejectsAndDismissHides()
    {
        const int wait = TestSupport::scaled(20000);
        QTRY_VERIFY_WITH_TIMEOUT(m_page->enabledBox()->isChecked(), wait);
        const auto request = [&] {
            const QString code = m_alpha->post(u"/federation/pair-code"_s).object().value(u"code").toString();
            return m_beta
                ->post(u"/federation/pair"_s,
                       {{u"host"_s, u"127.0.0.1"_s}, {u"port"_s, m_alpha->federationPort}, {u"code"_s, code}})
                .object()
                .value(u"id"_s)
                .toString();
        };
        const QString first = request();
        QVERIFY(!first.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(m_page->cardOf(first) != nullptr, wait);
        QTest::mouseClick(buttonIn(m_page->cardOf(first), u"dismissButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_page->cardOf(first) == nullptr, wait);
        QCOMPARE(m_alpha->post(u"/federation/pending"_s)
                     .object()
                     .value(u"requests")
                     .toArray()
                     .first()
                     .toObject()
                     .value(u"state"_s),
                 u"pending"_s); // still open in the broker
        m_page->showPendingRequest(first); // a notification brings it back
        QTRY_VERIFY_WITH_TIMEOUT(m_page->cardOf(first) != nullptr, wait);
        QSignalSpy finished(m_presenter.get(), &App::FederationPresenter::actionFinished);
        QTest::mouseClick(buttonIn(m_page->cardOf(first), u"ignoreButton"_s), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), wait);
        QCOMPARE(finished.first().at(0).toString(), u"reject"_s);
        QVERIFY(finished.first().at(1).toBool());
        const QJsonObject confirmed =
            m_beta->post(u"/federation/pair/confirm"_s, {{u"id"_s, first}, {u"wait_ms"_s, 5000}}).object();
        QVERIFY2(confirmed.value(u"error"_s).toString().contains(u"rejected"_s),
                 QJsonDocument(confirmed).toJson().constData());
        QVERIFY(pins(*m_alpha).isEmpty());

        // Ignored: listed with its pin; Stop ignoring takes it off (the CLI twin: unignore).
        const QString betaPin = m_beta->status().value(u"fingerprint").toString();
        App::IgnoredMachinesModel *ignored = m_presenter->ignored();
        QTRY_VERIFY_WITH_TIMEOUT(ignored->rowCount() == 1, wait);
        QCOMPARE(ignored->rowAt(0).fingerprint, betaPin);
        QCOMPARE(ignored->rowAt(0).hostname, u"beta"_s);
        QVERIFY(!m_page->unignoreButton()->isEnabled());
        m_page->ignoredView()->selectRow(0);
        QVERIFY(m_page->unignoreButton()->isEnabled());
        finished.clear();
        QTest::mouseClick(m_page->unignoreButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), wait);
        QCOMPARE(finished.first().at(0).toString(), u"unignore"_s);
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
        QTRY_COMPARE_WITH_TIMEOUT(ignored->rowCount(), 0, wait);
        const auto again = TestSupport::run(TestSupport::cliExe(), {u"federation"_s, u"unignore"_s, betaPin},
                                            m_alpha->home.environment(), wait);
        QVERIFY(again.exitCode != 0);
        QVERIFY2(again.err.contains("is ignored"), again.err.constData());

        // The CLI twin of Revoke refuses what is not paired, in plain words.
        const auto revoked = TestSupport::run(TestSupport::cliExe(),
                                              {u"federation"_s, u"revoke"_s, u"127.0.0.1:1"_s, u"--json"_s},
                                              m_alpha->home.environment(), wait);
        QVERIFY(revoked.exitCode != 0);
        QVERIFY2(revoked.err.contains("Nothing is paired at 127.0.0.1:1"), revoked.err.constData());
    }

    // Enable/disable as `claude-peers federation enable|disable`: the config, then /reload; the
    // port closes and opens without a restart. Where the environment switches federation on,
    // the page says that the config cannot turn it off.
    void enableAndDisableWithoutARestart()
    {
        const int wait = TestSupport::scaled(20000);
        FederationMachine gamma;
        gamma.postTimeoutMs = 20000;
        QVERIFY(gamma.prepare(u"gamma"_s, kPskBeta));
        QProcessEnvironment env;
        env.insert(u"CLAUDE_PEERS_FEDERATION_PORT"_s, QString::number(gamma.federationPort));
        env.insert(u"CLAUDE_PEERS_FEDERATION_SUBNET"_s, u"127.0.0.0/8"_s);
        QVERIFY(gamma.start(env)); // federation off: not in the config, not in the environment
        Broker::BrokerClient client(Broker::Location::fromEnvironment(gamma.home.environment()));
        App::FederationPresenter presenter(&client);
        App::FederationPage page(&presenter);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(presenter.overview().reachable, wait);
        QVERIFY(!page.enabledBox()->isChecked());
        QVERIFY(!page.pairCodeButton()->isEnabled());

        QSignalSpy finished(&presenter, &App::FederationPresenter::actionFinished);
        page.enabledBox()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), wait);
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
        QVERIFY(gamma.waitForFederation());
        QTRY_VERIFY_WITH_TIMEOUT(page.enabledBox()->isChecked() && page.pairCodeButton()->isEnabled(), wait);
        QTRY_VERIFY_WITH_TIMEOUT(page.fingerprintEdit()->text().startsWith(u"sha256-"_s), wait);

        finished.clear();
        page.enabledBox()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), wait);
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
        QCOMPARE(gamma.status().value(u"enabled"_s).toBool(), false);
        QTRY_VERIFY_WITH_TIMEOUT(!page.enabledBox()->isChecked(), wait);
        QVERIFY(!page.pairCodeButton()->isEnabled());

        // Alpha has CLAUDE_PEERS_FEDERATION_ENABLED=true: the config cannot turn it off.
        QTRY_VERIFY_WITH_TIMEOUT(m_page->enabledBox()->isChecked(), wait);
        QSignalSpy alphaFinished(m_presenter.get(), &App::FederationPresenter::actionFinished);
        m_page->enabledBox()->click(); // (its centre may lie right of its text)
        QTRY_VERIFY_WITH_TIMEOUT(!alphaFinished.isEmpty(), wait);
        QCOMPARE(alphaFinished.first().at(1).toBool(), false);
        QVERIFY(alphaFinished.first().at(2).toString().contains(u"CLAUDE_PEERS_FEDERATION_ENABLED"_s));
        QTRY_VERIFY_WITH_TIMEOUT(m_page->enabledBox()->isChecked(), wait);
        QVERIFY(m_page->statusLabel()->text().contains(u"claude-peers restart"_s));
    }

private:
    std::unique_ptr<FederationMachine> m_alpha;
    std::unique_ptr<FederationMachine> m_beta;
    std::unique_ptr<Broker::BrokerClient> m_client;
    std::unique_ptr<App::FederationPresenter> m_presenter;
    std::unique_ptr<App::FederationPage> m_page;
    std::unique_ptr<QProcess> m_join;
};

QTEST_MAIN(tst_FederationPage)
#include "tst_federationpage.moc"
