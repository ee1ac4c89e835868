// The Federation page's models and its QR code, without a broker: QAbstractItemModelTester on
// each model through changes, the confirm and dismiss bookkeeping of the pairing cards, the
// commands that fix the broker's warnings, and the QR image's structure.
#include "app/tray/pages/federationmodels.h"
#include "app/tray/pages/federationpresenter.h"
#include "app/tray/pages/qrcodeimage.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using App::AttemptsModel;
using App::PairedBrokersModel;
using App::PendingRequestsModel;
using Request = Broker::FederationPendingAnswer::Request;
using namespace Qt::StringLiterals;

namespace {

Request request(const QString &id, const QString &state = u"pending"_s)
{
    return {id,
            u"127.0.0.1"_s,
            7901,
            u"host-"_s + id,
            u"sha256-"_s + id,
            u"123456"_s,
            u"2026-12-01T05:00:00.000Z"_s,
            state,
            u"code"_s};
}

QJsonObject remote(const QString &hostname, int port, const QString &state)
{
    return {{u"hostname"_s, hostname},
            {u"host"_s, u"10.0.0.2"_s},
            {u"port"_s, port},
            {u"state"_s, state},
            {u"peer_count"_s, 2},
            {u"fingerprint"_s, u"sha256-x"_s},
            {u"last_sync"_s, u"2026-12-01T05:00:00.000Z"_s}};
}

// Is the module at (x, y) dark (module coordinates include the quiet zone)?
bool dark(const QImage &image, int scale, int x, int y)
{
    return image.pixelIndex(x * scale + scale / 2, y * scale + scale / 2) == 1;
}

} // namespace

