#include "openchamber/controlsettings.h"

#include "common/config.h"
#include "openchamber/controlinput.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

namespace OpenChamber {

namespace {

QString cleanAbsolute(const QString &path)
{
    return QDir::cleanPath(QDir(QDir::rootPath()).absoluteFilePath(expandHome(path)));
}

QJsonArray modelList(const QJsonValue &value)
{
    QJsonArray out;
    for (const QJsonValue &entry : value.toArray()) {
        std::optional<ModelRef> model;
        if (entry.isString()) {
            model = ModelRef::parse(entry.toString());
        } else if (entry.isObject()) {
            const QString provider = asNonEmptyString(entry.toObject().value(QStringLiteral("providerID")));
            const QString id = asNonEmptyString(entry.toObject().value(QStringLiteral("modelID")));
            if (!provider.isEmpty() && !id.isEmpty())
                model = ModelRef {provider, id};
        }
        if (model)
            out.append(model->toJson());
    }
    return out;
}

QJsonValue orNull(const QString &value)
{
    return value.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
}

} // namespace

ControlSettings ControlSettings::fromConfig(const QJsonObject &configRoot)
{
    const QJsonObject section = configRoot.value(QStringLiteral("openchamber")).toObject();
    ControlSettings settings;
    QSet<QString> ids;
    QSet<QString> paths;
    for (const QJsonValue &entry : section.value(QStringLiteral("projects")).toArray()) {
        const QJsonObject o = entry.toObject();
        const QString id = asNonEmptyString(o.value(QStringLiteral("id")));
        const QString rawPath = asNonEmptyString(o.value(QStringLiteral("path")));
        if (id.isEmpty() || rawPath.isEmpty())
            continue;
        const QString path = cleanAbsolute(rawPath);
        if (ids.contains(id) || paths.contains(path))
            continue;
        ids.insert(id);
        paths.insert(path);
        QString label = asNonEmptyString(o.value(QStringLiteral("label")));
        if (label.isEmpty())
            label = QFileInfo(path).fileName();
        if (label.isEmpty())
            label = path;
        settings.projects.append({id, path, label});
    }
    const std::optional<ModelRef> model =
        ModelRef::parse(asNonEmptyString(section.value(QStringLiteral("default_model"))));
    if (model)
        settings.defaultModel = model->toString();
    settings.defaultVariant = asNonEmptyString(section.value(QStringLiteral("default_variant")));
    settings.defaultAgent = asNonEmptyString(section.value(QStringLiteral("default_agent")));
    settings.favoriteModels = modelList(section.value(QStringLiteral("favorite_models")));
    settings.recentModels = modelList(section.value(QStringLiteral("recent_models")));
    return settings;
}

ControlSettings ControlSettings::load(const QString &configPath)
{
    return fromConfig(Broker::ConfigFile::load(configPath).root());
}

std::optional<ControlSettings::Project> ControlSettings::findProject(const QString &id) const
{
    for (const Project &project : projects) {
        if (project.id == id)
            return project;
    }
    return std::nullopt;
}

std::optional<ControlSettings::Project> ControlSettings::projectForDirectory(const QString &directory) const
{
    const QString wanted = cleanAbsolute(directory);
    for (const Project &project : projects) {
        if (project.path == wanted)
            return project;
    }
    return std::nullopt;
}

QJsonObject ControlSettings::projectsJson() const
{
    QJsonArray list;
    for (const Project &project : projects)
        list.append(QJsonObject {{QStringLiteral("id"), project.id},
                                 {QStringLiteral("path"), project.path},
                                 {QStringLiteral("label"), project.label}});
    return {{QStringLiteral("projects"), list}};
}

QJsonObject ControlSettings::modelsJson() const
{
    return {{QStringLiteral("defaultModel"), orNull(defaultModel)},
            {QStringLiteral("defaultVariant"), orNull(defaultVariant)},
            {QStringLiteral("defaultAgent"), orNull(defaultAgent)},
            {QStringLiteral("favoriteModels"), favoriteModels},
            {QStringLiteral("recentModels"), recentModels}};
}

} // namespace OpenChamber
