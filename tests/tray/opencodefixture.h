#pragma once

// A real broker (in-process BrokerServer) with the control service's module, talking to the fake
// OpenCode server of tests/openchamber, and a GUI-thread client like the tray's: what the
// Sessions and Schedules pages run against in their tests (no real opencode needed).
#include "common/brokerclient.h"
#include "openchamber/controlbackend.h"
#include "openchamber/controlmodule.h"
#include "openchamber/opencodeclient.h"
#include "tests/broker/brokerharness.h"
#include "tests/openchamber/fakeopencode.h"
#include "tests/openchamber/servicefixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <memory>

struct OpenCodeBrokerFixture
{
    OpenChamberTest::FakeOpenCode fake; // outlives the broker that talks to it
    QTemporaryDir dir;
    QString repo; // the configured project "app"
    BrokerHarness harness;
    OpenChamber::OpenCodeBackend *backend = nullptr;
    std::shared_ptr<OpenChamber::ControlModule> module;
    std::unique_ptr<Broker::BrokerClient> client;

    // openCodeUrl: where the service looks for OpenCode (default: the fake).
    explicit OpenCodeBrokerFixture(bool watchSessions = true, const QString &openCodeUrl = {})
    {
        QDir(dir.path()).mkpath(QStringLiteral("repo/app"));
        repo = QFileInfo(dir.filePath(QStringLiteral("repo/app"))).canonicalFilePath();
        fake.agents = {OpenChamberTest::agent(QStringLiteral("build")),
                       OpenChamberTest::agent(QStringLiteral("plan"))};
        fake.providers = {OpenChamberTest::provider(
            QStringLiteral("openai"),
            {{QStringLiteral("gpt-5.5"),
              QJsonObject {
                  {QStringLiteral("id"), QStringLiteral("gpt-5.5")},
                  {QStringLiteral("variants"), QJsonObject {{QStringLiteral("high"), QJsonObject {}}}}}}})};
        fake.replyText = QStringLiteral("Hello from OpenCode");
        const QJsonObject config {
            {QStringLiteral("openchamber"),
             QJsonObject {{QStringLiteral("projects"),
                           QJsonArray {QJsonObject {{QStringLiteral("id"), QStringLiteral("app")},
                                                    {QStringLiteral("path"), repo},
                                                    {QStringLiteral("label"), QStringLiteral("App")}}}},
                          {QStringLiteral("default_model"), QStringLiteral("openai/gpt-5.5")},
                          {QStringLiteral("default_agent"), QStringLiteral("build")}}}};
        QFile file(harness.settings().location.configPath);
        if (file.open(QIODevice::WriteOnly))
            file.write(QJsonDocument(config).toJson());
        QProcessEnvironment env = harness.home().environment();
        env.insert(OpenChamber::OpenCodeClient::UrlEnvironmentVariable,
                   openCodeUrl.isEmpty() ? fake.url().toString() : openCodeUrl);
        auto owned = std::make_unique<OpenChamber::OpenCodeBackend>(nullptr, env);
        backend = owned.get();
        backend->setWatchSessions(watchSessions);
        module = std::make_shared<OpenChamber::ControlModule>(std::move(owned));
        harness.server().addModule(module);
    }

    // OpenCode asks the user to allow a command in a session of the project (permission.asked),
    // then hears the answer (permission.replied).
    void askPermission(const QString &sessionId, const QString &requestId, const QString &permission,
                       const QString &pattern)
    {
        fake.emitEvent(repo,
                       {{QStringLiteral("type"), QStringLiteral("permission.asked")},
                        {QStringLiteral("properties"),
                         QJsonObject {{QStringLiteral("id"), requestId},
                                      {QStringLiteral("sessionID"), sessionId},
                                      {QStringLiteral("permission"), permission},
                                      {QStringLiteral("patterns"), QJsonArray {pattern}}}}});
    }
    void answerPermission(const QString &sessionId, const QString &requestId)
    {
        fake.emitEvent(repo,
                       {{QStringLiteral("type"), QStringLiteral("permission.replied")},
                        {QStringLiteral("properties"),
                         QJsonObject {{QStringLiteral("sessionID"), sessionId},
                                      {QStringLiteral("requestID"), requestId}}}});
    }

    bool start()
    {
        if (!harness.start())
            return false;
        Broker::Location location = harness.settings().location;
        location.port = harness.port();
        client = std::make_unique<Broker::BrokerClient>(location);
        return true;
    }
};
