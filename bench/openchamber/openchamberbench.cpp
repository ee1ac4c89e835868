// Times each control action against the fake OpenCode (tests/openchamber/fakeopencode.h) and
// prints one JSON object: per action the p50/p95/max wall milliseconds from execute() to the
// answer and the HTTP requests it made. For create --wait the fake's run takes --run-ms; that is
// subtracted, so the figure is the service's overhead (the target: ≤ 50 ms p50, issue #10).
#include "openchamber/controlsettings.h"
#include "openchamber/opencodeclient.h"
#include "openchamber/sessionservice.h"
#include "tests/openchamber/fakeopencode.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace OpenChamber;
using namespace OpenChamberTest;

namespace {

// CPU time of the whole process (service, fake server, Qt's network thread): unlike wall time it
// hardly moves with the machine's load.
double processCpuUs()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) / 1e3;
}

struct Figures
{
    QList<double> ms;
    QList<double> cpuUs;
    int requests = 0;
    int failures = 0;
};

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype index = std::min<qsizetype>(values.size() - 1, qsizetype(p * double(values.size())));
    return values.at(index);
}

QJsonObject modelsOf(const QString &id)
{
    return {{id, QJsonObject {{QStringLiteral("id"), id}}}};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Control service overhead per action against a fake OpenCode"));
    parser.addHelpOption();
    const QCommandLineOption iterationsOption(QStringLiteral("iterations"),
                                              QStringLiteral("Runs per action (default 200)."),
                                              QStringLiteral("n"), QStringLiteral("200"));
    const QCommandLineOption runOption(QStringLiteral("run-ms"),
                                       QStringLiteral("The fake's run time for --wait (default 20)."),
                                       QStringLiteral("ms"), QStringLiteral("20"));
    parser.addOptions({iterationsOption, runOption});
    parser.process(app);
    const int iterations = std::max(1, parser.value(iterationsOption).toInt());
    const int runMs = std::max(0, parser.value(runOption).toInt());

    QTemporaryDir dir;
    QDir(dir.path()).mkpath(QStringLiteral("repo"));
    const QString repo = QDir(dir.filePath(QStringLiteral("repo"))).canonicalPath();

    FakeOpenCode fake;
    fake.agents = {QJsonObject {{QStringLiteral("name"), QStringLiteral("build")},
                                {QStringLiteral("mode"), QStringLiteral("primary")}}};
    fake.providers = {QJsonObject {{QStringLiteral("id"), QStringLiteral("mock")},
                                   {QStringLiteral("models"), modelsOf(QStringLiteral("mock-model"))}}};
    OpenCodeClient::Options options;
    options.baseUrl = fake.url();
    OpenCodeClient client(options);
    ControlSettings settings;
    settings.defaultModel = QStringLiteral("mock/mock-model");
    settings.projects.append({QStringLiteral("p"), repo, QStringLiteral("repo")});
    SessionService service(
        client, [&settings] { return settings; }, nullptr);

    const QString seed = fake.addSession(repo).value(QStringLiteral("id")).toString();
    for (int i = 0; i < 20; ++i) {
        fake.addMessage(seed, QStringLiteral("user"), QStringLiteral("question %1").arg(i), 1000 + i * 10,
                        std::nullopt,
                        {{QStringLiteral("agent"), QStringLiteral("build")},
                         {QStringLiteral("model"),
                          QJsonObject {{QStringLiteral("providerID"), QStringLiteral("mock")},
                                       {QStringLiteral("modelID"), QStringLiteral("mock-model")}}}});
        fake.addMessage(seed, QStringLiteral("assistant"), QStringLiteral("answer %1").arg(i), 1005 + i * 10,
                        1008 + i * 10);
    }

    struct Case
    {
        QString name;
        QString action;
        QJsonObject input;
        bool timed = false; // the fake's run is inside: subtract runMs
    };
    const QList<Case> cases {
        {QStringLiteral("projects.list"), QStringLiteral("projects.list"), {}},
        {QStringLiteral("session.list"),
         QStringLiteral("session.list"),
         {{QStringLiteral("directory"), repo}}},
        {QStringLiteral("session.list withStatus"),
         QStringLiteral("session.list"),
         {{QStringLiteral("directory"), repo}, {QStringLiteral("withStatus"), true}}},
        {QStringLiteral("session.status"),
         QStringLiteral("session.status"),
         {{QStringLiteral("sessionId"), seed}, {QStringLiteral("directory"), repo}}},
        {QStringLiteral("session.messages"),
         QStringLiteral("session.messages"),
         {{QStringLiteral("sessionId"), seed}, {QStringLiteral("directory"), repo}}},
        {QStringLiteral("session.create (no prompt)"),
         QStringLiteral("session.create"),
         {{QStringLiteral("directory"), repo}}},
        {QStringLiteral("session.create prompt"),
         QStringLiteral("session.create"),
         {{QStringLiteral("directory"), repo},
          {QStringLiteral("prompt"), QStringLiteral("hi")},
          {QStringLiteral("model"), QStringLiteral("mock/mock-model")}}},
        {QStringLiteral("session.send (reuse)"),
         QStringLiteral("session.send"),
         {{QStringLiteral("sessionId"), seed},
          {QStringLiteral("directory"), repo},
          {QStringLiteral("prompt"), QStringLiteral("hi")}}},
        {QStringLiteral("session.create prompt --wait"),
         QStringLiteral("session.create"),
         {{QStringLiteral("directory"), repo},
          {QStringLiteral("prompt"), QStringLiteral("hi")},
          {QStringLiteral("model"), QStringLiteral("mock/mock-model")},
          {QStringLiteral("wait"), true},
          {QStringLiteral("lastAssistant"), true}},
         true},
    };

    QJsonObject out;
    QTextStream err(stderr);
    for (const Case &c : cases) {
        fake.runDelayMs = c.timed ? runMs : -1;
        fake.busyPolls = 1;
        Figures figures;
        for (int i = 0; i < iterations + 5; ++i) {
            const qsizetype before = fake.requests.size();
            std::optional<ControlResult> result;
            QElapsedTimer timer;
            const double cpuBefore = processCpuUs();
            timer.start();
            service.execute(c.action, c.input, {}, {}, [&result](ControlResult r) { result = std::move(r); });
            QEventLoop loop;
            while (!result)
                loop.processEvents(QEventLoop::WaitForMoreEvents);
            const double ms = double(timer.nsecsElapsed()) / 1e6 - (c.timed ? runMs : 0);
            const double cpuUs = processCpuUs() - cpuBefore;
            if (i < 5)
                continue; // warm-up
            if (!*result) {
                ++figures.failures;
                err << c.name << ": " << result->error().message << '\n';
            }
            figures.ms.append(ms);
            figures.cpuUs.append(cpuUs);
            figures.requests = int(fake.requests.size() - before);
        }
        // The fake's event streams end with each action; let them close before the next case.
        QEventLoop settle;
        for (int spin = 0; spin < 100 && fake.eventStreams() > 0; ++spin)
            settle.processEvents(QEventLoop::WaitForMoreEvents, 10);
        out.insert(c.name,
                   QJsonObject {{QStringLiteral("p50_ms"), percentile(figures.ms, 0.5)},
                                {QStringLiteral("p95_ms"), percentile(figures.ms, 0.95)},
                                {QStringLiteral("max_ms"), percentile(figures.ms, 1.0)},
                                {QStringLiteral("http_requests"), figures.requests},
                                {QStringLiteral("failures"), figures.failures}});
        err << QStringLiteral("%1: p50 %2 ms, p95 %3 ms, cpu p50 %4 us, %5 requests\n")
                   .arg(c.name, -32)
                   .arg(percentile(figures.ms, 0.5), 0, 'f', 2)
                   .arg(percentile(figures.ms, 0.95), 0, 'f', 2)
                   .arg(percentile(figures.cpuUs, 0.5), 0, 'f', 0)
                   .arg(figures.requests);
        err.flush();
    }
    out.insert(QStringLiteral("iterations"), iterations);
    out.insert(QStringLiteral("run_ms"), runMs);
    std::fputs(QJsonDocument(out).toJson().constData(), stdout);
    return 0;
}
