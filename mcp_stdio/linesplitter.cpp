#include "mcp_stdio/linesplitter.h"

#include <cstring>

namespace Mcp {

LineSplitter::LineSplitter(qsizetype limit) : m_limit(limit) { }

void LineSplitter::emitLine(QList<Item> &out)
{
    QByteArray line = std::move(m_buffer);
    m_buffer = QByteArray();
    if (line.endsWith('\r'))
        line.chop(1);
    if (line.trimmed().isEmpty())
        return;
    out.append(Item {std::move(line), false});
}

QList<LineSplitter::Item> LineSplitter::feed(const char *data, qsizetype size)
{
    QList<Item> out;
    while (size > 0) {
        const char *nl = static_cast<const char *>(std::memchr(data, '\n', size_t(size)));
        const qsizetype chunk = nl ? qsizetype(nl - data) : size;
        if (m_discarding) {
            // Still skipping the rest of an oversized line.
        } else if (m_buffer.size() + chunk > m_limit) {
            m_buffer = QByteArray(); // release the memory at once
            m_discarding = true;
            out.append(Item {{}, true});
        } else {
            m_buffer.append(data, chunk);
        }
        if (!nl)
            break;
        if (m_discarding)
            m_discarding = false;
        else
            emitLine(out);
        data += chunk + 1;
        size -= chunk + 1;
    }
    return out;
}

QList<LineSplitter::Item> LineSplitter::finish()
{
    QList<Item> out;
    if (!m_discarding && !m_buffer.isEmpty())
        emitLine(out);
    m_buffer = QByteArray();
    m_discarding = false;
    return out;
}

} // namespace Mcp
