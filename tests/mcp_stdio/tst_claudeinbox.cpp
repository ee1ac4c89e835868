// The client of Claude Code's session inbox (mcp_stdio/claudeinbox.h) against a fake inbox: the
// auth line and framing, what counts as accepted, receipts (held, released, refused, dropped),
// Claude Code's rate limit kept by coalescing instead of dropping, and a socket that is gone.
#include "mcp_stdio/claudeinbox.h"
#include "mcp_stdio/unixsocket.h"
#include "tests/mcp_stdio/fakeclaudeinbox.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Mcp;

namespace {

struct Outcomes
{
    explicit Outcomes(ClaudeInbox &inbox)
        : accepted(&inbox, &ClaudeInbox::accepted),
          notDelivered(&inbox, &ClaudeInbox::notDelivered),
          released(&inbox, &ClaudeInbox::released)
    {
    }
    QSignalSpy accepted, notDelivered, released;
};

ClaudeInbox::Options fast()
{
    ClaudeInbox::Options o;
    o.confirmMs = 300;
    return o;
}

// A fake inbox, our client of it, and what the client reported.
struct Rig
{
    explicit Rig(const QString &path, ClaudeInbox::Options options = fast())
        : fake(path), inbox({path, {}}, options), o(inbox)
    {
    }
    bool start() { return fake.ok && bool(inbox.start()); }

    FakeClaudeInbox fake;
    ClaudeInbox inbox;
    Outcomes o;
};

} // namespace

class tst_ClaudeInbox : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString socketPath() const { return m_dir.filePath(QStringLiteral("cc-socks/4242.sock")); }

