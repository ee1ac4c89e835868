// Claude Code peers and OpenCode sessions in the Peers page's one attention-ordered list,
// offscreen: a real broker with the control service and the fake OpenCode server (as the
// Sessions page's tests), OpenCode's own events moving the session's row among the peers, and
// the session's actions (send, fork, wait) reached on the Sessions page, not copied.
#include "app/tray/brokerhost.h"
#include "app/tray/pages/opencodeactivity.h"
#include "app/tray/pages/opencoderowsmodel.h"
#include "app/tray/pages/peerspage.h"
#include "app/tray/pages/sessionspage.h"
#include "app/tray/pages/sessionspresenter.h"
#include "app/tray/peersbymachinemodel.h"
#include "app/tray/peersfilterproxy.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traypresenter.h"
#include "openchamber/sessionwatcher.h"
#include "tests/support/testsupport.h"
#include "tests/tray/opencodefixture.h"
#include "tests/tray/traytestsupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace App;
using namespace Qt::StringLiterals;
using TestSupport::scaled;

namespace {

// The names under this machine, in the page's order.
QStringList thisMachine(const QAbstractItemModel *model)
{
    QStringList out;
    for (int g = 0; g < model->rowCount(); ++g) {
        const QModelIndex machine = model->index(g, 0);
        if (!machine.data(PeersModel::MachineRole).toString().isEmpty())
            continue;
        for (int row = 0; row < model->rowCount(machine); ++row)
            out << model->index(row, PeersModel::NameColumn, machine).data().toString();
    }
    return out;
}

Broker::Peer localPeer(const QString &id, const QString &name, const QString &cwd, const QString &client)
{
    Broker::Peer p;
    p.id = id;
    p.pid = 100;
    p.sessionName = name;
    p.cwd = cwd;
    p.client = client;
    p.lastSeen = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    return p;
}

} // namespace

