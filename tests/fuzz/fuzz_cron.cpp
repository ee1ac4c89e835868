// CronExpression::parse on any text, then next() in a zone the input picks, from a start time it
// picks: parsing never crashes or hangs, next() always ends, and a chain of next runs strictly
// increases. The same text as a cron task goes through ScheduledTask::validate and
// computeNextRunAt (openchamber/scheduledtask.cpp).
#include "tests/fuzz/fuzzsupport.h"

#include "openchamber/cronexpression.h"
#include "openchamber/scheduledtask.h"

#include <QDateTime>
#include <QTimeZone>

using namespace OpenChamber;

namespace {

const char *const zones[] = {"UTC",
                             "Europe/Berlin",
                             "America/New_York",
                             "Australia/Lord_Howe",
                             "Asia/Kathmandu",
                             "Pacific/Chatham",
                             "America/Sao_Paulo",
                             "Africa/Casablanca",
                             "Pacific/Apia",
                             "Europe/Dublin",
                             "America/St_Johns",
                             "Antarctica/Troll"};

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input input(data, size);
    const QTimeZone zone(zones[input.byte() % std::size(zones)]);
    // Any minute from 1970 to about 2100 (u16 days + u16 minutes within them).
    const qint64 days = input.u16() % 47000;
    const qint64 seconds = days * 86400 + qint64(input.u16()) % 1440 * 60 + input.byte() % 60;
    const QDateTime start = QDateTime::fromSecsSinceEpoch(seconds, QTimeZone::utc());
    const QString text = QString::fromUtf8(input.rest());

    const auto cron = CronExpression::parse(text);
    if (!cron) {
        Q_ASSERT(!cron.error().isEmpty());
    } else {
        QDateTime at = start;
        for (int i = 0; i < 4; ++i) {
            const auto next = cron->next(at, zone);
            if (!next)
                break;
            Q_ASSERT(next->isValid());
            Q_ASSERT(*next > at);
            at = *next;
        }
    }

    ScheduledTask task;
    task.name = QStringLiteral("fuzz");
    task.execution.prompt = QStringLiteral("p");
    task.execution.providerID = QStringLiteral("a");
    task.execution.modelID = QStringLiteral("b");
    task.schedule.kind = TaskSchedule::Kind::Cron;
    task.schedule.cron = text;
    task.schedule.timezone = QString::fromUtf8(zone.id());
    if (task.validate()) {
        Q_ASSERT(CronExpression::parse(task.schedule.cron).has_value());
        if (const auto next = task.computeNextRunAt(start.toMSecsSinceEpoch()))
            Q_ASSERT(*next > start.toMSecsSinceEpoch());
    }
    return 0;
}
