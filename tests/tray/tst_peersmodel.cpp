// PeersModel: incremental row inserts, removals and cell changes from diffs of the peer list.
#include "app/tray/peersmodel.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

using App::PeersModel;
using Broker::Peer;

namespace {

Peer peer(const QString &id, const QString &name = {}, const QString &summary = {})
{
    Peer p;
    p.id = id;
    p.pid = 1000;
    p.cwd = QStringLiteral("/home/dev/") + id;
    p.sessionName = name;
    p.summary = summary;
    p.channelPush = QStringLiteral("unknown");
    p.registeredAt = QStringLiteral("2025-01-02T03:04:05.000Z");
    p.lastSeen = QStringLiteral("2025-01-02T03:04:05.000Z");
    return p;
}

QStringList ids(const PeersModel &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, PeersModel::IdColumn).data().toString();
    return out;
}

} // namespace

class tst_PeersModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_model = std::make_unique<PeersModel>();
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
    void cleanup()
    {
        m_tester.reset();
        m_model.reset();
    }

    void hasTenNamedColumns()
    {
        QCOMPARE(m_model->columnCount(), 10);
        const QStringList expected {QStringLiteral("Name"),         QStringLiteral("Machine"),
                                    QStringLiteral("State"),        QStringLiteral("ID"),
                                    QStringLiteral("Project"),      QStringLiteral("Scope"),
                                    QStringLiteral("Directory"),    QStringLiteral("Summary"),
                                    QStringLiteral("Reachability"), QStringLiteral("Last seen")};
        for (int column = 0; column < expected.size(); ++column)
            QCOMPARE(m_model->headerData(column, Qt::Horizontal).toString(), expected.at(column));
        QCOMPARE(m_model->rowCount(), 0);
    }

    void machineColumnNamesTheRemoteBroker()
    {
        m_model->sync({peer(QStringLiteral("aaaa1111")), peer(QStringLiteral("lab-box:bbbb2222"))});
        QCOMPARE(m_model->index(0, PeersModel::MachineColumn).data().toString(),
                 QStringLiteral("this machine"));
        QCOMPARE(m_model->index(1, PeersModel::MachineColumn).data().toString(), QStringLiteral("lab-box"));
        QCOMPARE(m_model->index(1, PeersModel::IdColumn).data().toString(),
                 QStringLiteral("lab-box:bbbb2222"));
    }

    void appendsNewPeersWithOneInsert()
    {
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
        m_model->sync({peer(QStringLiteral("aaaa1111"))});
        QCOMPARE(inserted.count(), 1);
        m_model->sync({peer(QStringLiteral("aaaa1111")), peer(QStringLiteral("bbbb2222")),
                       peer(QStringLiteral("cccc3333"))});
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(inserted.last().at(1).toInt(), 1);
        QCOMPARE(inserted.last().at(2).toInt(), 2);
        QCOMPARE(ids(*m_model),
                 (QStringList {QStringLiteral("aaaa1111"), QStringLiteral("bbbb2222"),
                               QStringLiteral("cccc3333")}));
        QCOMPARE(reset.count(), 0);
    }

    void changesOnlyTheCellsThatDiffer()
    {
        m_model->sync({peer(QStringLiteral("a")), peer(QStringLiteral("b"))});
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);

        m_model->sync(
            {peer(QStringLiteral("a")), peer(QStringLiteral("b"), {}, QStringLiteral("fixing tests"))});
        QCOMPARE(changed.count(), 1);
        // The project column too: its branch comes from the summary's "[repo:branch]".
        QCOMPARE(changed.at(0).at(0).toModelIndex(), m_model->index(1, PeersModel::ProjectColumn));
        QCOMPARE(changed.at(0).at(1).toModelIndex(), m_model->index(1, PeersModel::SummaryColumn));
        QCOMPARE(m_model->index(1, PeersModel::SummaryColumn).data().toString(),
                 QStringLiteral("fixing tests"));

        // A heartbeat moves last_seen, and so the reachability badge, only.
        Peer beat = peer(QStringLiteral("a"));
        beat.lastSeen = QStringLiteral("2025-01-02T03:05:00.000Z");
        m_model->sync({beat, peer(QStringLiteral("b"), {}, QStringLiteral("fixing tests"))});
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.at(1).at(0).toModelIndex(), m_model->index(0, PeersModel::ReachabilityColumn));
        QCOMPARE(changed.at(1).at(1).toModelIndex(), m_model->index(0, PeersModel::LastSeenColumn));

        // Name and summary together: one signal spanning both.
        Peer renamed = beat;
        renamed.sessionName = QStringLiteral("AUTH");
        renamed.summary = QStringLiteral("auth work");
        m_model->sync({renamed, peer(QStringLiteral("b"), {}, QStringLiteral("fixing tests"))});
        QCOMPARE(changed.count(), 3);
        QCOMPARE(changed.at(2).at(0).toModelIndex(), m_model->index(0, PeersModel::NameColumn));
        QCOMPARE(changed.at(2).at(1).toModelIndex(), m_model->index(0, PeersModel::SummaryColumn));

        QCOMPARE(inserted.count(), 0);
        QCOMPARE(removed.count(), 0);
    }

    void identicalListEmitsNothing()
    {
        const QList<Peer> peers {peer(QStringLiteral("a")), peer(QStringLiteral("b"))};
        m_model->sync(peers);
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy layout(m_model.get(), &QAbstractItemModel::layoutChanged);
        m_model->sync(peers);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(layout.count(), 0);
    }

    void removesContiguousBlocksAtOnce()
    {
        m_model->sync({peer(QStringLiteral("a")), peer(QStringLiteral("b")), peer(QStringLiteral("c")),
                       peer(QStringLiteral("d")), peer(QStringLiteral("e"))});
        QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
        m_model->sync({peer(QStringLiteral("a")), peer(QStringLiteral("d"))});
        // b,c form one block; e another.
        QCOMPARE(removed.count(), 2);
        QCOMPARE(removed.at(0).at(1).toInt(), 4);
        QCOMPARE(removed.at(1).at(1).toInt(), 1);
        QCOMPARE(removed.at(1).at(2).toInt(), 2);
        QCOMPARE(ids(*m_model), (QStringList {QStringLiteral("a"), QStringLiteral("d")}));

        m_model->sync({});
        QCOMPARE(m_model->rowCount(), 0);
    }

    void duplicateIdsCountOnce()
    {
        m_model->sync({peer(QStringLiteral("a"), QStringLiteral("one")),
                       peer(QStringLiteral("a"), QStringLiteral("two"))});
        QCOMPARE(m_model->rowCount(), 1);
    }

    void randomSequencesMatchTheInput()
    {
        QRandomGenerator rng(20250102);
        QList<Peer> current;
        for (int round = 0; round < 300; ++round) {
            QList<Peer> next;
            for (const Peer &p : std::as_const(current)) {
                if (rng.bounded(5) == 0)
                    continue; // gone
                Peer q = p;
                if (rng.bounded(3) == 0)
                    q.summary = QString::number(rng.bounded(1000));
                next.append(q);
            }
            const int newcomers = rng.bounded(4);
            for (int i = 0; i < newcomers; ++i)
                next.append(peer(QStringLiteral("p%1").arg(rng.bounded(40))));
            m_model->sync(next);

            QHash<QString, Peer> byId;
            for (const Peer &p : std::as_const(next))
                byId.insert(p.id, p);
            QCOMPARE(m_model->rowCount(), byId.size());
            for (int row = 0; row < m_model->rowCount(); ++row) {
                const Peer &p = m_model->peerAt(row);
                QVERIFY(byId.contains(p.id));
            }
            current.clear();
            for (int row = 0; row < m_model->rowCount(); ++row)
                current.append(m_model->peerAt(row));
        }
    }

    void showsReadableCells()
    {
        Peer p = peer(QStringLiteral("d92a5e28"), QStringLiteral("AUTH_WORKER"), QStringLiteral("auth"));
        p.channelPush = QStringLiteral("working");
        p.gitRoot = QStringLiteral("/home/dev");
        p.tty = QStringLiteral("/dev/pts/3");
        p.lastSeen = QStringLiteral("2020-05-06T07:08:09.123Z");
        Peer unnamed = peer(QStringLiteral("zz000000"));
        unnamed.channelPush = QStringLiteral("unverified");
        unnamed.lastSeen = QStringLiteral("not a date");
        unnamed.client = QStringLiteral("opencode");
        m_model->sync({p, unnamed});
        // Badges measured at a fixed time: p was seen 10 s ago, unnamed never (a bad date).
        m_model->setClock([] {
            return QDateTime::fromString(QStringLiteral("2020-05-06T07:08:19.123Z"), Qt::ISODateWithMs);
        });

        QCOMPARE(m_model->index(0, PeersModel::NameColumn).data().toString(), QStringLiteral("AUTH_WORKER"));
        QCOMPARE(m_model->index(0, PeersModel::DirectoryColumn).data().toString(),
                 QStringLiteral("/home/dev/d92a5e28"));
        QCOMPARE(m_model->index(0, PeersModel::ReachabilityColumn).data().toString(), QStringLiteral("push"));
        QCOMPARE(m_model->index(1, PeersModel::ReachabilityColumn).data().toString(),
                 QStringLiteral("unreachable"));
        QCOMPARE(m_model->index(0, PeersModel::ProjectColumn).data().toString(),
                 QStringLiteral("dev/d92a5e28"));
        const QString expectedTime = QDateTime::fromString(p.lastSeen, Qt::ISODateWithMs)
                                         .toLocalTime()
                                         .toString(QStringLiteral("yyyy-MM-dd HH:mm"));
        QCOMPARE(m_model->index(0, PeersModel::LastSeenColumn).data().toString(), expectedTime);
        QCOMPARE(m_model->index(1, PeersModel::LastSeenColumn).data().toString(),
                 QStringLiteral("not a date"));
        QCOMPARE(m_model->index(0, PeersModel::LastSeenColumn).data(PeersModel::SortRole).toString(),
                 p.lastSeen);
        QCOMPARE(m_model->index(0, PeersModel::NameColumn).data(PeersModel::SortRole).toString(),
                 QStringLiteral("auth_worker"));
        QCOMPARE(m_model->index(0, PeersModel::SummaryColumn).data(PeersModel::PeerIdRole).toString(), p.id);
        QVERIFY(m_model->index(0, PeersModel::NameColumn).data(Qt::ToolTipRole).toString().contains(p.tty));
        QVERIFY(m_model->index(1, PeersModel::NameColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("client OpenCode")));
        QVERIFY(m_model->index(0, PeersModel::DirectoryColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(p.gitRoot));
        QCOMPARE(m_model->rowOf(QStringLiteral("zz000000")), 1);
        QCOMPARE(m_model->rowOf(QStringLiteral("missing")), -1);
        QVERIFY(!m_model->index(5, 0).data().isValid());
    }

    void marksSameFolderPeersBothWays()
    {
        const QDateTime now =
            QDateTime::fromString(QStringLiteral("2025-01-02T03:04:15.000Z"), Qt::ISODateWithMs);
        m_model->setClock([now] { return now; });
        Peer a = peer(QStringLiteral("aaaa0001"), QStringLiteral("alpha"));
        Peer b = peer(QStringLiteral("bbbb0002"), QStringLiteral("bravo"));
        b.cwd = a.cwd + QLatin1Char('/'); // the same folder, written differently
        m_model->sync({a});
        QVERIFY(m_model->sameFolderPeers(0).isEmpty());
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        m_model->sync({a, b});
        // The newcomer's arrival marks the peer that was there already.
        QVERIFY(!changed.isEmpty());
        QCOMPARE(changed.first().at(0).value<QModelIndex>().row(), 0);
        QCOMPARE(m_model->index(0, PeersModel::NameColumn).data(PeersModel::SameFolderRole).toStringList(),
                 QStringList {QStringLiteral("bravo")});
        QCOMPARE(m_model->sameFolderPeers(1), QStringList {QStringLiteral("alpha")});
        QVERIFY(m_model->index(0, PeersModel::NameColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("bravo")));
        changed.clear();
        m_model->sync({a});
        QVERIFY(!changed.isEmpty());
        QVERIFY(m_model->sameFolderPeers(0).isEmpty());
    }

private:
    std::unique_ptr<PeersModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

QTEST_GUILESS_MAIN(tst_PeersModel)
#include "tst_peersmodel.moc"
