#include "mcp_stdio/stdiotransport.h"
#include "mcp_stdio/stdoutwriter.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

using namespace Mcp;

namespace {

struct Pipe
{
    int fds[2] = {-1, -1};
    Pipe() { [[maybe_unused]] int r = ::pipe2(fds, O_CLOEXEC); }
    ~Pipe()
    {
        closeRead();
        closeWrite();
    }
    int readEnd() const { return fds[0]; }
    int writeEnd() const { return fds[1]; }
    void closeRead()
    {
        if (fds[0] >= 0)
            ::close(fds[0]);
        fds[0] = -1;
    }
    void closeWrite()
    {
        if (fds[1] >= 0)
            ::close(fds[1]);
        fds[1] = -1;
    }
    QByteArray readAvailable()
    {
        QByteArray out;
        const int flags = ::fcntl(fds[0], F_GETFL);
        ::fcntl(fds[0], F_SETFL, flags | O_NONBLOCK);
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(fds[0], buf, sizeof buf);
            if (n <= 0)
                break;
            out.append(buf, n);
        }
        ::fcntl(fds[0], F_SETFL, flags);
        return out;
    }
    void writeAll(const QByteArray &data)
    {
        qsizetype off = 0;
        while (off < data.size()) {
            const ssize_t n = ::write(fds[1], data.constData() + off, size_t(data.size() - off));
            if (n <= 0)
                return;
            off += n;
        }
    }
};

} // namespace

class tst_Stdio : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writerWritesCompactLines()
    {
        Pipe p;
        StdoutWriter w(p.writeEnd());
        QSignalSpy written(&w, &StdoutWriter::lineWritten);
        const quint64 a = w.write(QJsonObject {{QStringLiteral("text"), QStringLiteral("multi\nline")}});
        const quint64 b = w.write(QJsonArray {1, 2});
        QCOMPARE(written.size(), 2);
        QCOMPARE(written.at(0).at(0).toULongLong(), a);
        QCOMPARE(written.at(1).at(0).toULongLong(), b);
        QCOMPARE(p.readAvailable(), QByteArray("{\"text\":\"multi\\nline\"}\n[1,2]\n"));
        QVERIFY(w.isIdle());
    }

    void writerContinuesPartialWritesWhenThePipeDrains()
    {
        Pipe p;
        ::fcntl(p.writeEnd(), F_SETPIPE_SZ, 4096);
        StdoutWriter w(p.writeEnd());
        QSignalSpy written(&w, &StdoutWriter::lineWritten);
        // 1 MiB line cannot fit a 4 KiB pipe: the writer must keep it and go on later.
        const QString big(1024 * 1024, QLatin1Char('x'));
        const quint64 first = w.write(QJsonObject {{QStringLiteral("big"), big}});
        const quint64 second = w.write(QJsonObject {{QStringLiteral("n"), 2}});
        QVERIFY(first > 0 && second > first);
        QCOMPARE(written.size(), 0);
        QVERIFY(!w.isIdle());
        // Read as fast as the writer refills the pipe (QTRY's 50 ms steps would take minutes).
        QByteArray got;
        QDeadlineTimer deadline(10000);
        while (written.size() < 2 && !deadline.hasExpired()) {
            got += p.readAvailable();
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        }
        QCOMPARE(written.size(), 2);
        got += p.readAvailable();
        QCOMPARE(written.at(0).at(0).toULongLong(), first);
        const QList<QByteArray> lines = got.split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(QJsonDocument::fromJson(lines.at(0)).object().value(QLatin1String("big")).toString().size(),
                 big.size());
        QCOMPARE(lines.at(1), QByteArray("{\"n\":2}"));
        QVERIFY(lines.at(2).isEmpty());
    }

    void writerReportsABrokenPipe()
    {
        Pipe p;
        p.closeRead();
        StdoutWriter w(p.writeEnd());
        QSignalSpy failed(&w, &StdoutWriter::failed);
        // SIGPIPE is ignored by the helper's main(); the test does the same.
        ::signal(SIGPIPE, SIG_IGN);
        QCOMPARE(w.write(QJsonObject {{QStringLiteral("a"), 1}}), quint64(0));
        QCOMPARE(failed.size(), 1);
        QVERIFY(w.hasFailed());
        QCOMPARE(w.write(QJsonObject {{QStringLiteral("a"), 2}}), quint64(0));
    }

    void drainWaitsForASlowReader()
    {
        Pipe p;
        ::fcntl(p.writeEnd(), F_SETPIPE_SZ, 4096);
        StdoutWriter w(p.writeEnd());
        w.write(QJsonObject {{QStringLiteral("big"), QString(64 * 1024, QLatin1Char('y'))}});
        QVERIFY(!w.drain(50)); // nobody reads: bounded, gives up
        QByteArray got = p.readAvailable();
        for (int i = 0; i < 100 && !w.isIdle(); ++i) {
            w.drain(10);
            got += p.readAvailable();
        }
        QVERIFY(w.isIdle());
        got += p.readAvailable();
        QVERIFY(got.endsWith("\"}\n"));
    }

    void transportDeliversLinesAndEnd()
    {
        Pipe p;
        StdioTransport t(p.readEnd(), 32);
        QSignalSpy lines(&t, &StdioTransport::lineReceived);
        QSignalSpy tooLong(&t, &StdioTransport::lineTooLong);
        QSignalSpy end(&t, &StdioTransport::endOfInput);
        t.start();
        p.writeAll("{\"a\":1}\r\n{\"b\"");
        QTRY_COMPARE(lines.size(), 1);
        p.writeAll(":2}\n" + QByteArray(100, 'x') + "\n{\"c\":3}\n");
        QTRY_COMPARE(lines.size(), 3);
        QCOMPARE(tooLong.size(), 1);
        QCOMPARE(tooLong.at(0).at(0).value<qsizetype>(), 32);
        QCOMPARE(lines.at(0).at(0).toByteArray(), QByteArray("{\"a\":1}"));
        QCOMPARE(lines.at(1).at(0).toByteArray(), QByteArray("{\"b\":2}"));
        QCOMPARE(lines.at(2).at(0).toByteArray(), QByteArray("{\"c\":3}"));
        p.writeAll("{\"tail\":1}");
        p.closeWrite();
        QTRY_COMPARE(end.size(), 1);
        QCOMPARE(lines.size(), 4); // the unterminated last line still counts
        QVERIFY(t.atEnd());
    }
};

QTEST_GUILESS_MAIN(tst_Stdio)
#include "tst_stdio.moc"
