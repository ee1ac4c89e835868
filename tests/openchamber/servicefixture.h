#pragma once

#include "broker/clock.h"
#include "openchamber/controlsettings.h"
#include "openchamber/opencodeclient.h"
#include "openchamber/sessionservice.h"
#include "tests/openchamber/fakeopencode.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QTemporaryDir>

#include <memory>
#include <optional>

namespace OpenChamberTest {

// The service against a FakeOpenCode, with a manual clock whose sleeps pass at once (a 5 s
// landing window costs no real time) unless realTimers is set.
class ServiceFixture
{
public:
    explicit ServiceFixture(bool realTimers = false);

    // Runs one action to its answer (a local event loop: fine in a test).
    OpenChamber::ControlResult run(const QString &action, const QJsonObject &input,
                                   const QString &context = {}, OpenChamber::CancelToken cancel = {},
                                   int timeoutMs = 20000);
    // Starts one action; the answer lands in *out.
    void start(const QString &action, const QJsonObject &input,
               std::optional<OpenChamber::ControlResult> *out, const QString &context = {},
               OpenChamber::CancelToken cancel = {});

    QString repo() const { return m_repo; } // an existing directory, canonical
    QString otherRepo() const { return m_other; }
    qint64 elapsedMs() const { return clock->msecsSinceEpoch() - m_start; }

    FakeOpenCode fake;
    std::shared_ptr<Broker::ManualClock> clock;
    OpenChamber::ControlSettings settings;
    std::unique_ptr<OpenChamber::OpenCodeClient> client;
    std::unique_ptr<OpenChamber::SessionService> service;

    // A typical instance: agents build (primary), plan (primary), explore (subagent); provider
    // openai with gpt-5.5 (variants high, low) and gpt-4; provider mock with mock-model.
    void offerTypicalInstance();

private:
    QTemporaryDir m_dir;
    QString m_repo;
    QString m_other;
    qint64 m_start = 0;
};

// A JSON value from a literal (the build forbids implicit const char * → QString).
struct V
{
    QJsonValue v;
    V(int i) : v(i) { }
    V(double d) : v(d) { }
    V(bool b) : v(b) { }
    V(const char *s) : v(QString::fromUtf8(s)) { }
    V(const QString &s) : v(s) { }
    V(const QJsonObject &o) : v(o) { }
    V(const QJsonArray &a) : v(a) { }
    V(const QJsonValue &x) : v(x) { }
};

inline QJsonObject obj(std::initializer_list<std::pair<const char *, V>> fields)
{
    QJsonObject o;
    for (const auto &f : fields)
        o.insert(QString::fromUtf8(f.first), f.second.v);
    return o;
}

QJsonObject agent(const QString &name, const QString &mode = QStringLiteral("primary"));
QJsonObject provider(const QString &id, const QJsonObject &models);

} // namespace OpenChamberTest