class tst_FederationModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pendingModelPassesTheTesterThroughChanges()
    {
        PendingRequestsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRequests({request(u"a"_s), request(u"b"_s)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0).data(PendingRequestsModel::IdRole).toString(), u"b"_s); // newest first
        QCOMPARE(model.index(0).data(PendingRequestsModel::AddressRole).toString(), u"127.0.0.1:7901"_s);
        QCOMPARE(model.index(0).data(PendingRequestsModel::SasRole).toString(), u"123456"_s);
        QVERIFY(model.index(0).data(PendingRequestsModel::ReceivedAtRole).toDateTime().isValid());
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setRequests({request(u"a"_s), request(u"b"_s)}); // unchanged: no reset
        QCOMPARE(resets.size(), 0);
        model.setRequests({request(u"a"_s, u"accepted"_s), request(u"b"_s)});
        QCOMPARE(resets.size(), 1);
        model.setRequests({});
        QCOMPARE(model.rowCount(), 0);
    }

    void confirmingAndDismissingAreKeptPerRequest()
    {
        PendingRequestsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRequests({request(u"a"_s), request(u"b"_s), request(u"c"_s, u"rejected"_s)});
        QCOMPARE(model.visiblePendingIds(), (QStringList {u"b"_s, u"a"_s})); // decided ones are no cards
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setConfirming(u"a"_s, true);
        QCOMPARE(changed.size(), 1);
        QVERIFY(model.isConfirming(u"a"_s));
        QVERIFY(model.index(model.rowOf(u"a"_s)).data(PendingRequestsModel::ConfirmingRole).toBool());
        model.dismiss(u"b"_s);
        QCOMPARE(model.visiblePendingIds(), (QStringList {u"a"_s}));
        model.restore(u"b"_s);
        QCOMPARE(model.visiblePendingIds().size(), 2);
        // Once decided elsewhere (the CLI), the confirm step is dropped.
        model.setRequests({request(u"a"_s, u"accepted"_s), request(u"b"_s)});
        QVERIFY(!model.isConfirming(u"a"_s));
        model.setConfirming(u"unknown"_s, true);
        QVERIFY(!model.isConfirming(u"unknown"_s));
    }

    void pairedModelShowsTheLiveLink()
    {
        PairedBrokersModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStatus(
            {{u"remotes"_s,
              QJsonArray {remote(u"zeta"_s, 7900, u"connected"_s), remote(u"beta"_s, 7901, u"evicted"_s)}}});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(PairedBrokersModel::ColumnCount));
        QCOMPARE(model.index(0, PairedBrokersModel::MachineColumn).data().toString(), u"beta"_s); // by name
        QVERIFY(model.index(0, PairedBrokersModel::StateColumn).data().toString().startsWith(u"evicted"_s));
        QCOMPARE(model.index(1, PairedBrokersModel::StateColumn).data().toString(), u"connected"_s);
        QCOMPARE(model.index(1, PairedBrokersModel::AddressColumn).data().toString(), u"10.0.0.2:7900"_s);
        QCOMPARE(model.index(1, PairedBrokersModel::FingerprintColumn).data().toString(), u"sha256-x"_s);
        QVERIFY(!model.index(1, PairedBrokersModel::LastSeenColumn).data().toString().isEmpty());
        QCOMPARE(model.rowOf(u"10.0.0.2"_s, 7901), 0);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setStatus(
            {{u"remotes"_s,
              QJsonArray {remote(u"beta"_s, 7901, u"evicted"_s), remote(u"zeta"_s, 7900, u"connected"_s)}}});
        QCOMPARE(resets.size(), 0); // same rows
        model.setStatus({{u"remotes"_s, QJsonArray {remote(u"beta"_s, 7901, u"reconnecting"_s)}}});
        QCOMPARE(resets.size(), 1);
        QCOMPARE(model.index(0, PairedBrokersModel::StateColumn).data().toString(), u"reconnecting"_s);
        QCOMPARE(model.headerData(PairedBrokersModel::FingerprintColumn, Qt::Horizontal).toString(),
                 u"Fingerprint"_s);
    }

    void attemptsModelListsTheAuditTrail()
    {
        AttemptsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QJsonObject row {{u"kind"_s, u"refused"_s},
                               {u"address"_s, u"10.0.0.9"_s},
                               {u"hostname"_s, u"mallory"_s},
                               {u"fingerprint"_s, u"sha256-m"_s},
                               {u"path"_s, u"/federation/pair/request"_s},
                               {u"status"_s, 403},
                               {u"reason"_s, u"wrong code"_s},
                               {u"last_at"_s, u"2026-12-01T05:00:00.000Z"_s},
                               {u"count"_s, 3}};
        model.setAnswer({{u"attempts"_s, QJsonArray {row}}});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, AttemptsModel::KindColumn).data().toString(), u"refused"_s);
        QCOMPARE(model.index(0, AttemptsModel::AddressColumn).data().toString(), u"10.0.0.9"_s);
        QCOMPARE(model.index(0, AttemptsModel::MachineColumn).data().toString(), u"mallory"_s);
        QCOMPARE(model.index(0, AttemptsModel::ReasonColumn).data().toString(), u"wrong code"_s);
        QCOMPARE(model.index(0, AttemptsModel::CountColumn).data().toInt(), 3);
        QVERIFY(
            model.index(0, AttemptsModel::ReasonColumn).data(Qt::ToolTipRole).toString().contains(u"403"_s));
        QCOMPARE(AttemptsModel::kindText(u"revoked"_s), u"revoked"_s);
        model.setAnswer({});
        QCOMPARE(model.rowCount(), 0);
    }

    void warningsNameTheCommandThatFixesThem()
    {
        QCOMPARE(App::FederationPresenter::fixCommand(
                     u"The federation PSK is a copy of the local token (claude-peers 0.7's arrangement): run "
                     "`claude-peers federation rotate-psk` and give the new key to your other machines."_s),
                 u"claude-peers federation rotate-psk"_s);
        QCOMPARE(App::FederationPresenter::fixCommand(u"The federation port 7900 cannot be opened: in use"_s),
                 u"claude-peers federation doctor"_s);
    }

    void qrImageHasFinderPatternsAndAQuietZone()
    {
        const QString text = u"claude-peers federation join 192.168.1.5:7900 ABCDE-FGHJK"_s;
        const int scale = 3;
        auto image = App::qrCodeImage(text, scale);
        QVERIFY2(image.has_value(), image ? "" : qPrintable(image.error()));
        QCOMPARE(image->width(), image->height());
        QCOMPARE(image->width() % scale, 0);
        const int side = image->width() / scale; // modules + 8 of quiet zone
        const int modules = side - 8;
        QVERIFY(modules >= 21 && (modules - 21) % 4 == 0); // a QR version's size
        for (int i = 0; i < side; ++i) { // quiet zone: white all round
            QVERIFY(!dark(*image, scale, i, 0));
            QVERIFY(!dark(*image, scale, 0, i));
            QVERIFY(!dark(*image, scale, i, side - 1));
        }
        // The three finder patterns: a dark 7x7 ring with a dark 3x3 centre and a light ring between.
        for (const auto &[ox, oy] :
             {std::pair {4, 4}, std::pair {4 + modules - 7, 4}, std::pair {4, 4 + modules - 7}}) {
            for (int i = 0; i < 7; ++i) {
                QVERIFY(dark(*image, scale, ox + i, oy));
                QVERIFY(dark(*image, scale, ox, oy + i));
                QVERIFY(dark(*image, scale, ox + i, oy + 6));
            }
            QVERIFY(!dark(*image, scale, ox + 1, oy + 1));
            QVERIFY(dark(*image, scale, ox + 3, oy + 3));
        }
        // A longer text needs a larger symbol; the empty text and an oversized one are errors.
        auto longer = App::qrCodeImage(text.repeated(8), scale);
        QVERIFY(longer && longer->width() > image->width());
        QVERIFY(!App::qrCodeImage(QString()));
        QVERIFY(!App::qrCodeImage(QString(4000, u'x')));
    }
};

QTEST_MAIN(tst_FederationModels)
#include "tst_federationmodels.moc"
