#include "bench/benchrunner.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <csignal>

#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#include <unistd.h>
#endif

namespace Bench {

namespace {

constexpr int kWaitTimeoutMs = 25000;
constexpr int kStallMs = 15000; // no answer and no delivery for this long: give up

QByteArray jsonString(const QString &s)
{
    // QJsonDocument escapes for us; strip the surrounding array brackets.
    const QByteArray array = QJsonDocument(QJsonArray {s}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

double percentile(const QList<double> &sorted, double p)
{
    if (sorted.isEmpty())
        return 0;
    const qsizetype rank = qsizetype(std::ceil(p * double(sorted.size())));
    return sorted.at(std::clamp<qsizetype>(rank - 1, 0, sorted.size() - 1));
}

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

bool isOk(const HttpReply &reply)
{
    return reply.status == 200 &&
        QJsonDocument::fromJson(reply.body).object().value(QLatin1String("ok")).toBool();
}

QByteArray describe(const HttpReply &reply)
{
    if (reply.status == 0)
        return "no answer: " + reply.error;
    return QByteArray::number(reply.status) + ' ' + reply.body.left(200);
}

} // namespace

Runner::Runner(Options options, QObject *parent) : QObject(parent), m_options(std::move(options)) { }

Runner::~Runner()
{
    for (QProcess *owner : std::as_const(m_owners)) {
        if (owner->state() != QProcess::NotRunning) {
            owner->kill();
            owner->waitForFinished(1000);
        }
    }
}

void Runner::start()
{
    m_clock.start();
    m_control = new HttpConnection(m_options.host, m_options.port, this);
    QTimer::singleShot(m_options.timeoutS * 1000, this, [this] {
        if (!m_done)
            fail(QStringLiteral("the run did not finish within %1 s").arg(m_options.timeoutS));
    });
    checkHealth();
}

void Runner::step(const QString &what)
{
    qInfo().noquote() << "peers-bench:" << what;
}

void Runner::fail(const QString &message)
{
    if (m_done)
        return;
    m_failed = true;
    if (m_firstError.isEmpty())
        m_firstError = message.toUtf8();
    qCritical().noquote() << "peers-bench: error:" << message;
    m_inThroughput = false;
    cleanUp([this] { report(); });
}

void Runner::checkHealth()
{
    m_control->get("/health", [this](const HttpReply &reply) {
        if (reply.status != 200) {
            fail(QStringLiteral("GET /health failed (%1); is the broker running on %2:%3?")
                     .arg(QString::fromUtf8(describe(reply)), m_options.host)
                     .arg(m_options.port));
            return;
        }
        const QJsonObject health = QJsonDocument::fromJson(reply.body).object();
        if (m_options.brokerPid <= 0)
            m_options.brokerPid = health.value(QLatin1String("pid")).toInteger();
        m_result.insert(QStringLiteral("broker_version"), health.value(QLatin1String("version")));
        spawnOwners();
    });
}

void Runner::spawnOwners()
{
    // Peers 0 and 1 are the latency pair; then the senders; then the receivers.
    const int count = 2 + m_options.senders + m_options.receivers;
    auto started = std::make_shared<int>(0);
    for (int i = 0; i < count; ++i) {
        auto *owner = new QProcess(this);
        owner->setProgram(QStringLiteral("sleep"));
        owner->setArguments({QStringLiteral("600")});
        owner->setStandardInputFile(QProcess::nullDevice());
#ifdef Q_OS_LINUX
        // If the bench dies, its stand-in peers die with it.
        owner->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
#endif
        connect(owner, &QProcess::started, this, [this, started, count] {
            if (++*started == count)
                registerPeers();
        });
        connect(owner, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart)
                fail(QStringLiteral("cannot start `sleep` to own a peer pid"));
        });
        m_owners.append(owner);
        auto peer = std::make_unique<Peer>();
        peer->owner = owner;
        if (i == 0)
            peer->name = QStringLiteral("bench-latency-sender");
        else if (i == 1)
            peer->name = QStringLiteral("bench-latency-receiver");
        else if (i < 2 + m_options.senders)
            peer->name = QStringLiteral("bench-sender-%1").arg(i - 2);
        else
            peer->name = QStringLiteral("bench-receiver-%1").arg(i - 2 - m_options.senders);
        m_peers.push_back(std::move(peer));
        owner->start();
    }
}

void Runner::registerPeers()
{
    step(QStringLiteral("registering %1 peers").arg(m_peers.size()));
    auto remaining = std::make_shared<int>(int(m_peers.size()));
    for (const auto &peer : m_peers) {
        QByteArray body = "{\"pid\":" + QByteArray::number(peer->owner->processId()) +
            ",\"cwd\":\"/tmp/peers-bench\",\"git_root\":null,\"tty\":null,\"session_name\":" +
            jsonString(peer->name) + ",\"summary\":\"peers-bench\"}";
        Peer *p = peer.get();
        m_control->post("/register", body, m_options.token, [this, p, remaining](const HttpReply &reply) {
            if (m_done)
                return;
            const QJsonObject answer = QJsonDocument::fromJson(reply.body).object();
            p->id = answer.value(QLatin1String("id")).toString().toUtf8();
            if (reply.status != 200 || p->id.isEmpty()) {
                fail(QStringLiteral("POST /register failed: %1").arg(QString::fromUtf8(describe(reply))));
                return;
            }
            const QByteArray secret = answer.value(QLatin1String("session_secret")).toString().toUtf8();
            p->bearer = secret.isEmpty() ? m_options.token : secret;
            if (--*remaining == 0)
                startLatency();
        });
    }
}

// ---- store → push latency: one sender, one receiver, one message at a time ----

void Runner::startLatency()
{
    auto makeConnection = [this] {
        auto *connection = new HttpConnection(m_options.host, m_options.port, this);
        connection->setFlushImmediately(true);
        return connection;
    };
    auto sender = std::make_unique<Sender>();
    sender->peer = m_peers[0].get();
    sender->connection = makeConnection();
    m_latSender = sender.get();
    m_senders.push_back(std::move(sender));
    auto receiver = std::make_unique<Receiver>();
    receiver->peer = m_peers[1].get();
    receiver->connection = makeConnection();
    receiver->active = true;
    m_latReceiver = receiver.get();
    m_receivers.push_back(std::move(receiver));

    if (m_options.latencySamples <= 0) {
        stopReceiver(*m_latReceiver, [this] { startThroughput(); });
        return;
    }
    step(QStringLiteral("latency: %1 samples (+%2 warm-up)").arg(m_options.latencySamples).arg(m_latWarmup));
    postWait(*m_latReceiver);
    QTimer::singleShot(50, this, &Runner::latencyNext); // let the first wait park
}

void Runner::latencyNext()
{
    if (m_done)
        return;
    if (m_latIndex >= m_latWarmup + m_options.latencySamples) {
        stopReceiver(*m_latReceiver, [this] { startThroughput(); });
        return;
    }
    m_latT1 = -1;
    m_latAnswered = false;
    const QByteArray body = "{\"from_id\":\"" + m_latSender->peer->id + "\",\"to_id\":\"" +
        m_latReceiver->peer->id + "\",\"text\":\"lat " + QByteArray::number(m_latIndex) + "\"}";
    m_latT0 = nowNs();
    m_latSender->connection->post("/send-message", body, m_latSender->peer->bearer,
                                  [this](const HttpReply &reply) {
                                      if (m_done)
                                          return;
                                      if (!isOk(reply)) {
                                          fail(QStringLiteral("latency: POST /send-message failed: %1")
                                                   .arg(QString::fromUtf8(describe(reply))));
                                          return;
                                      }
                                      m_latAnswered = true;
                                      latencyMaybeDone();
                                  });
}

void Runner::latencyMaybeDone()
{
    if (m_latT1 < 0 || !m_latAnswered)
        return;
    if (m_latIndex >= m_latWarmup)
        m_latencyMs.append(double(m_latT1 - m_latT0) / 1e6);
    ++m_latIndex;
    m_latT1 = -1;
    m_latAnswered = false;
    // The receiver re-posts its wait right after this; give the broker a moment to park it
    // so that the next sample measures a push, not a wait that finds the message stored.
    QTimer::singleShot(1, Qt::PreciseTimer, this, &Runner::latencyNext);
}

// ---- throughput: N senders with a window of requests in flight, N long-polling receivers ----

void Runner::startThroughput()
{
    if (m_done)
        return;
    const int senders = qMax(1, m_options.senders);
    const int receivers = qMax(1, m_options.receivers);
    for (int i = 0; i < receivers; ++i) {
        auto receiver = std::make_unique<Receiver>();
        receiver->peer = m_peers[size_t(2 + m_options.senders + i)].get();
        receiver->connection = new HttpConnection(m_options.host, m_options.port, this);
        receiver->active = true;
        postWait(*receiver);
        m_receivers.push_back(std::move(receiver));
    }
    for (int i = 0; i < senders; ++i) {
        auto sender = std::make_unique<Sender>();
        sender->peer = m_peers[size_t(2 + i)].get();
        sender->index = i;
        sender->connection = new HttpConnection(m_options.host, m_options.port, this);
        sender->quota = m_options.messages / senders + (i < m_options.messages % senders ? 1 : 0);
        m_senders.push_back(std::move(sender));
    }
    m_window = m_options.window;
    // Let the receivers' first waits park before the first pass.
    QTimer::singleShot(50, this, &Runner::startPass);
}

void Runner::startPass()
{
    if (m_done)
        return;
    step(QStringLiteral("throughput: %1 messages, %2 senders -> %3 receivers, window %4")
             .arg(m_options.messages)
             .arg(m_senders.size() - 1)
             .arg(m_receivers.size() - 1)
             .arg(m_window));
    m_accepted = m_errors = m_delivered = m_waitErrors = 0;
    m_tpLastAnswer = m_tpLastDelivery = 0;
    for (auto &sender : m_senders)
        sender->sent = sender->answered = 0;
    m_inThroughput = true;
    m_tpCpuStart = brokerCpuSeconds();
    m_tpStart = m_tpLastProgress = nowNs();
    for (auto &sender : m_senders) {
        if (sender.get() != m_latSender)
            topUp(*sender);
    }
    auto *watchdog = new QTimer(this);
    watchdog->setInterval(1000);
    connect(watchdog, &QTimer::timeout, this, [this, watchdog] {
        if (!m_inThroughput) {
            watchdog->deleteLater();
            return;
        }
        if (nowNs() - m_tpLastProgress > qint64(kStallMs) * 1000000) {
            watchdog->deleteLater();
            finishThroughput(false);
        }
    });
    watchdog->start();
    throughputMaybeDone(); // zero messages
}

void Runner::topUp(Sender &sender)
{
    // The first throughput receiver sits after the latency receiver in m_receivers.
    const int receivers = int(m_receivers.size()) - 1;
    const int senderIndex = sender.index;
    while (sender.sent < sender.quota && sender.connection->pending() < m_window) {
        const int j = sender.sent++;
        const Receiver &target = *m_receivers[size_t(1 + (senderIndex + j) % receivers)];
        const QByteArray body = "{\"from_id\":\"" + sender.peer->id + "\",\"to_id\":\"" + target.peer->id +
            "\",\"text\":\"peers-bench message " + QByteArray::number(senderIndex) + '-' +
            QByteArray::number(j) + " lorem ipsum dolor sit amet\"}";
        Sender *s = &sender;
        sender.connection->post("/send-message", body, sender.peer->bearer,
                                [this, s](const HttpReply &reply) {
                                    if (!m_inThroughput)
                                        return;
                                    ++s->answered;
                                    m_tpLastAnswer = m_tpLastProgress = nowNs();
                                    if (isOk(reply)) {
                                        ++m_accepted;
                                    } else {
                                        ++m_errors;
                                        if (m_firstError.isEmpty())
                                            m_firstError = "POST /send-message: " + describe(reply);
                                    }
                                    topUp(*s);
                                    throughputMaybeDone();
                                });
    }
}

void Runner::throughputMaybeDone()
{
    if (!m_inThroughput)
        return;
    for (const auto &sender : m_senders) {
        if (sender.get() != m_latSender && sender->answered < sender->quota)
            return;
    }
    if (m_delivered >= m_accepted)
        finishThroughput(true);
}

void Runner::finishThroughput(bool complete)
{
    if (!m_inThroughput)
        return;
    m_inThroughput = false;
    if (!complete) {
        m_failed = true;
        m_firstError = QByteArray("throughput run stalled: ") + QByteArray::number(m_delivered) + " of " +
            QByteArray::number(m_accepted) + " accepted messages delivered" +
            (m_firstError.isEmpty() ? QByteArray() : "; first error: " + m_firstError);
    }
    m_passes.append(passResult());
    if (complete && m_passes.size() == 1 && m_options.pipelinedWindow > 0) {
        m_window = m_options.pipelinedWindow;
        startPass(); // the receivers keep waiting
        return;
    }
    auto remaining = std::make_shared<int>(int(m_receivers.size()));
    for (auto &receiver : m_receivers) {
        stopReceiver(*receiver, [this, remaining] {
            if (--*remaining == 0)
                cleanUp([this] { measureRss(); });
        });
    }
}

QJsonObject Runner::passResult() const
{
    const double acceptSeconds = double(qMax<qint64>(m_tpLastAnswer - m_tpStart, 1)) / 1e9;
    const double deliverSeconds = double(qMax<qint64>(m_tpLastDelivery - m_tpStart, 1)) / 1e9;
    const qint64 wallEnd = qMax(m_tpLastAnswer, m_tpLastDelivery);
    // The broker's CPU time per message does not depend on what else runs on the machine:
    // its inverse is the rate one free core would sustain, if the broker is the bottleneck.
    const double cpuEnd = brokerCpuSeconds();
    const double cpuSeconds = (m_tpCpuStart >= 0 && cpuEnd >= 0) ? cpuEnd - m_tpCpuStart : -1;
    const double cpuUsPerMessage = (cpuSeconds > 0 && m_delivered > 0) ? cpuSeconds * 1e6 / m_delivered : -1;
    return QJsonObject {
        {QStringLiteral("messages"), m_options.messages},
        {QStringLiteral("senders"), m_options.senders},
        {QStringLiteral("receivers"), m_options.receivers},
        {QStringLiteral("window"), m_window},
        {QStringLiteral("accepted"), m_accepted},
        {QStringLiteral("delivered"), m_delivered},
        {QStringLiteral("errors"), m_errors},
        {QStringLiteral("wait_errors"), m_waitErrors},
        {QStringLiteral("accepted_per_s"), m_accepted ? std::round(double(m_accepted) / acceptSeconds) : 0.0},
        {QStringLiteral("delivered_per_s"),
         m_delivered ? std::round(double(m_delivered) / deliverSeconds) : 0.0},
        {QStringLiteral("wall_ms"), round3(double(qMax<qint64>(wallEnd - m_tpStart, 0)) / 1e6)},
        {QStringLiteral("broker_cpu_us_per_message"), round3(cpuUsPerMessage)},
        {QStringLiteral("broker_cpu_bound_per_s"),
         cpuUsPerMessage > 0 ? std::round(1e6 / cpuUsPerMessage) : -1.0},
    };
}

QString Runner::passSummary(const QJsonObject &pass) const
{
    const auto number = [&pass](const char *key) { return pass.value(QLatin1String(key)).toDouble(); };
    return QStringLiteral(
               "%1 senders -> %2 receivers, window %3): accepted %4/%5 (%6/s), delivered %7 (%8/s), "
               "errors %9, wall %10 ms")
               .arg(number("senders"))
               .arg(number("receivers"))
               .arg(number("window"))
               .arg(number("accepted"))
               .arg(number("messages"))
               .arg(number("accepted_per_s"), 0, 'f', 0)
               .arg(number("delivered"))
               .arg(number("delivered_per_s"), 0, 'f', 0)
               .arg(number("errors") + number("wait_errors"))
               .arg(number("wall_ms"), 0, 'f', 1) +
        QStringLiteral("; broker CPU %1 us/message (%2/s on one free core)")
            .arg(number("broker_cpu_us_per_message"), 0, 'f', 1)
            .arg(number("broker_cpu_bound_per_s"), 0, 'f', 0);
}

// ---- receivers: hold POST /wait-messages, acknowledge with the next one ----

void Runner::postWait(Receiver &receiver)
{
    QByteArray body = "{\"id\":\"" + receiver.peer->id + "\",\"ack\":[";
    for (qsizetype i = 0; i < receiver.toAck.size(); ++i) {
        if (i)
            body += ',';
        body += QByteArray::number(receiver.toAck[i]);
    }
    body += "],\"timeout_ms\":" + QByteArray::number(kWaitTimeoutMs) + '}';
    receiver.toAck.clear();
    Receiver *r = &receiver;
    receiver.connection->post(
        "/wait-messages", body, receiver.peer->bearer, [this, r](const HttpReply &reply) {
            if (!r->active || m_done)
                return;
            if (reply.status != 200) {
                ++m_waitErrors;
                if (m_firstError.isEmpty())
                    m_firstError = "POST /wait-messages: " + describe(reply);
                if (reply.status == 404 || m_waitErrors > 100) {
                    fail(QStringLiteral("POST /wait-messages failed: %1")
                             .arg(QString::fromUtf8(describe(reply))));
                    return;
                }
                QTimer::singleShot(100, this, [this, r] {
                    if (r->active && !m_done)
                        postWait(*r);
                });
                return;
            }
            const QJsonArray messages =
                QJsonDocument::fromJson(reply.body).object().value(QLatin1String("messages")).toArray();
            for (const QJsonValue &value : messages) {
                const QJsonObject message = value.toObject();
                const qint64 id = message.value(QLatin1String("id")).toInteger();
                r->toAck.append(id);
                if (!r->seen.contains(id)) { // delivery is at least once
                    r->seen.insert(id);
                    onMessage(*r, message);
                }
            }
            if (r->active && !m_done)
                postWait(*r);
        });
}

void Runner::onMessage(Receiver &receiver, const QJsonObject &message)
{
    const qint64 now = nowNs();
    if (&receiver == m_latReceiver) {
        const QString text = message.value(QLatin1String("text")).toString();
        if (text == QLatin1String("lat ") + QString::number(m_latIndex)) {
            m_latT1 = now;
            latencyMaybeDone();
        }
        return;
    }
    if (!m_inThroughput)
        return;
    ++m_delivered;
    m_tpLastDelivery = m_tpLastProgress = now;
    throughputMaybeDone();
}

void Runner::stopReceiver(Receiver &receiver, std::function<void()> then)
{
    receiver.active = false;
    // A newer wait for the same peer answers the parked one; timeout 0 answers at once and
    // carries the last acknowledgements.
    QByteArray body = "{\"id\":\"" + receiver.peer->id + "\",\"ack\":[";
    for (qsizetype i = 0; i < receiver.toAck.size(); ++i) {
        if (i)
            body += ',';
        body += QByteArray::number(receiver.toAck[i]);
    }
    body += "],\"timeout_ms\":0}";
    receiver.toAck.clear();
    m_control->post("/wait-messages", body, receiver.peer->bearer,
                    [then = std::move(then)](const HttpReply &) { then(); });
}

// ---- the end ----

void Runner::cleanUp(std::function<void()> then)
{
    auto remaining = std::make_shared<int>(0);
    auto finishOne = [remaining, then] {
        if (--*remaining == 0)
            then();
    };
    for (const auto &peer : m_peers) {
        if (peer->id.isEmpty())
            continue;
        ++*remaining;
        m_control->post("/unregister", QByteArray("{\"id\":\"" + peer->id + "\"}"), m_options.token,
                        [finishOne](const HttpReply &) { finishOne(); });
    }
    for (auto &receiver : m_receivers)
        receiver->connection->abort();
    for (auto &sender : m_senders)
        sender->connection->abort();
    for (QProcess *owner : std::as_const(m_owners)) {
        if (owner->state() != QProcess::NotRunning) {
            owner->kill();
            owner->waitForFinished(1000); // a killed `sleep`: immediate
        }
    }
    if (*remaining == 0)
        then();
}

void Runner::measureRss()
{
    step(QStringLiteral("measuring broker RSS (now and after 2 s idle)"));
    m_rssAfterRun = rssMb();
    QTimer::singleShot(2000, this, [this] {
        m_rssAfterIdle = rssMb();
        report();
    });
}

double Runner::brokerCpuSeconds() const
{
    if (m_options.brokerPid <= 0)
        return -1;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(m_options.brokerPid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const QByteArray line = stat.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return -1;
    const double ticks = double(fields.at(11).toLongLong() + fields.at(12).toLongLong());
    return ticks / double(sysconf(_SC_CLK_TCK));
}

double Runner::rssMb() const
{
    if (m_options.brokerPid <= 0)
        return -1;
    QFile status(QStringLiteral("/proc/%1/status").arg(m_options.brokerPid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            const QByteArray kb = line.mid(6).trimmed().split(' ').value(0);
            return double(kb.toLongLong()) / 1024.0;
        }
    }
    return -1;
}

void Runner::report()
{
    if (m_done)
        return;
    m_done = true;

    QList<double> sorted = m_latencyMs;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (double v : sorted)
        sum += v;
    QJsonObject latency {
        {QStringLiteral("samples"), sorted.size()},
        {QStringLiteral("p50"), round3(percentile(sorted, 0.50))},
        {QStringLiteral("p90"), round3(percentile(sorted, 0.90))},
        {QStringLiteral("p99"), round3(percentile(sorted, 0.99))},
        {QStringLiteral("max"), round3(sorted.isEmpty() ? 0 : sorted.last())},
        {QStringLiteral("mean"), round3(sorted.isEmpty() ? 0 : sum / double(sorted.size()))},
    };

    m_result.insert(QStringLiteral("ok"), !m_failed);
    m_result.insert(QStringLiteral("broker_pid"), m_options.brokerPid);
    m_result.insert(QStringLiteral("latency_ms"), latency);
    // The headline: one request in flight per client, as real clients do.
    m_result.insert(QStringLiteral("throughput"), m_passes.value(0));
    if (m_passes.size() > 1)
        m_result.insert(QStringLiteral("throughput_pipelined"), m_passes.at(1));
    m_result.insert(QStringLiteral("rss_mb"),
                    QJsonObject {
                        {QStringLiteral("after_run"), round3(m_rssAfterRun)},
                        {QStringLiteral("after_idle_2s"), round3(m_rssAfterIdle)},
                    });
    if (!m_firstError.isEmpty())
        m_result.insert(QStringLiteral("first_error"), QString::fromUtf8(m_firstError));

    const auto num = [](double v, int decimals) { return QString::number(v, 'f', decimals); };
    QStringList lines;
    lines << QStringLiteral("broker pid %1").arg(m_options.brokerPid);
    lines << QStringLiteral("latency (store -> push, %1 samples): p50 %2 ms, p90 %3 ms, p99 %4 ms, max %5 ms")
                 .arg(sorted.size())
                 .arg(num(latency[QStringLiteral("p50")].toDouble(), 3),
                      num(latency[QStringLiteral("p90")].toDouble(), 3),
                      num(latency[QStringLiteral("p99")].toDouble(), 3),
                      num(latency[QStringLiteral("max")].toDouble(), 3));
    if (!m_passes.isEmpty())
        lines << QStringLiteral("throughput, not pipelined (") + passSummary(m_passes.at(0));
    if (m_passes.size() > 1)
        lines << QStringLiteral("throughput, pipelined (") + passSummary(m_passes.at(1));
    lines << QStringLiteral("broker RSS: %1 MB after the run, %2 MB after 2 s idle")
                 .arg(num(m_rssAfterRun, 1), num(m_rssAfterIdle, 1));
    if (!m_firstError.isEmpty())
        lines << QStringLiteral("first error: %1").arg(QString::fromUtf8(m_firstError));
    m_summary = lines.join(QLatin1Char('\n'));
    Q_EMIT finished(m_failed ? 1 : 0);
}

} // namespace Bench
