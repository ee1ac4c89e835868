// peers-tray-bench-host: the tray's composition root offscreen with the Peers window open, and
// a probe of the GUI thread's event loop. Started by bench/run-tray-bench.sh in place of the
// headless broker; peers-bench loads it from outside, as it loads the headless broker.
// On exit (SIGTERM, or POST /shutdown) it writes its figures as JSON to the file named by
// PEERS_TRAY_BENCH_REPORT (stderr when unset).
#include "app/tray/mainwindow.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traycomposition.h"
#include "app/tray/traypresenter.h"
#include "bench/tray/guistallprobe.h"
#include "common/unixsignalnotifier.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>

#include <cstdio>

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("peers-tray-bench-host"));
    QApplication::setQuitOnLastWindowClosed(false);
    Broker::UnixSignalNotifier::ignoreSigPipe();

    Bench::GuiStallProbe probe;
    qint64 presenterChanges = 0;
    int maxRows = 0;
    {
        App::TrayComposition composition(Broker::Settings::load(Broker::Location::fromEnvironment()));
        QObject::connect(composition.presenter(), &App::TrayPresenter::changed, &app,
                         [&] { ++presenterChanges; });
        QObject::connect(composition.peersModel(), &QAbstractItemModel::rowsInserted, &app,
                         [&] { maxRows = std::max(maxRows, composition.peersModel()->rowCount()); });
        composition.start();
        composition.mainWindow()->showAndRaise(); // open whether or not a system tray exists
        probe.start();
        QApplication::exec();
    } // the composition is gone: the broker has stopped
    const double shutdownMs = probe.openGapMs();

    QJsonObject report = probe.result();
    report.insert(QStringLiteral("shutdown_ms"), shutdownMs);
    report.insert(QStringLiteral("presenter_changes"), presenterChanges);
    report.insert(QStringLiteral("peers_window_max_rows"), maxRows);
    const QByteArray json = QJsonDocument(report).toJson(QJsonDocument::Compact) + '\n';
    const QString path = qEnvironmentVariable("PEERS_TRAY_BENCH_REPORT");
    QFile out(path);
    if (path.isEmpty() || !out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fwrite(json.constData(), 1, size_t(json.size()), stderr);
        return path.isEmpty() ? 0 : 1;
    }
    out.write(json);
    return 0;
}
