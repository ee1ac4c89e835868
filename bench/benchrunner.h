#pragma once

#include "bench/httpconnection.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

#include <memory>
#include <vector>

class QProcess;

namespace Bench {

struct Options
{
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 0;
    QByteArray token;
    // The headline run is not pipelined, as real clients (one request in flight each);
    // a second run with pipelinedWindow requests in flight per sender follows (0: none).
    int senders = 64;
    int receivers = 16;
    int messages = 40000; // per run
    int latencySamples = 2000;
    int window = 1; // requests in flight per sender connection in the headline run
    int pipelinedWindow = 64;
    qint64 brokerPid = 0; // 0: from GET /health
    int timeoutS = 300; // the whole run
};

// Drives the broker through its public HTTP API only: registers peers (each owned by a
// `sleep` child, since the broker evicts rows that share a pid), measures store→push latency
// with one sender and one receiver, then throughput with N senders and N long-polling
// receivers, then the broker's RSS. All on one event loop; finished() once at the end.
class Runner : public QObject
{
    Q_OBJECT
public:
    explicit Runner(Options options, QObject *parent = nullptr);
    ~Runner() override;

    void start();
    QJsonObject result() const { return m_result; }
    QString summary() const { return m_summary; }

Q_SIGNALS:
    void finished(int exitCode);

private:
    struct Peer
    {
        QProcess *owner = nullptr;
        QString name;
        QByteArray id;
        QByteArray bearer; // session secret, or the main token for old brokers
    };
    struct Receiver
    {
        Peer *peer = nullptr;
        HttpConnection *connection = nullptr;
        QList<qint64> toAck;
        QSet<qint64> seen;
        bool active = false;
    };
    struct Sender
    {
        Peer *peer = nullptr;
        HttpConnection *connection = nullptr;
        int index = 0; // round-robin offset over the receivers
        int quota = 0;
        int sent = 0;
        int answered = 0;
    };

    void fail(const QString &message);
    void step(const QString &what);
    void checkHealth();
    void spawnOwners();
    void registerPeers();
    void startLatency();
    void latencyNext();
    void latencyMaybeDone();
    void startThroughput();
    void startPass();
    void topUp(Sender &sender);
    void throughputMaybeDone();
    void finishThroughput(bool complete);
    QJsonObject passResult() const;
    QString passSummary(const QJsonObject &pass) const;
    void cleanUp(std::function<void()> then);
    void measureRss();
    void report();

    void postWait(Receiver &receiver);
    void onMessage(Receiver &receiver, const QJsonObject &message);
    void stopReceiver(Receiver &receiver, std::function<void()> then);
    double rssMb() const;
    // CPU time (user + system) the broker process used so far, from /proc; -1 if unknown.
    double brokerCpuSeconds() const;
    qint64 nowNs() const { return m_clock.nsecsElapsed(); }

    Options m_options;
    QElapsedTimer m_clock;
    HttpConnection *m_control = nullptr;
    std::vector<std::unique_ptr<Peer>> m_peers;
    std::vector<std::unique_ptr<Receiver>> m_receivers;
    std::vector<std::unique_ptr<Sender>> m_senders;
    QList<QProcess *> m_owners;
    bool m_failed = false;
    bool m_done = false;
    QByteArray m_firstError;

    // latency phase
    Receiver *m_latReceiver = nullptr;
    Sender *m_latSender = nullptr;
    int m_latIndex = 0;
    int m_latWarmup = 20;
    qint64 m_latT0 = 0;
    qint64 m_latT1 = -1;
    bool m_latAnswered = false;
    QList<double> m_latencyMs;

    // throughput phase: passes with m_options.window, then m_options.pipelinedWindow
    int m_window = 1; // of the current pass
    QList<QJsonObject> m_passes;
    qint64 m_tpStart = 0;
    double m_tpCpuStart = -1;
    qint64 m_tpLastAnswer = 0;
    qint64 m_tpLastDelivery = 0;
    qint64 m_tpLastProgress = 0;
    int m_accepted = 0;
    int m_errors = 0;
    int m_delivered = 0;
    int m_waitErrors = 0;
    bool m_inThroughput = false;

    double m_rssAfterRun = -1;
    double m_rssAfterIdle = -1;
    QJsonObject m_result;
    QString m_summary;
};

} // namespace Bench
