#include "mcp_stdio/bannerqueue.h"
#include "mcp_stdio/format.h"

#include <QJsonObject>
#include <QTest>

using namespace Mcp;

class tst_Format : public QObject
{
    Q_OBJECT

    static BannerQueue::Entry entry(qint64 id, const QString &type, const QString &text,
                                    const QString &name = {}, qint64 pushedAt = 0)
    {
        BannerQueue::Entry e;
        e.messageId = id;
        e.fromId = QStringLiteral("d92a5e28");
        e.fromName = name;
        e.type = type;
        e.text = text;
        e.sentAt = QStringLiteral("2026-03-27T12:00:00.000Z");
        e.pushedAtMs = pushedAt;
        return e;
    }

private Q_SLOTS:
    void age_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << qint64(0) << QStringLiteral("<1m");
        QTest::newRow("59s") << qint64(59999) << QStringLiteral("<1m");
        QTest::newRow("1m") << qint64(60000) << QStringLiteral("1m");
        QTest::newRow("59m") << qint64(59 * 60000 + 59999) << QStringLiteral("59m");
        QTest::newRow("1h") << qint64(3600000) << QStringLiteral("1h");
        QTest::newRow("1h 5m") << qint64(3600000 + 5 * 60000) << QStringLiteral("1h 5m");
        QTest::newRow("23h 59m") << qint64(24 * 3600000 - 1) << QStringLiteral("23h 59m");
        QTest::newRow("1d 0h") << qint64(24 * 3600000) << QStringLiteral("1d 0h");
        QTest::newRow("2d 3h") << qint64(51 * 3600000 + 60000) << QStringLiteral("2d 3h");
    }
    void age()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(Format::age(ms), text);
    }

    void peerBlockShowsOnlyWhatIsSet()
    {
        const QDateTime now =
            QDateTime::fromString(QStringLiteral("2026-03-27T13:05:00.000Z"), Qt::ISODateWithMs);
        Broker::Peer p;
        p.id = QStringLiteral("d92a5e28");
        p.pid = 42;
        p.cwd = QStringLiteral("/home/u/proj");
        p.registeredAt = QStringLiteral("2026-03-27T12:00:00.000Z");
        p.lastSeen = QStringLiteral("2026-03-27T13:04:59.000Z");
        p.channelPush = QStringLiteral("working");
        QCOMPARE(Format::peerBlock(p, now),
                 QStringLiteral("d92a5e28 (unnamed)\n  PID: 42  |  CWD: /home/u/proj  Active: 1h 5m\n"
                                "  Last seen: 2026-03-27T13:04:59.000Z"));
        p.sessionName = QStringLiteral("AUTH_WORKER");
        p.gitRoot = QStringLiteral("/home/u/proj");
        p.version = QStringLiteral("0.8.0");
        p.tty = QStringLiteral("pts/44");
        p.summary = QStringLiteral("[AUTH_WORKER] JWT");
        p.channelPush = QStringLiteral("unverified");
        QCOMPARE(Format::peerBlock(p, now),
                 QStringLiteral(
                     "**AUTH_WORKER** (d92a5e28)\n  PID: 42  |  CWD: /home/u/proj  Active: 1h 5m\n"
                     "  Repo: /home/u/proj\n  Version: 0.8.0\n  TTY: pts/44\n  Summary: [AUTH_WORKER] JWT\n"
                     "  Channel push: unverified\n  Last seen: 2026-03-27T13:04:59.000Z"));
        p.client = QStringLiteral("opencode");
        QVERIFY(Format::peerBlock(p, now).contains(QLatin1String("\n  TTY: pts/44\n  Client: OpenCode\n")));
    }

    void peerList()
    {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QCOMPARE(Format::peerList(QStringLiteral("repo"), {}, now),
                 QStringLiteral("No other Claude Code instances found (scope: repo)."));
        QCOMPARE(Format::peerList(QStringLiteral("repo"), {}, now, ClientKind::OpenCode),
                 QStringLiteral("No other peers found (scope: repo)."));
        QCOMPARE(Format::peerList(QStringLiteral("repo"), {}, now, ClientKind::Other),
                 QStringLiteral("No other peers found (scope: repo)."));
        Broker::Peer a;
        a.id = QStringLiteral("a");
        Broker::Peer b;
        b.id = QStringLiteral("host:b");
        const QString text = Format::peerList(QStringLiteral("lan"), {a, b}, now);
        QVERIFY(text.startsWith(QLatin1String("Found 2 peer(s) (scope: lan):\n\na (unnamed)\n")));
        QVERIFY(text.contains(QLatin1String("\n\nhost:b (unnamed)\n  PID: 0")));
    }

    void preview_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("short") << QStringLiteral("hello") << QStringLiteral("hello");
        QTest::newRow("first line only") << QStringLiteral("one\ntwo") << QStringLiteral("one");
        QTest::newRow("120 exactly") << QString(120, QLatin1Char('a')) << QString(120, QLatin1Char('a'));
        QTest::newRow("121") << QString(121, QLatin1Char('a'))
                             << QString(120, QLatin1Char('a')) + QStringLiteral("...");
        QTest::newRow("short first line of a long text")
            << QStringLiteral("hi\n") + QString(200, QLatin1Char('b')) << QStringLiteral("hi...");
    }
    void preview()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(Format::preview(text), expected);
    }

    void messageSent()
    {
        QCOMPARE(Format::messageSent(QStringLiteral("478e3862"), 42, QStringLiteral("status?")),
                 QStringLiteral("Message sent to peer 478e3862 (msg#42)\n> Preview: status?"));
        QCOMPARE(Format::messageSent(QStringLiteral("mac:380ea400"), -1, QStringLiteral("hi")),
                 QStringLiteral("Message sent to peer mac:380ea400 (remote)\n> Preview: hi"));
        // Placeholders in user text stay literal.
        QCOMPARE(Format::messageSent(QStringLiteral("%2"), 1, QStringLiteral("%1 %3")),
                 QStringLiteral("Message sent to peer %2 (msg#1)\n> Preview: %1 %3"));
    }

    void bannerLine_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text, no name") << QStringLiteral("text") << QString() << QStringLiteral("hi")
                                       << QStringLiteral("From d92a5e28 (msg#7): hi");
        QTest::newRow("query, named")
            << QStringLiteral("query") << QStringLiteral("AUTH") << QStringLiteral("status?")
            << QStringLiteral("[QUERY] From AUTH (msg#7): status?");
        QTest::newRow("handoff") << QStringLiteral("handoff") << QString() << QStringLiteral("take it")
                                 << QStringLiteral("[HANDOFF] From d92a5e28 (msg#7): take it");
        QTest::newRow("200 chars") << QStringLiteral("text") << QString() << QString(200, QLatin1Char('x'))
                                   << QStringLiteral("From d92a5e28 (msg#7): ") +
                QString(200, QLatin1Char('x'));
        QTest::newRow("201 chars") << QStringLiteral("broadcast") << QString()
                                   << QString(201, QLatin1Char('x'))
                                   << QStringLiteral("[BROADCAST] From d92a5e28 (msg#7): ") +
                QString(200, QLatin1Char('x')) + QStringLiteral("...");
        QTest::newRow("placeholder in name") << QStringLiteral("text") << QStringLiteral("%2")
                                             << QStringLiteral("%1") << QStringLiteral("From %2 (msg#7): %1");
    }
    void bannerLine()
    {
        QFETCH(QString, type);
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(Format::bannerLine(entry(7, type, text, name)), expected);
    }

    void bannerBlock()
    {
        QCOMPARE(Format::banner({}, 0, QStringLiteral("me")), QString());
        const QString b =
            Format::banner({entry(1, QStringLiteral("text"), QStringLiteral("a")),
                            entry(2, QStringLiteral("query"), QStringLiteral("b"), QStringLiteral("N"))},
                           0, QStringLiteral("me"));
        QCOMPARE(b,
                 QStringLiteral(
                     "--- QUEUED PEER MESSAGES (2) ---\nFrom d92a5e28 (msg#1): a\n---\n"
                     "[QUERY] From N (msg#2): b\n(Answer with the send_message tool to the sender's id, "
                     "reply_to = the msg# number; check_messages shows messages in full.)\n"
                     "--- END QUEUED MESSAGES ---\n\n"));
        const QString withOverflow = Format::banner({entry(9, QStringLiteral("text"), QStringLiteral("z"))},
                                                    3, QStringLiteral("478e3862"));
        QVERIFY(withOverflow.startsWith(QLatin1String("--- QUEUED PEER MESSAGES (4) ---\n")));
        QVERIFY(withOverflow.contains(QLatin1String("3 older message(s) left out")));
        QVERIFY(withOverflow.contains(QLatin1String("claude-peers messages --to 478e3862")));
        QVERIFY(withOverflow.endsWith(QLatin1String("--- END QUEUED MESSAGES ---\n\n")));
    }

    void checkMessagesEntries()
    {
        QCOMPARE(Format::messageList({}), QStringLiteral("No new messages."));
        BannerQueue::Entry response = entry(5, QStringLiteral("response"), QStringLiteral("done"));
        response.replyTo = 4;
        BannerQueue::Entry handoff =
            entry(6, QStringLiteral("handoff"), QStringLiteral("take"), QStringLiteral("LEAD"));
        handoff.metadataJson = QStringLiteral("{\"task\":\"x\"}");
        QCOMPARE(Format::messageList({response, handoff}),
                 QStringLiteral("2 new message(s):\n\n"
                                "[RESPONSE] re: msg#4 From d92a5e28 (msg#5, 2026-03-27T12:00:00.000Z):\ndone"
                                "\n\n---\n\n"
                                "[HANDOFF] From LEAD [d92a5e28] (msg#6, "
                                "2026-03-27T12:00:00.000Z):\ntake\nMetadata: {\"task\":\"x\"}"));
        QCOMPARE(Format::messageEntry(entry(1, QStringLiteral("response"), QStringLiteral("r"))),
                 QStringLiteral("[RESPONSE] From d92a5e28 (msg#1, 2026-03-27T12:00:00.000Z):\nr"));
        // reply_to shows whatever the type (issue 7 §2.6: a text answer lost its thread).
        BannerQueue::Entry text = entry(7, QStringLiteral("text"), QStringLiteral("ok"));
        text.replyTo = 3;
        QCOMPARE(Format::messageEntry(text),
                 QStringLiteral("re: msg#3 From d92a5e28 (msg#7, 2026-03-27T12:00:00.000Z):\nok"));
        BannerQueue::Entry query = entry(8, QStringLiteral("query"), QStringLiteral("and?"));
        query.replyTo = 7;
        QCOMPARE(Format::messageEntry(query),
                 QStringLiteral("[QUERY] re: msg#7 From d92a5e28 (msg#8, 2026-03-27T12:00:00.000Z):\nand?"));
    }

    void messageStatus()
    {
        Broker::MessageStatusAnswer s {42, QStringLiteral("a"), QStringLiteral("b"), true,
                                       QStringLiteral("T")};
        QCOMPARE(Format::messageStatus(s),
                 QStringLiteral("Message #42: confirmed\n  From: a\n  To: b\n  Sent: T\n  Delivered: true"));
        s.delivered = false;
        QVERIFY(Format::messageStatus(s).startsWith(QLatin1String("Message #42: unconfirmed")));
    }

    void bannerQueueGraceAndOverflow()
    {
        BannerQueue q(3);
        q.push(entry(1, QStringLiteral("text"), QStringLiteral("a"), {}, 1000));
        q.push(entry(1, QStringLiteral("text"), QStringLiteral("dup"), {}, 1000)); // same id: ignored
        q.push(entry(2, QStringLiteral("text"), QStringLiteral("b"), {}, 3000));
        QCOMPARE(q.size(), 2);
        QVERIFY(q.takeDue(5999).isEmpty()); // 1 is 4999 ms old
        const auto due = q.takeDue(6000);
        QCOMPARE(due.size(), 1);
        QCOMPARE(due.first().messageId, 1);
        QCOMPARE(q.size(), 1);
        // Overflow: the oldest goes, and is counted.
        q.push(entry(3, QStringLiteral("text"), QStringLiteral("c"), {}, 7000));
        q.push(entry(4, QStringLiteral("text"), QStringLiteral("d"), {}, 7000));
        q.push(entry(5, QStringLiteral("text"), QStringLiteral("e"), {}, 7000));
        QCOMPARE(q.size(), 3);
        QCOMPARE(q.omitted(), 1);
        QVERIFY(!q.contains(2));
        QVERIFY(q.contains(5));
        QCOMPARE(q.takeOmitted(), 1);
        QCOMPARE(q.omitted(), 0);
        const auto all = q.takeAll();
        QCOMPARE(all.size(), 3);
        QCOMPARE(all.first().messageId, 3);
        QCOMPARE(q.size(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_Format)
#include "tst_format.moc"
