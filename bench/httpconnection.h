#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTcpSocket>
#include <QTimer>

#include <deque>
#include <functional>

namespace Bench {

struct HttpReply
{
    int status = 0; // 0: no answer (connection failed, closed or timed out)
    QByteArray body;
    QByteArray error; // why status is 0
};

// A minimal keep-alive HTTP/1.1 client on one connection, built so that the client side of a
// benchmark is not the bottleneck: requests are pipelined (the caller decides how many are in
// flight), each request is one pre-formatted write, answers are parsed in place and handed
// to callbacks in request order. Not a general client: Content-Length bodies only.
class HttpConnection : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(const HttpReply &)>;

    HttpConnection(const QString &host, quint16 port, QObject *parent = nullptr);
    ~HttpConnection() override; // pending callbacks are dropped, not called

    // Write requests to the kernel at once instead of on the next event-loop pass: what the
    // latency measurement wants; throughput runs batch instead.
    void setFlushImmediately(bool on) { m_flushImmediately = on; }
    // No byte received for this long while answers are due: the connection is dropped.
    void setStallTimeoutMs(int ms) { m_stallTimeoutMs = ms; }

    void post(QByteArrayView path, QByteArrayView body, QByteArrayView bearer, Callback done);
    void get(QByteArrayView path, Callback done);

    int pending() const { return int(m_callbacks.size()); } // sent or queued, not answered
    void abort();

private:
    void send(QByteArray &&request, Callback &&done);
    void connectIfNeeded();
    void onReadyRead();
    void onClosed();
    void failAll(const QByteArray &why);
    bool parseOne();
    void checkStall();

    QString m_host;
    QByteArray m_hostHeader;
    quint16 m_port;
    QTcpSocket m_socket;
    QTimer m_stallTimer;
    QElapsedTimer m_sinceReceive;
    int m_stallTimeoutMs = 90000;
    bool m_flushImmediately = false;
    QByteArray m_unsent; // formatted while the socket was still connecting
    std::deque<Callback> m_callbacks;
    QByteArray m_in;
    qsizetype m_pos = 0;
};

} // namespace Bench
