#pragma once

#include "openchamber/controlinput.h"
#include "openchamber/controlsettings.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace OpenChamber {

// What a directory's OpenCode instance offers (docs/spec/control-service.md §6.1):
// GET /config/providers → providers, GET /agent → agents, GET /config → config. A failed lookup
// leaves its part empty.
struct SelectionInputs
{
    QJsonArray providers;
    QJsonArray agents;
    QJsonObject config;
};

// The model, agent and variant of one prompt; empty = not chosen.
struct Selection
{
    std::optional<ModelRef> model;
    QString agent;
    QString variant;

    bool isEmpty() const { return !model && agent.isEmpty() && variant.isEmpty(); }
};

// docs/spec/control-service.md §6.1: an explicitly requested agent must exist and not be a
// subagent, a model must be one of the directory's providers' models, a variant (checked with a
// model only) one of that model's variants. An empty list never rejects: OpenCode failing to answer
// is not the caller's fault.
std::optional<ControlError> validateRequestedSelection(const Selection &requested,
                                                       const SelectionInputs &inputs,
                                                       const QString &directory);

// docs/spec/control-service.md §6.2: the configured defaults, first match wins.
Selection resolveDefaultSelection(const ControlSettings &settings, const SelectionInputs &inputs);

// docs/spec/control-service.md §6.3: the selection of the newest user message that names a model
// (messages in OpenCode's chronological order).
std::optional<Selection> lastUserSelection(const QJsonArray &messages);

// The model object of provider/model in a providers list (models keyed by id or listed).
std::optional<QJsonObject> findModel(const QJsonArray &providers, const ModelRef &model);

} // namespace OpenChamber
