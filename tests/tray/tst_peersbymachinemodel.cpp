// PeersByMachineModel: the peers table as machines with their peers, kept in step row by row.
#include "peersbymachinemodel.h"
#include "peersmodel.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using App::PeersByMachineModel;
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

// "machine label: id, id | machine label: id" in the tree's order.
QString shape(const QAbstractItemModel &model)
{
    QStringList groups;
    for (int g = 0; g < model.rowCount(); ++g) {
        const QModelIndex group = model.index(g, 0);
        QStringList ids;
        for (int r = 0; r < model.rowCount(group); ++r)
            ids << model.index(r, PeersModel::IdColumn, group).data().toString();
        const QString machine = group.data(PeersModel::MachineRole).toString();
        groups << (machine.isEmpty() ? QStringLiteral("here") : machine) + QStringLiteral(": ") +
                ids.join(QStringLiteral(", "));
    }
    return groups.join(QStringLiteral(" | "));
}

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
        QCOMPARE(tree.sourceRow(tree.peerIndex(QStringLiteral("zeta:z2"))), 4);
        QCOMPARE(tree.sourceRow(tree.machineIndex(QString())), -1);
        QCOMPARE(tree.headerData(PeersModel::StateColumn, Qt::Horizontal).toString(),
                 QStringLiteral("State"));
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
};

QTEST_GUILESS_MAIN(tst_PeersByMachineModel)
#include "tst_peersbymachinemodel.moc"
