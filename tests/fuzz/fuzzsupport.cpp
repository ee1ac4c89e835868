#include "tests/fuzz/fuzzsupport.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QTemporaryDir>

#include <cstdlib>

namespace Fuzz {

namespace {

// Never destroyed: libFuzzer ends with exit(), and tearing Qt down from a static destructor
// crashes in ~QCoreApplication.
QCoreApplication *g_app = nullptr;
QTemporaryDir *g_dir = nullptr;

void quietMessageHandler(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtFatalMsg) {
        fprintf(stderr, "qFatal: %s\n", qPrintable(message));
        abort();
    }
}

} // namespace

void initialize(int *argc, char ***argv)
{
    if (g_app)
        return;
    g_app = new QCoreApplication(*argc, *argv);
    QLoggingCategory::setFilterRules(QStringLiteral("*=false"));
    qInstallMessageHandler(quietMessageHandler);
    // tmpfs where there is one: the file targets write (and QSaveFile fsyncs) every input.
    const QString shm = QStringLiteral("/dev/shm");
    g_dir = QFileInfo(shm).isWritable() ? new QTemporaryDir(shm + QStringLiteral("/peers-fuzz-XXXXXX"))
                                        : new QTemporaryDir;
    std::atexit([] { delete g_dir; });
}

QString scratchDir()
{
    return g_dir->path();
}

void processQueued()
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

uint8_t Input::byte()
{
    return m_pos < m_size ? m_data[m_pos++] : 0;
}

uint16_t Input::u16()
{
    const uint16_t low = byte();
    return uint16_t(low | (uint16_t(byte()) << 8));
}

QByteArray Input::bytes(size_t max)
{
    const size_t n = std::min(max, remaining());
    QByteArray out(reinterpret_cast<const char *>(m_data + m_pos), qsizetype(n));
    m_pos += n;
    return out;
}

QByteArray Input::chunk()
{
    return bytes(byte());
}

QByteArray Input::rest()
{
    return bytes(remaining());
}

} // namespace Fuzz
