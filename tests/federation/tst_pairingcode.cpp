// The pieces of pairing by code without a network: the code's form, its key, single use, expiry
// and the failure limit; the sealed PSK; the pending requests' bound, rate limit and expiry.
#include "federation/pairingcode.h"
#include "federation/pendingrequests.h"

#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace Federation;
using namespace Qt::StringLiterals;

namespace {
const QString kPin = u"sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"_s;
constexpr qint64 kT0 = 1'800'000'000'000;

PendingRequests::Candidate candidate(const QString &host, int n)
{
    PendingRequests::Candidate c;
    c.host = host;
    c.port = 7900;
    c.hostname = u"m%1"_s.arg(n);
    c.fingerprint = u"sha256-%1"_s.arg(n, 43, 10, QLatin1Char('0'));
    return c;
}
} // namespace

class tst_PairingCode : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void codesAreTypeableAndForgiving()
    {
        QSet<QString> seen;
        for (int i = 0; i < 200; ++i) {
            const QString code = PairingCode::newCode();
            QCOMPARE(code.size(), 11);
            QCOMPARE(code.at(5), u'-');
            QVERIFY(PairingCode::normalizeCode(code).has_value());
            seen.insert(code);
        }
        QCOMPARE(seen.size(), 200);
        QCOMPARE(*PairingCode::normalizeCode(u"abcde-fghjk"_s), u"ABCDEFGHJK"_s);
        QCOMPARE(*PairingCode::normalizeCode(u" oIl2 3-4567 8"_s), u"0112345678"_s);
        QVERIFY(!PairingCode::normalizeCode(u"ABCDE-FGHJ"_s)); // too short
        QVERIFY(!PairingCode::normalizeCode(u"ABCDE-FGHJKM"_s)); // too long
        QVERIFY(!PairingCode::normalizeCode(u"ABCDE-FGHJU"_s)); // U is not in the alphabet
        QVERIFY(!PairingCode::normalizeCode(u"ABCDE\u00c9FGHJ"_s));
        QVERIFY(!PairingCode::normalizeCode(QString(1000, u'A')));
    }

    void keyDependsOnCodeAndIssuer()
    {
        const QByteArray key = PairingCode::codeKey(u"ABCDEFGHJK"_s, kPin);
        QCOMPARE(key.size(), 32);
        // PBKDF2-HMAC-SHA256, 100000 rounds, salt "cpt-pair-v1|<pin>" (Python's hashlib agrees).
        QCOMPARE(key.toHex(), QByteArray("4a90f828cfa7fccb5f00c354aed958b4d5f9ca34eb687e511e799e91b2602715"));
        QCOMPARE(PairingCode::codeKey(u"ABCDEFGHJK"_s, kPin), key);
        QVERIFY(PairingCode::codeKey(u"ABCDEFGHJM"_s, kPin) != key);
        QVERIFY(PairingCode::codeKey(u"ABCDEFGHJK"_s, u"sha256-B"_s) != key);
        const QByteArray proof = PairingCode::proof(key, "request", {"n", "a", "b"});
        QVERIFY(PairingCode::isWellFormedProof(QString::fromLatin1(proof)));
        QVERIFY(PairingCode::proofMatches(proof, proof));
        QVERIFY(!PairingCode::proofMatches(proof, PairingCode::proof(key, "request", {"n", "b", "a"})));
        QVERIFY(!PairingCode::proofMatches(proof, PairingCode::proof(key, "issuer", {"n", "a", "b"})));
        QVERIFY(PairingCode::isWellFormedNonce(PairingCode::newNonce()));
        QVERIFY(!PairingCode::isWellFormedNonce(u"short"_s));
    }

    void codeIsSingleUseAndExpires()
    {
        PairingCode::CodeBook book;
        const auto issued = book.issue(kPin, kT0);
        const QByteArray key = PairingCode::codeKey(*PairingCode::normalizeCode(issued.code), kPin);
        const auto isKey = [&](const QByteArray &k) { return k == key; };
        QCOMPARE(book.liveCount(kT0), 1);
        QCOMPARE(book.redeem(isKey, kT0 + 1000).value_or(QByteArray()), key);
        QVERIFY(!book.redeem(isKey, kT0 + 2000)); // used up
        const auto later = book.issue(kPin, kT0);
        const QByteArray laterKey = PairingCode::codeKey(*PairingCode::normalizeCode(later.code), kPin);
        QVERIFY(!book.redeem([&](const QByteArray &k) { return k == laterKey; },
                             kT0 + PairingCode::CodeBook::kLifetimeMs)); // expired
        QCOMPARE(book.liveCount(kT0 + PairingCode::CodeBook::kLifetimeMs), 0);
    }

    void codeIsDroppedAfterFiveWrongProofs()
    {
        PairingCode::CodeBook book;
        const auto issued = book.issue(kPin, kT0);
        const QByteArray key = PairingCode::codeKey(*PairingCode::normalizeCode(issued.code), kPin);
        for (int i = 0; i < PairingCode::CodeBook::kMaxFailures; ++i)
            QVERIFY(!book.redeem([](const QByteArray &) { return false; }, kT0));
        QCOMPARE(book.liveCount(kT0), 0);
        QCOMPARE(book.codesBurned(), 1);
        QVERIFY(!book.redeem([&](const QByteArray &k) { return k == key; }, kT0)); // even the right one now
    }

    void boundedLiveCodes()
    {
        PairingCode::CodeBook book;
        for (int i = 0; i < 10; ++i)
            book.issue(kPin, kT0);
        QCOMPARE(book.liveCount(kT0), PairingCode::CodeBook::kMaxLive);
    }

    void sealedSecretOpensOnlyWithTheSameKeyAndBinding()
    {
        const QByteArray key = PairingCode::codeKey(u"ABCDEFGHJK"_s, kPin);
        const QByteArray secret = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1";
        const QString sealed = PairingCode::sealSecret(key, secret, "aad");
        QVERIFY(!sealed.isEmpty());
        QVERIFY(!sealed.contains(QString::fromLatin1(secret)));
        QCOMPARE(PairingCode::openSecret(key, sealed, "aad").value_or(QByteArray()), secret);
        QVERIFY(!PairingCode::openSecret(PairingCode::codeKey(u"ABCDEFGHJM"_s, kPin), sealed, "aad"));
        QVERIFY(!PairingCode::openSecret(key, sealed, "other"));
        QString tampered = sealed;
        tampered[20] = tampered[20] == u'A' ? u'B' : u'A';
        QVERIFY(!PairingCode::openSecret(key, tampered, "aad"));
        QVERIFY(!PairingCode::openSecret(key, u"!!"_s, "aad"));
        QVERIFY(!PairingCode::openSecret(key, QString(5000, u'A'), "aad"));
    }

    void pendingRequestsAreBounded()
    {
        PendingRequests pending;
        for (int i = 0; i < PendingRequests::kMaxPending; ++i)
            QVERIFY(pending.add(candidate(u"10.0.0.%1"_s.arg(i), i), kT0).has_value());
        const auto full = pending.add(candidate(u"10.0.1.1"_s, 99), kT0);
        QVERIFY(!full);
        QVERIFY(full.error().contains(u"Too many pairing requests"_s));
        QCOMPARE(pending.pendingCount(kT0), PendingRequests::kMaxPending);
        const auto duplicate = pending.add(candidate(u"10.0.0.1"_s, 1), kT0);
        QVERIFY(!duplicate);
    }

    void attemptsAreRateLimitedPerSource()
    {
        PendingRequests pending;
        for (int i = 0; i < PendingRequests::kAttemptsPerMinute; ++i)
            QVERIFY(pending.allowAttempt(u"10.0.0.1"_s, kT0 + i));
        QVERIFY(!pending.allowAttempt(u"10.0.0.1"_s, kT0 + 10));
        QVERIFY(pending.allowAttempt(u"10.0.0.2"_s, kT0 + 10)); // another source
        QVERIFY(pending.allowAttempt(u"10.0.0.1"_s, kT0 + 60'001)); // a minute later
    }

    void requestsExpireAndDecidedOnesStayAWhile()
    {
        PendingRequests pending;
        const QString a = *pending.add(candidate(u"10.0.0.1"_s, 1), kT0);
        const QString b = *pending.add(candidate(u"10.0.0.2"_s, 2), kT0);
        QVERIFY(pending.decide(b, PendingState::Rejected, kT0 + 5 * 60'000));
        QVERIFY(!pending.decide(b, PendingState::Accepted, kT0 + 5 * 60'000)); // decided once
        QCOMPARE(pending.toJson(kT0 + 5 * 60'000).size(), 2);
        QCOMPARE(pending.pendingCount(kT0 + 5 * 60'000), 1);
        QVERIFY(!pending.find(a, kT0 + PendingRequests::kLifetimeMs)); // expired
        QVERIFY(pending.find(b, kT0 + PendingRequests::kLifetimeMs)); // rejected 5 min later: still shown
        QCOMPARE(
            pending.toJson(kT0 + PendingRequests::kLifetimeMs).first().toObject().value(u"state").toString(),
            u"rejected"_s);
        QVERIFY(!pending.find(b, kT0 + 5 * 60'000 + PendingRequests::kLifetimeMs));
    }
};

QTEST_GUILESS_MAIN(tst_PairingCode)
#include "tst_pairingcode.moc"
