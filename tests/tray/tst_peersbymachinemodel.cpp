// PeersByMachineModel: the peers table (and the OpenCode sessions' rows) as machines with their
// rows, kept in step row by row; PeersFilterProxy's attention order and scope filter on top.
#include "app/tray/pages/opencodeactivity.h"
#include "app/tray/pages/opencoderowsmodel.h"
#include "app/tray/peersbymachinemodel.h"
#include "app/tray/peerscope.h"
#include "app/tray/peersfilterproxy.h"
#include "app/tray/peersmodel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>

using App::OpenCodeActivity;
using App::OpenCodeRowsModel;
using App::PeersByMachineModel;
using App::PeerScope;
using App::PeersFilterProxy;
using App::PeersModel;
using Broker::Peer;

namespace {

Peer peer(const QString &id)
{
    Peer p;
    p.id = id;
    p.pid = 1000;
    p.cwd = QStringLiteral("/home/dev/") + id;
    p.sessionName = id.section(QLatin1Char(':'), -1).toUpper();
    p.lastSeen = QStringLiteral("2025-01-02T03:04:05.000Z");
    return p;
}

QList<Peer> peers(const QStringList &ids)
{
    QList<Peer> out;
    for (const QString &id : ids)
        out << peer(id);
    return out;
}

// "machine: id, id | machine: id" in the model's order (or another column's cells).
QString shape(const QAbstractItemModel &model, int column = PeersModel::IdColumn)
{
    QStringList groups;
    for (int g = 0; g < model.rowCount(); ++g) {
        const QModelIndex group = model.index(g, 0);
        QStringList ids;
        for (int r = 0; r < model.rowCount(group); ++r)
            ids << model.index(r, column, group).data().toString();
        const QString machine = group.data(PeersModel::MachineRole).toString();
        groups << (machine.isEmpty() ? QStringLiteral("here") : machine) + QStringLiteral(": ") +
                ids.join(QStringLiteral(", "));
    }
    return groups.join(QStringLiteral(" | "));
}

const QDateTime T0 = QDateTime::fromString(QStringLiteral("2026-12-01T10:00:00.000Z"), Qt::ISODateWithMs);

Peer placed(const QString &id, const QString &cwd, const QString &gitRoot)
{
    Peer p = peer(id);
    p.cwd = cwd;
    p.gitRoot = gitRoot;
    return p;
}

Peer waiting(const QString &id, Broker::Attention state, qint64 secondsAgo)
{
    Peer p = peer(id);
    p.attention = state;
    p.attentionSince = T0.addSecs(-secondsAgo).toString(Qt::ISODateWithMs);
    return p;
}

QStringList labels(const QList<PeerScope> &scopes)
{
    QStringList out;
    for (const PeerScope &scope : scopes)
        out << scope.label();
    return out;
}

// What the Peers page shows: this machine's peers and OpenCode sessions in one tree, under the
// page's filter proxy sorted by one column.
struct PeersAndSessions
{
    explicit PeersAndSessions(int sortColumn)
    {
        tree.addSource(&sessions);
        proxy.setSourceModel(&tree);
        proxy.sort(sortColumn);
    }

    PeersModel table;
    OpenCodeActivity activity;
    OpenCodeRowsModel sessions {&activity};
    PeersByMachineModel tree {&table};
    PeersFilterProxy proxy;
};

} // namespace

