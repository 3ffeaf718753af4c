package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one benchmark run of the pipeline, from what the outcome consumer saw, what the
 * provider simulator saw and when things happened: accuracy against the generator's labels, the
 * use of the binding limit, and the scenario kind's own figures (overhead rates, interactive
 * latency).
 */
final class MeasuredRun {

    private final Scenario scenario;
    private final List<GeneratedTicket> tickets;
    private final OutcomeCounter counter;
    private final SimulatorStats stats;
    private final RunTiming timing;
    private final Map<String, ResultTimes> times = new HashMap<>();
    private final List<String> notes = new ArrayList<>();
    private long categoryHits;
    private long urgencyHits;
    private long scored;

    private MeasuredRun(Scenario scenario, List<GeneratedTicket> tickets, OutcomeCounter counter, SimulatorStats stats,
                        RunTiming timing) {
        this.scenario = scenario;
        this.tickets = tickets;
        this.counter = counter;
        this.stats = stats;
        this.timing = timing;
    }

    static ScenarioResult of(Scenario scenario, List<GeneratedTicket> tickets, OutcomeCounter counter, SimulatorStats stats,
                             RunTiming timing) {
        return new MeasuredRun(scenario, tickets, counter, stats, timing).result();
    }

    private ScenarioResult result() {
        score();
        long wallTimeMs = timing.lastAnswer() - timing.firstPublish();
        long lastAnswerEpochMs = timing.lastAnswer();
        SteadyStateUse use = SteadyStateUse.compute(stats.perSecond(), scenario.binding(), scenario.bindingLimit(), lastAnswerEpochMs);
        Binding other = scenario.binding() == Binding.TPM ? Binding.RPM : Binding.TPM;
        SteadyStateUse otherUse = SteadyStateUse.compute(stats.perSecond(), other, other.limit(scenario.rpm(), scenario.tpm()),
                lastAnswerEpochMs);
        if (scenario.measuresQuota()) {
            quotaNotes(use, otherUse, other);
        }
        long n = tickets.size();
        long classified = counter.classified();
        long deadLettered = counter.deadLettered();

        // first call: the earliest result's classifiedAt − latencyMs; else the first second with an admission
        long firstCall = times.values().stream().mapToLong(ResultTimes::calledAtMs).min()
                .orElse(stats.perSecond().isEmpty() ? timing.firstPublish() : stats.perSecond().get(0).epochSecond() * 1000);
        // last call: the latest result's call (classifiedAt − latencyMs, so no earlier than it went out)
        long lastCall = times.values().stream().mapToLong(ResultTimes::calledAtMs).max().orElse(lastAnswerEpochMs);
        long busyMs = Math.max(0, lastAnswerEpochMs - firstCall);
        WholeRunUse whole = scenario.measuresQuota()
                ? WholeRunUse.compute(stats, scenario.binding(), firstCall, lastCall, lastAnswerEpochMs) : null;
        if (whole != null && whole.measured()) {
            notes.add(String.format(Locale.ROOT, "whole run: first call to last call (%.1f s); to the last answer, %.1f s later: "
                    + "%.1f %%", whole.seconds(), (whole.lastAnswerEpochMs() - whole.lastCallEpochMs()) / 1000.0,
                    whole.useToLastAnswer() * 100));
            // where the run left quota unused: the start, batch boundaries, the tail
            notes.add(SlotUse.describe(SlotUse.of(stats, scenario.binding(), firstCall, lastCall), firstCall, lastCall));
        }
        ScenarioFigures figures = figures(n, busyMs, whole, lastAnswerEpochMs);
        return new ScenarioResult(scenario.key(), scenario.name(), scenario.description(), false, scenario.instances(),
                scenario.rpm(), scenario.tpm(), scenario.simBurstSeconds(), scenario.binding(), n,
                classified, deadLettered, counter.deadLettersByKind(), counter.duplicates(),
                stats.totalRequests(), stats.http429(), stats.requestsAdmitted(), stats.promptTokens(), stats.completionTokens(),
                stats.tokensAdmitted(), wallTimeMs, scenario.measuresQuota() ? use : null,
                scenario.measuresQuota() && otherUse.measured() ? otherUse.use() : null,
                accuracy(categoryHits), accuracy(urgencyHits),
                stats.tokensAdmitted() / (double) n, (stats.promptTokens() + stats.completionTokens()) / (double) n,
                stats.requestsAdmitted() == 0 ? 0 : classified / (double) stats.requestsAdmitted(), notes, figures);
    }

    private ScenarioFigures figures(long n, long busyMs, WholeRunUse whole, long lastAnswerEpochMs) {
        long classified = counter.classified();
        Overhead overhead = scenario.kind() == Scenario.Kind.OVERHEAD ? overhead(n, lastAnswerEpochMs) : Overhead.NONE;
        ScenarioFigures.Latency latency = scenario.kind() == Scenario.Kind.INTERACTIVE ? interactiveLatency() : null;
        String shape = scenario.shape().describe();
        return new ScenarioFigures(scenario.kind().name(), shape.isEmpty() ? null : shape,
                n - classified - counter.deadLettered(), busyMs, WholeRunUse.perMinute(classified, busyMs), whole,
                stats.contextLengthRefusals(), null, null, null, overhead.ticketsPerSecond(), overhead.drain(), overhead.publishMs(),
                latency, null);
    }

