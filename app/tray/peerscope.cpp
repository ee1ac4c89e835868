#include "app/tray/peerscope.h"

#include "app/tray/peerfacts.h"
#include "app/tray/peersmodel.h"

#include <QAbstractItemModel>

#include <algorithm>

namespace App {

bool PeerScope::allowsMachine(const QString &rowMachine) const
{
    return kind == Kind::All || rowMachine == machine;
}

bool PeerScope::matches(const QString &rowMachine, const QString &gitRoot, const QString &cwd) const
{
    switch (kind) {
    case Kind::All:
        return true;
    case Kind::Machine:
        return rowMachine == machine;
    case Kind::Repo:
        return rowMachine == machine && gitRoot == path;
    case Kind::Directory:
        return rowMachine == machine && cwd == path;
    }
    return false;
}

QString PeerScope::label() const
{
    const bool here = machine.isEmpty();
    const QString shown = PeerFacts::compactPath(path, here);
    switch (kind) {
    case Kind::All:
        return tr("All scopes");
    case Kind::Machine:
        return here ? tr("Machine: this machine") : tr("Machine: %1").arg(machine);
    case Kind::Repo:
        //: a git repository's folder, and the machine it is on
        return here ? tr("Repo: %1").arg(shown) : tr("Repo: %1 (%2)").arg(shown, machine);
    case Kind::Directory:
        //: a working folder, and the machine it is on
        return here ? tr("Folder: %1").arg(shown) : tr("Folder: %1 (%2)").arg(shown, machine);
    }
    return {};
}

namespace {

bool machineBefore(const QString &a, const QString &b)
{
    if (a.isEmpty() != b.isEmpty())
        return a.isEmpty(); // this machine first
    return a.compare(b, Qt::CaseInsensitive) < 0;
}

bool scopeBefore(const PeerScope &a, const PeerScope &b)
{
    if (a.kind != b.kind)
        return a.kind < b.kind;
    if (a.machine != b.machine)
        return machineBefore(a.machine, b.machine);
    return a.path < b.path;
}

} // namespace

QList<PeerScope> PeerScope::presentIn(const QAbstractItemModel &tree)
{
    QList<PeerScope> scopes;
    auto add = [&scopes](PeerScope scope) {
        if (!scopes.contains(scope))
            scopes.append(std::move(scope));
    };
    for (int g = 0; g < tree.rowCount(); ++g) {
        const QModelIndex group = tree.index(g, 0);
        for (int r = 0; r < tree.rowCount(group); ++r) {
            const QModelIndex row = tree.index(r, 0, group);
            const QString machine = row.data(PeersModel::MachineRole).toString();
            add({Kind::Machine, machine, {}});
            if (const QString root = row.data(PeersModel::GitRootRole).toString(); !root.isEmpty())
                add({Kind::Repo, machine, root});
            if (const QString cwd = row.data(PeersModel::DirectoryRole).toString(); !cwd.isEmpty())
                add({Kind::Directory, machine, cwd});
        }
    }
    std::sort(scopes.begin(), scopes.end(), scopeBefore);
    scopes.prepend(PeerScope {});
    return scopes;
}

} // namespace App
