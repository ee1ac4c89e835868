// The /federation/relay body (docs/spec/peers-api.md §4.4, §6.4): signing with the replay fields
// inside the signature, and verification of received bytes with every refusal as its own kind.
#include "federation/canonicaljson.h"
#include "federation/jsonparser.h"
#include "federation/relayenvelope.h"
#include "federation/relaysignature.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace Federation;
using Kind = RelayError::Kind;

namespace {

const QByteArray token =
    QByteArrayLiteral("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
constexpr qint64 securityVectorTs = 1764470000123;

RelayMessage sampleMessage()
{
    RelayMessage m;
    m.fromId = QStringLiteral("riche-wsl2:a1b2c3d4");
    m.fromMachine = QStringLiteral("riche-wsl2");
    m.toId = QStringLiteral("e5f6a7b8");
    m.text = QStringLiteral("hello");
    return m;
}

RelayVerifyOptions options(qint64 nowMs = securityVectorTs, bool acceptLegacy = true)
{
    return RelayVerifyOptions {token, nowMs, QStringLiteral("rafi-macbook"), acceptLegacy};
}

JsonObject parseObject(QByteArrayView text)
{
    auto parsed = parseJson(text);
    if (!parsed || !parsed->isObject())
        qFatal("test input is not a JSON object");
    return parsed->toObject();
}

// A body as anyone holding the key could sign it, fields as given.
QByteArray signedBody(JsonObject body, QByteArrayView key = token)
{
    body.insert(QStringLiteral("signature"),
                JsonValue::string(QString::fromLatin1(RelaySignature::compute(body, key))));
    return CanonicalJson::stringify(body);
}

JsonObject baseBody(bool withReplay)
{
    JsonObject body =
        parseObject(R"({"from_id":"riche-wsl2:a1b2c3d4","from_machine":"riche-wsl2",)"
                    R"("to_id":"e5f6a7b8","text":"hello","type":"text","metadata":null,"reply_to":null})");
    if (withReplay) {
        body.insert(QStringLiteral("ts"), JsonValue::number(double(securityVectorTs)));
        body.insert(QStringLiteral("nonce"), JsonValue::string(QStringLiteral("q1w2e3r4t5y6u7i8o9p0aZ")));
        body.insert(QStringLiteral("to_machine"), JsonValue::string(QStringLiteral("rafi-macbook")));
    }
    return body;
}

} // namespace

class tst_RelayEnvelope : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void signedRelayVerifiesWithItsFields()
    {
        RelayMessage m = sampleMessage();
        m.type = QStringLiteral("handoff");
        m.metadata = parseJson(R"({"task":"review","2":"x","files":["a.ts"]})").value();
        m.replyTo = 42;
        const RelayReplay replay = RelayReplay::fresh(securityVectorTs, QStringLiteral("rafi-macbook"));
        const QByteArray body = signRelay(m, replay, token);
        const auto envelope = verifyRelay(body, options());
        QVERIFY2(envelope.has_value(), envelope ? "" : qPrintable(envelope.error().message));
        QCOMPARE(envelope->message.fromId, m.fromId);
        QCOMPARE(envelope->message.fromMachine, m.fromMachine);
        QCOMPARE(envelope->message.toId, m.toId);
        QCOMPARE(envelope->message.text, m.text);
        QCOMPARE(envelope->message.type, m.type);
        QCOMPARE(envelope->message.metadata, m.metadata);
        QCOMPARE(envelope->message.replyTo, std::optional<qint64>(42));
        QVERIFY(!envelope->isLegacy());
        QCOMPARE(envelope->replay->tsMs, securityVectorTs);
        QCOMPARE(envelope->replay->nonce, replay.nonce);
        QCOMPARE(envelope->replay->toMachine, QStringLiteral("rafi-macbook"));
        QVERIFY(envelope->checkContent().has_value());
        // 0.7's field order on the wire, the replay fields after them, the signature last.
        QVERIFY(body.startsWith(
            R"({"from_id":"riche-wsl2:a1b2c3d4","from_machine":"riche-wsl2","to_id":"e5f6a7b8",)"
            R"("text":"hello","type":"handoff","metadata":{"2":"x","task":"review","files":["a.ts"]},)"
            "\"reply_to\":42,\"ts\":1764470000123,\"nonce\":\""));
        QVERIFY(body.contains("\",\"to_machine\":\"rafi-macbook\",\"signature\":\""));
    }