    /** {@code hits} over the scored results; null when none was scored or the model does not read the tickets. */
    private Double accuracy(long hits) {
        return scenario.shape().classifies() ? share(hits) : null;
    }

    /** {@code hits} over the scored results; null when none was scored. */
    private Double share(long hits) {
        return scored == 0 ? null : hits / (double) scored;
    }

    /** Accuracy against the labels, and each result's times. */
    private void score() {
        Map<String, GeneratedTicket.Label> labels = TicketGenerator.labels(tickets);
        for (Map.Entry<String, byte[]> e : counter.results().entrySet()) {
            GeneratedTicket.Label label = labels.get(io.quotaflow.records.TicketKey.parse(e.getKey()).id());
            if (label == null) {
                continue;
            }
            scored++;
            try {
                JsonNode json = Json.MAPPER.readTree(e.getValue());
                categoryHits += label.category().equals(json.path("category").asText()) ? 1 : 0;
                urgencyHits += label.urgency().equals(json.path("urgency").asText()) ? 1 : 0;
                ResultTimes t = ResultTimes.of(json);
                if (t != null) {
                    times.put(io.quotaflow.records.TicketKey.parse(e.getKey()).id(), t);
                }
            } catch (IOException ex) {
                // an unreadable result counts as wrong
            }
        }
    }

    private void quotaNotes(SteadyStateUse use, SteadyStateUse otherUse, Binding other) {
        if (use.shortRun()) {
            notes.add("short run: window starts at first arrival + " + SteadyStateUse.SHORT_WARM_UP_SECONDS + " s");
        }
        if (!use.measured()) {
            notes.add("run too short for a steady-state window");
        }
        if (otherUse.measured() && otherUse.use() > use.use()) {
            notes.add(other + " bound harder than the designed " + scenario.binding());
        }
    }

    /** The overhead scenario's rates; null figures when there is nothing to divide by. */
    private record Overhead(Double ticketsPerSecond, Double drain, Long publishMs) {
        static final Overhead NONE = new Overhead(null, null, null);
    }

    private Overhead overhead(long n, long lastAnswerEpochMs) {
        long lastResult = times.values().stream().mapToLong(ResultTimes::classifiedAtMs).max().orElse(lastAnswerEpochMs);
        long after = times.values().stream().filter(t -> t.classifiedAtMs() > timing.lastPublish()).count();
        Double ticketsPerSecond = lastResult > timing.firstPublish() ? n * 1000.0 / (lastResult - timing.firstPublish()) : null;
        Double drain = lastResult > timing.lastPublish() ? after * 1000.0 / (lastResult - timing.lastPublish()) : null;
        long publishMs = timing.lastPublish() - timing.firstPublish();
        notes.add(String.format(Locale.ROOT, "overhead: %,d tickets published in %s; %s tickets/s from first publish to last "
                        + "result, %s tickets/s from last publish to last result (%,d results after the last publish)", n,
                ResultTable.duration(publishMs), ticketsPerSecond == null ? "–" : String.format(Locale.ROOT, "%,.0f", ticketsPerSecond),
                drain == null ? "–" : String.format(Locale.ROOT, "%,.0f", drain), after));
        return new Overhead(ticketsPerSecond, drain, publishMs);
    }

    private ScenarioFigures.Latency interactiveLatency() {
        List<Long> samples = new ArrayList<>();
        int missing = 0;
        for (Map.Entry<String, Long> p : timing.publishedAt().entrySet()) {
            ResultTimes t = times.get(p.getKey());
            if (t == null) {
                missing++;
            } else {
                samples.add(t.sinceMs(p.getValue()));
            }
        }
        ScenarioFigures.Latency latency = ScenarioFigures.Latency.of(samples, missing);
        // where the slowest one's time went: waiting for its call to go out, or the call itself; and which one it was
        String slowest = SlowestTicket.of(timing.publishedAt(), times).map(s -> String.format(Locale.ROOT,
                " (the %s published of %d: %s before its call went out, %s in the call)", s.place(), s.of(),
                seconds(s.beforeCallMs()), seconds(s.callMs()))).orElse("");
        notes.add(String.format(Locale.ROOT, "interactive: %d tickets published one every %d ms into the bulk backlog after the "
                        + "first result; publish to classifiedAt p50 %s, p99 %s, max %s%s%s",
                samples.size(), Scenario.INTERACTIVE_SPACING_MS, seconds(latency.p50Ms()), seconds(latency.p99Ms()),
                seconds(latency.maxMs()), slowest, missing > 0 ? ", " + missing + " without a result" : ""));
        if (!timing.lane().isEmpty()) {
            notes.add(InteractiveHops.of(timing.publishedAt(), times, timing.lane()).describe(timing.publishedAt().size()));
        }
        return latency;
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
    }
}
