// What the helper reads from Claude Code (issue 32): receipts on its inbox receipt socket
// (mcp_stdio/claudeinboxwire.cpp) and the session state file (mcp_stdio/claudesessionfile.cpp),
// both untrusted bytes. The first input byte picks the parser; the rest is the line or file.
#include "tests/fuzz/fuzzsupport.h"

#include "mcp_stdio/claudeinboxwire.h"
#include "mcp_stdio/claudesessionfile.h"

using namespace Mcp;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input in(data, size);
    const bool receipt = in.flag();
    const QByteArray bytes = in.rest();
    if (receipt) {
        const auto r = ClaudeInboxWire::parseReceipt(bytes);
        if (r) {
            Q_ASSERT(!r->origMsgId.isEmpty() || !r->droppedMsgIds.isEmpty());
            Q_ASSERT(r->droppedMsgIds.size() <= 256);
            Q_ASSERT(bytes.size() <= ClaudeInboxWire::MaxReceiptBytes);
            Q_ASSERT(!ClaudeInboxWire::statusName(r->status).isEmpty());
        } else {
            Q_ASSERT(!r.error().message.isEmpty());
        }
        return 0;
    }
    const auto record = ClaudeSessionFile::parse(bytes);
    if (record) {
        const ClaudeSessionFile::State state = ClaudeSessionFile::stateOf(*record);
        Q_ASSERT(state.attention != Broker::Attention::Unknown); // every accepted status means something
        Q_ASSERT(state.attention != Broker::Attention::NeedsYou || !state.message.isEmpty());
        Q_ASSERT(record->waitingFor.size() <= 4096);
    } else {
        Q_ASSERT(!record.error().message.isEmpty());
    }
    return 0;
}
