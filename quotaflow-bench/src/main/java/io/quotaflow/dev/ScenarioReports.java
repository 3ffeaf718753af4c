package io.quotaflow.dev;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.bench.BaselineResult;
import io.quotaflow.bench.ChaosResult;
import io.quotaflow.bench.ResultTable;
import io.quotaflow.bench.Scenario;
import io.quotaflow.bench.ScenarioFigures;
import io.quotaflow.bench.ScenarioResult;
import io.quotaflow.records.Json;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What {@link BenchCommand} reports of its scenarios: the one-line summary of each, and the Markdown and JSON files. */
final class ScenarioReports {

    private ScenarioReports() {
    }

    /** The scenarios' Markdown table and raw JSON, when {@code --markdown} and {@code --json} name files. */
    static void writeFiles(Path markdown, Path json, long seed, List<ScenarioResult> results, List<ChaosResult> chaosResults,
                           Map<String, String> failures, String command, Instant startedAt) throws java.io.IOException {
        if (markdown != null) {
            StringBuilder md = new StringBuilder(ResultTable.markdown(results, seed, command));
            for (ChaosResult c : chaosResults) {
                md.append('\n').append(c.markdown());
            }
            Files.writeString(markdown, md.toString(), StandardCharsets.UTF_8);
        }
        if (json != null) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            root.put("command", command);
            root.put("seed", seed);
            root.put("startedAt", startedAt.toString());
            root.put("writtenAt", Instant.now().toString());
            root.put("java", System.getProperty("java.version"));
            root.put("availableProcessors", Runtime.getRuntime().availableProcessors());
            root.set("results", Json.MAPPER.valueToTree(results));
            if (!chaosResults.isEmpty()) {
                root.set("chaos", Json.MAPPER.valueToTree(chaosResults));
            }
            ArrayNode failed = root.putArray("failures");
            failures.forEach((name, why) -> failed.addObject().put("scenario", name).put("error", why));
            Files.writeString(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root), StandardCharsets.UTF_8);
        }
    }

    static String summary(ChaosResult c) {
        return String.format(Locale.ROOT, "%d tickets: %d lost, %d duplicated, %d classified, %d dead-lettered, %d × 429; %d kills; "
                        + "recovery %s; %s", c.tickets(), c.lost(), c.duplicated(), c.accounting().classified(),
                c.accounting().deadLettered(), c.http429(), c.disruptions().size(), c.recoverySummary(),
                ResultTable.duration(c.wallTimeMs()));
    }

    static String summary(ScenarioResult r) {
        if (r.computed()) {
            return String.format(Locale.ROOT, "%d calls of up to %d tickets, %.1f tokens/ticket admitted, %.1f used",
                    r.calls(), Scenario.FIXED_BATCH_ITEMS, r.tokensPerTicketAdmitted(), r.tokensPerTicketUsed());
        }
        ScenarioFigures f = r.figures();
        if (f.replay() != null) {
            return replaySummary(f.replay());
        }
        String use = r.steadyState() != null && r.steadyState().measured()
                ? String.format(Locale.ROOT, "%.1f %% of %s (%s)", r.steadyState().use() * 100, r.binding(), r.steadyState().describeWindow())
                : "steady-state use not measured";
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%d tickets: %d classified, %d dead-lettered %s, %d duplicates; "
                        + "%d calls (%.1f tickets/call), %d × 429; %s; %.1f tokens/ticket admitted, %.1f used; %s; accuracy %s "
                        + "category, %s urgency",
                r.tickets(), r.classified(), r.deadLettered(), r.deadLettersByKind(), r.duplicates(), r.calls(), r.ticketsPerCall(),
                r.http429(), use, r.tokensPerTicketAdmitted(), r.tokensPerTicketUsed(), ResultTable.duration(r.wallTimeMs()),
                ResultTable.percent(r.categoryAccuracy()), ResultTable.percent(r.urgencyAccuracy())));
        appendFigures(sb, f);
        return sb.toString();
    }

    private static String replaySummary(ScenarioFigures.Replay p) {
        return String.format(Locale.ROOT, "%d dead letters: %d replayed in %s (%,.0f records/s, %s), %d back on their origin "
                        + "topics, %d duplicated; default rate: %d in %s (%.1f records/s)", p.deadLetters(), p.replayed(),
                ResultTable.duration(p.elapsedMs()), p.recordsPerSecond(), p.outcome(), p.found(), p.duplicates(),
                p.defaultRateReplayed(), ResultTable.duration(p.defaultRateElapsedMs()), p.defaultRateRecordsPerSecond());
    }

    /** The figures a scenario kind has: whole-run use, busy-minute rate, overhead, interactive latency, baseline. */
    private static void appendFigures(StringBuilder sb, ScenarioFigures f) {
        if (f.wholeRun() != null && f.wholeRun().measured()) {
            sb.append(String.format(Locale.ROOT, "; whole run %.1f %% of feasible", f.wholeRun().use() * 100));
        }
        if (f.ticketsPerBusyMinute() != null) {
            sb.append(String.format(Locale.ROOT, "; %,.0f tickets per busy minute", f.ticketsPerBusyMinute()));
        }
        if (f.ticketsPerSecond() != null) {
            sb.append(String.format(Locale.ROOT, "; %,.0f tickets/s (%s after the last publish)", f.ticketsPerSecond(),
                    f.drainTicketsPerSecond() == null ? "–" : String.format(Locale.ROOT, "%,.0f", f.drainTicketsPerSecond())));
        }
        if (f.interactive() != null && f.interactive().tickets() > 0) {
            sb.append(String.format(Locale.ROOT, "; interactive p50 %.2f s, p99 %.2f s, max %.2f s", f.interactive().p50Ms() / 1000.0,
                    f.interactive().p99Ms() / 1000.0, f.interactive().maxMs() / 1000.0));
        }
        BaselineResult b = f.baseline();
        if (b != null) {
            sb.append(String.format(Locale.ROOT, "; baseline: %d classified, %d lost, %d × 429, %s, %s tickets per busy minute%s",
                    b.classified(), b.lost(), b.http429(), ResultTable.duration(b.busyMs()),
                    b.ticketsPerBusyMinute() == null ? "–" : String.format(Locale.ROOT, "%,.0f", b.ticketsPerBusyMinute()),
                    f.baselineRatio() == null ? "" : String.format(Locale.ROOT, " (quotaflow %.2f×)", f.baselineRatio())));
        }
    }
}
