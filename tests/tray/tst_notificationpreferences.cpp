// The notification preferences without a bus or a display: quiet hours (crossing midnight), a
// pause that ends by itself (a fixed clock), the order of the reasons, the config file (other keys
// kept, a malformed file left alone), durations; and the in-app list model.
#include "app/tray/notifications/notificationlistmodel.h"
#include "app/tray/notifications/notificationpreferences.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using App::NotificationKind;
using App::NotificationPreferences;
using App::QuietHours;
using App::Suppression;

class tst_NotificationPreferences : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quietHours_data()
    {
        QTest::addColumn<QString>("window");
        QTest::addColumn<QString>("time");
        QTest::addColumn<bool>("quiet");
        QTest::newRow("before, same day") << u"09:00-17:00"_s << u"08:59"_s << false;
        QTest::newRow("start is inside") << u"09:00-17:00"_s << u"09:00"_s << true;
        QTest::newRow("end is outside") << u"09:00-17:00"_s << u"17:00"_s << false;
        QTest::newRow("crossing: evening") << u"22:00-07:00"_s << u"23:30"_s << true;
        QTest::newRow("crossing: midnight") << u"22:00-07:00"_s << u"00:00"_s << true;
        QTest::newRow("crossing: early") << u"22:00-07:00"_s << u"06:59"_s << true;
        QTest::newRow("crossing: end") << u"22:00-07:00"_s << u"07:00"_s << false;
        QTest::newRow("crossing: noon") << u"22:00-07:00"_s << u"12:00"_s << false;
        QTest::newRow("crossing: just before") << u"22:00-07:00"_s << u"21:59"_s << false;
    }

    void quietHours()
    {
        QFETCH(QString, window);
        QFETCH(QString, time);
        QFETCH(bool, quiet);
        const auto hours = QuietHours::parse(window);
        QVERIFY(hours);
        QCOMPARE(hours->toText(), window);
        QCOMPARE(hours->contains(QTime::fromString(time, u"HH:mm"_s)), quiet);

        // Through decide(), with a local clock.
        NotificationPreferences p;
        p.quietHours = *hours;
        const QDateTime now(QDate(2026, 12, 1), QTime::fromString(time, u"HH:mm"_s));
        QCOMPARE(p.decide(NotificationKind::NeedsYou, u"p1"_s, now),
                 quiet ? Suppression::QuietHours : Suppression::Shown);
    }

    void rejectsBadQuietHours_data()
    {
        QTest::addColumn<QString>("text");
        for (const char *bad : {"", "22:00", "22-07", "24:00-07:00", "22:60-07:00", "22:00-07:00-08:00",
                                "10:00-10:00", "ab:cd-ef:gh", "22:00 07:00"})
            QTest::newRow(bad) << QString::fromLatin1(bad);
    }

    void rejectsBadQuietHours()
    {
        QFETCH(QString, text);
        const auto hours = QuietHours::parse(text);
        QVERIFY(!hours);
        QVERIFY(!hours.error().message.isEmpty());
    }

    void pauseEndsByItself()
    {
        const QDateTime t0 = QDateTime::fromString(u"2026-12-01T10:00:00Z"_s, Qt::ISODate);
        NotificationPreferences p;
        p.pause(t0.addSecs(1800));
        QCOMPARE(p.decide(NotificationKind::NeedsYou, {}, t0), Suppression::Paused);
        QCOMPARE(p.decide(NotificationKind::NeedsYou, {}, t0.addSecs(1799)), Suppression::Paused);
        QCOMPARE(p.decide(NotificationKind::NeedsYou, {}, t0.addSecs(1800)), Suppression::Shown);
        // Until turned back on: any time later still paused.
        p.pause();
        QCOMPARE(p.decide(NotificationKind::NeedsYou, {}, t0.addDays(365)), Suppression::Paused);
        p.resume();
        QCOMPARE(p.decide(NotificationKind::NeedsYou, {}, t0), Suppression::Shown);
    }

    void reasonsAndKinds()
    {
        const QDateTime now = QDateTime::fromString(u"2026-12-01T10:00:00Z"_s, Qt::ISODate);
        NotificationPreferences p;
        QCOMPARE(p.decide(NotificationKind::PeerJoined, u"p1"_s, now), Suppression::KindOff);
        QCOMPARE(p.decide(NotificationKind::PeerLeft, u"p1"_s, now), Suppression::KindOff);
        QCOMPARE(p.decide(NotificationKind::MessageReceived, u"p1"_s, now), Suppression::Shown);
        p.setKindEnabled(NotificationKind::PeerJoined, true);
        QCOMPARE(p.decide(NotificationKind::PeerJoined, u"p1"_s, now), Suppression::Shown);

        p.onlyWaitingForYou = true;
        QCOMPARE(p.decide(NotificationKind::MessageReceived, u"p1"_s, now), Suppression::NotWaitingForYou);
        QCOMPARE(p.decide(NotificationKind::NeedsYou, u"p1"_s, now), Suppression::Shown);
        QCOMPARE(p.decide(NotificationKind::PairingRequest, {}, now), Suppression::Shown);

        p.mute(u"p1"_s);
        QCOMPARE(p.decide(NotificationKind::NeedsYou, u"p1"_s, now), Suppression::PeerMuted);
        QCOMPARE(p.decide(NotificationKind::NeedsYou, u"p2"_s, now), Suppression::Shown);
        p.unmute(u"p1"_s);
        QCOMPARE(p.decide(NotificationKind::NeedsYou, u"p1"_s, now), Suppression::Shown);

        p.enabled = false;
        QCOMPARE(p.decide(NotificationKind::NeedsYou, u"p2"_s, now), Suppression::AllOff);
    }

    void jsonRoundTrip()
    {
        NotificationPreferences p;
        p.enabled = false;
        p.setKindEnabled(NotificationKind::PeerLeft, true);
        p.setKindEnabled(NotificationKind::SessionDone, false);
        p.mute(u"zz"_s);
        p.mute(u"aa"_s);
        p.quietHours = QuietHours {QTime(22, 0), QTime(7, 30)};
        p.pause(QDateTime::fromString(u"2026-12-01T12:00:00Z"_s, Qt::ISODate));
        p.onlyWaitingForYou = true;
        const QJsonObject json = p.toJson();
        QCOMPARE(json.value(u"muted_peers"_s).toArray().size(), 2);
        QCOMPARE(json.value(u"paused_until"_s).toString(), u"2026-12-01T12:00:00Z"_s);
        QCOMPARE(NotificationPreferences::fromJson(json), p);
        QCOMPARE(NotificationPreferences::fromJson({}), NotificationPreferences());
    }

    void mistypedEntriesKeepTheDefaults()
    {
        const auto doc = QJsonDocument::fromJson(R"({"enabled": "no", "kinds": {"needs_you": 0, "nope": false,
            "peer_left": true}, "muted_peers": [1, "p1", null], "quiet_hours": {"start": "25:00", "end": "07:00"},
            "paused": true, "paused_until": "never"})");
        const NotificationPreferences p = NotificationPreferences::fromJson(doc.object());
        QVERIFY(p.enabled);
        QVERIFY(p.kindEnabled(NotificationKind::NeedsYou));
        QVERIFY(p.kindEnabled(NotificationKind::PeerLeft));
        QCOMPARE(p.mutedPeers, QStringList {u"p1"_s});
        QVERIFY(!p.quietHours);
        QVERIFY(p.paused);
        QVERIFY(!p.pausedUntil.isValid()); // an unreadable time: paused until resumed
    }

    void savesBesideTheOtherKeys()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"federation": {"enabled": true, "port": 7901}, "custom": [1, 2]})");
        f.close();
        NotificationPreferences p;
        p.mute(u"p1"_s);
        QVERIFY(p.save(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QCOMPARE(root.value(u"federation"_s).toObject().value(u"port"_s).toInt(), 7901);
        QCOMPARE(root.value(u"custom"_s).toArray().size(), 2);
        QCOMPARE(root.value(u"notifications"_s).toObject().value(u"muted_peers"_s).toArray().at(0).toString(),
                 u"p1"_s);
        QCOMPARE(*NotificationPreferences::load(path), p);
        QCOMPARE(QFile::permissions(path) & 0x0077, QFileDevice::Permissions());

        // A missing file: the defaults.
        QCOMPARE(*NotificationPreferences::load(dir.filePath(u"none.json"_s)), NotificationPreferences());
    }

    void leavesAMalformedFileAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ not json");
        f.close();
        const auto loaded = NotificationPreferences::load(path);
        QVERIFY(!loaded);
        QVERIFY(loaded.error().message.contains(path));
        const auto saved = NotificationPreferences().save(path);
        QVERIFY(!saved);
        QVERIFY(saved.error().message.contains(u"nothing was changed"_s));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("{ not json"));
    }

    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("seconds");
        QTest::newRow("seconds") << u"90s"_s << qint64(90);
        QTest::newRow("minutes") << u"45m"_s << qint64(2700);
        QTest::newRow("hours") << u"2h"_s << qint64(7200);
        QTest::newRow("mixed") << u"1h30m"_s << qint64(5400);
        QTest::newRow("day") << u"1d"_s << qint64(86400);
        QTest::newRow("upper case") << u"2H"_s << qint64(7200);
        QTest::newRow("thirty days") << u"30d"_s << qint64(30 * 86400);
        QTest::newRow("empty") << QString() << qint64(-1);
        QTest::newRow("no unit") << u"30"_s << qint64(-1);
        QTest::newRow("zero") << u"0m"_s << qint64(-1);
        QTest::newRow("unknown unit") << u"3w"_s << qint64(-1);
        QTest::newRow("negative") << u"-5m"_s << qint64(-1);
        QTest::newRow("too long") << u"31d"_s << qint64(-1);
        QTest::newRow("huge number") << u"99999999999999h"_s << qint64(-1);
        QTest::newRow("trailing junk") << u"5mx"_s << qint64(-1);
    }

    void durations()
    {
        QFETCH(QString, text);
        QFETCH(qint64, seconds);
        const auto parsed = App::parseDuration(text);
        if (seconds < 0) {
            QVERIFY(!parsed);
            QVERIFY(!parsed.error().message.isEmpty());
        } else {
            QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message));
            QCOMPARE(*parsed, seconds);
        }
    }

    void kindKeysRoundTrip()
    {
        for (const NotificationKind kind : App::allNotificationKinds())
            QCOMPARE(App::notificationKindFromKey(App::notificationKindKey(kind)), kind);
        QVERIFY(!App::notificationKindFromKey(u"needs-you"_s));
    }

    void listModel()
    {
        App::NotificationListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy unread(&model, &App::NotificationListModel::unreadCountChanged);
        const QDateTime t = QDateTime::fromString(u"2026-12-01T10:00:00Z"_s, Qt::ISODate);
        const quint64 a =
            model.add({NotificationKind::NeedsYou, u"p1"_s, u"alpha"_s, u"alpha needs you"_s, u"q"_s}, t,
                      App::NotificationListModel::Delivery::Desktop);
        const quint64 b =
            model.add({NotificationKind::PeerLeft, u"p2"_s, u"beta"_s, u"beta left"_s, {}}, t.addSecs(1),
                      App::NotificationListModel::Delivery::Suppressed, Suppression::KindOff);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(b), 0); // newest first
        QCOMPARE(model.data(model.index(1)).toString(), u"alpha needs you — q"_s);
        QCOMPARE(model.data(model.index(0), App::NotificationListModel::SuppressionRole).value<Suppression>(),
                 Suppression::KindOff);
        QCOMPARE(model.unreadCount(), 2);
        model.setAction(a, App::NotificationListModel::Action::Opened);
        QCOMPARE(model.unreadCount(), 1);
        model.markAllRead();
        QCOMPARE(model.unreadCount(), 0);
        QCOMPARE(unread.count(), 4); // 1, 2, 1, 0

        for (int i = 0; i < App::NotificationListModel::MaxEntries + 5; ++i)
            model.add({NotificationKind::MessageReceived, u"p3"_s, u"gamma"_s, u"m%1"_s.arg(i), {}}, t,
                      App::NotificationListModel::Delivery::ListOnly);
        QCOMPARE(model.rowCount(), App::NotificationListModel::MaxEntries);
        QCOMPARE(model.unreadCount(), App::NotificationListModel::MaxEntries);
        QVERIFY(!model.entry(a)); // the oldest went
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.unreadCount(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_NotificationPreferences)
#include "tst_notificationpreferences.moc"
