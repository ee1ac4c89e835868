// The fuzz smoke test of `make test`: a fuzz target's seeds (regression inputs included) run
// once each through its LLVMFuzzerTestOneInput, built by the same g++ as the rest of the suite
// so the test build compiles the product once (the clang/libFuzzer build is `make fuzz`'s).
// A crash, an abort or a failed assertion fails the test; so does a run that executed nothing.
//   fuzzreplay_<name> <file or directory>...
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

namespace {

// Files of each argument, a directory's in name order so that a run is repeatable.
QStringList inputFiles(const std::vector<QString> &arguments)
{
    QStringList files;
    for (const QString &argument : arguments) {
        const QFileInfo info(argument);
        if (info.isDir()) {
            for (const QFileInfo &f : QDir(argument).entryInfoList(QDir::Files, QDir::Name))
                files << f.filePath();
        } else if (info.isFile()) {
            files << argument;
        } else {
            std::fprintf(stderr, "fuzz replay: %s is neither a file nor a directory\n", qPrintable(argument));
        }
    }
    return files;
}

} // namespace

int main(int argc, char **argv)
{
    // Read before LLVMFuzzerInitialize, which hands argv to QCoreApplication.
    std::vector<QString> arguments;
    for (int i = 1; i < argc; ++i)
        arguments.push_back(QString::fromLocal8Bit(argv[i]));
    if (arguments.empty()) {
        std::fprintf(stderr, "usage: %s <seed file or directory>...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);

    const QStringList files = inputFiles(arguments);
    QElapsedTimer total;
    total.start();
    qint64 slowestMs = -1;
    QString slowest;
    for (const QString &path : files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "fuzz replay: cannot read %s: %s\n", qPrintable(path),
                         qPrintable(file.errorString()));
            return 1;
        }
        const QByteArray data = file.readAll();
        QElapsedTimer one;
        one.start();
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.constData()), size_t(data.size()));
        if (one.elapsed() > slowestMs) {
            slowestMs = one.elapsed();
            slowest = QFileInfo(path).fileName();
        }
    }
    if (files.isEmpty()) {
        std::fprintf(stderr, "fuzz replay: no input was executed (no seed files found)\n");
        return 1;
    }
    std::printf("fuzz replay: %lld inputs executed in %lld ms, no finding (slowest: %s, %lld ms)\n",
                qlonglong(files.size()), qlonglong(total.elapsed()), qPrintable(slowest),
                qlonglong(slowestMs));
    return 0;
}
