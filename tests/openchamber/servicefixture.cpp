#include "tests/openchamber/servicefixture.h"

#include "tests/support/testsupport.h"

#include <QEventLoop>
#include <QTimer>
#include <QtTest>

namespace OpenChamberTest {

using namespace OpenChamber;

ServiceFixture::ServiceFixture(bool realTimers)
    : clock(std::make_shared<Broker::ManualClock>(QDateTime::currentDateTimeUtc()))
{
    QDir(m_dir.path()).mkpath(QStringLiteral("repo/app"));
    QDir(m_dir.path()).mkpath(QStringLiteral("other"));
    m_repo = QFileInfo(m_dir.filePath(QStringLiteral("repo/app"))).canonicalFilePath();
    m_other = QFileInfo(m_dir.filePath(QStringLiteral("other"))).canonicalFilePath();
    QDir(m_dir.path()).mkpath(QStringLiteral("worktrees"));
    fake.worktreeRoot = QFileInfo(m_dir.filePath(QStringLiteral("worktrees"))).canonicalFilePath();
    m_start = clock->msecsSinceEpoch();

    OpenCodeClient::Options options;
    options.baseUrl = fake.url();
    options.timeoutMs = TestSupport::scaled(5000);
    client = std::make_unique<OpenCodeClient>(options);
    service = std::make_unique<SessionService>(
        *client, [this] { return settings; }, nullptr);
    if (!realTimers) {
        auto c = clock;
        fake.now = [c] { return c->msecsSinceEpoch(); };
        service->setTimers({c, [c](int ms, QObject *context, std::function<void()> done) {
                                QTimer::singleShot(0, context, [c, ms, done = std::move(done)] {
                                    c->advance(ms);
                                    done();
                                });
                            }});
    }
}

void ServiceFixture::start(const QString &action, const QJsonObject &input, std::optional<ControlResult> *out,
                           const QString &context, CancelToken cancel)
{
    service->execute(action, input, context, std::move(cancel),
                     [out](ControlResult result) { *out = std::move(result); });
}

ControlResult ServiceFixture::run(const QString &action, const QJsonObject &input, const QString &context,
                                  CancelToken cancel, int timeoutMs)
{
    std::optional<ControlResult> result;
    start(action, input, &result, context, std::move(cancel));
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    deadline.start(TestSupport::scaled(timeoutMs));
    while (!result && deadline.isActive())
        loop.processEvents(QEventLoop::WaitForMoreEvents);
    if (!result)
        return std::unexpected(ControlError {-1, QStringLiteral("test: no answer in time"), {}});
    return *result;
}

QJsonObject agent(const QString &name, const QString &mode)
{
    return {{QStringLiteral("name"), name}, {QStringLiteral("mode"), mode}};
}

QJsonObject provider(const QString &id, const QJsonObject &models)
{
    return {{QStringLiteral("id"), id}, {QStringLiteral("models"), models}};
}

void ServiceFixture::offerTypicalInstance()
{
    fake.agents = {agent(QStringLiteral("build")), agent(QStringLiteral("plan")),
                   agent(QStringLiteral("explore"), QStringLiteral("subagent"))};
    const QJsonObject variants {{QStringLiteral("high"), QJsonObject {}},
                                {QStringLiteral("low"), QJsonObject {}}};
    fake.providers = {
        provider(QStringLiteral("openai"),
                 {{QStringLiteral("gpt-5.5"),
                   QJsonObject {{QStringLiteral("id"), QStringLiteral("gpt-5.5")},
                                {QStringLiteral("variants"), variants}}},
                  {QStringLiteral("gpt-4"), QJsonObject {{QStringLiteral("id"), QStringLiteral("gpt-4")}}}}),
        provider(QStringLiteral("mock"),
                 {{QStringLiteral("mock-model"),
                   QJsonObject {{QStringLiteral("id"), QStringLiteral("mock-model")}}}})};
}

} // namespace OpenChamberTest
