#pragma once

#include "broker/http/httpparser.h"
#include "broker/http/httptypes.h"

#include <QByteArray>
#include <QHostAddress>
#include <QLoggingCategory>
#include <QObject>

#include <deque>
#include <memory>

class QTcpSocket;

namespace Broker::Http {
class HttpServer;
}

// Internal to HttpServer: one accepted socket.
namespace Broker::Http::Internal {

Q_DECLARE_LOGGING_CATEGORY(lcHttp) // peers.broker.http

// After a final answer we stop sending (half-close) and discard what the client still sends
// for this long, so that an error answer is read before the connection is reset.
inline constexpr int kLingerMs = 2000;

class ConnectionResponder;

// Parses requests from a per-connection buffer, hands them to the handler in order, writes
// the answers in request order, and closes itself on errors and timeouts (driven by the
// server's sweep). At most maxPipelinedRequests requests are with the handler at once; with
// the default of 1 the next request is not even parsed before the current one is answered.
class Connection : public QObject
{
public:
    Connection(HttpServer *server, QTcpSocket *socket);

    void start();
    void rejectOverCapacity();
    void sweep(qint64 now);
    // The server closes: flush what is written, close, tell pending responders (if notify).
    void shutdown(bool notifyResponders);
    // The server hands over (HttpServer::drain()): closes this connection if it is idle after
    // an answer; true when it no longer needs the handler.
    bool drainStep();

    // Called by ConnectionResponder.
    void answer(quint64 sequence, const Response &response);
    void responderDropped(quint64 sequence);

    bool counted = false; // counts against maxConnections
    int index = -1; // position in HttpServer::m_connections

private:
    enum class State {
        Open, // reading requests and writing answers
        Closing, // final answer written, waiting for it to leave the socket buffer
        Draining, // write side shut down, discarding input until the client closes
        Closed,
    };
    enum class Step { Continue, NeedMore, Stop };

    // A request with the handler (or its answer waiting for an earlier one to be written).
    struct Slot
    {
        std::weak_ptr<ConnectionResponder> responder;
        QByteArray path; // for log lines
        QByteArray answer;
        bool answered = false;
        bool keepAlive = true;
        bool http10 = false;
        bool isHead = false;
    };

    void onReadyRead();
    void onBytesWritten();
    void process();
    Step parseNext();
    bool pull();
    qsizetype findHeadEnd();
    void dispatch(Request &&request);
    void reject(int status, QByteArrayView message);
    void writeAnswered();
    void resumeLater();
    void flushLater();
    void flushOut();
    bool sendDirect();
    void startClose();
    void halfClose();
    void discardInput();
    void detachResponders(bool notify);
    void finish();
    // Answers not yet taken by the socket: its buffer plus answers waiting for earlier ones.
    qint64 unsentBytes() const;

    HttpServer *m_server;
    QTcpSocket *m_socket;
    int m_directFd = -1; // a plain TCP socket's descriptor, for flushOut()
    QByteArray m_out; // answers in order, not yet given to the socket
    QHostAddress m_peerAddress;
    State m_state = State::Open;
    QByteArray m_buffer;
    qsizetype m_pos = 0; // start of the unconsumed bytes in m_buffer
    qsizetype m_scan = 0; // where the search for the end of the head resumes
    qsizetype m_headEnd = -1; // >= 0 once the current request's head is parsed
    RequestHead m_head;
    std::deque<Slot> m_slots; // in request order
    qint64 m_slotAnswerBytes = 0; // answers in m_slots, waiting for an earlier request's
    quint64 m_firstSequence = 0; // sequence number of m_slots.front()
    bool m_stopParsing = false; // a request asked to close, or was refused: read no more
    bool m_refused = false; // a refusal may leave the client mid-upload: drain before closing
    bool m_continueSent = false;
    bool m_inProcess = false;
    bool m_resumeQueued = false;
    bool m_flushQueued = false;
    bool m_writeBlocked = false; // stopped parsing until the client reads our answers
    quint64 m_dispatched = 0; // requests handed to the handler so far
    qint64 m_requestStart = -1; // first byte of the request being received
    qint64 m_lastActivity = 0;
    qint64 m_closeStart = 0;
};

} // namespace Broker::Http::Internal
