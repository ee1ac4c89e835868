// Request-body parsing and typed field reads: 400s with clear texts instead of 500s.
#include "broker/internal/jsonbody.h"

#include <QJsonDocument>
#include <QTest>

using Broker::JsonFields;

class tst_JsonBody : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rejectsMalformedBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("truncated") << QByteArray("{\"id\":");
        QTest::newRow("array") << QByteArray("[1,2]");
        QTest::newRow("scalar") << QByteArray("42");
        QTest::newRow("string") << QByteArray("\"x\"");
        QTest::newRow("garbage") << QByteArray("id=1&x=2");
        QTest::newRow("trailing") << QByteArray("{} {}");
        QTest::newRow("nul bytes") << QByteArray("{\"a\":\0}", 7);
    }
    void rejectsMalformedBodies()
    {
        QFETCH(QByteArray, body);
        auto parsed = Broker::parseJsonBody(body);
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().httpStatus, 400);
        QVERIFY2(parsed.error().message.startsWith(QLatin1String("Invalid JSON body: ")),
                 qPrintable(parsed.error().message));
    }

    void emptyBodyIsEmptyObject()
    {
        auto parsed = Broker::parseJsonBody("  \r\n");
        QVERIFY(parsed);
        QVERIFY(parsed->isEmpty());
    }

    void readsTypedFields()
    {
        const QJsonObject o =
            QJsonDocument::fromJson(
                R"({"s":"x","n":5,"big":9007199254740992,"nul":null,"list":[1,2,3],"f":1.5})")
                .object();
        JsonFields f(o);
        QCOMPARE(f.string("s"), QStringLiteral("x"));
        QCOMPARE(f.integer("n", 1), 5);
        QCOMPARE(f.optionalString("nul", QStringLiteral("dflt")), QStringLiteral("dflt"));
        QCOMPARE(f.optionalString("missing"), QString());
        QCOMPARE(f.optionalInteger("missing"), std::nullopt);
        QCOMPARE(f.integerList("list"), (QList<qint64> {1, 2, 3}));
        QVERIFY(!f.error());
    }

    void acceptsNumericStringsLikeTheReference()
    {
        const QJsonObject o =
            QJsonDocument::fromJson(R"({"n":"123","neg":" -7 ","list":["1",2,"3"],"big":"9007199254740993"})")
                .object();
        JsonFields f(o);
        QCOMPARE(f.integer("n", 1), 123);
        QCOMPARE(f.integer("neg"), -7);
        QCOMPARE(f.integerList("list"), (QList<qint64> {1, 2, 3}));
        QVERIFY(!f.error());
        f.integer("big"); // beyond 2^53, like a JSON number there
        QVERIFY(f.error());
    }

    void checksLengthInUtf8Bytes()
    {
        const QJsonObject o;
        JsonFields f(o);
        f.checkLength("s", QString(4, QChar(0x00e9)), 8);
        QVERIFY(!f.error());
        f.checkLength("s", QString(5, QChar(0x00e9)), 8);
        QVERIFY(f.error());
        QCOMPARE(f.error()->message,
                 QStringLiteral("Field \"s\" must be a string of at most 8 bytes (UTF-8)"));
    }

    void reportsTheFirstBadField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing string") << QByteArray("{}") << QStringLiteral("Field \"s\" must be a string");
        QTest::newRow("number as string")
            << QByteArray(R"({"s":1})") << QStringLiteral("Field \"s\" must be a string");
        QTest::newRow("null string") << QByteArray(R"({"s":null})")
                                     << QStringLiteral("Field \"s\" must be a string");
        QTest::newRow("bad optional")
            << QByteArray(R"({"s":"a","o":[]})") << QStringLiteral("Field \"o\" must be a string or null");
        QTest::newRow("fraction") << QByteArray(R"({"s":"a","o":"b","n":1.5})")
                                  << QStringLiteral("Field \"n\" must be a positive integer");
        QTest::newRow("zero") << QByteArray(R"({"s":"a","n":0})")
                              << QStringLiteral("Field \"n\" must be a positive integer");
        QTest::newRow("string not a number") << QByteArray(R"({"s":"a","n":"5x"})")
                                             << QStringLiteral("Field \"n\" must be a positive integer");
        QTest::newRow("string number zero")
            << QByteArray(R"({"s":"a","n":"0"})") << QStringLiteral("Field \"n\" must be a positive integer");
        QTest::newRow("too big") << QByteArray(R"({"s":"a","n":1e300})")
                                 << QStringLiteral("Field \"n\" must be a positive integer");
        QTest::newRow("list not array") << QByteArray(R"({"s":"a","n":1,"l":5})")
                                        << QStringLiteral("Field \"l\" must be an array of integers");
        QTest::newRow("list with string") << QByteArray(R"({"s":"a","n":1,"l":[1,"2nd"]})")
                                          << QStringLiteral("Field \"l\" must be an array of integers");
    }
    void reportsTheFirstBadField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        JsonFields f(o);
        f.string("s");
        f.optionalString("o");
        f.integer("n", 1);
        f.integerList("l");
        QVERIFY(f.error());
        QCOMPARE(f.error()->message, message);
        QCOMPARE(f.error()->httpStatus, 400);
    }
};

QTEST_GUILESS_MAIN(tst_JsonBody)
#include "tst_jsonbody.moc"
