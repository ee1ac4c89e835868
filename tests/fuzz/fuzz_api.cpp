// The broker's routes (broker/internal/api*.cpp) with fuzzed bodies: the real BrokerCore (Api,
// Service, Authenticator, rate limiter, delivery hub, group commit), the same object
// BrokerServer serves, on an in-memory SQLite store and without a socket. Opening and migrating a store
// costs as much as a dozen inputs, so a broker serves kInputsPerBroker inputs before a fresh one
// replaces it. The inputs a broker has run are kept in a history file (fuzzhistory.h), so a finding
// that needs an earlier input's rows replays with FUZZ_REPLAY_HISTORY (docs/fuzzing.md).
// The input is a script of requests:
//   route, credential, a few flags, optional headers (Idempotency-Key, the federation PSK), body
//   (with $ID1/$ID2/$MSG replaced by the ids of peers and messages that earlier requests of the
//   same input created), and clock steps.
#include "tests/fuzz/fuzzhistory.h"
#include "tests/fuzz/fuzzresponder.h"
#include "tests/fuzz/fuzzsupport.h"

#include "broker/clock.h"
#include "broker/internal/api.h"
#include "broker/internal/brokercore.h"
#include "broker/internal/deliveryhub.h"
#include "broker/internal/groupcommit.h"
#include "broker/internal/tokenkeeper.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdlib>
#include <memory>
#include <vector>

using namespace Broker;

namespace {

// At 128 inputs per broker, renewing it was an eighth of the target's time; at 1024, 1.6%. The
// broker does not fill up meanwhile: after 1024 inputs it holds a few peers and messages.
constexpr int kInputsPerBroker = 1024;
constexpr size_t kMaxInputBytes = 8192; // run-fuzz.sh's -max_len

// Every route of api.cpp, the unauthenticated GETs, and one unknown path.
const char *const kPaths[] = {
    "/register",
    "/heartbeat",
    "/set-summary",
    "/set-name",
    "/set-channel-push",
    "/list-peers",
    "/send-message",
    "/broadcast",
    "/poll-messages",
    "/ack-messages",
    "/message-status",
    "/unregister",
    "/wait-messages",
    "/messages",
    "/shutdown",
    "/reload",
    "/federation/connect",
    "/federation/disconnect",
    "/federation/send-to-remote",
    "/health",
    "/metrics",
    "/federation/status",
    "/nowhere",
    // Routes added after the seeds were written go last, so the seeds keep naming theirs.
    "/rotate-token",
    "/secrets",
    "/set-attention",
};

// What the answers told us, so later requests can name real peers and messages.
struct Learned
{
    QList<QByteArray> ids;
    QList<QByteArray> secrets;
    QByteArray lastMessageId = "1";
    int answers = 0;
};

class CaptureResponder final : public Fuzz::ConnectionResponder
{
public:
    CaptureResponder(Learned &learned, QByteArray sentKey) : m_learned(learned), m_sentKey(std::move(sentKey))
    {
    }

    void respond(const Http::Response &response) override
    {
        if (!accept())
            return;
        ++m_learned.answers;
        Q_ASSERT(response.status >= 100 && response.status < 600);
        // Only a 200 answer echoes the key, and only the key of its own request.
        for (const auto &[name, value] : response.extraHeaders) {
            if (name.compare("idempotency-key", Qt::CaseInsensitive) == 0) {
                Q_ASSERT(response.status == 200);
                Q_ASSERT(value == m_sentKey);
            }
        }
        if (response.contentType != "application/json")
            return;
        // Every JSON answer is valid JSON.
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(response.body, &error);
        Q_ASSERT(error.error == QJsonParseError::NoError);
        const QJsonObject object = doc.object();
        if (const QString id = object.value(QLatin1String("id")).toString(); !id.isEmpty())
            m_learned.ids.append(id.toUtf8());
        if (const QString secret = object.value(QLatin1String("session_secret")).toString();
            !secret.isEmpty())
            m_learned.secrets.append(secret.toUtf8());
        if (const QJsonValue mid = object.value(QLatin1String("message_id")); mid.isDouble())
            m_learned.lastMessageId = QByteArray::number(mid.toInteger());
    }

private:
    Learned &m_learned;
    QByteArray m_sentKey;
};

// The broker's core on ":memory:", the token file alone (no keychain) in the scratch
// directory (/rotate-token rewrites it); default settings (rate limit 60/min, heartbeat 60 s).
struct BrokerUnderTest
{
    explicit BrokerUnderTest(const std::shared_ptr<ManualClock> &clock)
        : settings(makeSettings()), core(settings, BrokerCore::Parts {clock, {}, {}, {}, nullptr})
    {
        const auto opened = core.open();
        Q_ASSERT(opened.has_value());
    }

