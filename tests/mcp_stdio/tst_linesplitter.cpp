#include "mcp_stdio/linesplitter.h"

#include <QTest>

using Mcp::LineSplitter;

class tst_LineSplitter : public QObject
{
    Q_OBJECT

private:
    static QList<QByteArray> lines(const QList<LineSplitter::Item> &items)
    {
        QList<QByteArray> out;
        for (const auto &i : items)
            out << (i.tooLong ? QByteArray("<too long>") : i.line);
        return out;
    }

private Q_SLOTS:
    void splitsInputFedByteByByte_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QList<QByteArray>>("expected");
        QTest::newRow("one line") << QByteArray("{\"a\":1}\n") << QList<QByteArray> {"{\"a\":1}"};
        QTest::newRow("two lines") << QByteArray("a\nb\n") << QList<QByteArray> {"a", "b"};
        QTest::newRow("crlf") << QByteArray("a\r\nb\r\n") << QList<QByteArray> {"a", "b"};
        QTest::newRow("blank lines dropped")
            << QByteArray("\n\n a \n\r\n  \nb\n") << QList<QByteArray> {" a ", "b"};
        QTest::newRow("unterminated tail waits") << QByteArray("a\nb") << QList<QByteArray> {"a"};
        QTest::newRow("utf8 kept") << QByteArray("\xc3\xa9\xe2\x82\xac\n")
                                   << QList<QByteArray> {"\xc3\xa9\xe2\x82\xac"};
        QTest::newRow("invalid utf8 passed through")
            << QByteArray("\xff\xfe\n") << QList<QByteArray> {"\xff\xfe"};
        QTest::newRow("cr inside kept") << QByteArray("a\rb\n") << QList<QByteArray> {"a\rb"};
    }
    void splitsInputFedByteByByte()
    {
        QFETCH(QByteArray, input);
        QFETCH(QList<QByteArray>, expected);
        // Every split point must give the same result as one big read.
        LineSplitter whole;
        QCOMPARE(lines(whole.feed(input)), expected);
        LineSplitter bytewise;
        QList<LineSplitter::Item> got;
        for (char c : input)
            got += bytewise.feed(&c, 1);
        QCOMPARE(lines(got), expected);
        for (qsizetype cut = 0; cut <= input.size(); ++cut) {
            LineSplitter two;
            QList<LineSplitter::Item> items = two.feed(input.left(cut));
            items += two.feed(input.mid(cut));
            QCOMPARE(lines(items), expected);
        }
    }

    void finishDeliversUnterminatedLastLine()
    {
        LineSplitter s;
        QVERIFY(s.feed(QByteArray("{\"x\":1}")).isEmpty());
        QCOMPARE(lines(s.finish()), QList<QByteArray> {"{\"x\":1}"});
        QCOMPARE(s.buffered(), 0);
    }

    void oversizedLineIsReportedOnceAndSkipped_data()
    {
        QTest::addColumn<int>("chunk");
        QTest::newRow("one read") << 0;
        QTest::newRow("byte by byte") << 1;
        QTest::newRow("chunks of 7") << 7;
        QTest::newRow("chunks of 64") << 64;
    }
    void oversizedLineIsReportedOnceAndSkipped()
    {
        QFETCH(int, chunk);
        LineSplitter s(16);
        const QByteArray input = "short\n" + QByteArray(100, 'x') + "\nafter\n" + QByteArray(16, 'y') + "\n";
        QList<LineSplitter::Item> items;
        if (QByteArray(QTest::currentDataTag()) == "one read") {
            items = s.feed(input);
        } else {
            for (qsizetype i = 0; i < input.size(); i += chunk)
                items += s.feed(input.mid(i, chunk));
        }
        QCOMPARE(lines(items), (QList<QByteArray> {"short", "<too long>", "after", QByteArray(16, 'y')}));
        QVERIFY(s.buffered() <= 16);
    }

    void oversizedUnterminatedLineKeepsNoMemory()
    {
        LineSplitter s(1024);
        QList<LineSplitter::Item> items;
        for (int i = 0; i < 100; ++i)
            items += s.feed(QByteArray(1000, 'z'));
        QCOMPARE(items.size(), 1);
        QVERIFY(items.first().tooLong);
        QCOMPARE(s.buffered(), 0);
        QVERIFY(s.finish().isEmpty());
    }

    void lineExactlyAtTheLimitPasses()
    {
        LineSplitter s(8);
        QCOMPARE(lines(s.feed(QByteArray("12345678\n123456789\n"))),
                 (QList<QByteArray> {"12345678", "<too long>"}));
    }
};

QTEST_GUILESS_MAIN(tst_LineSplitter)
#include "tst_linesplitter.moc"
