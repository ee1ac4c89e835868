#include "openchamber/selection.h"

namespace OpenChamber {

namespace {

bool isPrimaryMode(const QJsonObject &agent)
{
    const QJsonValue mode = agent.value(QStringLiteral("mode"));
    return mode.isUndefined() || mode.isNull() || mode.toString() == QLatin1String("primary") ||
        mode.toString() == QLatin1String("all");
}

bool isPrimaryAgent(const QJsonObject &agent)
{
    return isPrimaryMode(agent) && !isTrue(agent.value(QStringLiteral("hidden")));
}

std::optional<QJsonObject> findAgent(const QJsonArray &agents, const QString &name)
{
    for (const QJsonValue &v : agents) {
        const QJsonObject agent = v.toObject();
        if (agent.value(QStringLiteral("name")).toString() == name)
            return agent;
    }
    return std::nullopt;
}

bool hasVariant(const QJsonObject &model, const QString &variant)
{
    return model.value(QStringLiteral("variants")).toObject().contains(variant);
}

QString validVariant(const QJsonArray &providers, const ModelRef &model, const QString &variant)
{
    if (variant.isEmpty())
        return {};
    const std::optional<QJsonObject> found = findModel(providers, model);
    return found && hasVariant(*found, variant) ? variant : QString();
}

} // namespace

std::optional<QJsonObject> findModel(const QJsonArray &providers, const ModelRef &model)
{
    for (const QJsonValue &v : providers) {
        const QJsonObject provider = v.toObject();
        if (provider.value(QStringLiteral("id")).toString() != model.providerID)
            continue;
        const QJsonValue models = provider.value(QStringLiteral("models"));
        if (models.isObject()) {
            const QJsonObject byId = models.toObject();
            for (auto it = byId.begin(); it != byId.end(); ++it) {
                const QJsonObject entry = it.value().toObject();
                const QString id = entry.value(QStringLiteral("id")).isString()
                    ? entry.value(QStringLiteral("id")).toString()
                    : it.key();
                if (id == model.modelID)
                    return entry;
            }
        } else {
            for (const QJsonValue &m : models.toArray()) {
                if (m.toObject().value(QStringLiteral("id")).toString() == model.modelID)
                    return m.toObject();
            }
        }
    }
    return std::nullopt;
}

std::optional<ControlError> validateRequestedSelection(const Selection &requested,
                                                       const SelectionInputs &inputs,
                                                       const QString &directory)
{
    if (!requested.agent.isEmpty() && !inputs.agents.isEmpty()) {
        const std::optional<QJsonObject> agent = findAgent(inputs.agents, requested.agent);
        if (!agent)
            return usageError(QStringLiteral("Unknown agent '%1' for %2").arg(requested.agent, directory));
        if (!isPrimaryMode(*agent))
            return usageError(QStringLiteral("Agent '%1' is a subagent and cannot receive a prompt directly")
                                  .arg(requested.agent));
    }
    if (requested.model && !inputs.providers.isEmpty()) {
        const std::optional<QJsonObject> model = findModel(inputs.providers, *requested.model);
        if (!model)
            return usageError(
                QStringLiteral("Unknown model '%1' for %2").arg(requested.model->toString(), directory));
        if (!requested.variant.isEmpty() && !hasVariant(*model, requested.variant))
            return usageError(QStringLiteral("Unknown variant '%1' for model '%2'")
                                  .arg(requested.variant, requested.model->toString()));
    }
    return std::nullopt;
}

Selection resolveDefaultSelection(const ControlSettings &settings, const SelectionInputs &inputs)
{
    Selection result;

    std::optional<QJsonObject> agent;
    if (!settings.defaultAgent.isEmpty())
        agent = findAgent(inputs.agents, settings.defaultAgent);
    if (!agent) {
        QString configured = asNonEmptyString(inputs.config.value(QStringLiteral("default_agent")));
        if (configured.isEmpty())
            configured = asNonEmptyString(inputs.config.value(QStringLiteral("defaultAgent")));
        if (!configured.isEmpty()) {
            const std::optional<QJsonObject> found = findAgent(inputs.agents, configured);
            if (found && isPrimaryAgent(*found))
                agent = found;
        }
    }
    if (!agent) {
        const std::optional<QJsonObject> build = findAgent(inputs.agents, QStringLiteral("build"));
        if (build && isPrimaryAgent(*build))
            agent = build;
    }
    if (!agent) {
        for (const QJsonValue &v : inputs.agents) {
            if (isPrimaryAgent(v.toObject())) {
                agent = v.toObject();
                break;
            }
        }
    }
    if (!agent && !inputs.agents.isEmpty())
        agent = inputs.agents.first().toObject();
    if (agent)
        result.agent = asNonEmptyString(agent->value(QStringLiteral("name")));

    auto exists = [&](const std::optional<ModelRef> &model) {
        return model && findModel(inputs.providers, *model).has_value();
    };
    const std::optional<ModelRef> fromSettings = ModelRef::parse(settings.defaultModel);
    const std::optional<ModelRef> fromAgent =
        agent ? ModelRef::fromJson(agent->value(QStringLiteral("model"))) : std::nullopt;
    const std::optional<ModelRef> fromConfig =
        ModelRef::parse(asNonEmptyString(inputs.config.value(QStringLiteral("model"))));
    const std::optional<ModelRef> bigPickle =
        ModelRef {QStringLiteral("opencode"), QStringLiteral("big-pickle")};
    if (exists(fromSettings)) {
        result.model = fromSettings;
        result.variant = validVariant(inputs.providers, *fromSettings, settings.defaultVariant);
    } else if (exists(fromAgent)) {
        result.model = fromAgent;
        result.variant = validVariant(inputs.providers, *fromAgent,
                                      asNonEmptyString(agent->value(QStringLiteral("variant"))));
    } else if (exists(fromConfig)) {
        result.model = fromConfig;
    } else if (exists(bigPickle)) {
        result.model = bigPickle;
    } else {
        for (const QJsonValue &v : inputs.providers) {
            const QJsonObject provider = v.toObject();
            const QString providerId = asNonEmptyString(provider.value(QStringLiteral("id")));
            const QJsonValue models = provider.value(QStringLiteral("models"));
            QString modelId;
            const QJsonObject byId = models.toObject();
            if (models.isObject() && !byId.isEmpty()) {
                const auto first = byId.begin();
                modelId = first.value().toObject().value(QStringLiteral("id")).isString()
                    ? first.value().toObject().value(QStringLiteral("id")).toString()
                    : first.key();
            } else if (models.isArray() && !models.toArray().isEmpty()) {
                modelId = asNonEmptyString(models.toArray().first().toObject().value(QStringLiteral("id")));
            }
            if (!providerId.isEmpty() && !modelId.isEmpty()) {
                result.model = ModelRef {providerId, modelId};
                break;
            }
        }
    }
    return result;
}

std::optional<Selection> lastUserSelection(const QJsonArray &messages)
{
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const QJsonObject info = messages.at(i).toObject().value(QStringLiteral("info")).toObject();
        if (info.value(QStringLiteral("role")).toString() != QLatin1String("user"))
            continue;
        const QJsonObject model = info.value(QStringLiteral("model")).toObject();
        const std::optional<ModelRef> ref = ModelRef::fromJson(model);
        if (!ref)
            continue;
        return Selection {ref, asNonEmptyString(info.value(QStringLiteral("agent"))),
                          asNonEmptyString(model.value(QStringLiteral("variant")))};
    }
    return std::nullopt;
}

} // namespace OpenChamber
