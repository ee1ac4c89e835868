// What the control service reads from OpenCode, on arbitrary bytes: the /event stream's SSE
// framing (split into the fuzzer's chunks, with a small event cap so the drop path runs), and
// JSON answers through the message projection, the id scans, the last-selection reuse, the
// selection check and the defaults (openchamber/{opencodeevents,messageprojection,selection}.cpp).
#include "tests/fuzz/fuzzsupport.h"

#include "openchamber/controlsettings.h"
#include "openchamber/messageprojection.h"
#include "openchamber/opencodeevents.h"
#include "openchamber/selection.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace OpenChamber;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input input(data, size);
    const uint8_t mode = input.byte();
    if (mode & 1) {
        SseParser parser(qsizetype(64 + input.byte()));
        QByteArray whole;
        QList<QByteArray> events;
        while (!input.atEnd()) {
            const QByteArray chunk = input.chunk();
            whole += chunk;
            for (const QByteArray &event : parser.feed(chunk)) {
                events.append(event);
                const QJsonDocument doc = QJsonDocument::fromJson(event);
                if (doc.isObject())
                    (void)eventSessionId(doc.object());
            }
        }
        // Chunking never changes what a parser with the same cap sees.
        SseParser once(qsizetype(64 + (size > 1 ? data[1] : 0)));
        if (once.feed(whole) != events)
            abort();
        return 0;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(input.rest());
    const QJsonArray raw = doc.array();
    for (MessageRole role : {MessageRole::All, MessageRole::User, MessageRole::Assistant})
        (void)projectTextMessages(raw, role);
    (void)newestUserMessageId(raw);
    (void)latestCompletedAssistantId(raw);
    (void)lastUserSelection(raw);
    const QJsonObject object = doc.object();
    const SelectionInputs inputs {raw.isEmpty() ? object.value(QStringLiteral("providers")).toArray() : raw,
                                  object.value(QStringLiteral("agents")).toArray(),
                                  object.value(QStringLiteral("config")).toObject()};
    (void)resolveDefaultSelection(ControlSettings::fromConfig(object), inputs);
    const Selection requested {ModelRef::parse(object.value(QStringLiteral("model")).toString()),
                               object.value(QStringLiteral("agent")).toString(),
                               object.value(QStringLiteral("variant")).toString()};
    (void)validateRequestedSelection(requested, inputs, QStringLiteral("/d"));
    return 0;
}
