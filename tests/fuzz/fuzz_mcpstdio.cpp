// The helper's stdin path (mcp_stdio/): LineSplitter framing fed in pieces, then the
// JSON-RPC dispatcher (single messages and batches) and the tool registry, with tools that
// answer at once, later, or never (dropped; the registry answers for them).
// Input: byte 0 picks the line limit, byte 1 the rhythm of the pieces, the rest is the stream
// (seeds are real JSON-RPC lines behind those two bytes). Every answer must be one JSON line.
// The registry with its tools is built once: after an input no call is in flight and no reply
// is held (asserted), and nothing else in it changes, so the next input finds it as new. The
// dispatcher and the framing (a session's state) are new for every input.
#include "tests/fuzz/fuzzsupport.h"

#include "mcp_stdio/jsonrpcdispatcher.h"
#include "mcp_stdio/linesplitter.h"
#include "mcp_stdio/stdoutwriter.h"
#include "mcp_stdio/tooldefinitions.h"
#include "mcp_stdio/toolregistry.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Mcp;

namespace {

// The real tool list (the built-in definitions); calls answer at once, or are held until the
// stream says so, or are dropped unanswered (the registry then answers for them).
class FuzzTool final : public Tool
{
public:
    FuzzTool(const ToolDefinitions::Definition &definition, QList<ToolReply> &held)
        : m_definition(definition), m_held(held)
    {
    }
    QString name() const override { return QLatin1String(m_definition.name); }
    QString description(ClientKind client) const override { return m_definition.description(client); }
    QJsonObject inputSchema() const override { return m_definition.inputSchema(); }
    void call(const QJsonObject &arguments, const ToolContext &, ToolReply reply) override
    {
        if (arguments.size() % 3 == 1)
            m_held.append(reply);
        else if (arguments.size() % 3 == 0)
            reply.text(name());
        // else: dropped without an answer
    }

private:
    const ToolDefinitions::Definition &m_definition;
    QList<ToolReply> &m_held;
};

void answerHeld(QList<ToolReply> &held)
{
    const QList<ToolReply> calls = std::exchange(held, {});
    for (const ToolReply &reply : calls)
        reply.text(QStringLiteral("later"));
}

// Built in LLVMFuzzerInitialize, never destroyed (libFuzzer ends with exit()).
QList<ToolReply> *g_held = nullptr;
ToolRegistry *g_tools = nullptr;

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
    g_held = new QList<ToolReply>;
    g_tools = new ToolRegistry;
    g_tools->setClientName(QStringLiteral("claude-code")); // the longest texts
    for (const ToolDefinitions::Definition *definition : ToolDefinitions::all()) {
        const auto added = g_tools->add(std::make_unique<FuzzTool>(*definition, *g_held));
        Q_ASSERT(added.has_value());
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input input(data, size);
    const uint8_t limitChoice = input.byte();
    const uint8_t rhythm = input.byte();
    // Small limits reach the "line too long" path; 0 keeps the helper's real one.
    const qsizetype limit = limitChoice == 0 ? LineSplitter::DefaultLimit : 16 + qsizetype(limitChoice) * 8;

    ToolRegistry &registry = *g_tools;
    QList<ToolReply> &held = *g_held;
    JsonRpcDispatcher dispatcher(&registry);
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
            answerHeld(held);
    }
    deliver(splitter.finish());
    answerHeld(held);
    QCoreApplication::sendPostedEvents(); // the registry's answers for dropped calls
    Q_ASSERT(dispatcher.requestsInFlight() == 0);
    Q_ASSERT(registry.callsInFlight() == 0);
    Q_ASSERT(held.isEmpty());
    return 0;
}