class tst_PeersByMachineModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void groupsThisMachineFirstThenByHostname()
    {
        PeersModel table;
        PeersByMachineModel tree(&table);
        QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
        table.sync(peers({QStringLiteral("zeta:z1"), QStringLiteral("aaaa0001"), QStringLiteral("alpha:a1"),
                          QStringLiteral("bbbb0002"), QStringLiteral("zeta:z2")}));
        QCOMPARE(shape(tree),
                 QStringLiteral("here: aaaa0001, bbbb0002 | alpha: alpha:a1 | zeta: zeta:z1, zeta:z2"));
        // The label names the machine and counts its peers (the words are the translation's).
        QVERIFY(tree.index(0, 0).data().toString().startsWith(QLatin1String("This machine (2 ")));
        QVERIFY(tree.index(2, 0).data().toString().startsWith(QLatin1String("zeta (2 ")));
        QVERIFY(tree.index(0, 0).data(PeersByMachineModel::IsMachineRole).toBool());
        QVERIFY(!tree.index(0, 0, tree.index(0, 0)).data(PeersByMachineModel::IsMachineRole).toBool());
        QCOMPARE(tree.peerIndex(QStringLiteral("zeta:z2")).parent(),
                 tree.machineIndex(QStringLiteral("zeta")));
        QCOMPARE(tree.sourceIndex(tree.peerIndex(QStringLiteral("zeta:z2"))), table.index(4, 0));
        QVERIFY(!tree.sourceIndex(tree.machineIndex(QString())).isValid());
        QCOMPARE(tree.headerData(PeersModel::StateColumn, Qt::Horizontal).toString(),
                 QStringLiteral("State"));
    }

    // Row 7 of the GUI anchors: a remote machine's row carries its link's health, its tooltip the
    // certificate's fingerprint; a change is one dataChanged on that row, never a reset.
    void remoteMachinesShowTheirLink()
    {
        PeersModel table;
        PeersByMachineModel tree(&table);
        QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
        table.sync(
            peers({QStringLiteral("aaaa0001"), QStringLiteral("alpha:a1"), QStringLiteral("zeta:z1")}));
        const QString alphaBefore = tree.machineIndex(QStringLiteral("alpha")).data().toString();
        QSignalSpy changed(&tree, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&tree, &QAbstractItemModel::modelReset);

        tree.setMachineLinks({{QStringLiteral("alpha"),
                               {QStringLiteral("connected · 0.65 ms"), QStringLiteral("sha256-ab12")}}});
        const QModelIndex alpha = tree.machineIndex(QStringLiteral("alpha"));
        QCOMPARE(alpha.data().toString(), alphaBefore + QStringLiteral(" — connected · 0.65 ms"));
        QVERIFY(alpha.data(Qt::ToolTipRole).toString().contains(QStringLiteral("sha256-ab12")));
        // A machine the federation did not name, and this machine, show no link.
        QVERIFY(!tree.machineIndex(QStringLiteral("zeta")).data().toString().contains(QStringLiteral(" — ")));
        QVERIFY(!tree.machineIndex(QString()).data().toString().contains(QStringLiteral(" — ")));
        QVERIFY(changed.count() >= 1);
        QCOMPARE(reset.count(), 0);

        changed.clear();
        tree.setMachineLinks({{QStringLiteral("alpha"),
                               {QStringLiteral("connected · 0.65 ms"), QStringLiteral("sha256-ab12")}}});
        QCOMPARE(changed.count(), 0); // the same links: nothing to repaint
        tree.setMachineLinks({});
        QCOMPARE(tree.machineIndex(QStringLiteral("alpha")).data().toString(), alphaBefore);
    }

    void peersComeAndGoWithoutAReset()
    {
        PeersModel table;
        PeersByMachineModel tree(&table);
        QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
        table.sync(peers({QStringLiteral("aaaa0001"), QStringLiteral("lab:l1")}));
        QSignalSpy reset(&tree, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&tree, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&tree, &QAbstractItemModel::rowsRemoved);

        table.sync(peers({QStringLiteral("aaaa0001"), QStringLiteral("lab:l1"), QStringLiteral("bbbb0002")}));
        QCOMPARE(inserted.count(), 1); // one child under this machine
        QCOMPARE(inserted.first().at(0).value<QModelIndex>(), tree.machineIndex(QString()));

        table.sync(peers({QStringLiteral("aaaa0001"), QStringLiteral("bbbb0002")}));
        QCOMPARE(removed.count(), 2); // lab's last peer, then lab itself
        QCOMPARE(shape(tree), QStringLiteral("here: aaaa0001, bbbb0002"));

        // A changed cell reaches the peer's row in the tree.
        QSignalSpy changed(&tree, &QAbstractItemModel::dataChanged);
        Peer renamed = peer(QStringLiteral("bbbb0002"));
        renamed.sessionName = QStringLiteral("reviewer");
        table.sync({peer(QStringLiteral("aaaa0001")), renamed});
        QVERIFY(!changed.isEmpty());
        QCOMPARE(changed.first().at(0).value<QModelIndex>(), tree.peerIndex(QStringLiteral("bbbb0002")));
        QCOMPARE(tree.peerIndex(QStringLiteral("bbbb0002")).data().toString(), QStringLiteral("reviewer"));
        QCOMPARE(reset.count(), 0);

        table.sync({});
        QCOMPARE(tree.rowCount(), 0);
    }

    void randomChurnKeepsTheTreeConsistent()
    {
        PeersModel table;
        PeersByMachineModel tree(&table);
        QSortFilterProxyModel proxy; // as the page uses it: sorted and filtered on top
        proxy.setSourceModel(&tree);
        proxy.setRecursiveFilteringEnabled(true);
        proxy.setFilterKeyColumn(-1);
        proxy.sort(PeersModel::NameColumn);
        QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QRandomGenerator random(20261201);
        const QStringList pool {QStringLiteral("a1"),   QStringLiteral("a2"),   QStringLiteral("a3"),
                                QStringLiteral("m:b1"), QStringLiteral("m:b2"), QStringLiteral("n:c1"),
                                QStringLiteral("n:c2"), QStringLiteral("o:d1")};
        for (int round = 0; round < 300; ++round) {
            QStringList ids;
            for (const QString &id : pool) {
                if (random.bounded(2))
                    ids << id;
            }
            if (round % 50 == 7)
                proxy.setFilterFixedString(round % 100 == 7 ? QStringLiteral("B") : QString());
            table.sync(peers(ids));
            int children = 0;
            for (int g = 0; g < tree.rowCount(); ++g)
                children += tree.rowCount(tree.index(g, 0));
            QCOMPARE(children, int(ids.size()));
            for (const QString &id : ids)
                QVERIFY(tree.peerIndex(id).isValid());
        }
    }

    // OpenCode sessions join this machine's rows: the ones that need you or work, and the ones
    // active while the tray ran; a session only listed stays out. The proxy orders them with
    // the peers by attention (who needs you longest first), the labels count both kinds.
    void openCodeSessionsJoinThisMachineInAttentionOrder()
    {
        PeersAndSessions page(PeersModel::StateColumn);
        auto &[table, activity, sessions, tree, proxy] = page;
        table.setClock([] { return T0; });
        QDateTime clock = T0.addSecs(-600);
        activity.setClock([&clock] { return clock; });
        QAbstractItemModelTester sessionsTester(&sessions,
                                                QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        table.sync({waiting(QStringLiteral("busy0001"), Broker::Attention::Busy, 30),
                    waiting(QStringLiteral("need0002"), Broker::Attention::NeedsYou, 60),
                    waiting(QStringLiteral("lab:idle3"), Broker::Attention::Idle, 5)});
        // Asked 10 min ago (longer than the peer's minute), busy for 5 min, idle after a run, listed.
        activity.setWaiting(QStringLiteral("/src/api"), QStringLiteral("ses_ask"),
                            QStringLiteral("permission"), QStringLiteral("bash: make"));
        clock = T0.addSecs(-300);
        activity.setStatus(QStringLiteral("/src/api"), QStringLiteral("ses_run"), QStringLiteral("busy"));
        activity.setStatus(QStringLiteral("/src/web"), QStringLiteral("ses_done"), QStringLiteral("idle"));
        activity.noteListed(QStringLiteral("/src/web"), QStringLiteral("ses_old"), QStringLiteral("Old chat"),
                            QStringLiteral("idle"));
        activity.noteListed(QStringLiteral("/src/api"), QStringLiteral("ses_run"), QStringLiteral("Build"),
                            QString());
        clock = T0;

        QCOMPARE(sessions.rowCount(), 3);
        QCOMPARE(sessions.rowOf(QStringLiteral("ses_old")), -1);
        QCOMPARE(shape(proxy, PeersModel::NameColumn),
                 QStringLiteral("here: OpenCode ses_ask, NEED0002, Build, BUSY0001, OpenCode ses_done"
                                " | lab: IDLE3"));
        QVERIFY(tree.index(0, 0).data().toString().startsWith(QLatin1String("This machine (2 ")));
        QVERIFY(tree.index(0, 0).data().toString().contains(QLatin1String("3 OpenCode session")));
        const QModelIndex ask =
            tree.itemIndex(int(PeersModel::Kind::OpenCodeSession), QStringLiteral("ses_ask"));
        QCOMPARE(ask.parent(), tree.machineIndex(QString()));
        QCOMPARE(tree.sourceIndex(ask), sessions.index(0, 0));
        QVERIFY(!tree.peerIndex(QStringLiteral("ses_ask")).isValid()); // a session is not a peer
        QCOMPARE(ask.siblingAtColumn(PeersModel::StateColumn).data().toString(),
                 QStringLiteral("needs you · 10 min"));
        QCOMPARE(ask.siblingAtColumn(PeersModel::SummaryColumn).data().toString(),
                 QStringLiteral("bash: make"));
        QCOMPARE(ask.siblingAtColumn(PeersModel::ReachabilityColumn).data().toString(),
                 QStringLiteral("OpenCode"));
        QCOMPARE(ask.data(PeersModel::KindRole).toInt(), int(PeersModel::Kind::OpenCodeSession));

        // The answer given, the session works on: it moves below the peer that needs you.
        activity.setWaiting(QStringLiteral("/src/api"), QStringLiteral("ses_ask"), QString(), QString());
        activity.setStatus(QStringLiteral("/src/api"), QStringLiteral("ses_ask"), QStringLiteral("busy"));
        QCOMPARE(shape(proxy, PeersModel::NameColumn),
                 QStringLiteral("here: NEED0002, Build, BUSY0001, OpenCode ses_ask, OpenCode ses_done"
                                " | lab: IDLE3"));
        QCOMPARE(ask.siblingAtColumn(PeersModel::StateColumn).data().toString(),
                 QStringLiteral("busy · 0 s"));

        // The peers leave: the sessions keep this machine's row.
        table.sync({});
        QCOMPARE(shape(proxy, PeersModel::NameColumn),
                 QStringLiteral("here: Build, OpenCode ses_ask, OpenCode ses_done"));
        QCOMPARE(tree.index(0, 0).data().toString(), QStringLiteral("This machine (3 OpenCode sessions)"));
    }

    // The scopes of 0.7 present among the rows, and the filter by one of them (with the text
    // filter on top): a machine, a repo (git root) or a folder, each of one machine.
    void scopesPresentAndTheirFilter()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        QDir(home.path()).mkpath(QStringLiteral("api/.git"));
        QDir(home.path()).mkpath(QStringLiteral("api/web"));
        const QString api = QDir(home.path()).filePath(QStringLiteral("api"));
        const QString web = api + QStringLiteral("/web");
        PeersAndSessions page(PeersModel::NameColumn);
        auto &[table, activity, sessions, tree, proxy] = page;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        table.sync({placed(QStringLiteral("a1"), api, api),
                    placed(QStringLiteral("a2"), web + QStringLiteral("/"), api),
                    placed(QStringLiteral("t3"), QStringLiteral("/tmp"), {}),
                    placed(QStringLiteral("lab:b1"), api, api)});
        // An OpenCode session in the repo's sub-folder: its git root is found on disk.
        activity.setStatus(web, QStringLiteral("ses_1"), QStringLiteral("busy"));
        QCOMPARE(sessions.index(0, 0).data(PeersModel::GitRootRole).toString(), api);
        QCOMPARE(sessions.index(0, PeersModel::ProjectColumn).data().toString(), QStringLiteral("api/web"));
        QCOMPARE(OpenCodeRowsModel::gitRootOf(QStringLiteral("/")), QString());

        const QList<PeerScope> scopes = PeerScope::presentIn(tree);
        using Kind = PeerScope::Kind;
        QCOMPARE(scopes,
                 (QList<PeerScope> {{},
                                    {Kind::Machine, {}, {}},
                                    {Kind::Machine, QStringLiteral("lab"), {}},
                                    {Kind::Repo, {}, api},
                                    {Kind::Repo, QStringLiteral("lab"), api},
                                    {Kind::Directory, {}, QStringLiteral("/tmp")},
                                    {Kind::Directory, {}, api},
                                    {Kind::Directory, {}, web},
                                    {Kind::Directory, QStringLiteral("lab"), api}}));
        QCOMPARE(labels(scopes).mid(0, 5),
                 (QStringList {QStringLiteral("All scopes"), QStringLiteral("Machine: this machine"),
                               QStringLiteral("Machine: lab"), QStringLiteral("Repo: %1").arg(api),
                               QStringLiteral("Repo: %1 (lab)").arg(api)}));
        QCOMPARE(shape(proxy, PeersModel::NameColumn),
                 QStringLiteral("here: A1, A2, OpenCode ses_1, T3 | lab: B1"));

        proxy.setScope(scopes.at(2)); // machine lab
        QCOMPARE(shape(proxy, PeersModel::NameColumn), QStringLiteral("lab: B1"));
        proxy.setScope(scopes.at(3)); // repo api on this machine: the sub-folder's rows too
        QCOMPARE(shape(proxy, PeersModel::NameColumn), QStringLiteral("here: A1, A2, OpenCode ses_1"));
        proxy.setFilterFixedString(QStringLiteral("opencode"));
        QCOMPARE(shape(proxy, PeersModel::NameColumn), QStringLiteral("here: OpenCode ses_1"));
        proxy.setFilterFixedString(QStringLiteral("lab")); // a machine's name does not leave the scope
        QCOMPARE(shape(proxy, PeersModel::NameColumn), QString());
        proxy.setFilterFixedString(QString());
        proxy.setScope(scopes.at(7)); // folder web (a2's "web/" is the same folder)
        QCOMPARE(shape(proxy, PeersModel::NameColumn), QStringLiteral("here: A2, OpenCode ses_1"));
        proxy.setScope(PeerScope {Kind::Machine, {}, {}});
        proxy.setFilterFixedString(QStringLiteral("this machine")); // the machine row's text: all its rows
        QCOMPARE(shape(proxy, PeersModel::NameColumn), QStringLiteral("here: A1, A2, OpenCode ses_1, T3"));
        proxy.setScope({});
        QCOMPARE(shape(proxy, PeersModel::NameColumn), QStringLiteral("here: A1, A2, OpenCode ses_1, T3"));

        // Paths under this machine's home read "~/…"; another machine's do not.
        const QByteArray realHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        auto restore = qScopeGuard([&realHome] { qputenv("HOME", realHome); });
        const PeerScope hereRepo {Kind::Repo, {}, api};
        const PeerScope labRepo {Kind::Repo, QStringLiteral("lab"), api};
        QCOMPARE(hereRepo.label(), QStringLiteral("Repo: ~/api"));
        QCOMPARE(labRepo.label(), QStringLiteral("Repo: %1 (lab)").arg(api));
        QCOMPARE(table.index(table.rowOf(QStringLiteral("a2")), PeersModel::ScopeColumn).data().toString(),
                 QStringLiteral("~/api"));
        QCOMPARE(table.index(table.rowOf(QStringLiteral("t3")), PeersModel::ScopeColumn).data().toString(),
                 QStringLiteral("/tmp"));
        QCOMPARE(
            table.index(table.rowOf(QStringLiteral("lab:b1")), PeersModel::ScopeColumn).data().toString(),
            api);
    }

    // Proxy rounds: peers come and go, sessions change state, the scope and the text filter
    // change; the tree and the proxy stay consistent (QAbstractItemModelTester) and every row is
    // in the tree once.
    void randomChurnWithSessionsAndScopes()
    {
        PeersAndSessions page(PeersModel::StateColumn);
        auto &[table, activity, sessions, tree, proxy] = page;
        QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QRandomGenerator random(20261201);
        const QStringList pool {QStringLiteral("a1"), QStringLiteral("a2"), QStringLiteral("m:b1"),
                                QStringLiteral("m:b2"), QStringLiteral("n:c1")};
        const QStringList folders {QStringLiteral("/r/x"), QStringLiteral("/r/y"), QStringLiteral("/s")};
        const QStringList states {QStringLiteral("busy"), QStringLiteral("idle"), QStringLiteral("retry")};
        for (int round = 0; round < 300; ++round) {
            QList<Peer> peers;
            for (const QString &id : pool) {
                if (random.bounded(2))
                    peers << placed(id, folders.at(random.bounded(3)),
                                    random.bounded(2) ? QStringLiteral("/r") : QString());
            }
            table.sync(peers);
            const QString session = QStringLiteral("ses_%1").arg(random.bounded(4));
            const QString folder = folders.at(random.bounded(3));
            if (random.bounded(3) == 0)
                activity.setWaiting(folder, session, QStringLiteral("question"), QStringLiteral("which?"));
            else
                activity.setStatus(folder, session, states.at(random.bounded(3)));
            if (round % 25 == 7) {
                const QList<PeerScope> scopes = PeerScope::presentIn(tree);
                proxy.setScope(scopes.at(random.bounded(int(scopes.size()))));
            }
            if (round % 50 == 11)
                proxy.setFilterFixedString(round % 100 == 11 ? QStringLiteral("ses") : QString());
            int children = 0;
            for (int g = 0; g < tree.rowCount(); ++g)
                children += tree.rowCount(tree.index(g, 0));
            QCOMPARE(children, int(peers.size()) + sessions.rowCount());
            for (const Peer &p : std::as_const(peers))
                QVERIFY(tree.peerIndex(p.id).isValid());
        }
    }
};

QTEST_GUILESS_MAIN(tst_PeersByMachineModel)
#include "tst_peersbymachinemodel.moc"