private Q_SLOTS:
    void init() { QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("cc-socks"))); }

    void environmentSaysWhetherThereIsAnInbox()
    {
        QProcessEnvironment env;
        QVERIFY(!ClaudeInbox::fromEnvironment(env));
        env.insert(QStringLiteral("CLAUDE_CODE_MESSAGING_SOCKET"), QStringLiteral("relative.sock"));
        QVERIFY(!ClaudeInbox::fromEnvironment(env));
        env.insert(QStringLiteral("CLAUDE_CODE_MESSAGING_SOCKET"),
                   QStringLiteral("/run/user/1/cc-socks/7.sock"));
        env.insert(QStringLiteral("CLAUDE_CODE_MESSAGING_TOKEN"), QStringLiteral("t"));
        const auto endpoint = ClaudeInbox::fromEnvironment(env);
        QVERIFY(endpoint);
        QCOMPARE(endpoint->socketPath, QStringLiteral("/run/user/1/cc-socks/7.sock"));
        QCOMPARE(endpoint->token, QStringLiteral("t"));
    }

    // Auth line first, then the message; accepted once written and no receipt came in time.
    void deliversWithTheTokenAndCountsSilenceAsAccepted()
    {
        FakeClaudeInbox fake(socketPath());
        QVERIFY(fake.ok);
        ClaudeInbox::Options options;
        options.confirmMs = 1500; // long enough to see "not yet" on a loaded machine
        ClaudeInbox inbox({socketPath(), QStringLiteral("secret-token")}, options);
        QVERIFY(inbox.start());
        QCOMPARE(inbox.receiptPath(),
                 m_dir.filePath(QStringLiteral("cc-socks/%1.sock").arg(QCoreApplication::applicationPid())));
        Outcomes o(inbox);
        inbox.deliver(7, QStringLiteral("hello"));
        QTRY_COMPARE(fake.lines.size(), 2);
        QCOMPARE(fake.lines.at(0),
                 (QJsonObject {{QStringLiteral("type"), QStringLiteral("auth")},
                               {QStringLiteral("token"), QStringLiteral("secret-token")}}));
        QCOMPARE(FakeClaudeInbox::content(fake.lines.at(1)), QStringLiteral("hello"));
        QCOMPARE(fake.lines.at(1).value(QLatin1String("from")).toString(),
                 QStringLiteral("uds:") + inbox.receiptPath());
        QVERIFY(!fake.lines.at(1).value(QLatin1String("msg_id")).toString().isEmpty());
        QVERIFY(o.accepted.isEmpty()); // not before the confirmation window
        QTRY_COMPARE(o.accepted.size(), 1);
        QCOMPARE(o.accepted.at(0).at(0).toLongLong(), 7);
        QTest::qWait(500);
        QCOMPARE(o.accepted.size(), 1);
        QVERIFY(o.notDelivered.isEmpty());
    }

    void noTokenNoAuthLine()
    {
        FakeClaudeInbox fake(socketPath());
        ClaudeInbox inbox({socketPath(), {}}, fast());
        QVERIFY(inbox.start());
        inbox.deliver(1, QStringLiteral("x"));
        QTRY_COMPARE(fake.lines.size(), 1);
        QCOMPARE(fake.lines.at(0).value(QLatin1String("type")).toString(), QStringLiteral("user"));
    }

    // Held for the user's review: not delivered now (never "accepted"); released when approved.
    void heldThenReleased()
    {
        Rig rig(socketPath());
        QVERIFY(rig.start());
        auto &[fake, inbox, o] = rig;
        inbox.deliver(3, QStringLiteral("review me"));
        QTRY_COMPARE(fake.userLines().size(), 1);
        QVERIFY(
            fake.sendReceipt(fake.userLines().at(0), {{QStringLiteral("status"), QStringLiteral("held")}}));
        QTRY_COMPARE(o.notDelivered.size(), 1);
        QCOMPARE(o.notDelivered.at(0).at(0).toLongLong(), 3);
        QCOMPARE(o.notDelivered.at(0).at(1).toString(), QStringLiteral("held"));
        QCOMPARE(o.notDelivered.at(0).at(2).toString(), QStringLiteral("because"));
        QTest::qWait(600); // past the confirmation window: still not accepted
        QVERIFY(o.accepted.isEmpty());
        QVERIFY(fake.sendReceipt(fake.userLines().at(0),
                                 {{QStringLiteral("status"), QStringLiteral("delivered")}}));
        QTRY_COMPARE(o.released.size(), 1);
        QCOMPARE(o.released.at(0).at(0).toLongLong(), 3);
        QCOMPARE(o.notDelivered.size(), 1);
    }

    void heldThenDeniedIsReportedOnce()
    {
        Rig rig(socketPath());
        QVERIFY(rig.start());
        auto &[fake, inbox, o] = rig;
        inbox.deliver(3, QStringLiteral("review me"));
        QTRY_COMPARE(fake.userLines().size(), 1);
        QVERIFY(
            fake.sendReceipt(fake.userLines().at(0), {{QStringLiteral("status"), QStringLiteral("held")}}));
        QVERIFY(
            fake.sendReceipt(fake.userLines().at(0), {{QStringLiteral("status"), QStringLiteral("denied")}}));
        QTest::qWait(600);
        QCOMPARE(o.notDelivered.size(), 1);
        QVERIFY(o.accepted.isEmpty() && o.released.isEmpty());
    }

    void refusedAndDropped_data()
    {
        QTest::addColumn<QJsonObject>("receipt");
        QTest::addColumn<QString>("status");
        QTest::newRow("refused") << QJsonObject {{QStringLiteral("status"), QStringLiteral("expired")},
                                                 {QStringLiteral("status_detail"), QStringLiteral("refused")}}
                                 << QStringLiteral("refused");
        QTest::newRow("dropped") << QJsonObject {{QStringLiteral("status"), QStringLiteral("dropped")},
                                                 {QStringLiteral("drop_reason"),
                                                  QStringLiteral("queue-full")}}
                                 << QStringLiteral("dropped");
    }
    void refusedAndDropped()
    {
        QFETCH(QJsonObject, receipt);
        QFETCH(QString, status);
        Rig rig(socketPath());
        QVERIFY(rig.start());
        auto &[fake, inbox, o] = rig;
        inbox.deliver(5, QStringLiteral("no"));
        QTRY_COMPARE(fake.userLines().size(), 1);
        QVERIFY(fake.sendReceipt(fake.userLines().at(0), receipt));
        QTRY_COMPARE(o.notDelivered.size(), 1);
        QCOMPARE(o.notDelivered.at(0).at(1).toString(), status);
        QTest::qWait(600);
        QVERIFY(o.accepted.isEmpty());
    }

    // A receipt for a line that is not ours, and garbage on the receipt socket, change nothing.
    void strangeReceiptsAreIgnored()
    {
        Rig rig(socketPath());
        QVERIFY(rig.start());
        auto &[fake, inbox, o] = rig;
        inbox.deliver(9, QStringLiteral("x"));
        QTRY_COMPARE(fake.userLines().size(), 1);
        QJsonObject notOurs = fake.userLines().at(0);
        notOurs.insert(QStringLiteral("msg_id"), QStringLiteral("someone-else"));
        QVERIFY(fake.sendReceipt(notOurs, {{QStringLiteral("status"), QStringLiteral("held")}}));
        bool done = false;
        UnixSocket::sendAndClose(inbox.receiptPath(),
                                 QByteArray("not json\n{\"type\":\"control\"}\n") + QByteArray(70000, 'x'),
                                 2000, this, [&](Broker::Result<void>) { done = true; });
        QTRY_VERIFY(done);
        QTRY_COMPARE(o.accepted.size(), 1);
        QVERIFY(o.notDelivered.isEmpty());
    }

    // Claude Code allows a burst, then one line per refill, and drops the rest: what waits for the
    // bucket goes out as one line, and every message gets an outcome.
    void burstsAreCoalescedNeverDropped()
    {
        ClaudeInbox::Options options = fast();
        options.burst = 2;
        options.refillMs = 400;
        Rig rig(socketPath(), options);
        QVERIFY(rig.start());
        auto &[fake, inbox, o] = rig;
        for (int i = 1; i <= 6; ++i) {
            inbox.deliver(i, QStringLiteral("m%1").arg(i));
            QTest::qWait(20); // separate event-loop passes
        }
        QTRY_COMPARE(o.accepted.size(), 6);
        const QList<QJsonObject> lines = fake.userLines();
        QCOMPARE(lines.size(), 3);
        QCOMPARE(FakeClaudeInbox::content(lines.at(0)), QStringLiteral("m1"));
        QCOMPARE(FakeClaudeInbox::content(lines.at(1)), QStringLiteral("m2"));
        QCOMPARE(FakeClaudeInbox::content(lines.at(2)), QStringLiteral("m3\n\nm4\n\nm5\n\nm6"));
        QVERIFY(o.notDelivered.isEmpty());
    }

    void onePassIsOneLine()
    {
        Rig rig(socketPath());
        QVERIFY(rig.start());
        auto &[fake, inbox, o] = rig;
        inbox.deliver(1, QStringLiteral("a"));
        inbox.deliver(2, QStringLiteral("b"));
        QTRY_COMPARE(o.accepted.size(), 2);
        QCOMPARE(fake.userLines().size(), 1);
        QCOMPARE(FakeClaudeInbox::content(fake.userLines().at(0)), QStringLiteral("a\n\nb"));
    }

    void socketGoneIsNotDelivered()
    {
        ClaudeInbox inbox({socketPath(), {}}, fast()); // nothing listens there
        QVERIFY(inbox.start());
        Outcomes o(inbox);
        inbox.deliver(4, QStringLiteral("into the void"));
        QTRY_COMPARE(o.notDelivered.size(), 1);
        QCOMPARE(o.notDelivered.at(0).at(1).toString(), QStringLiteral("unreachable"));
        QVERIFY(!o.notDelivered.at(0).at(2).toString().isEmpty());
        QTest::qWait(500);
        QVERIFY(o.accepted.isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_ClaudeInbox)
#include "tst_claudeinbox.moc"
