#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

class QAbstractItemModel;

namespace App {

// One of claude-peers 0.7's scopes (list_peers / broadcast: machine, directory, repo) as the
// Peers page filters by it: all rows of one machine, the rows of one machine whose git root is
// a folder, or those working in one folder. Repo and directory scopes are a machine's, as in
// 0.7: another machine's folder of the same path is another folder.
struct PeerScope
{
    Q_DECLARE_TR_FUNCTIONS(App::PeerScope)
public:
    enum class Kind { All, Machine, Repo, Directory };

    Kind kind = Kind::All;
    QString machine; // "" = this machine
    QString path; // clean git root (Repo) or working folder (Directory)

    bool operator==(const PeerScope &) const = default;

    // Does a row (its machine, clean git root and working folder) belong to this scope?
    bool matches(const QString &rowMachine, const QString &gitRoot, const QString &cwd) const;
    // Can a machine's rows belong to it at all?
    bool allowsMachine(const QString &rowMachine) const;
    // "All sessions", "Machine: lab-box", "Repo: ~/src/api", "Folder: /srv/x (lab-box)".
    QString label() const;

    // All, then the scopes present among the rows of a machine tree (PeersByMachineModel: the
    // roles MachineRole, GitRootRole, DirectoryRole of its children): machines (this machine
    // first, then by hostname), repos, folders (each by machine, then path).
    static QList<PeerScope> presentIn(const QAbstractItemModel &tree);
};

} // namespace App
