// The helper's stdin path (mcp_stdio/): LineSplitter framing fed in pieces, then the
// JSON-RPC dispatcher (single messages and batches), with tools that answer at once or later.
// Input: byte 0 picks the line limit, byte 1 the rhythm of the pieces, the rest is the stream
// (seeds are real JSON-RPC lines behind those two bytes). Every answer must be one JSON line.
#include "fuzzsupport.h"

#include "jsonrpcdispatcher.h"
#include "linesplitter.h"
#include "stdoutwriter.h"
#include "tooldefinitions.h"
#include "toolhost.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Mcp;

namespace {

// The real tool list; calls answer at once or are held until the stream says so.
class Tools final : public ToolHost
{
public:
    QJsonArray toolList() const override
    {
        using namespace ToolDefinitions;
        constexpr auto client = ClientKind::ClaudeCode; // the longest texts
        return {listPeers(client),     sendMessage(client),   setSummary(client),
                setName(client),       checkMessages(client), broadcastMessage(client),
                messageStatus(client), channelHealth(client), whoami(client)};
    }
    bool hasTool(const QString &name) const override
    {
        static const QStringList names = [this] {
            QStringList all;
            for (const QJsonValue &tool : toolList())
                all.append(tool.toObject().value(QLatin1String("name")).toString());
            return all;
        }();
        return names.contains(name);
    }
    void callTool(const QString &name, const QJsonObject &arguments, Done done) override
    {
        QJsonObject result {{QStringLiteral("content"),
                             QJsonArray {QJsonObject {{QStringLiteral("type"), QStringLiteral("text")},
                                                      {QStringLiteral("text"), name}}}}};
        if (arguments.size() % 2)
            held.append([done, result] { done(result); });
        else
            done(result);
    }
    void answerHeld()
    {
        const auto calls = std::exchange(held, {});
        for (const auto &call : calls)
            call();
    }

    QList<std::function<void()>> held;
};

int g_answers = 0;

void checkAnswer(const QJsonValue &message)
{
    ++g_answers;
    Q_ASSERT(message.isObject() || message.isArray());
    const QByteArray line = StdoutWriter::encode(message);
    Q_ASSERT(line.endsWith('\n') && line.count('\n') == 1);
    QJsonParseError error;
    QJsonDocument::fromJson(line, &error);
    Q_ASSERT(error.error == QJsonParseError::NoError);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input input(data, size);
    const uint8_t limitChoice = input.byte();
    const uint8_t rhythm = input.byte();
    // Small limits reach the "line too long" path; 0 keeps the helper's real one.
    const qsizetype limit = limitChoice == 0 ? LineSplitter::DefaultLimit : 16 + qsizetype(limitChoice) * 8;

    Tools tools;
    JsonRpcDispatcher dispatcher(&tools);
    QObject::connect(&dispatcher, &JsonRpcDispatcher::response, &dispatcher, &checkAnswer);
    LineSplitter splitter(limit);
    const auto deliver = [&](const QList<LineSplitter::Item> &items) {
        for (const LineSplitter::Item &item : items) {
            Q_ASSERT(item.tooLong || (!item.line.contains('\n') && item.line.size() <= limit));
            if (item.tooLong)
                dispatcher.handleLineTooLong(limit);
            else
                dispatcher.handleLine(item.line);
        }
    };

    int piece = 0;
    while (!input.atEnd()) {
        // Piece sizes 1..64 in a rhythm the fuzzer picks: splits land everywhere in a line.
        const size_t n = 1 + ((rhythm * 7 + piece * (rhythm | 1)) % 64);
        const QByteArray bytes = input.bytes(n);
        deliver(splitter.feed(bytes));
        if (++piece % 3 == 0)
            tools.answerHeld();
    }
    deliver(splitter.finish());
    tools.answerHeld();
    QCoreApplication::sendPostedEvents();
    Q_ASSERT(dispatcher.requestsInFlight() == 0);
    return 0;
}
