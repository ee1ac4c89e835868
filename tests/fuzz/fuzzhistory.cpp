#include "tests/fuzz/fuzzhistory.h"

#include <QFile>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace Fuzz {

namespace {
constexpr char kMagic[8] = {'P', 'F', 'H', 'I', 'S', 'T', '1', '\n'};
constexpr size_t kSizeBytes = sizeof(uint32_t); // before each input: its length
} // namespace

// The file: this header, then each input as its length (uint32, host order) and its bytes.
struct History::Header
{
    char magic[8];
    uint32_t count;
    uint32_t incomplete; // an input did not fit: replay would not be the run's sequence
    uint64_t used; // bytes of records after the header
};

History::History(const char *target, int argc, char **argv, int capacity, size_t maxInputBytes)
{
    QByteArray prefix; // libFuzzer's default: the working directory
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg.startsWith("-artifact_prefix="))
            prefix = arg.mid(int(std::strlen("-artifact_prefix=")));
    }
    m_path = QString::fromLocal8Bit(prefix) + QLatin1String(target) + QStringLiteral("-history-") +
        QString::number(::getpid());
    m_recordBytes = size_t(capacity) * (kSizeBytes + maxInputBytes);
    m_mappedBytes = sizeof(Header) + m_recordBytes;
    const QByteArray file = QFile::encodeName(m_path);
    const int fd = ::open(file.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    // The file is sparse: only the pages the inputs reach take space.
    void *map = fd >= 0 && ::ftruncate(fd, off_t(m_mappedBytes)) == 0
        ? ::mmap(nullptr, m_mappedBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        : MAP_FAILED;
    const int error = errno;
    if (fd >= 0)
        ::close(fd);
    if (map == MAP_FAILED) {
        // Fuzzing goes on; only the replay of a finding that needs earlier inputs is lost.
        std::fprintf(stderr,
                     "fuzz: cannot keep the input history in %s (%s): a finding that needs earlier "
                     "inputs will not be replayable\n",
                     file.constData(), std::strerror(error));
        ::unlink(file.constData());
        m_path.clear();
        return;
    }
    m_header = static_cast<Header *>(map);
    std::memcpy(m_header->magic, kMagic, sizeof kMagic);
    m_records = static_cast<uint8_t *>(map) + sizeof(Header);
    restart();
}

History::~History()
{
    if (!m_header)
        return;
    ::munmap(m_header, m_mappedBytes);
    ::unlink(QFile::encodeName(m_path).constData());
}

void History::restart()
{
    if (!m_header)
        return;
    m_header->count = 0;
    m_header->incomplete = 0;
    m_header->used = 0;
}

void History::record(const uint8_t *data, size_t size)
{
    if (!m_header)
        return;
    if (size > UINT32_MAX || m_header->used + kSizeBytes + size > m_recordBytes) {
        m_header->incomplete = 1;
        return;
    }
    uint8_t *at = m_records + m_header->used;
    const uint32_t length = uint32_t(size);
    std::memcpy(at, &length, kSizeBytes);
    if (size > 0)
        std::memcpy(at + kSizeBytes, data, size);
    m_header->used += kSizeBytes + size;
    ++m_header->count;
}

std::expected<History::Recorded, QString> History::read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::unexpected(QStringLiteral("cannot open %1: %2").arg(path, file.errorString()));
    const QByteArray bytes = file.readAll();
    Header header {};
    if (size_t(bytes.size()) < sizeof header)
        return std::unexpected(QStringLiteral("%1 is not an input history (too short)").arg(path));
    std::memcpy(&header, bytes.constData(), sizeof header);
    if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0 ||
        header.used > size_t(bytes.size()) - sizeof header)
        return std::unexpected(QStringLiteral("%1 is not an input history").arg(path));
    Recorded recorded;
    recorded.complete = header.incomplete == 0;
    const char *at = bytes.constData() + sizeof header;
    const char *end = at + header.used;
    while (at < end) {
        uint32_t length = 0;
        if (size_t(end - at) < kSizeBytes)
            return std::unexpected(QStringLiteral("%1 is damaged (a record is cut short)").arg(path));
        std::memcpy(&length, at, kSizeBytes);
        at += kSizeBytes;
        if (size_t(end - at) < length)
            return std::unexpected(QStringLiteral("%1 is damaged (a record is cut short)").arg(path));
        recorded.inputs.append(QByteArray(at, qsizetype(length)));
        at += length;
    }
    if (recorded.inputs.size() != qsizetype(header.count))
        return std::unexpected(QStringLiteral("%1 is damaged (%2 inputs, the header says %3)")
                                   .arg(path)
                                   .arg(recorded.inputs.size())
                                   .arg(header.count));
    return recorded;
}

void replayHistoryIfAsked()
{
    const QString path = qEnvironmentVariable("FUZZ_REPLAY_HISTORY");
    if (path.isEmpty())
        return;
    const auto recorded = History::read(path);
    if (!recorded) {
        std::fprintf(stderr, "fuzz: %s\n", qPrintable(recorded.error()));
        std::exit(1);
    }
    if (!recorded->complete)
        std::fprintf(stderr,
                     "fuzz: %s is incomplete (an input was larger than the history keeps): the "
                     "replay is not the run's sequence\n",
                     qPrintable(path));
    std::fprintf(stderr, "fuzz: replaying %lld inputs from %s in the order they ran\n",
                 static_cast<long long>(recorded->inputs.size()), qPrintable(path));
    for (const QByteArray &input : recorded->inputs)
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.constData()), size_t(input.size()));
    std::fprintf(stderr, "fuzz: replayed %lld inputs, no finding\n",
                 static_cast<long long>(recorded->inputs.size()));
    std::exit(0);
}

} // namespace Fuzz
