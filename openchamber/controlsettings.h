#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace OpenChamber {

// The "openchamber" object of ~/.claude-peers-config.json (docs/openchamber.md): the projects
// the control service knows and the model preferences models.list shows and session.create
// falls back to. Read on every action, so an edit needs no broker restart. Keys:
//   opencode_url     "http://127.0.0.1:4096" (env CLAUDE_PEERS_OPENCODE_URL wins)
//   projects         [{"id", "path", "label"?}]  entries without id or path are skipped;
//                    the first of a repeated id or path wins
//   default_model    "provider/model"       default_variant, default_agent   strings
//   favorite_models, recent_models          ["provider/model" | {"providerID","modelID"}]
struct ControlSettings
{
    struct Project
    {
        QString id;
        QString path; // absolute, cleaned
        QString label; // the stored label, else the path's base name, else the path
    };

    QList<Project> projects;
    QString defaultModel; // "provider/model" or empty
    QString defaultVariant;
    QString defaultAgent;
    QJsonArray favoriteModels; // [{providerID, modelID}]
    QJsonArray recentModels;

    static ControlSettings fromConfig(const QJsonObject &configRoot);
    // Broker::ConfigFile::load(path) then fromConfig (a missing or bad file = no settings).
    static ControlSettings load(const QString &configPath);

    std::optional<Project> findProject(const QString &id) const;
    // The project whose resolved path equals the resolved directory exactly.
    std::optional<Project> projectForDirectory(const QString &directory) const;

    QJsonObject projectsJson() const; // projects.list (docs/spec/control-service.md §4.1)
    QJsonObject modelsJson() const; // models.list (docs/spec/control-service.md §4.2)
};

} // namespace OpenChamber
