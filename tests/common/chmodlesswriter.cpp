// Test helper for tst_tokenfile: writes a secret file with TokenFile::write in a process where
// chmod/fchmod/fchmodat fail (a seccomp filter) and the umask is 000. A writer that creates the
// file with the default mode and narrows it afterwards leaves it world-readable here; one that
// creates it 0600 from the start does not. Usage: chmodlesswriter <path> <secret>
#include "common/tokenfile.h"

#include <QFile>

#include <cerrno>
#include <cstddef>
#include <cstdio>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

namespace {

bool refuseChmod()
{
    // No arch check: the helper runs natively, next to the test that built it.
    static sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
#ifdef __NR_chmod
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_chmod, 3, 0),
#else
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchmod, 3, 0),
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchmod, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchmodat, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
    };
    sock_fprog program {static_cast<unsigned short>(sizeof(filter) / sizeof(filter[0])), filter};
    return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
        ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: chmodlesswriter <path> <secret>\n");
        return 2;
    }
    ::umask(0);
    if (!refuseChmod()) {
        std::perror("chmodlesswriter: seccomp");
        return 3;
    }
    // Proof that the filter holds: chmod of the helper's own target directory must fail.
    if (::chmod(".", 0700) == 0 || errno != EPERM) {
        std::fprintf(stderr, "chmodlesswriter: chmod is not refused\n");
        return 4;
    }
    const auto written = Broker::TokenFile::write(QFile::decodeName(argv[1]), QByteArray(argv[2]));
    if (!written) {
        std::fprintf(stderr, "chmodlesswriter: %s\n", qUtf8Printable(written.error().message));
        return 1;
    }
    return 0;
}