    static Settings makeSettings()
    {
        Settings s;
        s.location.databasePath = QStringLiteral(":memory:");
        s.location.tokenPath = Fuzz::scratchDir() + QStringLiteral("/token");
        s.location.tokenPathExplicit = true;
        return s;
    }

    Settings settings;
    BrokerCore core;
};

// Never destroyed at exit (Qt's SQL globals may already be gone then).
std::shared_ptr<ManualClock> *g_clock = nullptr;
BrokerUnderTest *g_broker = nullptr;
int g_inputs = 0;
Fuzz::History *g_history = nullptr; // null while replaying one

QByteArray pick(const QList<QByteArray> &list, int back)
{
    return list.size() >= back ? list.at(list.size() - back) : QByteArray("nobody");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    Fuzz::replayHistoryIfAsked(); // exits when asked to replay
    g_history = new Fuzz::History("api", *argc, *argv, kInputsPerBroker, kMaxInputBytes);
    std::atexit([] { delete g_history; }); // a run that ends normally leaves no history file
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input input(data, size);
    if (!g_broker || ++g_inputs % kInputsPerBroker == 0) {
        delete std::exchange(g_broker, nullptr);
        delete g_clock;
        g_clock = new std::shared_ptr<ManualClock>(
            std::make_shared<ManualClock>(QDateTime(QDate(2026, 11, 30), QTime(12, 0), Qt::UTC)));
        g_broker = new BrokerUnderTest(*g_clock);
        if (g_history)
            g_history->restart();
    }
    if (g_history)
        g_history->record(data, size);
    ManualClock &clock = **g_clock;
    BrokerUnderTest &broker = *g_broker;
    Learned learned;
    std::vector<std::shared_ptr<CaptureResponder>> pending;
    {
        int requests = 0;
        while (!input.atEnd() && requests < 64) {
            const uint8_t op = input.byte();
            if (op >= 0xf0) { // a step of the clock (heartbeat timeouts, rate-limit windows)
                clock.advance(qint64(input.u16()) * 100);
                Fuzz::processQueued();
                continue;
            }
            ++requests;
            Http::Request request;
            request.path = kPaths[op % std::size(kPaths)];
            const uint8_t flags = input.byte();
            request.method = (flags & 0x80) ? "GET" : "POST";
            switch (flags & 3) {
            case 0:
                request.headers.append({"authorization", "Bearer " + broker.core.tokens().token()});
                break;
            case 1:
                request.headers.append({"authorization", "Bearer " + pick(learned.secrets, 1)});
                break;
            case 2:
                request.headers.append({"authorization", "Bearer " + pick(learned.secrets, 2)});
                break;
            case 3:
                request.headers.append({"authorization", input.chunk()});
                break;
            }
            if (flags & 4)
                request.query = input.chunk();
            QByteArray key;
            if (flags & 0x40) {
                // A few shared keys, so that requests of one input re-send each other's; or any bytes.
                const uint8_t headers = input.byte();
                if (headers & 1) {
                    key = (headers & 2) ? input.chunk() : "key-" + QByteArray::number(headers >> 4 & 3);
                    request.headers.append({"idempotency-key", key});
                }
                if (headers & 4)
                    request.headers.append({"x-claude-peers-psk", input.chunk()});
            }
            request.peerAddress = QHostAddress::LocalHost;
            QByteArray body = input.bytes(input.u16() % 2048);
            body.replace("$ID1", pick(learned.ids, 1));
            body.replace("$ID2", pick(learned.ids, 2));
            body.replace("$MSG", learned.lastMessageId);
            request.body = std::move(body);

            auto responder = std::make_shared<CaptureResponder>(learned, key);
            broker.core.api().handle(request, responder);
            if (responder->isOpen())
                pending.push_back(responder); // a wait, or an answer held for the commit
            if (flags & 8)
                Fuzz::processQueued(); // else the next request shares this event-loop pass
            if ((flags & 0x30) == 0x30 && !pending.empty()) {
                pending.front()->close(); // the client of the oldest open request goes away
                pending.erase(pending.begin());
            }
        }
        Fuzz::processQueued();
    }
    // The end of this client's session: waits are answered or closed, nothing stays held.
    broker.core.hub().releaseAll();
    broker.core.commit().flush();
    for (const auto &responder : pending)
        responder->close();
    Fuzz::processQueued();
    return 0;
}
