#pragma once

// An in-process BrokerServer on an OS-chosen port in a private HOME, plus helpers to drive
// it over real loopback HTTP (shared by the broker's integration tests).

#include "broker/brokerserver.h"
#include "broker/clock.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>

#include <functional>
#include <memory>
#include <vector>

struct RegisteredPeer
{
    QString id;
    QByteArray secret;
    qint64 pid = 0;
    QJsonObject answer;
};

class BrokerHarness
{
public:
    // tweak runs on the settings before the server is built; manualClock injects a ManualClock.
    explicit BrokerHarness(const std::function<void(Broker::Settings &)> &tweak = {},
                           bool manualClock = false);
    ~BrokerHarness();

    bool start(); // QVERIFY(h.start())
    Broker::BrokerServer &server() { return *m_server; }
    Broker::ManualClock &clock() { return *m_clock; }
    TestSupport::TestHome &home() { return m_home; }
    quint16 port() const { return m_port; }
    const QByteArray &token() const { return m_token; }
    const Broker::Settings &settings() const { return m_settings; }

    TestSupport::HttpResult get(const QString &path);
    TestSupport::HttpResult post(const QString &path, const QJsonObject &body);
    TestSupport::HttpResult post(const QString &path, const QJsonObject &body, const QByteArray &bearer);
    TestSupport::HttpResult postRaw(const QString &path, const QByteArray &body, const QByteArray &bearer);

    // A live process that the test owns ("sleep"), so that every peer has its own PID.
    qint64 spawnSession();
    void endSession(qint64 pid); // kills it and reaps it: the PID is dead afterwards
    static qint64 deadPid(int n = 0); // above pid_max: kill() answers ESRCH

    RegisteredPeer registerPeer(const QString &cwd = QStringLiteral("/work/a"), const QString &tty = {},
                                const QString &gitRoot = {}, const QString &name = {}, qint64 pid = 0);
    qint64 send(const QString &from, const QString &to, const QString &text, const QJsonObject &extra = {});
    QJsonArray poll(const QString &id);
    QJsonArray listPeers(const QString &scope = QStringLiteral("machine"), const QJsonObject &extra = {});
    bool hasPeer(const QString &id);

    // Writes raw bytes on a fresh connection and returns what arrives until the server closes
    // it or timeoutMs passes (the event loop keeps running, so the in-process server answers).
    QByteArray rawExchange(const QByteArray &request, int timeoutMs = 5000);

    // Asynchronous POST for long-polls and concurrency: the reply is owned by the harness.
    QNetworkReply *postAsync(const QString &path, const QJsonObject &body, const QByteArray &bearer = {});
    static QJsonObject replyObject(QNetworkReply *reply);
    static int replyStatus(QNetworkReply *reply);

private:
    TestSupport::TestHome m_home;
    Broker::Settings m_settings;
    std::shared_ptr<Broker::ManualClock> m_clock;
    std::unique_ptr<Broker::BrokerServer> m_server;
    QNetworkAccessManager m_nam;
    std::vector<std::unique_ptr<QProcess>> m_sessions;
    quint16 m_port = 0;
    QByteArray m_token;
};