    void securityVectorWithReplayFields()
    {
        // docs/spec/federation-security.md §3: the same signature an independent implementation computed.
        const QByteArray body = signedBody(baseBody(true));
        QVERIFY(body.endsWith(
            R"("signature":"a846d3ccd60f1a7efee8ea9b64c4857981c64434523a271a77b6cbd8e7320c7c"})"));
        QVERIFY(verifyRelay(body, options()).has_value());
    }

    void legacyRelayIsReportedAsSuch()
    {
        // docs/spec/peers-api.md §6.5's first vector, as a 0.7 sender writes it.
        const QByteArray body =
            R"({"from_id":"riche-wsl2:a1b2c3d4","from_machine":"riche-wsl2","to_id":"e5f6a7b8",)"
            R"("text":"hello","type":"text","metadata":null,"reply_to":null,)"
            R"("signature":"f4e04795798644636f884d86443b83b5cde2ef7f18333f2b4c8357395bfbae75"})";
        const auto accepted = verifyRelay(body, options());
        QVERIFY(accepted.has_value());
        QVERIFY(accepted->isLegacy());
        QCOMPARE(accepted->message.replyTo, std::nullopt);
        QVERIFY(accepted->message.metadata.isNull());
        const auto refused = verifyRelay(body, options(securityVectorTs, false));
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, Kind::LegacyRefused);
        QVERIFY(refused.error().message.contains(QStringLiteral("accept_legacy")));
        // A wrong signature is refused before legacy is even considered.
        QByteArray tampered = body;
        tampered.replace("hello", "hellO");
        QCOMPARE(verifyRelay(tampered, options()).error().kind, Kind::BadSignature);
    }

    void timestampWindow_data()
    {
        QTest::addColumn<qint64>("nowMs");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("same time") << securityVectorTs << true;
        QTest::newRow("300 s later") << securityVectorTs + 300000 << true;
        QTest::newRow("300 s earlier") << securityVectorTs - 300000 << true;
        QTest::newRow("300.001 s later") << securityVectorTs + 300001 << false;
        QTest::newRow("300.001 s earlier") << securityVectorTs - 300001 << false;
        QTest::newRow("a day later") << securityVectorTs + 86400000 << false;
        QTest::newRow("epoch") << qint64(0) << false;
    }

    void timestampWindow()
    {
        QFETCH(qint64, nowMs);
        QFETCH(bool, accepted);
        const auto result = verifyRelay(signedBody(baseBody(true)), options(nowMs));
        QCOMPARE(result.has_value(), accepted);
        if (!accepted) {
            QCOMPARE(result.error().kind, Kind::StaleTimestamp);
            QCOMPARE(result.error().field, QStringLiteral("ts"));
            QVERIFY(result.error().message.contains(QStringLiteral("clock")));
        }
    }

    void relayForAnotherMachineIsRefused()
    {
        RelayVerifyOptions other = options();
        other.localMachine = QStringLiteral("carol");
        const auto result = verifyRelay(signedBody(baseBody(true)), other);
        QVERIFY(!result);
        QCOMPARE(result.error().kind, Kind::WrongMachine);
        QVERIFY(result.error().message.contains(QStringLiteral("rafi-macbook")));
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<QString>("field");
        auto without = [](const char *field, bool replay = true) {
            JsonObject b = baseBody(replay);
            b.remove(QString::fromLatin1(field));
            return signedBody(b);
        };
        auto with = [](const char *field, const char *json, bool replay = true) {
            JsonObject b = baseBody(replay);
            b.insert(QString::fromLatin1(field), parseJson(json).value());
            return signedBody(b);
        };
        auto withSignature = [](const char *json) {
            JsonObject b = baseBody(true);
            b.insert(QStringLiteral("signature"), parseJson(json).value());
            return CanonicalJson::stringify(b);
        };
        QTest::newRow("not json") << QByteArray("{nope") << Kind::Malformed << QString();
        QTest::newRow("empty") << QByteArray() << Kind::Malformed << QString();
        QTest::newRow("array") << QByteArray("[]") << Kind::Malformed << QString();
        QTest::newRow("string") << QByteArray("\"x\"") << Kind::Malformed << QString();
        QTest::newRow("too deep") << QByteArray("{\"m\":" + QByteArray(100, '[') + QByteArray(100, ']') + "}")
                                  << Kind::Malformed << QString();
        QTest::newRow("too large") << QByteArray(RelayEnvelope::maxBodyBytes + 1, ' ') << Kind::TooLarge
                                   << QString();
        QTest::newRow("no signature")
            << CanonicalJson::stringify(baseBody(true)) << Kind::BadSignature << QStringLiteral("signature");
        QTest::newRow("empty signature")
            << withSignature("\"\"") << Kind::BadSignature << QStringLiteral("signature");
        QTest::newRow("numeric signature")
            << withSignature("1") << Kind::BadSignature << QStringLiteral("signature");
        QTest::newRow("upper-case signature")
            << withSignature("\"A846D3CCD60F1A7EFEE8EA9B64C4857981C64434523A271A77B6CBD8E7320C7C\"")
            << Kind::BadSignature << QStringLiteral("signature");
        QTest::newRow("wrong key") << signedBody(baseBody(true), "another key") << Kind::BadSignature
                                   << QStringLiteral("signature");
        QTest::newRow("no from_id") << without("from_id") << Kind::MissingField << QStringLiteral("from_id");
        QTest::newRow("no from_machine")
            << without("from_machine") << Kind::MissingField << QStringLiteral("from_machine");
        QTest::newRow("no to_id") << without("to_id") << Kind::MissingField << QStringLiteral("to_id");
        QTest::newRow("null text") << with("text", "null") << Kind::MissingField << QStringLiteral("text");
        QTest::newRow("numeric to_id") << with("to_id", "5") << Kind::BadField << QStringLiteral("to_id");
        QTest::newRow("object text") << with("text", "{}") << Kind::BadField << QStringLiteral("text");
        QTest::newRow("fractional reply_to")
            << with("reply_to", "1.5") << Kind::BadField << QStringLiteral("reply_to");
        QTest::newRow("word reply_to")
            << with("reply_to", "\"first\"") << Kind::BadField << QStringLiteral("reply_to");
        QTest::newRow("huge reply_to")
            << with("reply_to", "1e300") << Kind::BadField << QStringLiteral("reply_to");
        QTest::newRow("ts without nonce")
            << without("nonce") << Kind::MissingField << QStringLiteral("nonce");
        QTest::newRow("ts without to_machine")
            << without("to_machine") << Kind::MissingField << QStringLiteral("to_machine");
        QTest::newRow("nonce alone") << with("nonce", "\"q1w2e3r4t5y6u7i8o9p0aZ\"", false)
                                     << Kind::MissingField << QStringLiteral("ts");
        QTest::newRow("string ts") << with("ts", "\"1764470000123\"") << Kind::BadField
                                   << QStringLiteral("ts");
        QTest::newRow("fractional ts")
            << with("ts", "1764470000123.5") << Kind::BadField << QStringLiteral("ts");
        QTest::newRow("negative ts") << with("ts", "-1") << Kind::BadField << QStringLiteral("ts");
        QTest::newRow("null ts") << with("ts", "null") << Kind::BadField << QStringLiteral("ts");
        QTest::newRow("short nonce") << with("nonce", "\"abc\"") << Kind::BadField << QStringLiteral("nonce");
        QTest::newRow("nonce with padding")
            << with("nonce", "\"q1w2e3r4t5y6u7i8o9p0aZ==\"") << Kind::BadField << QStringLiteral("nonce");
        QTest::newRow("empty to_machine")
            << with("to_machine", "\"\"") << Kind::BadField << QStringLiteral("to_machine");
    }

    void refusals()
    {
        QFETCH(QByteArray, body);
        QFETCH(Kind, kind);
        QFETCH(QString, field);
        const auto result = verifyRelay(body, options());
        QVERIFY(!result);
        QCOMPARE(result.error().kind, kind);
        QCOMPARE(result.error().field, field);
        QVERIFY(!result.error().message.isEmpty());
    }

    void everySignedFieldIsCovered_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::newRow("text") << QByteArray("\"text\":\"hello\"") << QByteArray("\"text\":\"hellp\"");
        QTest::newRow("ts") << QByteArray("\"ts\":1764470000123") << QByteArray("\"ts\":1764470000124");
        QTest::newRow("nonce") << QByteArray("p0aZ\"") << QByteArray("p0aY\"");
        QTest::newRow("to_machine") << QByteArray("rafi-macbook") << QByteArray("rafi-macboox");
        QTest::newRow("reply_to") << QByteArray("\"reply_to\":null") << QByteArray("\"reply_to\":1");
        QTest::newRow("added field") << QByteArray("{") << QByteArray("{\"x\":1,");
    }

    void everySignedFieldIsCovered()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QByteArray body = signedBody(baseBody(true));
        QVERIFY(body.contains(from));
        body.replace(from, to);
        QCOMPARE(verifyRelay(body, options()).error().kind, Kind::BadSignature);
    }

    void unknownFieldsStaySigned()
    {
        JsonObject b = baseBody(true);
        b.insert(QStringLiteral("future_field"), JsonValue::string(QStringLiteral("x")));
        const auto result = verifyRelay(signedBody(b), options());
        QVERIFY(result.has_value());
        QVERIFY(result->body.contains(u"future_field"));
    }

    void typeIsCoercedAs07Does_data()
    {
        QTest::addColumn<QByteArray>("type");
        QTest::addColumn<QString>("expected");
        QTest::newRow("query") << QByteArray("\"query\"") << QStringLiteral("query");
        QTest::newRow("broadcast") << QByteArray("\"broadcast\"") << QStringLiteral("broadcast");
        QTest::newRow("unknown") << QByteArray("\"shout\"") << QStringLiteral("text");
        QTest::newRow("upper case") << QByteArray("\"QUERY\"") << QStringLiteral("text");
        QTest::newRow("null") << QByteArray("null") << QStringLiteral("text");
        QTest::newRow("number") << QByteArray("3") << QStringLiteral("text");
    }

    void typeIsCoercedAs07Does()
    {
        QFETCH(QByteArray, type);
        QFETCH(QString, expected);
        JsonObject b = baseBody(true);
        b.insert(QStringLiteral("type"), parseJson(type).value());
        const auto result = verifyRelay(signedBody(b), options());
        QVERIFY(result.has_value());
        QCOMPARE(result->message.type, expected);
    }

    void replyToAsDigitsIsAccepted()
    {
        JsonObject b = baseBody(true);
        b.insert(QStringLiteral("reply_to"), JsonValue::string(QStringLiteral("42")));
        const auto result = verifyRelay(signedBody(b), options());
        QVERIFY(result.has_value());
        QCOMPARE(result->message.replyTo, std::optional<qint64>(42));
    }

    void contentRules_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("metadata");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("error"); // -1: none
        QTest::newRow("empty") << QString() << QByteArray("null") << 0 << -1;
        QTest::newRow("limit") << QString(10240, u'a') << QByteArray("null") << 10240 << -1;
        QTest::newRow("over") << QString(10241, u'a') << QByteArray("null") << 10241
                              << int(Kind::ContentTooLarge);
        QTest::newRow("with metadata") << QString(10230, u'a') << QByteArray(R"({"k":"xx"})") << 10240 << -1;
        QTest::newRow("metadata over")
            << QString(10231, u'a') << QByteArray(R"({"k":"xx"})") << 10241 << int(Kind::ContentTooLarge);
        // UTF-16 code units, as JavaScript's length: a non-BMP character counts two.
        QTest::newRow("non-bmp") << QString::fromUtf8("\xf0\x9f\x98\x80") << QByteArray("null") << 2 << -1;
        QTest::newRow("escaped control in metadata")
            << QString() << QByteArray(R"({"k":"\u0001"})") << 14 << -1;
        QTest::newRow("array metadata") << QString() << QByteArray("[]") << 2 << int(Kind::MetadataNotObject);
        QTest::newRow("string metadata")
            << QString() << QByteArray("\"x\"") << 3 << int(Kind::MetadataNotObject);
    }

    void contentRules()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, metadata);
        QFETCH(int, size);
        QFETCH(int, error);
        RelayMessage m = sampleMessage();
        m.text = text;
        m.metadata = parseJson(metadata).value();
        const auto envelope = verifyRelay(
            signRelay(m, RelayReplay::fresh(securityVectorTs, QStringLiteral("rafi-macbook")), token),
            options());
        QVERIFY(envelope.has_value());
        QCOMPARE(envelope->contentSize(), size);
        const auto checked = envelope->checkContent();
        QCOMPARE(checked.has_value(), error < 0);
        if (error >= 0) {
            QCOMPARE(int(checked.error().kind), error);
            // 0.7's exact error strings (docs/spec/peers-api.md §4.4).
            QVERIFY(checked.error().message == QStringLiteral("metadata must be a JSON object") ||
                    checked.error().message ==
                        QStringLiteral("Message too large (text + metadata max 10KB)"));
        }
    }

    void freshNoncesAreRandomBase64Url()
    {
        const RelayReplay a = RelayReplay::fresh(1, QStringLiteral("b"));
        const RelayReplay b = RelayReplay::fresh(1, QStringLiteral("b"));
        QCOMPARE(a.nonce.size(), 22);
        QVERIFY(a.nonce != b.nonce);
        QVERIFY(!a.nonce.contains(u'=') && !a.nonce.contains(u'+') && !a.nonce.contains(u'/'));
        QCOMPARE(a.tsMs, 1);
        QCOMPARE(a.toMachine, QStringLiteral("b"));
    }

    // A 0.7 receiver (its verifySignature, run by Node) accepts what we sign, replay fields
    // included; its tampered copy fails there too.
    void javascriptReceiverVerifiesOurRelays()
    {
        const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (node.isEmpty())
            QSKIP("node is not installed: the C++ vectors (tst_canonicaljson) cover the same ground");
        RelayMessage m = sampleMessage();
        m.text = QStringLiteral("\u00dcn\u00efcode \u201cq\u201d \n\t / <> \U0001F600");
        m.text.append(QChar(0xD800)); // a lone surrogate
        m.metadata =
            parseJson(R"({"task":"r","10":1,"2":[1e21,1e-7,-0.5],"nested":{"b":1,"a":null}})").value();
        m.replyTo = 7;
        const QByteArray ours =
            signRelay(m, RelayReplay::fresh(securityVectorTs, QStringLiteral("rafi-macbook")), token);
        QByteArray tampered = ours;
        tampered.replace("\"task\":\"r\"", "\"task\":\"s\"");
        const char *script = R"(
const { createHmac, timingSafeEqual } = require("node:crypto");
function signMessage(body, psk) {
  const canonicalObj = {};
  for (const key of Object.keys(body).sort()) canonicalObj[key] = body[key];
  return createHmac("sha256", psk).update(JSON.stringify(canonicalObj)).digest("hex");
}
function verify(text, psk) {
  const { signature, ...bodyWithoutSig } = JSON.parse(text);
  const expected = signMessage(bodyWithoutSig, psk);
  return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}
const [ours, tampered, psk] = process.argv.slice(1).map((b) => Buffer.from(b, "base64").toString("utf8"));
console.log(verify(ours, psk) + " " + verify(tampered, psk));
)";
        QProcess process;
        process.start(node,
                      {QStringLiteral("-e"), QString::fromLatin1(script),
                       QString::fromLatin1(ours.toBase64()), QString::fromLatin1(tampered.toBase64()),
                       QString::fromLatin1(token.toBase64())});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(process.readAllStandardOutput().trimmed(), QByteArray("true false"));
    }
};

QTEST_GUILESS_MAIN(tst_RelayEnvelope)
#include "tst_relayenvelope.moc"
