#pragma once

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

// What every fuzz target shares: one QCoreApplication, logging off (a warning per input would
// be most of the run time; fatal messages still abort), and a reader that turns the fuzzer's
// bytes into choices and chunks.
namespace Fuzz {

// Call from LLVMFuzzerInitialize(argc, argv).
void initialize(int *argc, char ***argv);

// A private directory for files a target writes (removed at exit).
QString scratchDir();

// What one pass of an event loop would deliver: posted events, then deferred deletes.
void processQueued();

class Input
{
public:
    Input(const uint8_t *data, size_t size) : m_data(data), m_size(size) { }

    bool atEnd() const { return m_pos >= m_size; }
    size_t remaining() const { return m_size - m_pos; }
    uint8_t byte(); // 0 at the end
    uint16_t u16(); // little-endian, 0-padded at the end
    bool flag() { return byte() & 1; }
    // Up to `max` bytes (fewer at the end).
    QByteArray bytes(size_t max);
    // A chunk whose length is read first (one byte, 0..255), then its bytes.
    QByteArray chunk();
    QByteArray rest();

private:
    const uint8_t *m_data;
    size_t m_size;
    size_t m_pos = 0;
};

} // namespace Fuzz
