#include "federation/internal/httpresponsereader.h"

#include <QTest>

using Federation::Internal::HttpResponseReader;
using State = HttpResponseReader::State;

class tst_HttpResponseReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Whether the connection may carry the next request (PinnedTlsClient's kept connections).
    void connectionReusable_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<bool>("reusable");
        QTest::newRow("length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}") << true;
        QTest::newRow("chunked") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                               "2\r\n{}\r\n0\r\n\r\n")
                                 << true;
        QTest::newRow("error status")
            << QByteArray("HTTP/1.1 403 Forbidden\r\nContent-Length: 2\r\n\r\n{}") << true;
        QTest::newRow("connection close")
            << QByteArray("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}") << false;
        QTest::newRow("http/1.0") << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}") << false;
        QTest::newRow("bytes after the answer")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab") << false;
        QTest::newRow("bytes after the chunks")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nX") << false;
        QTest::newRow("incomplete") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{}") << false;
    }

    void connectionReusable()
    {
        QFETCH(QByteArray, input);
        QFETCH(bool, reusable);
        HttpResponseReader reader(1024);
        reader.feed(input);
        QCOMPARE(reader.connectionReusable(), reusable);
    }

    void reads_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<bool>("thenClose"); // the connection closes after the input
        QTest::addColumn<int>("state");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        const int complete = int(State::Complete);
        const int malformed = int(State::Malformed);
        const int tooLarge = int(State::TooLarge);
        const int needMore = int(State::NeedMore);
        QTest::newRow("content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
                                        << false << complete << 200 << QByteArray("hello");
        QTest::newRow("no reason phrase") << QByteArray("HTTP/1.1 403\r\ncontent-length: 2\r\n\r\n{}")
                                          << false << complete << 403 << QByteArray("{}");
        QTest::newRow("chunked") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                               "3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n")
                                 << false << complete << 200 << QByteArray("abcde");
        QTest::newRow("chunked with trailer")
            << QByteArray(
                   "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nX-T: 1\r\n\r\n")
            << false << complete << 200 << QByteArray("x");
        QTest::newRow("until close") << QByteArray("HTTP/1.0 200 OK\r\n\r\nstream") << true << complete << 200
                                     << QByteArray("stream");
        QTest::newRow("until close, open")
            << QByteArray("HTTP/1.0 200 OK\r\n\r\nstream") << false << needMore << 200 << QByteArray();
        QTest::newRow("204 without length")
            << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << false << complete << 204 << QByteArray();
        QTest::newRow("truncated body") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhello")
                                        << true << malformed << 200 << QByteArray();
        QTest::newRow("closed before answer") << QByteArray() << true << malformed << 0 << QByteArray();
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH\r\n\r\n") << false << malformed << 0
                                  << QByteArray();
        QTest::newRow("bad status") << QByteArray("HTTP/1.1 2000 OK\r\n\r\n") << false << malformed << 0
                                    << QByteArray();
        QTest::newRow("negative length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")
                                         << false << malformed << 0 << QByteArray();
        QTest::newRow("conflicting lengths")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab") << false
            << malformed << 0 << QByteArray();
        QTest::newRow("bytes after the answer")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab") << false << complete << 200
            << QByteArray("a");
        QTest::newRow("unknown coding") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n")
                                        << false << malformed << 0 << QByteArray();
        QTest::newRow("bad chunk size")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") << false << malformed
            << 200 << QByteArray();
        QTest::newRow("header without colon")
            << QByteArray("HTTP/1.1 200 OK\r\nbroken\r\n\r\n") << false << malformed << 0 << QByteArray();
        // Limits (body 16 bytes in this test)
        QTest::newRow("announced too large") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 17\r\n\r\n")
                                             << false << tooLarge << 200 << QByteArray();
        QTest::newRow("chunks too large") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: "
                                                        "chunked\r\n\r\n10\r\n0123456789abcdef\r\n1\r\nx\r\n")
                                          << false << tooLarge << 200 << QByteArray();
        QTest::newRow("stream too large") << (QByteArray("HTTP/1.0 200 OK\r\n\r\n") + QByteArray(17, 'x'))
                                          << false << tooLarge << 200 << QByteArray();
        QTest::newRow("head too large") << (QByteArray("HTTP/1.1 200 OK\r\nX: ") + QByteArray(300, 'x'))
                                        << false << tooLarge << 0 << QByteArray();
    }

    void reads()
    {
        QFETCH(QByteArray, input);
        QFETCH(bool, thenClose);
        QFETCH(int, state);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        // Whole, then one byte at a time: framing must not depend on how TLS records split.
        for (const bool byteByByte : {false, true}) {
            HttpResponseReader reader(16, 256);
            if (byteByByte) {
                for (qsizetype i = 0; i < input.size(); ++i)
                    reader.feed(input.mid(i, 1));
            } else {
                reader.feed(input);
            }
            if (thenClose)
                reader.finish();
            QCOMPARE(int(reader.state()), state);
            if (reader.state() == State::Complete || status != 0)
                QCOMPARE(reader.status(), status);
            if (reader.state() == State::Complete)
                QCOMPARE(reader.body(), body);
            if (reader.state() == State::Malformed || reader.state() == State::TooLarge)
                QVERIFY(!reader.error().isEmpty());
        }
    }

    void headersAreLowerCased()
    {
        HttpResponseReader reader(1024);
        reader.feed("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n");
        QCOMPARE(reader.state(), State::Complete);
        QCOMPARE(reader.header("content-type"), QByteArray("application/json"));
    }
};

QTEST_GUILESS_MAIN(tst_HttpResponseReader)
#include "tst_httpresponsereader.moc"
