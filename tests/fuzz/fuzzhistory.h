#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <expected>

// The inputs a target ran since it last made its state new (fuzz_api keeps one broker for many
// inputs), so that a finding which needs the earlier inputs can be replayed. They are kept in a
// file mapped into memory: an input is recorded with a memcpy, no system call, and the file
// keeps it however the process ends (an abort, libFuzzer's _exit after a timeout, SIGKILL).
//
// The file is <libFuzzer's -artifact_prefix><target>-history-<pid>, next to the crash files; a run
// that ends normally removes it. Replay: FUZZ_REPLAY_HISTORY=<file> <fuzz binary> (see
// docs/fuzzing.md).
namespace Fuzz {

class History
{
public:
    // Room for `capacity` inputs of up to `maxInputBytes` each; a larger input is not kept and
    // marks the history incomplete (replay says so). argv: the fuzzer's, for -artifact_prefix.
    History(const char *target, int argc, char **argv, int capacity, size_t maxInputBytes);
    ~History();
    History(const History &) = delete;
    History &operator=(const History &) = delete;

    QString path() const { return m_path; }
    // The state was made new: the inputs before do not matter any more.
    void restart();
    // Call before running the input.
    void record(const uint8_t *data, size_t size);

    struct Recorded
    {
        QList<QByteArray> inputs; // in the order they ran; the last one ran when the process ended
        bool complete = true;
    };
    static std::expected<Recorded, QString> read(const QString &path);

private:
    struct Header;
    QString m_path;
    Header *m_header = nullptr;
    uint8_t *m_records = nullptr;
    size_t m_recordBytes = 0;
    size_t m_mappedBytes = 0;
};

// Call at the end of LLVMFuzzerInitialize: when FUZZ_REPLAY_HISTORY names a history file, runs its
// inputs through LLVMFuzzerTestOneInput in order and exits (status 0 when nothing was found; a
// finding aborts as in a fuzzing run). Returns when the variable is not set.
void replayHistoryIfAsked();

} // namespace Fuzz
