#pragma once

#include <QByteArray>
#include <QList>

namespace Mcp {

// Splits a byte stream into newline-terminated lines (stdio framing of MCP). A trailing "\r"
// is stripped; blank lines are dropped. A line longer than the limit is discarded up to its
// newline and reported once, so one oversized line costs bounded memory and never desyncs the
// stream. Pure data: no I/O, so the framing is tested byte by byte.
class LineSplitter
{
public:
    struct Item
    {
        QByteArray line; // empty when tooLong
        bool tooLong = false; // the line exceeded the limit and was dropped
    };

    static constexpr qsizetype DefaultLimit = 16 * 1024 * 1024;

    explicit LineSplitter(qsizetype limit = DefaultLimit);

    qsizetype limit() const { return m_limit; }
    // Feeds bytes; returns the complete lines (and overflow reports) in stream order.
    QList<Item> feed(const char *data, qsizetype size);
    QList<Item> feed(const QByteArray &data) { return feed(data.constData(), data.size()); }
    // End of input: an unterminated last line is delivered as if it had a newline.
    QList<Item> finish();
    qsizetype buffered() const { return m_buffer.size(); }

private:
    void emitLine(QList<Item> &out);

    qsizetype m_limit;
    QByteArray m_buffer;
    bool m_discarding = false; // inside an oversized line, waiting for its newline
};

} // namespace Mcp
