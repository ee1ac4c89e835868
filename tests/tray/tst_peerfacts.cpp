// PeerFacts / ReachabilityRule: the badge rule, project and branch, same-folder collisions, details.
#include "app/tray/peerfacts.h"

#include <QTest>

using App::PeerFacts;
using App::Reachability;
using App::ReachabilityRule;
using Broker::Peer;

Q_DECLARE_METATYPE(App::Reachability)

namespace {

const QDateTime kNow = QDateTime::fromString(QStringLiteral("2026-12-01T06:00:00.000Z"), Qt::ISODateWithMs);

QString secondsAgo(int seconds)
{
    return kNow.addSecs(-seconds).toString(Qt::ISODateWithMs);
}

Peer peer(const QString &id, const QString &cwd, int seenSecondsAgo,
          const QString &push = QStringLiteral("working"))
{
    Peer p;
    p.id = id;
    p.sessionName = id.toUpper();
    p.cwd = cwd;
    p.lastSeen = secondsAgo(seenSecondsAgo);
    p.channelPush = push;
    return p;
}

} // namespace

class tst_PeerFacts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reachabilityRule_data()
    {
        QTest::addColumn<QString>("channelPush");
        QTest::addColumn<QString>("lastSeen");
        QTest::addColumn<bool>("remote");
        QTest::addColumn<Reachability>("expected");
        QTest::newRow("fresh, push works") << "working" << secondsAgo(5) << false << Reachability::Push;
        QTest::newRow("fresh, unverified")
            << "unverified" << secondsAgo(5) << false << Reachability::PollOnly;
        QTest::newRow("fresh, unknown") << "unknown" << secondsAgo(0) << false << Reachability::PollOnly;
        QTest::newRow("fresh remote (its broker does not say)")
            << "" << secondsAgo(3) << true << Reachability::PollOnly;
        QTest::newRow("30 s is still fresh") << "working" << secondsAgo(30) << false << Reachability::Push;
        QTest::newRow("31 s: stale") << "working" << secondsAgo(31) << false << Reachability::Stale;
        QTest::newRow("60 s: stale") << "unknown" << secondsAgo(60) << false << Reachability::Stale;
        QTest::newRow("61 s: unreachable")
            << "working" << secondsAgo(61) << false << Reachability::Unreachable;
        QTest::newRow("never seen") << "working"
                                    << "" << false << Reachability::Unreachable;
        QTest::newRow("bad time") << "working"
                                  << "yesterday" << false << Reachability::Unreachable;
        QTest::newRow("clock skew: seen in the future")
            << "working" << kNow.addSecs(20).toString(Qt::ISODateWithMs) << false << Reachability::Push;
    }
    void reachabilityRule()
    {
        QFETCH(QString, channelPush);
        QFETCH(QString, lastSeen);
        QFETCH(bool, remote);
        QFETCH(Reachability, expected);
        Peer p;
        p.id = remote ? QStringLiteral("lab-box:abcd0001") : QStringLiteral("abcd0001");
        p.channelPush = channelPush;
        p.lastSeen = lastSeen;
        QCOMPARE(ReachabilityRule::of(p, kNow), expected);
        QVERIFY(!PeerFacts::reachabilityName(expected).isEmpty());
        QVERIFY(!PeerFacts::reachabilityHint(expected).isEmpty());
    }

    void projectAndBranch_data()
    {
        QTest::addColumn<QString>("cwd");
        QTest::addColumn<QString>("gitRoot");
        QTest::addColumn<QString>("summary");
        QTest::addColumn<QString>("text");
        QTest::newRow("repo root with branch") << "/src/api"
                                               << "/src/api"
                                               << "[api:main] Working in /src/api"
                                               << "api [main]";
        QTest::newRow("sub-folder") << "/src/api/web/ui"
                                    << "/src/api"
                                    << ""
                                    << "api/web/ui";
        QTest::newRow("summary of another repo") << "/src/api"
                                                 << "/src/api"
                                                 << "[web:dev] fixes"
                                                 << "api";
        QTest::newRow("branch with slash") << "/src/api"
                                           << "/src/api/"
                                           << "[api:feature/x] tests"
                                           << "api [feature/x]";
        QTest::newRow("no git") << "/home/me/notes"
                                << ""
                                << "[notes:main] hm"
                                << "notes";
        QTest::newRow("root folder") << "/"
                                     << ""
                                     << ""
                                     << "/";
        QTest::newRow("nothing known") << ""
                                       << ""
                                       << ""
                                       << "";
    }
    void projectAndBranch()
    {
        QFETCH(QString, cwd);
        QFETCH(QString, gitRoot);
        QFETCH(QString, summary);
        QFETCH(QString, text);
        Peer p;
        p.cwd = cwd;
        p.gitRoot = gitRoot;
        p.summary = summary;
        QCOMPARE(PeerFacts::projectText(PeerFacts::projectOf(p)), text);
    }

    void sameFolderCountsOnlyLiveLocalPeers()
    {
        const QList<Peer> peers {
            peer(QStringLiteral("aaaa0001"), QStringLiteral("/src/api"), 1),
            peer(QStringLiteral("bbbb0002"), QStringLiteral("/src/api/"), 2, QStringLiteral("unknown")),
            peer(QStringLiteral("cccc0003"), QStringLiteral("/src/api"), 45), // stale
            peer(QStringLiteral("lab:dddd0004"), QStringLiteral("/src/api"), 1), // another machine
            peer(QStringLiteral("eeee0005"), QStringLiteral("/src/web"), 1),
            peer(QStringLiteral("ffff0006"), QString(), 1),
            peer(QStringLiteral("gggg0007"), QString(), 1),
        };
        QCOMPARE(PeerFacts::sameFolderPeers(peers, 0, kNow), QStringList {QStringLiteral("BBBB0002")});
        QCOMPARE(PeerFacts::sameFolderPeers(peers, 1, kNow), QStringList {QStringLiteral("AAAA0001")});
        QVERIFY(PeerFacts::sameFolderPeers(peers, 2, kNow).isEmpty()); // a stale one is not warned
        QVERIFY(PeerFacts::sameFolderPeers(peers, 3, kNow).isEmpty());
        QVERIFY(PeerFacts::sameFolderPeers(peers, 4, kNow).isEmpty());
        QVERIFY(PeerFacts::sameFolderPeers(peers, 5, kNow).isEmpty()); // no folder is no collision
    }

    void detailsListEveryField()
    {
        Peer p = peer(QStringLiteral("d92a5e28"), QStringLiteral("/src/api"), 3);
        p.gitRoot = QStringLiteral("/src/api");
        p.summary = QStringLiteral("[api:main] auth");
        p.pid = 4242;
        p.tty = QStringLiteral("pts/7");
        p.version = QStringLiteral("0.9.1");
        p.client = QStringLiteral("claude-code");
        p.registeredAt = secondsAgo(100);
        p.attention = Broker::Attention::NeedsYou;
        p.attentionSince = secondsAgo(50);
        p.attentionMessage = QStringLiteral("Claude needs your permission to use Bash");
        const QString text = PeerFacts::details(p, kNow);
        const QStringList lines {QStringLiteral("Name: D92A5E28"),
                                 QStringLiteral("ID: d92a5e28"),
                                 QStringLiteral("Machine: this machine"),
                                 QStringLiteral("Project: api [main]"),
                                 QStringLiteral("Directory: /src/api"),
                                 QStringLiteral("Git root: /src/api"),
                                 QStringLiteral("Summary: [api:main] auth"),
                                 QStringLiteral("State: needs you"),
                                 QStringLiteral("In state since: ") + p.attentionSince,
                                 QStringLiteral("What it needs: Claude needs your permission to use Bash"),
                                 QStringLiteral("Reachability: push (channel push: working)"),
                                 QStringLiteral("Last seen: ") + p.lastSeen,
                                 QStringLiteral("Registered: ") + p.registeredAt,
                                 QStringLiteral("PID: 4242"),
                                 QStringLiteral("TTY: pts/7"),
                                 QStringLiteral("Client: Claude Code"),
                                 QStringLiteral("Helper version: 0.9.1")};
        for (const QString &expected : lines)
            QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" not in\n") + text));
        QVERIFY(PeerFacts::details(peer(QStringLiteral("lab:x1"), QString(), 1), kNow)
                    .contains(QLatin1String("Machine: lab")));
    }
};

QTEST_GUILESS_MAIN(tst_PeerFacts)
#include "tst_peerfacts.moc"
