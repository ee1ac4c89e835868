#pragma once

// A client that asks GET /health again and again, each time on a fresh connection, on a thread
// of its own (plain blocking POSIX sockets): every connection refused or reset, and every
// connection closed without an answer, is counted as an error.
#include <QHash>
#include <QMutex>
#include <QString>

#include <atomic>
#include <thread>

class HealthHammer
{
public:
    explicit HealthHammer(quint16 port) : m_port(port) { }
    ~HealthHammer() { stop(); }
    void start();
    void stop();

    int answered() const { return m_answered; }
    int errors() const { return m_errors; }
    QHash<QString, int> errorKinds() const; // "refused", "reset", "closed without an answer", …
    QHash<qint64, int> answersByPid() const; // which broker answered how often
    double maxLatencyMs() const { return m_maxLatencyMs; } // connect to answer, worst

private:
    void run();
    void count(const QString &kind);

    quint16 m_port;
    std::thread m_thread;
    std::atomic<bool> m_stop = false;
    std::atomic<int> m_answered = 0;
    std::atomic<int> m_errors = 0;
    std::atomic<double> m_maxLatencyMs = 0;
    mutable QMutex m_mutex;
    QHash<QString, int> m_kinds;
    QHash<qint64, int> m_pids;
};