class tst_PeersSessions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void openCodeSessionsAmongThePeers()
    {
        OpenCodeBrokerFixture f;
        f.fake.runDelayMs = 600000; // the test ends the run itself
        QVERIFY(f.start());
        OpenCodeActivity activity;
        activity.follow(&f.backend->events());
        SessionsPage sessions(new SessionsPresenter(f.client.get(), &activity));
        sessions.resize(1000, 700);
        sessions.show();

        TestSupport::TestHome home;
        BrokerHost host(TrayTestSupport::settingsFor(home)); // not started: the peers are given
        TrayPresenter presenter(&host);
        PeersModel model;
        PeersPage page(&model, &presenter, nullptr);
        page.showOpenCodeSessions(&activity);
        connect(&page, &PeersPage::openSessionRequested, &sessions, &SessionsPage::selectSession);
        page.resize(1100, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.openSessionButton()->isVisible());
        QVERIFY(!page.openSessionButton()->isEnabled());

        // A Claude Code peer that works, and OpenCode's own peer in the project's folder.
        model.sync({localPeer(u"aaaa0001"_s, u"reviewer"_s, u"/src/other"_s, u"claude-code"_s),
                    localPeer(u"oc000002"_s, u"opencode-app"_s, f.repo, u"opencode"_s)});

        // A session created on the Sessions page (no wait): busy through OpenCode's events.
        QTRY_COMPARE_WITH_TIMEOUT(sessions.whereBox()->count(), 1, scaled(10000));
        QTRY_VERIFY_WITH_TIMEOUT(
            f.backend->sessionWatcher() && f.backend->sessionWatcher()->isConnected(f.repo), scaled(10000));
        sessions.waitBox()->setChecked(false);
        sessions.titleEdit()->setText(u"Migrate"_s);
        sessions.promptEdit()->setPlainText(u"work"_s);
        QSignalSpy finished(sessions.presenter(), &SessionsPresenter::actionFinished);
        sessions.createButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, scaled(20000));
        const QString id = finished.first().at(1).toJsonObject().value(u"sessionId"_s).toString();
        QTRY_VERIFY_WITH_TIMEOUT(page.openCodeRows()->rowOf(id) >= 0, scaled(10000));
        QAbstractItemModel *shown = page.view()->model();
        const QModelIndex row = page.tree()->itemIndex(int(PeersModel::Kind::OpenCodeSession), id);
        QVERIFY(row.isValid());
        QCOMPARE(row.parent(), page.tree()->machineIndex(QString()));
        QTRY_VERIFY_WITH_TIMEOUT(
            row.siblingAtColumn(PeersModel::StateColumn).data().toString().startsWith(u"busy"_s),
            scaled(10000));
        // Both: OpenCode's peer serves every chat of the folder, the session is one chat.
        QCOMPARE(thisMachine(shown).size(), 3);

        // OpenCode asks for a permission: the session needs you, and it asked before the peer that
        // needs you now, so it heads the list.
        f.askPermission(id, u"per_1"_s, u"bash"_s, u"make"_s);
        QTRY_VERIFY_WITH_TIMEOUT(
            row.siblingAtColumn(PeersModel::StateColumn).data().toString().startsWith(u"needs you"_s),
            scaled(10000));
        Broker::Peer asking = model.peerAt(0); // asks a second after the session did
        asking.attention = Broker::Attention::NeedsYou;
        asking.attentionSince = activity.session(id)->since.addSecs(1).toString(Qt::ISODateWithMs);
        model.sync({asking, model.peerAt(1)});
        QCOMPARE(thisMachine(shown).mid(0, 2), (QStringList {u"Migrate"_s, u"reviewer"_s}));
        QCOMPARE(row.siblingAtColumn(PeersModel::SummaryColumn).data().toString(), u"bash: make"_s);

        // Selected: its details name the folder's OpenCode peer; its action is the Sessions
        // page's (send, fork, wait), which opens on it. A peer's action is Message.
        page.selectSession(id);
        QCOMPARE(page.selectedSessionId(), id);
        QCOMPARE(page.selectedPeerId(), QString());
        QVERIFY(page.detailsView()->toPlainText().contains(u"ID: %1"_s.arg(id)));
        QVERIFY(page.detailsView()->toPlainText().contains(u"in this folder: oc000002"_s));
        QVERIFY(!page.messageButton()->isEnabled());
        QVERIFY(!page.renameButton()->isEnabled());
        QVERIFY(page.openSessionButton()->isEnabled());
        QSignalSpy open(&page, &PeersPage::openSessionRequested);
        page.openSessionButton()->click();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first(), (QVariantList {f.repo, id}));
        QTRY_COMPARE_WITH_TIMEOUT(sessions.selectedSessionId(), id, scaled(10000));
        QVERIFY(sessions.sendButton()->isEnabled());

        QSignalSpy message(&page, &PeersPage::messageRequested);
        page.selectPeer(u"aaaa0001"_s);
        QVERIFY(page.messageButton()->isEnabled());
        QVERIFY(!page.openSessionButton()->isEnabled());
        Q_EMIT page.view()->activated(page.view()->currentIndex()); // double click, Enter
        QCOMPARE(message.size(), 1);
        QCOMPARE(message.first().at(0).toString(), u"aaaa0001"_s);

        // The project folder's scope keeps the session and OpenCode's peer.
        QStringList scopes;
        for (int i = 0; i < page.scopeBox()->count(); ++i)
            scopes << page.scopeBox()->itemText(i);
        const int folder = int(scopes.indexOf(u"Folder: %1"_s.arg(f.repo)));
        QVERIFY2(folder > 0, qPrintable(scopes.join(u" | ")));
        page.scopeBox()->setCurrentIndex(folder);
        QCOMPARE(thisMachine(shown), (QStringList {u"Migrate"_s, u"opencode-app"_s}));
        page.scopeBox()->setCurrentIndex(0);

        // Answered and finished: idle, still listed (it was active while the tray ran), after the
        // peer that needs you, before the peer whose state is unknown.
        f.answerPermission(id, u"per_1"_s);
        QMetaObject::invokeMethod(&f.fake, [&f, id] { f.fake.setStatus(id, u"idle"_s); });
        QTRY_VERIFY_WITH_TIMEOUT(
            row.siblingAtColumn(PeersModel::StateColumn).data().toString().startsWith(u"idle"_s),
            scaled(10000));
        QCOMPARE(thisMachine(shown), (QStringList {u"reviewer"_s, u"Migrate"_s, u"opencode-app"_s}));
    }
};

QTEST_MAIN(tst_PeersSessions)
#include "tst_peerssessions.moc"
