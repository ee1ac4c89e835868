// peers-tray-messages-bench-host: the tray's composition root offscreen with the main window on
// the Messages page, hosting the broker as the tray does, and a probe of the GUI thread's event
// loop (10 ms timer). bench/run-tray-messages-bench.sh starts it in place of the headless
// broker and loads it with peers-bench (real peers, 20,000 messages by default).
// It writes its figures as JSON to PEERS_TRAY_BENCH_REPORT (stderr when unset) as soon as the
// page lists PEERS_TRAY_BENCH_EXPECT messages, and again on exit.
#include "app/tray/brokerhost.h"
#include "app/tray/mainwindow.h"
#include "app/tray/pages/messagelog.h"
#include "app/tray/pages/messagespage.h"
#include "app/tray/traycomposition.h"
#include "bench/tray/guistallprobe.h"
#include "common/unixsignalnotifier.h"

#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>

#include <cstdio>

namespace {

double statusMb(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return -1;
}

bool writeReport(const QJsonObject &report)
{
    const QByteArray json = QJsonDocument(report).toJson(QJsonDocument::Compact) + '\n';
    const QString path = qEnvironmentVariable("PEERS_TRAY_BENCH_REPORT");
    QFile out(path);
    if (path.isEmpty() || !out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fwrite(json.constData(), 1, size_t(json.size()), stderr);
        return path.isEmpty();
    }
    out.write(json);
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("peers-tray-messages-bench-host"));
    QApplication::setQuitOnLastWindowClosed(false);
    Broker::UnixSignalNotifier::ignoreSigPipe();
    const int expect = qEnvironmentVariableIsSet("PEERS_TRAY_BENCH_EXPECT")
        ? qEnvironmentVariableIntValue("PEERS_TRAY_BENCH_EXPECT")
        : 20000;

    Bench::GuiStallProbe probe(10);
    QElapsedTimer clock;
    qint64 firstListedMs = -1, allListedMs = -1;
    double lastListedBehindSendMs = -1;
    int inserts = 0;
    int maxRows = 0;
    const double rssBeforeMb = statusMb("VmRSS");
    QJsonObject report;
    const auto figures = [&] {
        QJsonObject r = probe.result();
        r.insert(QStringLiteral("expected_messages"), expect);
        r.insert(QStringLiteral("listed_max_rows"), maxRows);
        r.insert(QStringLiteral("insert_batches"), inserts);
        r.insert(QStringLiteral("all_listed"), allListedMs >= 0);
        r.insert(QStringLiteral("first_to_all_listed_ms"),
                 allListedMs >= 0 ? double(allListedMs - firstListedMs) : -1.0);
        r.insert(QStringLiteral("last_listed_behind_its_send_ms"), lastListedBehindSendMs);
        r.insert(QStringLiteral("rss_before_mb"), rssBeforeMb);
        r.insert(QStringLiteral("rss_peak_mb"), statusMb("VmHWM"));
        r.insert(QStringLiteral("rss_now_mb"), statusMb("VmRSS"));
        return r;
    };
    {
        App::TrayComposition composition(Broker::Settings::load(Broker::Location::fromEnvironment()));
        App::MessageLogModel *log = composition.messagesPage()->logModel();
        QObject::connect(log, &QAbstractItemModel::rowsInserted, &app, [&] {
            ++inserts;
            const int rows = log->rowCount();
            maxRows = std::max(maxRows, rows);
            if (firstListedMs < 0)
                firstListedMs = clock.elapsed();
            if (allListedMs < 0 && rows >= expect) {
                allListedMs = clock.elapsed();
                const QDateTime sent =
                    QDateTime::fromString(log->entryAt(rows - 1).message.sentAt, Qt::ISODateWithMs);
                lastListedBehindSendMs = double(sent.msecsTo(QDateTime::currentDateTimeUtc()));
                report = figures();
                writeReport(report);
            }
        });
        // The page opens once the broker serves (before peers-bench, which waits for /health,
        // registers its peers and only then sends), so its first read finds an empty log and
        // every message of the run comes through the live feed.
        QObject::connect(composition.host(), &App::BrokerHost::started, &app,
                         [&] { composition.mainWindow()->showPage(QStringLiteral("messages")); });
        composition.start();
        clock.start();
        probe.start();
        QApplication::exec();
    } // the composition is gone: the broker has stopped
    if (allListedMs < 0)
        report = figures();
    report.insert(QStringLiteral("whole_run"), figures());
    return writeReport(report) ? 0 : 1;
}
