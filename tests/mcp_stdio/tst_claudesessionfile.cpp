// Claude Code's session file (mcp_stdio/claudesessionfile.h, claudesessionwatch.h): what it says
// about a session's attention state, bad files, and following it as Claude Code rewrites it.
#include "mcp_stdio/claudesessionfile.h"
#include "mcp_stdio/claudesessionwatch.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Mcp;
using Broker::Attention;

namespace {

QByteArray sessionJson(const char *status, const char *waitingFor = nullptr, const QString &socket = {})
{
    QByteArray json = "{\"pid\":4242,\"sessionId\":\"5d0c\",\"cwd\":\"/"
                      "w\",\"peerProtocol\":1,\"kind\":\"interactive\",\"status\":\"" +
        QByteArray(status) + '"';
    if (waitingFor)
        json += ",\"waitingFor\":\"" + QByteArray(waitingFor) + '"';
    if (!socket.isEmpty())
        json += ",\"messagingSocketPath\":\"" + socket.toUtf8() + '"';
    return json + "}";
}

bool write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

class tst_ClaudeSessionFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void states_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("attention");
        QTest::addColumn<QString>("message");
        QTest::newRow("idle") << sessionJson("idle") << int(Attention::Idle) << QString();
        QTest::newRow("shell") << sessionJson("shell") << int(Attention::Idle) << QString();
        QTest::newRow("busy") << sessionJson("busy") << int(Attention::Busy) << QString();
        QTest::newRow("permission prompt") << sessionJson("waiting", "permission prompt")
                                           << int(Attention::NeedsYou) << QStringLiteral("permission prompt");
        QTest::newRow("waiting, unsaid") << sessionJson("waiting") << int(Attention::NeedsYou)
                                         << QStringLiteral("Claude Code is waiting for you");
    }
    void states()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, attention);
        QFETCH(QString, message);
        const auto record = ClaudeSessionFile::parse(json);
        QVERIFY2(record, record ? "" : qPrintable(record.error().message));
        QCOMPARE(record->sessionId, QStringLiteral("5d0c"));
        const ClaudeSessionFile::State state = ClaudeSessionFile::stateOf(*record);
        QCOMPARE(int(state.attention), attention);
        QCOMPARE(state.message, message);
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("torn") << sessionJson("busy").left(30);
        QTest::newRow("array") << QByteArray("[]");
        QTest::newRow("no status") << QByteArray(R"({"sessionId":"x"})");
        QTest::newRow("unknown status") << sessionJson("sleeping");
        QTest::newRow("status a number") << QByteArray(R"({"status":1})");
        QTest::newRow("too large") << ("{\"status\":\"idle\",\"x\":\"" +
                                       QByteArray(ClaudeSessionFile::MaxBytes, 'x') + "\"}");
    }
    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        const auto record = ClaudeSessionFile::parse(bytes);
        QVERIFY(!record);
        QVERIFY(!record.error().message.isEmpty());
    }

    void sessionsDirFollowsClaudeConfigDir()
    {
        QCOMPARE(ClaudeSessionFile::sessionsDir({}, QStringLiteral("/home/u")),
                 QStringLiteral("/home/u/.claude/sessions"));
        QCOMPARE(ClaudeSessionFile::sessionsDir(QStringLiteral("/cfg"), QStringLiteral("/home/u")),
                 QStringLiteral("/cfg/sessions"));
    }

    // The file whose inbox is ours wins; else the nearest ancestor's (here: ours, the test's parent
    // is not Claude Code, so the test process's own parent pid).
    void findsTheSessionFile()
    {
        QTemporaryDir dir;
        QVERIFY(write(dir.filePath(QStringLiteral("111.json")),
                      sessionJson("idle", nullptr, QStringLiteral("/s/111.sock"))));
        QVERIFY(write(dir.filePath(QStringLiteral("222.json")),
                      sessionJson("busy", nullptr, QStringLiteral("/s/222.sock"))));
        QCOMPARE(ClaudeSessionWatch::findSessionFile(dir.path(), QStringLiteral("/s/222.sock")),
                 dir.filePath(QStringLiteral("222.json")));
        QCOMPARE(ClaudeSessionWatch::findSessionFile(dir.path(), QStringLiteral("/s/333.sock")), QString());
        const QString parents = dir.filePath(QStringLiteral("%1.json").arg(qint64(::getppid())));
        QVERIFY(write(parents, sessionJson("idle")));
        QCOMPARE(ClaudeSessionWatch::findSessionFile(dir.path(), QString()), parents);
    }

    // In-place rewrites (what Claude Code does), a replacement by rename, a torn write that is
    // skipped, removal (unknown), and a file that appears only after the watch started.
    void followsTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("4242.json"));
        ClaudeSessionWatch watch;
        QSignalSpy changed(&watch, &ClaudeSessionWatch::stateChanged);
        watch.start(path);
        QCOMPARE(changed.size(), 1); // no file yet: unknown
        QCOMPARE(watch.state()->attention, Attention::Unknown);

        const auto expect = [&](Attention attention, const QString &message) {
            return QTest::qWaitFor(
                [&] {
                    return watch.state() && watch.state()->attention == attention &&
                        watch.state()->message == message;
                },
                5000);
        };
        QVERIFY(write(path, sessionJson("busy")));
        QVERIFY(expect(Attention::Busy, {}));
        QVERIFY(write(path, sessionJson("waiting", "permission prompt")));
        QVERIFY(expect(Attention::NeedsYou, QStringLiteral("permission prompt")));
        const int before = int(changed.size());
        QVERIFY(write(path, sessionJson("idle").left(20))); // torn: no change reported
        QTest::qWait(300);
        QCOMPARE(changed.size(), before);
        QCOMPARE(watch.state()->attention, Attention::NeedsYou);
        QVERIFY(write(path, sessionJson("idle")));
        QVERIFY(expect(Attention::Idle, {}));
        const QString other = dir.filePath(QStringLiteral("tmp.json"));
        QVERIFY(write(other, sessionJson("busy")));
        QVERIFY(QFile::remove(path) && QFile::rename(other, path));
        QVERIFY(expect(Attention::Busy, {}));
        QVERIFY(write(path, sessionJson("idle"))); // the replaced file is watched too
        QVERIFY(expect(Attention::Idle, {}));
        QVERIFY(QFile::remove(path));
        QVERIFY(expect(Attention::Unknown, {}));
    }
};

QTEST_GUILESS_MAIN(tst_ClaudeSessionFile)
#include "tst_claudesessionfile.moc"
